//! The helpers against a real tonic server on a loopback port that checks the bearer token.

use std::collections::HashMap;

use std::pin::Pin;

use praxis_client::aiws::engine::v1::event_service_server::{EventService, EventServiceServer};
use praxis_client::aiws::engine::v1::registry_service_server::{
    RegistryService, RegistryServiceServer,
};
use praxis_client::aiws::engine::v1::*;
use praxis_client::dynamic::DynamicError;
use praxis_client::{connect, RpcError, DOMAIN};
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// GetEpochs for "wo-1" with token "secret"; engine errors otherwise.
struct FakeRegistry;

fn engine_error(code: Code, reason: ErrorReason) -> Status {
    Status::with_error_details(
        code,
        "text",
        ErrorDetails::with_error_info(reason.as_str_name(), DOMAIN, HashMap::new()),
    )
}

#[tonic::async_trait]
impl RegistryService for FakeRegistry {
    async fn get_epochs(
        &self,
        request: Request<GetEpochsRequest>,
    ) -> Result<Response<GetEpochsResponse>, Status> {
        let auth = request
            .metadata()
            .get("authorization")
            .and_then(|v| v.to_str().ok());
        if auth != Some("Bearer secret") {
            return Err(engine_error(
                Code::Unauthenticated,
                ErrorReason::CredentialInvalid,
            ));
        }
        if request.get_ref().work_order_id != "wo-1" {
            return Err(engine_error(Code::NotFound, ErrorReason::RefNotFound));
        }
        Ok(Response::new(GetEpochsResponse {
            epochs: Some(Epochs {
                installation_id: "inst-1".into(),
                ownership_epoch: 1 << 60,
                authority_epoch: 2,
            }),
        }))
    }

    async fn review(&self, _: Request<ReviewRequest>) -> Result<Response<ReviewResponse>, Status> {
        Err(Status::unimplemented("review"))
    }

    async fn execute(
        &self,
        _: Request<ExecuteRequest>,
    ) -> Result<Response<ExecuteResponse>, Status> {
        Err(Status::unimplemented("execute"))
    }

    async fn get_head(
        &self,
        _: Request<GetHeadRequest>,
    ) -> Result<Response<GetHeadResponse>, Status> {
        Err(Status::unimplemented("get_head"))
    }

    async fn get_proposal(
        &self,
        _: Request<GetProposalRequest>,
    ) -> Result<Response<GetProposalResponse>, Status> {
        Err(Status::unimplemented("get_proposal"))
    }

    async fn list_history(
        &self,
        _: Request<ListHistoryRequest>,
    ) -> Result<Response<ListHistoryResponse>, Status> {
        Err(Status::unimplemented("list_history"))
    }

    async fn list_refs(
        &self,
        _: Request<ListRefsRequest>,
    ) -> Result<Response<ListRefsResponse>, Status> {
        Err(Status::unimplemented("list_refs"))
    }
}

/// StreamEvents: the events after the cursor up to seq 3, then the end; with a run filter
/// the stream stays open until the caller cancels; a negative cursor fails.
struct FakeEvents;

type EventStream =
    Pin<Box<dyn tokio_stream::Stream<Item = Result<StreamEventsResponse, Status>> + Send>>;

#[tonic::async_trait]
impl EventService for FakeEvents {
    async fn list_events(
        &self,
        _: Request<ListEventsRequest>,
    ) -> Result<Response<ListEventsResponse>, Status> {
        Err(Status::unimplemented("list_events"))
    }

    type StreamEventsStream = EventStream;

    async fn stream_events(
        &self,
        request: Request<StreamEventsRequest>,
    ) -> Result<Response<EventStream>, Status> {
        let request = request.into_inner();
        if request.after < 0 {
            return Err(engine_error(
                Code::InvalidArgument,
                ErrorReason::PageInvalid,
            ));
        }
        let events: Vec<Result<StreamEventsResponse, Status>> = (request.after + 1..=3)
            .map(|seq| {
                Ok(StreamEventsResponse {
                    event: Some(Event {
                        seq: seq + 9_007_199_254_740_990,
                        kind: EventKind::RunStarted as i32,
                        run_id: "run-1".into(),
                        ..Default::default()
                    }),
                })
            })
            .collect();
        let sent = tokio_stream::iter(events);
        if request.run_id.is_empty() {
            Ok(Response::new(Box::pin(sent)))
        } else {
            use tokio_stream::StreamExt;
            Ok(Response::new(Box::pin(sent.chain(tokio_stream::pending()))))
        }
    }

    async fn ack_events(
        &self,
        _: Request<AckEventsRequest>,
    ) -> Result<Response<AckEventsResponse>, Status> {
        Err(Status::unimplemented("ack_events"))
    }
}

/// Starts the fake server on an ephemeral loopback port; returns "127.0.0.1:PORT".
async fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(RegistryServiceServer::new(FakeRegistry))
            .add_service(EventServiceServer::new(FakeEvents))
            .serve_with_incoming(TcpListenerStream::new(listener)),
    );
    address
}

fn get_epochs(work_order_id: &str) -> GetEpochsRequest {
    GetEpochsRequest {
        work_order_id: work_order_id.into(),
    }
}

#[tokio::test]
async fn typed_client_sends_bearer_token() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let response = clients
        .registry
        .get_epochs(get_epochs("wo-1"))
        .await
        .unwrap();
    let epochs = response.into_inner().epochs.unwrap();
    assert_eq!(epochs.installation_id, "inst-1");
    assert_eq!(epochs.ownership_epoch, 1 << 60);
}

#[tokio::test]
async fn wrong_token_gives_code_and_reason() {
    let address = format!("http://{}", serve().await);
    let mut clients = connect(&address, "wrong").await.unwrap();
    let status = clients
        .registry
        .get_epochs(get_epochs("wo-1"))
        .await
        .unwrap_err();
    let err = RpcError::from_status(&status);
    assert_eq!(
        err.code_and_reason(),
        (Code::Unauthenticated, Some("CREDENTIAL_INVALID"))
    );
    assert!(err.is(ErrorReason::CredentialInvalid));
}

#[tokio::test]
async fn dynamic_invocation_round_trip() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let json = clients
        .dynamic
        .invoke("RegistryService", "GetEpochs", r#"{"workOrderId":"wo-1"}"#)
        .await
        .unwrap();
    assert_eq!(
        json,
        r#"{"epochs":{"installationId":"inst-1","ownershipEpoch":"1152921504606846976","authorityEpoch":"2"}}"#
    );
}

#[tokio::test]
async fn dynamic_invocation_failure() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let err = clients
        .dynamic
        .invoke(
            "aiws.engine.v1.RegistryService",
            "GetEpochs",
            r#"{"work_order_id":"wo-2"}"#,
        )
        .await
        .unwrap_err();
    let DynamicError::Status(status) = err else {
        panic!("expected a failed call, got {err}");
    };
    let err = RpcError::from_status(&status);
    assert_eq!(
        err.code_and_reason(),
        (Code::NotFound, Some("REF_NOT_FOUND"))
    );
    assert_eq!(err.error_reason(), Some(ErrorReason::RefNotFound));
}

#[tokio::test]
async fn connect_rejects_bad_tokens_and_addresses() {
    assert!(matches!(
        connect("127.0.0.1:1", "a b").await,
        Err(praxis_client::ConnectError::Token(_))
    ));
    assert!(matches!(
        connect("not a uri", "t").await,
        Err(praxis_client::ConnectError::Transport(_))
    ));
}

#[tokio::test]
async fn dynamic_stream_until_the_server_ends_it() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let mut stream = clients
        .dynamic
        .invoke_stream("EventService", "StreamEvents", r#"{"after":"1"}"#)
        .await
        .unwrap();
    let mut got = Vec::new();
    while let Some(json) = stream.message().await.unwrap() {
        got.push(json);
    }
    assert_eq!(
        got,
        [
            r#"{"event":{"seq":"9007199254740992","kind":"EVENT_KIND_RUN_STARTED","runId":"run-1"}}"#,
            r#"{"event":{"seq":"9007199254740993","kind":"EVENT_KIND_RUN_STARTED","runId":"run-1"}}"#,
        ]
    );
}

#[tokio::test]
async fn dynamic_stream_failure_and_local_problems() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let refused = match clients
        .dynamic
        .invoke_stream(
            "aiws.engine.v1.EventService",
            "StreamEvents",
            r#"{"after":"-1"}"#,
        )
        .await
    {
        Err(err) => err,
        Ok(mut stream) => stream.message().await.unwrap_err(),
    };
    let DynamicError::Status(status) = refused else {
        panic!("expected a failed call, got {refused}");
    };
    assert_eq!(
        RpcError::from_status(&status).code_and_reason(),
        (Code::InvalidArgument, Some("PAGE_INVALID"))
    );
    for (service, method, json) in [
        ("RunService", "GetRun", "{}"),
        ("RunService", "Nope", "{}"),
        ("RunService", "WatchRun", r#"{"run":"r"}"#),
        ("EventService", "StreamEvents", r#"{"after":"#),
    ] {
        let err = clients
            .dynamic
            .invoke_stream(service, method, json)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                DynamicError::UnknownMethod(_) | DynamicError::BadJson(_)
            ),
            "{service}/{method}: {err}"
        );
    }
}

#[tokio::test]
async fn dynamic_stream_open_until_dropped() {
    let mut clients = connect(&serve().await, "secret").await.unwrap();
    let mut stream = clients
        .dynamic
        .invoke_stream(
            "EventService",
            "StreamEvents",
            r#"{"runId":"run-1","after":"2"}"#,
        )
        .await
        .unwrap();
    let first = stream.message().await.unwrap().unwrap();
    assert!(first.contains(r#""seq":"9007199254740993""#), "{first}");
    let next = tokio::time::timeout(std::time::Duration::from_millis(200), stream.message()).await;
    assert!(next.is_err(), "the server keeps the stream open: {next:?}");
    drop(stream);
    // The connection still serves calls after the cancelled stream.
    clients
        .dynamic
        .invoke("RegistryService", "GetEpochs", r#"{"workOrderId":"wo-1"}"#)
        .await
        .unwrap();
}
