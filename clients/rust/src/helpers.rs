//! Run and registry helpers (the same names in every Praxis client): start a run and wait
//! for its result, review-approve-execute a registry command, canonical JSON in and out.
//!
//! ```no_run
//! use praxis_client::aiws::engine::v1::{start_run_request, StartRunRequest, WorkflowRef};
//! use praxis_client::helpers::{result_of, run_and_wait, to_json};
//!
//! # async fn run(clients: praxis_client::Clients) -> Result<(), Box<dyn std::error::Error>> {
//! let request = StartRunRequest {
//!     source: Some(start_run_request::Source::Ref(WorkflowRef {
//!         work_order_id: "wo-1".into(),
//!         run_id: "summarise".into(),
//!     })),
//!     input_json: to_json(&serde_json::json!({ "text": "..." }))?,
//!     ..Default::default()
//! };
//! let run = run_and_wait(&clients, request, std::time::Duration::from_secs(60)).await?;
//! let summary: serde_json::Value = result_of(&run)?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::time::{Duration, SystemTime};

use serde::de::DeserializeOwned;
use serde::Serialize;
use tonic::{Code, Status};

use crate::aiws::engine::v1::{
    registry_command, CreateApprovalRequest, Epochs, ExecuteRequest, ExecuteResponse,
    GetEpochsRequest, RegistryCommand, ReviewRequest, Run, RunState, StartRunRequest,
    WatchRunRequest,
};
use crate::worker::code_name;
use crate::{epoch_ms, Clients, RpcError};

/// Encodes a value as canonical JSON text for an `*_json` field: object keys sorted, no
/// insignificant whitespace, UTF-8.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(&serde_json::to_value(value)?)
}

/// Decodes an `*_json` field into `T`; the empty string reads as JSON `null`.
pub fn from_json<T: DeserializeOwned>(json: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(if json.is_empty() { "null" } else { json })
}

fn random_id(prefix: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{prefix}-{:016x}", h.finish())
}

fn is_transient(code: Code) -> bool {
    matches!(
        code,
        Code::Unavailable | Code::DeadlineExceeded | Code::ResourceExhausted
    )
}

/// Why [`run_and_wait`] gave no final run.
#[derive(Debug)]
pub enum WaitError {
    /// A call failed with an error retrying cannot fix.
    Rpc(RpcError),
    /// The run was still going when `timeout` passed; the last snapshot seen.
    TimedOut(Box<Run>),
}

impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rpc(e) => write!(f, "{e}"),
            Self::TimedOut(run) => write!(
                f,
                "run {} still {} when the wait ended",
                run.run_id,
                run.state().as_str_name()
            ),
        }
    }
}

impl std::error::Error for WaitError {}

/// Whether a run state is final.
pub fn is_terminal(state: RunState) -> bool {
    matches!(
        state,
        RunState::Completed | RunState::Failed | RunState::Cancelled
    )
}

/// Starts a run (`StartRun`; a `request_id` is generated when empty) and waits with
/// `WatchRun` up to `timeout` until it is COMPLETED, FAILED or CANCELLED, watching again
/// after transient errors. Returns the final run whatever its state; [`result_of`] reads
/// its result.
pub async fn run_and_wait(
    clients: &Clients,
    mut request: StartRunRequest,
    timeout: Duration,
) -> Result<Run, WaitError> {
    if request.request_id.is_empty() {
        request.request_id = random_id("run");
    }
    let deadline = tokio::time::Instant::now() + timeout;
    let mut runs = clients.runs.clone();
    let mut backoff = Duration::from_millis(100);
    let run = loop {
        match runs.start_run(request.clone()).await {
            Ok(r) => break r.into_inner().run.unwrap_or_default(),
            Err(s) if is_transient(s.code()) && tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
            Err(s) => return Err(WaitError::Rpc(RpcError::from_status(&s))),
        }
    };
    wait_for_run(clients, run, deadline).await
}

async fn wait_for_run(
    clients: &Clients,
    mut last: Run,
    deadline: tokio::time::Instant,
) -> Result<Run, WaitError> {
    let mut runs = clients.runs.clone();
    let mut backoff = Duration::from_millis(100);
    while !is_terminal(last.state()) {
        let watch = async {
            let mut stream = runs
                .watch_run(WatchRunRequest {
                    run_id: last.run_id.clone(),
                })
                .await?
                .into_inner();
            while let Some(message) = stream.message().await? {
                if let Some(run) = message.run {
                    let done = is_terminal(run.state());
                    last = run;
                    if done {
                        break;
                    }
                }
            }
            Ok::<(), Status>(())
        };
        match tokio::time::timeout_at(deadline, watch).await {
            Err(_) => return Err(WaitError::TimedOut(Box::new(last))),
            Ok(Ok(())) => backoff = Duration::from_millis(100),
            Ok(Err(s)) if is_transient(s.code()) => {
                if tokio::time::Instant::now() + backoff > deadline {
                    return Err(WaitError::TimedOut(Box::new(last)));
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
            Ok(Err(s)) => return Err(WaitError::Rpc(RpcError::from_status(&s))),
        }
    }
    Ok(last)
}

/// A run that did not complete: its state, `result_reason` and `result_error`.
#[derive(Clone, Debug)]
pub struct RunFailed {
    /// The run.
    pub run_id: String,
    /// FAILED, CANCELLED, or a state that is not final yet.
    pub state: RunState,
    /// The `ErrorReason` name of the failure (e.g. `BUDGET_EXCEEDED`).
    pub result_reason: String,
    /// What went wrong, for people.
    pub result_error: String,
}

impl fmt::Display for RunFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "run {} {}: {} {}",
            self.run_id,
            self.state.as_str_name(),
            self.result_reason,
            self.result_error
        )
    }
}

impl std::error::Error for RunFailed {}

/// Why [`result_of`] gave no value.
#[derive(Debug)]
pub enum ResultError {
    /// The run did not complete.
    Failed(RunFailed),
    /// The result is not the JSON of a `T`.
    Decode(serde_json::Error),
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Failed(e) => write!(f, "{e}"),
            Self::Decode(e) => write!(f, "run result does not decode: {e}"),
        }
    }
}

impl std::error::Error for ResultError {}

/// The result of a COMPLETED run decoded into `T`; any other state is
/// [`ResultError::Failed`].
pub fn result_of<T: DeserializeOwned>(run: &Run) -> Result<T, ResultError> {
    if run.state() != RunState::Completed {
        return Err(ResultError::Failed(RunFailed {
            run_id: run.run_id.clone(),
            state: run.state(),
            result_reason: run.result_reason.clone(),
            result_error: run.result_error.clone(),
        }));
    }
    from_json(&run.result_json).map_err(ResultError::Decode)
}

/// Options of [`review_approve_execute`].
#[derive(Clone, Debug)]
pub struct ApproveOptions {
    /// The epochs to act under; read with `GetEpochs` when `None`.
    pub epochs: Option<Epochs>,
    /// The approval id; the command's own when set there, else generated.
    pub approval_id: Option<String>,
    /// The Execute request id, reused on every retry; generated when `None`.
    pub request_id: Option<String>,
    /// How long the approval stays valid (at most 7 days).
    pub approval_ttl: Duration,
}

impl Default for ApproveOptions {
    fn default() -> Self {
        Self {
            epochs: None,
            approval_id: None,
            request_id: None,
            approval_ttl: Duration::from_secs(600),
        }
    }
}

fn approval_slot(command: &mut RegistryCommand) -> Option<(&mut String, String)> {
    let (slot, r) = match command.command.as_mut()? {
        registry_command::Command::Register(c) => (&mut c.approval_id, c.r#ref.as_ref()),
        registry_command::Command::Activate(c) => (&mut c.approval_id, c.r#ref.as_ref()),
        registry_command::Command::Reject(c) => (&mut c.approval_id, c.r#ref.as_ref()),
        registry_command::Command::Propose(_) => return None,
    };
    Some((slot, r.map(|r| r.work_order_id.clone()).unwrap_or_default()))
}

/// The human-tool flow for a registry command that needs an approval (REGISTER,
/// ACTIVATE, REJECT): `Review` the command (without its `approval_id`) under the epochs
/// (read with `GetEpochs` when not given), `CreateApproval` of the material digest as
/// `approver` (clients holding the human's token), then `Execute` the command with that
/// `approval_id` through `clients`, one `request_id` reused on every retry of a transient
/// error. Returns the `ExecuteResponse`.
pub async fn review_approve_execute(
    clients: &Clients,
    approver: &Clients,
    mut command: RegistryCommand,
    options: ApproveOptions,
) -> Result<ExecuteResponse, RpcError> {
    let Some((slot, work_order_id)) = approval_slot(&mut command) else {
        return Err(RpcError::from_status(&Status::invalid_argument(
            "only REGISTER, ACTIVATE and REJECT take an approval; Execute other commands directly",
        )));
    };
    let approval_id = options
        .approval_id
        .clone()
        .or_else(|| Some(slot.clone()).filter(|s| !s.is_empty()))
        .unwrap_or_else(|| random_id("approval"));
    slot.clear();
    let unapproved = command.clone();
    if let Some((slot, _)) = approval_slot(&mut command) {
        *slot = approval_id.clone();
    }
    let registry = clients.registry.clone();
    let epochs = match options.epochs {
        Some(e) => e,
        None => retry(|| {
            let mut r = registry.clone();
            let work_order_id = work_order_id.clone();
            async move { r.get_epochs(GetEpochsRequest { work_order_id }).await }
        })
        .await?
        .epochs
        .unwrap_or_default(),
    };
    let review = retry(|| {
        let mut r = registry.clone();
        let request = ReviewRequest {
            epochs: Some(epochs.clone()),
            command: Some(unapproved.clone()),
        };
        async move { r.review(request).await }
    })
    .await?;
    let expires =
        epoch_ms::from_system_time(SystemTime::now() + options.approval_ttl).map_err(|_| {
            RpcError::from_status(&Status::invalid_argument("approval_ttl out of range"))
        })?;
    retry(|| {
        let mut a = approver.approvals.clone();
        let request = CreateApprovalRequest {
            approval_id: approval_id.clone(),
            material_digest: review.material_digest.clone(),
            expires_at_ms: expires,
            work_order_id: work_order_id.clone(),
            // A registry command's action has no purpose: its approval names none.
            purpose: String::new(),
        };
        async move { a.create_approval(request).await }
    })
    .await?;
    let request = ExecuteRequest {
        epochs: Some(epochs),
        request_id: options.request_id.unwrap_or_else(|| random_id("execute")),
        command: Some(command),
        dry_run: false,
    };
    retry(|| {
        let mut r = registry.clone();
        let request = request.clone();
        async move { r.execute(request).await }
    })
    .await
}

async fn retry<T, F, Fut>(mut call: F) -> Result<T, RpcError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<T>, Status>>,
{
    let mut backoff = Duration::from_millis(100);
    for attempt in 0..6 {
        match call().await {
            Ok(r) => return Ok(r.into_inner()),
            Err(s) if is_transient(s.code()) && attempt < 5 => {
                tracing::warn!(target: "praxis_client::helpers", code = code_name(s.code()), "retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
            Err(s) => return Err(RpcError::from_status(&s)),
        }
    }
    unreachable!("the last attempt returns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_canonical() {
        let v = serde_json::json!({"b": [1, {"z": null, "a": "é"}], "a": true});
        assert_eq!(
            to_json(&v).unwrap(),
            r#"{"a":true,"b":[1,{"a":"é","z":null}]}"#
        );
        assert_eq!(
            from_json::<serde_json::Value>("").unwrap(),
            serde_json::Value::Null
        );
    }

    #[test]
    fn result_of_reads_completed_runs_only() {
        let mut run = Run {
            run_id: "r".into(),
            result_json: r#"{"x":1}"#.into(),
            ..Default::default()
        };
        run.set_state(RunState::Completed);
        let v: serde_json::Value = result_of(&run).unwrap();
        assert_eq!(v["x"], 1);
        run.set_state(RunState::Failed);
        run.result_reason = "BUDGET_EXCEEDED".into();
        match result_of::<serde_json::Value>(&run) {
            Err(ResultError::Failed(f)) => assert_eq!(f.result_reason, "BUDGET_EXCEEDED"),
            other => panic!("{other:?}"),
        }
    }
}
