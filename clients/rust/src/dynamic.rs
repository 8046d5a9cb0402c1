//! Calls to any unary engine RPC by service and method name, with proto-JSON in and out, as
//! conformance runners need; [`DynamicClient::invoke_stream`] opens the server streams
//! (WatchRun, StreamEvents) the same way.
//!
//! JSON follows the proto3 mapping (through [`prost_reflect`] and the descriptor set
//! committed beside the generated code): input accepts lowerCamelCase or original field
//! names, enum names or numbers, int64 as strings or numbers, and rejects unknown fields;
//! output uses lowerCamelCase names, enum names, int64 as strings and omits fields at their
//! default.
//!
//! ```
//! let request = praxis_client::dynamic::parse_request(
//!     "RegistryService", "GetEpochs", r#"{"workOrderId": "wo-1"}"#).unwrap();
//! assert_eq!(praxis_client::dynamic::to_json(&request), r#"{"workOrderId":"wo-1"}"#);
//! ```

use std::fmt;
use std::sync::OnceLock;

use prost::bytes::{Buf, BufMut, Bytes};
use prost::Message;
use prost_reflect::{
    DescriptorPool, DynamicMessage, MessageDescriptor, MethodDescriptor, SerializeOptions,
};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::codegen::{Body, StdError};
use tonic::Status;

static DESCRIPTOR_SET: &[u8] = include_bytes!("gen/descriptor_set.bin");

/// The descriptors of every engine proto file.
pub fn descriptor_pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(DESCRIPTOR_SET).expect("the committed descriptor set decodes")
    })
}

/// Why a dynamic call failed.
#[derive(Debug)]
pub enum DynamicError {
    /// No such service or method, or the method streams.
    UnknownMethod(String),
    /// The request JSON does not parse as the method's input type.
    BadJson(String),
    /// The call failed; read it with [`crate::RpcError::from_status`].
    Status(Status),
    /// The response did not decode as the method's output type.
    BadResponse(String),
}

impl fmt::Display for DynamicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownMethod(m) => write!(f, "no unary method {m}"),
            Self::BadJson(e) => write!(f, "request JSON does not parse: {e}"),
            Self::Status(s) => write!(f, "call failed: {s}"),
            Self::BadResponse(e) => write!(f, "response does not decode: {e}"),
        }
    }
}

impl std::error::Error for DynamicError {}

/// Finds a unary method. `service` may be short (`"RegistryService"`, looked up in
/// `aiws.engine.v1` and then `aiws.engine.testing.v1`) or full
/// (`"aiws.engine.v1.RegistryService"`).
pub fn find_unary_method(service: &str, method: &str) -> Result<MethodDescriptor, DynamicError> {
    let pool = descriptor_pool();
    let unknown = || DynamicError::UnknownMethod(format!("{service}/{method}"));
    let found = if service.contains('.') {
        pool.get_service_by_name(service)
    } else {
        ["aiws.engine.v1", "aiws.engine.testing.v1"]
            .iter()
            .find_map(|pkg| pool.get_service_by_name(&format!("{pkg}.{service}")))
    };
    let method = found
        .ok_or_else(unknown)?
        .methods()
        .find(|m| m.name() == method)
        .ok_or_else(unknown)?;
    if method.is_client_streaming() || method.is_server_streaming() {
        return Err(unknown());
    }
    Ok(method)
}

/// Finds a server-streaming method (`RunService/WatchRun`, `EventService/StreamEvents`), by
/// short or full service name as [`find_unary_method`] does.
pub fn find_server_streaming_method(
    service: &str,
    method: &str,
) -> Result<MethodDescriptor, DynamicError> {
    let pool = descriptor_pool();
    let unknown =
        || DynamicError::UnknownMethod(format!("{service}/{method} (server-streaming wanted)"));
    let found = if service.contains('.') {
        pool.get_service_by_name(service)
    } else {
        ["aiws.engine.v1", "aiws.engine.testing.v1"]
            .iter()
            .find_map(|pkg| pool.get_service_by_name(&format!("{pkg}.{service}")))
    };
    let method = found
        .ok_or_else(unknown)?
        .methods()
        .find(|m| m.name() == method)
        .ok_or_else(unknown)?;
    if method.is_client_streaming() || !method.is_server_streaming() {
        return Err(unknown());
    }
    Ok(method)
}

/// Every server-streaming method's full name, `package.Service/Method`, sorted.
pub fn server_streaming_methods() -> Vec<String> {
    let mut names: Vec<String> = descriptor_pool()
        .services()
        .flat_map(|s| s.methods().collect::<Vec<_>>())
        .filter(|m| !m.is_client_streaming() && m.is_server_streaming())
        .map(|m| format!("{}/{}", m.parent_service().full_name(), m.name()))
        .collect();
    names.sort();
    names
}

/// Every unary method's full name, `package.Service/Method`, sorted.
pub fn unary_methods() -> Vec<String> {
    let mut names: Vec<String> = descriptor_pool()
        .services()
        .flat_map(|s| s.methods().collect::<Vec<_>>())
        .filter(|m| !m.is_client_streaming() && !m.is_server_streaming())
        .map(|m| format!("{}/{}", m.parent_service().full_name(), m.name()))
        .collect();
    names.sort();
    names
}

/// Parses a proto-JSON request for a method without calling it.
pub fn parse_request(
    service: &str,
    method: &str,
    json: &str,
) -> Result<DynamicMessage, DynamicError> {
    let method = find_unary_method(service, method)?;
    parse_message(&method, json)
}

fn parse_message(method: &MethodDescriptor, json: &str) -> Result<DynamicMessage, DynamicError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let message = DynamicMessage::deserialize(method.input(), &mut de)
        .map_err(|e| DynamicError::BadJson(e.to_string()))?;
    de.end().map_err(|e| DynamicError::BadJson(e.to_string()))?;
    Ok(message)
}

/// Prints a message in proto-JSON, the way [`DynamicClient::invoke`] prints responses.
pub fn to_json(message: &DynamicMessage) -> String {
    let mut out = serde_json::Serializer::new(Vec::new());
    message
        .serialize_with_options(&mut out, &SerializeOptions::new())
        .expect("a dynamic message always serializes to JSON");
    String::from_utf8(out.into_inner()).expect("serde_json writes UTF-8")
}

/// Calls unary RPCs by name over any tonic transport, usually the [`crate::AuthChannel`] of
/// [`crate::Clients`]; failures come back as [`DynamicError::Status`].
#[derive(Clone, Debug)]
pub struct DynamicClient<T> {
    inner: tonic::client::Grpc<T>,
}

impl<T> DynamicClient<T>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<StdError>,
    T::ResponseBody: Body<Data = Bytes> + Send + 'static,
    <T::ResponseBody as Body>::Error: Into<StdError> + Send,
{
    /// Wraps a transport.
    pub fn new(inner: T) -> Self {
        Self {
            inner: tonic::client::Grpc::new(inner),
        }
    }

    /// Calls one unary RPC with a proto-JSON request and returns the proto-JSON response.
    pub async fn invoke(
        &mut self,
        service: &str,
        method: &str,
        request_json: &str,
    ) -> Result<String, DynamicError> {
        let method = find_unary_method(service, method)?;
        let request = parse_message(&method, request_json)?;
        let path: PathAndQuery =
            format!("/{}/{}", method.parent_service().full_name(), method.name())
                .parse()
                .map_err(|_| DynamicError::UnknownMethod(method.full_name().to_owned()))?;
        self.inner.ready().await.map_err(|e| {
            DynamicError::Status(Status::unavailable(format!(
                "service was not ready: {}",
                e.into()
            )))
        })?;
        let response = self
            .inner
            .unary(tonic::Request::new(request.encode_to_vec()), path, RawCodec)
            .await
            .map_err(DynamicError::Status)?;
        let message = DynamicMessage::decode(method.output(), response.into_inner())
            .map_err(|e| DynamicError::BadResponse(e.to_string()))?;
        Ok(to_json(&message))
    }

    /// Opens one server-streaming RPC (see [`find_server_streaming_method`]) with a
    /// proto-JSON request; read its messages with [`JsonStream::message`] and drop the
    /// stream to cancel it. A call the server refuses before any message fails here or at
    /// the first message, as [`DynamicError::Status`]; an unknown or non-streaming method
    /// and bad JSON fail before anything is sent.
    pub async fn invoke_stream(
        &mut self,
        service: &str,
        method: &str,
        request_json: &str,
    ) -> Result<JsonStream, DynamicError> {
        let method = find_server_streaming_method(service, method)?;
        let request = parse_message(&method, request_json)?;
        let path: PathAndQuery =
            format!("/{}/{}", method.parent_service().full_name(), method.name())
                .parse()
                .map_err(|_| DynamicError::UnknownMethod(method.full_name().to_owned()))?;
        self.inner.ready().await.map_err(|e| {
            DynamicError::Status(Status::unavailable(format!(
                "service was not ready: {}",
                e.into()
            )))
        })?;
        let response = self
            .inner
            .server_streaming(tonic::Request::new(request.encode_to_vec()), path, RawCodec)
            .await
            .map_err(DynamicError::Status)?;
        Ok(JsonStream {
            inner: response.into_inner(),
            output: method.output(),
        })
    }
}

/// A server stream opened by [`DynamicClient::invoke_stream`]. Dropping it cancels the call.
pub struct JsonStream {
    inner: tonic::Streaming<Bytes>,
    output: MessageDescriptor,
}

impl fmt::Debug for JsonStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonStream")
            .field("output", &self.output.full_name())
            .finish_non_exhaustive()
    }
}

impl JsonStream {
    /// The next message in proto-JSON (as [`DynamicClient::invoke`] prints responses);
    /// `None` once the server has ended the stream with OK; [`DynamicError::Status`] when
    /// it ended it with an error.
    pub async fn message(&mut self) -> Result<Option<String>, DynamicError> {
        match self.inner.message().await.map_err(DynamicError::Status)? {
            None => Ok(None),
            Some(bytes) => {
                let message = DynamicMessage::decode(self.output.clone(), bytes)
                    .map_err(|e| DynamicError::BadResponse(e.to_string()))?;
                Ok(Some(to_json(&message)))
            }
        }
    }
}

/// Passes already-encoded protobuf bytes through.
#[derive(Clone, Copy, Debug, Default)]
struct RawCodec;

impl Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> Self::Encoder {
        RawCodec
    }

    fn decoder(&mut self) -> Self::Decoder {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = Status;

    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aiws::engine::v1::{
        registry_command, ExecuteRequest, ListRunsRequest, RunState, StartRunRequest,
    };

    fn typed<M: Message + Default>(dynamic: &DynamicMessage) -> M {
        M::decode(dynamic.encode_to_vec().as_slice()).unwrap()
    }

    #[test]
    fn parses_nested_oneof_maps_and_int64_strings() {
        let json = r#"{"epochs":{"installationId":"inst-1","ownershipEpoch":"9007199254740993","authority_epoch":2},
            "requestId":"req-1",
            "command":{"propose":{"ref":{"workOrderId":"wo-1","runId":"r-1"},
            "proposalId":"p-1","baseRevision":"3","definitionJson":"{}",
            "policyDigests":{"tools":"sha256:00"}}}}"#;
        let dynamic = parse_request("RegistryService", "Execute", json).unwrap();
        let request: ExecuteRequest = typed(&dynamic);
        let epochs = request.epochs.as_ref().unwrap();
        assert_eq!(epochs.ownership_epoch, 9_007_199_254_740_993);
        assert_eq!(epochs.authority_epoch, 2);
        let Some(registry_command::Command::Propose(propose)) =
            request.command.as_ref().unwrap().command.as_ref()
        else {
            panic!("not a propose command: {request:?}");
        };
        assert_eq!(propose.r#ref.as_ref().unwrap().work_order_id, "wo-1");
        assert_eq!(propose.base_revision, 3);
        assert_eq!(propose.policy_digests["tools"], "sha256:00");

        let printed = to_json(&dynamic);
        assert!(
            printed.contains(r#""ownershipEpoch":"9007199254740993""#),
            "{printed}"
        );
        assert!(printed.contains(r#""baseRevision":"3""#), "{printed}");
        let again = parse_request("aiws.engine.v1.RegistryService", "Execute", &printed).unwrap();
        assert_eq!(typed::<ExecuteRequest>(&again), request);
    }

    #[test]
    fn enums_as_names_and_defaults_omitted() {
        let dynamic = parse_request(
            "RunService",
            "ListRuns",
            r#"{"state":"RUN_STATE_RUNNING","page_size":5}"#,
        )
        .unwrap();
        let request: ListRunsRequest = typed(&dynamic);
        assert_eq!(request.state(), RunState::Running);
        assert_eq!(
            to_json(&dynamic),
            r#"{"state":"RUN_STATE_RUNNING","pageSize":5}"#
        );
        let empty = parse_request("RunService", "ListRuns", "{}").unwrap();
        assert_eq!(to_json(&empty), "{}");
    }

    #[test]
    fn oneof_with_scalar_member() {
        let dynamic = parse_request(
            "RunService",
            "StartRun",
            r#"{"requestId":"q","definitionJson":"{}"}"#,
        )
        .unwrap();
        let request: StartRunRequest = typed(&dynamic);
        assert!(matches!(
            request.source,
            Some(crate::aiws::engine::v1::start_run_request::Source::DefinitionJson(_))
        ));
    }

    #[test]
    fn testing_package_by_short_name() {
        let dynamic = parse_request(
            "TestClockService",
            "SetTime",
            r#"{"nowMs":"1767225600000"}"#,
        )
        .unwrap();
        let request: crate::aiws::engine::testing::v1::SetTimeRequest = typed(&dynamic);
        assert_eq!(request.now_ms, 1_767_225_600_000);
    }

    #[test]
    fn rejects_bad_input() {
        let bad_json = [
            r#"{"nope":1}"#,
            r#"{"state":"RUNNING"}"#,
            "not json",
            "{} {}",
        ];
        for json in bad_json {
            assert!(
                matches!(
                    parse_request("RunService", "ListRuns", json),
                    Err(DynamicError::BadJson(_))
                ),
                "{json}"
            );
        }
        for (service, method) in [
            ("RunService", "Nope"),
            ("NopeService", "GetRun"),
            ("RunService", "WatchRun"),
            ("EventService", "StreamEvents"),
        ] {
            assert!(
                matches!(
                    parse_request(service, method, "{}"),
                    Err(DynamicError::UnknownMethod(_))
                ),
                "{service}/{method}"
            );
        }
    }

    #[test]
    fn finds_the_server_streams_only() {
        assert_eq!(
            server_streaming_methods(),
            [
                "aiws.engine.v1.EventService/StreamEvents",
                "aiws.engine.v1.InboxService/WatchInbox",
                "aiws.engine.v1.RunService/WatchRun"
            ]
        );
        let watch = find_server_streaming_method("RunService", "WatchRun").unwrap();
        assert_eq!(
            watch.output().full_name(),
            "aiws.engine.v1.WatchRunResponse"
        );
        assert!(
            find_server_streaming_method("aiws.engine.v1.EventService", "StreamEvents").is_ok()
        );
        for (service, method) in [
            ("RunService", "GetRun"),
            ("RunService", "Nope"),
            ("NopeService", "WatchRun"),
        ] {
            assert!(
                matches!(
                    find_server_streaming_method(service, method),
                    Err(DynamicError::UnknownMethod(_))
                ),
                "{service}/{method}"
            );
        }
    }

    #[test]
    fn table_holds_every_unary_method() {
        let methods = unary_methods();
        assert_eq!(methods.len(), 79, "{methods:?}");
        assert!(methods.contains(&"aiws.engine.v1.SimulationService/SimulateRun".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.WorkOrderService/CreateWorkOrder".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.HandoffService/ListHandoffs".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.NotificationService/ListDeliveries".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.RunService/ResumeRun".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.WaitService/ReviewWait".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.ScheduleService/BackfillSchedule".to_owned()));
        assert!(methods.contains(&"aiws.engine.v1.RegistryService/GetEpochs".to_owned()));
        assert!(methods.contains(&"aiws.engine.testing.v1.TestClockService/Advance".to_owned()));
        for full in &methods {
            let (service, method) = full.split_once('/').unwrap();
            parse_request(service, method, "{}").unwrap();
        }
    }
}
