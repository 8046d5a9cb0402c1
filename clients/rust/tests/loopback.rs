//! The helpers against a real tonic server on a loopback port that checks the bearer token.

use std::collections::HashMap;

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
}

/// Starts the fake server on an ephemeral loopback port; returns "127.0.0.1:PORT".
async fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(RegistryServiceServer::new(FakeRegistry))
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
