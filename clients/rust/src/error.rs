//! Reading the engine's error out of a failed call.

use std::collections::HashMap;

use prost::Message;
use tonic::{Code, Status};
use tonic_types::pb;

use crate::aiws::engine::v1::ErrorReason;

/// The `ErrorInfo.domain` of every engine error.
pub const DOMAIN: &str = "engine.aiws";

const ERROR_INFO_URL: &str = "type.googleapis.com/google.rpc.ErrorInfo";
const BAD_REQUEST_URL: &str = "type.googleapis.com/google.rpc.BadRequest";

/// One `google.rpc.BadRequest.FieldViolation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path to the offending field, e.g. `command.register.ref.run_id`.
    pub field: String,
    /// Why it was rejected, for people.
    pub description: String,
    /// A machine-readable reason, when the server gives one.
    pub reason: String,
}

/// What a failed call reports: the gRPC code, the engine's `ErrorInfo.reason` and any
/// `BadRequest` field violations, read from the `grpc-status-details-bin` trailer. Branch on
/// `code` and `reason`, never on `message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcError {
    /// The canonical gRPC status code.
    pub code: Code,
    /// The engine's `ErrorInfo.reason`, an [`ErrorReason`] value name such as
    /// `"EPOCH_MISMATCH"`; `None` when the status carried no `ErrorInfo` of the engine's
    /// domain.
    pub reason: Option<String>,
    /// The `ErrorInfo.metadata` of the engine's error.
    pub metadata: HashMap<String, String>,
    /// Every `BadRequest` field violation, in the order sent.
    pub field_violations: Vec<FieldViolation>,
    /// The status message, for people only.
    pub message: String,
}

impl RpcError {
    /// Reads a [`Status`] returned by a generated client. Details that do not decode are
    /// skipped: the code still tells the caller what happened.
    pub fn from_status(status: &Status) -> Self {
        let mut error = Self {
            code: status.code(),
            reason: None,
            metadata: HashMap::new(),
            field_violations: Vec::new(),
            message: status.message().to_owned(),
        };
        let Ok(details) = pb::Status::decode(status.details()) else {
            return error;
        };
        for any in details.details {
            match any.type_url.as_str() {
                ERROR_INFO_URL => {
                    if let Ok(info) = pb::ErrorInfo::decode(any.value.as_slice()) {
                        if error.reason.is_none() && info.domain == DOMAIN {
                            error.reason = Some(info.reason);
                            error.metadata = info.metadata;
                        }
                    }
                }
                BAD_REQUEST_URL => {
                    if let Ok(bad) = pb::BadRequest::decode(any.value.as_slice()) {
                        error
                            .field_violations
                            .extend(bad.field_violations.into_iter().map(|v| FieldViolation {
                                field: v.field,
                                description: v.description,
                                reason: v.reason,
                            }));
                    }
                }
                _ => {}
            }
        }
        error
    }

    /// The `(code, reason)` pair conformance vectors compare.
    pub fn code_and_reason(&self) -> (Code, Option<&str>) {
        (self.code, self.reason.as_deref())
    }

    /// The reason as an enum value; `None` without a reason or for a reason newer than this
    /// client (treat that like its status code).
    pub fn error_reason(&self) -> Option<ErrorReason> {
        self.reason.as_deref().and_then(ErrorReason::from_str_name)
    }

    /// Reports whether the reason is `expected`.
    pub fn is(&self, expected: ErrorReason) -> bool {
        self.reason.as_deref() == Some(expected.as_str_name())
    }
}

impl From<&Status> for RpcError {
    fn from(status: &Status) -> Self {
        Self::from_status(status)
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.code)?;
        if let Some(reason) = &self.reason {
            write!(f, " {reason}")?;
        }
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for RpcError {}

#[cfg(test)]
mod tests {
    use super::*;
    use prost_types::Any;

    fn any<M: Message>(url: &str, m: &M) -> Any {
        Any {
            type_url: url.to_owned(),
            value: m.encode_to_vec(),
        }
    }

    fn info(domain: &str, reason: &str) -> Any {
        any(
            ERROR_INFO_URL,
            &pb::ErrorInfo {
                reason: reason.into(),
                domain: domain.into(),
                metadata: HashMap::from([("k".to_owned(), "v".to_owned())]),
            },
        )
    }

    fn failure(code: Code, details: Vec<Any>) -> Status {
        let status = pb::Status {
            code: code as i32,
            message: "human text".into(),
            details,
        };
        Status::with_details(code, "human text", status.encode_to_vec().into())
    }

    #[test]
    fn reads_code_and_reason() {
        let err = RpcError::from_status(&failure(
            Code::FailedPrecondition,
            vec![info(DOMAIN, "EPOCH_MISMATCH")],
        ));
        assert_eq!(
            err.code_and_reason(),
            (Code::FailedPrecondition, Some("EPOCH_MISMATCH"))
        );
        assert_eq!(err.error_reason(), Some(ErrorReason::EpochMismatch));
        assert!(err.is(ErrorReason::EpochMismatch));
        assert!(!err.is(ErrorReason::InstallationMismatch));
        assert_eq!(err.metadata.get("k").map(String::as_str), Some("v"));
        assert_eq!(err.message, "human text");
        assert!(err.field_violations.is_empty());
        assert_eq!(
            err.to_string(),
            "FailedPrecondition EPOCH_MISMATCH: human text"
        );
    }

    #[test]
    fn reads_field_violations() {
        let bad = pb::BadRequest {
            field_violations: vec![
                pb::bad_request::FieldViolation {
                    field: "command.register.ref.run_id".into(),
                    description: "empty".into(),
                    reason: "FIELD_REQUIRED".into(),
                    localized_message: None,
                },
                pb::bad_request::FieldViolation {
                    field: "epochs".into(),
                    description: "missing".into(),
                    reason: String::new(),
                    localized_message: None,
                },
            ],
        };
        let err = RpcError::from_status(&failure(
            Code::InvalidArgument,
            vec![any(BAD_REQUEST_URL, &bad), info(DOMAIN, "FIELD_REQUIRED")],
        ));
        assert_eq!(
            err.code_and_reason(),
            (Code::InvalidArgument, Some("FIELD_REQUIRED"))
        );
        assert_eq!(
            err.field_violations,
            vec![
                FieldViolation {
                    field: "command.register.ref.run_id".into(),
                    description: "empty".into(),
                    reason: "FIELD_REQUIRED".into(),
                },
                FieldViolation {
                    field: "epochs".into(),
                    description: "missing".into(),
                    reason: String::new(),
                },
            ]
        );
    }

    #[test]
    fn ignores_other_domains_and_malformed_details() {
        let garbage = Any {
            type_url: ERROR_INFO_URL.into(),
            value: vec![0xff, 0xff, 0xff],
        };
        let err = RpcError::from_status(&failure(
            Code::Unavailable,
            vec![
                garbage,
                info("proxy.example", "UPSTREAM_DOWN"),
                info(DOMAIN, "SERVER_UNAVAILABLE"),
            ],
        ));
        assert_eq!(
            err.code_and_reason(),
            (Code::Unavailable, Some("SERVER_UNAVAILABLE"))
        );
        let foreign = RpcError::from_status(&failure(
            Code::Unavailable,
            vec![info("proxy.example", "UPSTREAM_DOWN")],
        ));
        assert_eq!(foreign.reason, None);
    }

    #[test]
    fn status_without_details() {
        let err = RpcError::from_status(&Status::unauthenticated("no"));
        assert_eq!(err.code_and_reason(), (Code::Unauthenticated, None));
        assert_eq!(err.error_reason(), None);
        let junk = Status::with_details(Code::Internal, "x", vec![1, 2, 3].into());
        assert_eq!(
            RpcError::from_status(&junk).code_and_reason(),
            (Code::Internal, None)
        );
    }

    #[test]
    fn unknown_reason_is_kept_as_text() {
        let err = RpcError::from_status(&failure(
            Code::Aborted,
            vec![info(DOMAIN, "SOMETHING_NEWER")],
        ));
        assert_eq!(err.reason.as_deref(), Some("SOMETHING_NEWER"));
        assert_eq!(err.error_reason(), None);
    }
}
