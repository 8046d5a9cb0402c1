//! The worker runtime: you write the handler, the runtime claims, heartbeats and settles.
//!
//! ```no_run
//! use praxis_client::worker::{Outcome, TaskContext, Worker, WorkerOptions};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let clients = praxis_client::connect("127.0.0.1:50051", "my-token").await?;
//! let options = WorkerOptions::new(["echo"]).concurrency(4);
//! Worker::new(&clients, options, |ctx: TaskContext| async move {
//!     Ok(Outcome::applied(&serde_json::json!({ "echo": ctx.input() })))
//! })
//! .run_until(tokio::signal::ctrl_c())
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! What the runtime does (the full specification is `docs/workers.md`):
//!
//! - claims with long polls, never holding more than `concurrency` attempts at once;
//! - heartbeats each attempt about every lease/3; when a heartbeat answers `cancelled`
//!   or the lease is gone (`LEASE_EXPIRED`, `ATTEMPT_SUPERSEDED`, `ATTEMPT_NOT_FOUND`,
//!   `RUN_TERMINAL`, `WORKER_MISMATCH`) it cancels the attempt's [`CancellationToken`];
//! - settles with the effect outcome and cost the handler chose, in batches through
//!   `TaskService.SettleTasks`, or one by one through `CompleteTask` / `FailTask` when the
//!   server answers `UNIMPLEMENTED`;
//! - turns a result that cannot be encoded as JSON into a non-retryable failure with a
//!   clear message, and a result the engine refuses (contract violation, too large) into
//!   a failure, never a silent lease expiry; a panic is caught and settled like an error;
//! - settles a crash (an `Err` that is no [`Outcome`], a panic) as NOT_APPLIED and
//!   retryable only on a node that declares its effects `none` or `idempotent`, else as
//!   UNCERTAIN ([`TaskContext::retry_safe`]);
//! - retries transient transport errors (`UNAVAILABLE`, `DEADLINE_EXCEEDED`,
//!   `RESOURCE_EXHAUSTED`) with capped exponential backoff and jitter, which also carries
//!   it across a server restart on the same address;
//! - on shutdown stops claiming, lets the handlers in hand finish, settles them, and
//!   returns;
//! - a claim refused with `UNAUTHENTICATED`, `PERMISSION_DENIED`, `INVALID_ARGUMENT` or
//!   `UNIMPLEMENTED` makes [`Worker::start`] fail at once (a bad token is never a silent
//!   retry loop), and stops a running worker with that error.
//!
//! Logs go through [`tracing`] under the target `praxis_client::worker`. With the `otel`
//! feature, each handler runs inside the attempt's trace ([`crate::trace`]).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tonic::{Code, Request, Status};

use crate::aiws::engine::v1::task_service_client::TaskServiceClient;
use crate::aiws::engine::v1::{
    self as pb, settlement, settlement_result, ClaimTasksRequest, CompleteTaskRequest,
    EffectOutcome, FailTaskRequest, HeartbeatRequest, SettleTasksRequest, Settlement,
};
use crate::{AuthChannel, Clients, Decimal, RpcError};

/// Attempts settled in one `SettleTasks` call at most (the server's limit).
pub const MAX_SETTLE_BATCH: usize = 100;
/// Tasks claimed in one call at most (the server's limit).
pub const MAX_CLAIM: usize = 100;
/// Error texts longer than this are cut (with a note) before they are sent.
pub const MAX_ERROR_CHARS: usize = 4_000;

const GONE_REASONS: [&str; 6] = [
    "LEASE_EXPIRED",
    "ATTEMPT_SUPERSEDED",
    "ATTEMPT_NOT_FOUND",
    "RUN_TERMINAL",
    "WORKER_MISMATCH",
    "ATTEMPT_ALREADY_SETTLED",
];
const CALL_TIMEOUT: Duration = Duration::from_secs(15);
const BACKOFF_START: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// Whether the policy in `functions_json` (`{"allow": [...], "deny": [...]}`; empty means
/// every function, as from an engine before the policy was normalized) permits
/// `function_id`. An unreadable policy permits nothing.
pub fn function_policy_permits(functions_json: &str, function_id: &str) -> bool {
    if functions_json.is_empty() {
        return true;
    }
    let Ok(policy) = serde_json::from_str::<serde_json::Value>(functions_json) else {
        return false;
    };
    let matches = |key: &str| {
        policy[key].as_array().is_some_and(|items| {
            items
                .iter()
                .any(|p| p.as_str().is_some_and(|p| glob_matches(p, function_id)))
        })
    };
    matches("allow") && !matches("deny")
}

/// Whether `text` matches `pattern` whole, `*` matching any run of characters.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return text == pattern;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if text.len() < first.len() + last.len() || !text.starts_with(first) || !text.ends_with(last) {
        return false;
    }
    let (mut position, end) = (first.len(), text.len() - last.len());
    for middle in &parts[1..parts.len() - 1] {
        match text[position..end].find(middle) {
            Some(found) => position += found + middle.len(),
            None => return false,
        }
    }
    true
}

// --- what a handler sees and returns ---------------------------------------------------

/// One claimed attempt, as a handler sees it.
#[derive(Clone, Debug)]
pub struct TaskContext {
    proto: pb::Task,
    input: serde_json::Value,
    cancel: CancellationToken,
    progress: Arc<ProgressSlot>,
}

/// A progress report's text at most, in UTF-8 bytes (the server's cap).
pub const MAX_PROGRESS_TEXT_BYTES: usize = 512;
/// A progress report's data at most, in bytes of JSON (the server's cap).
pub const MAX_PROGRESS_DATA_BYTES: usize = 1024;
/// A progress report waits at most this long after the attempt's previous heartbeat.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Why a progress report was refused before anything was sent (the server's caps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressError(String);

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "progress report refused: {}", self.0)
    }
}

impl std::error::Error for ProgressError {}

/// The report an attempt's heartbeat loop sends next, and its wake-up.
#[derive(Debug, Default)]
struct ProgressSlot {
    pending: Mutex<Option<pb::ProgressReport>>,
    wake: tokio::sync::Notify,
}

impl ProgressSlot {
    fn take(&self) -> Option<pb::ProgressReport> {
        self.pending.lock().expect("progress slot").take()
    }
    /// Keeps an unsent report for the next heartbeat, unless a newer one waits.
    fn restore(&self, report: Option<pb::ProgressReport>) {
        let mut pending = self.pending.lock().expect("progress slot");
        if pending.is_none() {
            *pending = report;
        }
    }
}

/// A progress report checked against the server's caps: `text` at most 512 UTF-8 bytes,
/// `data` JSON of safe integers (no fractions) within 1,024 bytes.
pub fn progress_report(
    text: &str,
    data: Option<&serde_json::Value>,
) -> Result<pb::ProgressReport, ProgressError> {
    if text.len() > MAX_PROGRESS_TEXT_BYTES {
        return Err(ProgressError(format!(
            "text is {} bytes; at most {MAX_PROGRESS_TEXT_BYTES}",
            text.len()
        )));
    }
    let data_json = match data {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(value) => {
            safe_numbers(value)?;
            let json = serde_json::to_string(value).map_err(|e| ProgressError(e.to_string()))?;
            if json.len() > MAX_PROGRESS_DATA_BYTES {
                return Err(ProgressError(format!(
                    "data is {} bytes of JSON; at most {MAX_PROGRESS_DATA_BYTES}",
                    json.len()
                )));
            }
            json
        }
    };
    Ok(pb::ProgressReport {
        text: text.to_owned(),
        data_json,
    })
}

fn safe_numbers(value: &serde_json::Value) -> Result<(), ProgressError> {
    match value {
        serde_json::Value::Number(n) => {
            let safe = n
                .as_u64()
                .map(|v| v <= MAX_SAFE_INTEGER)
                .or_else(|| n.as_i64().map(|v| v.unsigned_abs() <= MAX_SAFE_INTEGER));
            if safe == Some(true) {
                Ok(())
            } else {
                Err(ProgressError(format!(
                    "{n} is not a safe integer (send it as a string)"
                )))
            }
        }
        serde_json::Value::Array(items) => items.iter().try_for_each(safe_numbers),
        serde_json::Value::Object(map) => map.values().try_for_each(safe_numbers),
        _ => Ok(()),
    }
}

impl TaskContext {
    fn new(proto: pb::Task, cancel: CancellationToken) -> Self {
        let input = if proto.input_json.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_str(&proto.input_json).unwrap_or(serde_json::Value::Null)
        };
        Self {
            proto,
            input,
            cancel,
            progress: Arc::default(),
        }
    }
    /// Reports progress (docs/workers.md 4a): a short `text` and/or JSON `data`. The
    /// report replaces one not yet sent and goes with the attempt's next heartbeat,
    /// brought forward: at once, or [`PROGRESS_INTERVAL`] after the previous one. Past
    /// the server's caps ([`progress_report`]) it is refused and nothing is sent.
    pub fn progress(
        &self,
        text: &str,
        data: Option<serde_json::Value>,
    ) -> Result<(), ProgressError> {
        let report = progress_report(text, data.as_ref())?;
        *self.progress.pending.lock().expect("progress slot") = Some(report);
        self.progress.wake.notify_one();
        Ok(())
    }
    /// The claimed task as the engine sent it.
    pub fn task(&self) -> &pb::Task {
        &self.proto
    }
    /// The attempt id (`att_...`).
    pub fn attempt_id(&self) -> &str {
        &self.proto.attempt_id
    }
    /// The run.
    pub fn run_id(&self) -> &str {
        &self.proto.run_id
    }
    /// The node uid (`node_id` or `node_id#i`).
    pub fn node_uid(&self) -> &str {
        &self.proto.node_uid
    }
    /// The attempt number, from 1.
    pub fn attempt(&self) -> i32 {
        self.proto.attempt
    }
    /// The provider the node asks to run its model with (empty leaves it to the worker's
    /// routing). A worker that cannot serve it fails the attempt as NOT_APPLIED rather
    /// than run the model elsewhere (docs/workers.md, "The agent's settings").
    pub fn provider(&self) -> &str {
        self.proto
            .agent
            .as_ref()
            .map_or("", |agent| agent.provider.as_str())
    }
    /// Whether the node's function policy (`task().agent.functions_json`,
    /// `{"allow": [...], "deny": [...]}`) lets its agent call `function_id`: a match in
    /// allow (`*` is any run of characters) and none in deny. The engine never sees the
    /// agent's calls: the handler MUST offer only permitted functions and refuse others.
    pub fn function_allowed(&self, function_id: &str) -> bool {
        let text = self
            .proto
            .agent
            .as_ref()
            .map_or("", |agent| agent.functions_json.as_str());
        function_policy_permits(text, function_id)
    }
    /// The attempt's span as a W3C `traceparent` (empty unless the server exports
    /// traces): make it the parent of the handler's own spans.
    pub fn traceparent(&self) -> &str {
        &self.proto.traceparent
    }
    /// Whether the node declares its effects `none` or `idempotent` (`task().effects`):
    /// only then does a crash (an `Err` from `?`, a panic) settle as NOT_APPLIED and
    /// retryable; on any other node (`external`, or nothing declared) it settles as
    /// UNCERTAIN and the node waits for a human's reconciliation (docs/workers.md,
    /// Outcomes).
    pub fn retry_safe(&self) -> bool {
        matches!(
            pb::NodeEffects::try_from(self.proto.effects),
            Ok(pb::NodeEffects::None | pb::NodeEffects::Idempotent)
        )
    }
    /// The gathered input parsed as JSON (`Null` when empty).
    pub fn input(&self) -> &serde_json::Value {
        &self.input
    }
    /// The input decoded into `T`; a mismatch is a non-retryable NOT_APPLIED error naming
    /// the type, so `ctx.input_as::<MyInput>()?` fails the node with a clear message.
    pub fn input_as<T: DeserializeOwned>(&self) -> Result<T, HandlerError> {
        T::deserialize(&self.input).map_err(|e| {
            Outcome::not_applied(
                format!("input is not a {}: {e}", std::any::type_name::<T>()),
                false,
            )
            .into()
        })
    }
    /// Cancelled (once) when the run is stopped, the attempt superseded or its lease lost:
    /// stop work and return. Whatever you return then is settled, and a refusal only
    /// logged.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }
    /// Whether the attempt was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
    /// Resolves when the attempt is cancelled.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Complete(Result<String, String>),
    Fail { error: String, retryable: bool },
}

/// How an attempt settles: `applied`, `not_applied` or `uncertain`, with an optional cost.
#[derive(Clone, Debug)]
pub struct Outcome {
    kind: Kind,
    effect: EffectOutcome,
    cost: Option<Decimal>,
}

impl Outcome {
    /// Completes with `result` encoded as JSON, effect APPLIED. A value whose `Serialize`
    /// fails settles as a non-retryable failure naming the encoder's message.
    pub fn applied<T: Serialize + ?Sized>(result: &T) -> Self {
        Self {
            kind: Kind::Complete(encode(result)),
            effect: EffectOutcome::Applied,
            cost: None,
        }
    }
    /// Completes with JSON text you encoded yourself (a JSON string for text outputs),
    /// effect APPLIED.
    pub fn applied_json(result_json: impl Into<String>) -> Self {
        Self {
            kind: Kind::Complete(Ok(result_json.into())),
            effect: EffectOutcome::Applied,
            cost: None,
        }
    }
    /// Fails with effect NOT_APPLIED; `retryable` says whether a new attempt could
    /// succeed (false fails the node at once).
    pub fn not_applied(error: impl Into<String>, retryable: bool) -> Self {
        Self {
            kind: Kind::Fail {
                error: error.into(),
                retryable,
            },
            effect: EffectOutcome::NotApplied,
            cost: None,
        }
    }
    /// Fails with effect UNCERTAIN: the worker cannot tell whether the effect happened,
    /// so the node is BLOCKED until a human reconciles it (never retried on its own).
    pub fn uncertain(error: impl Into<String>) -> Self {
        Self {
            kind: Kind::Fail {
                error: error.into(),
                retryable: false,
            },
            effect: EffectOutcome::Uncertain,
            cost: None,
        }
    }
    /// Completes with `result` but effect UNCERTAIN: the node is BLOCKED until a human
    /// reconciles it.
    pub fn uncertain_with_result<T: Serialize + ?Sized>(result: &T) -> Self {
        Self {
            kind: Kind::Complete(encode(result)),
            effect: EffectOutcome::Uncertain,
            cost: None,
        }
    }
    /// The attempt's cost in microcredits (canonical, non-negative), counted against
    /// budgets. A negative cost is a handler bug: the attempt fails, not retryable.
    pub fn with_cost(mut self, microcredits: Decimal) -> Self {
        self.cost = Some(microcredits);
        self
    }
    /// The effect outcome this settles with.
    pub fn effect(&self) -> EffectOutcome {
        self.effect
    }
}

/// Canonical JSON: object keys sorted, no insignificant whitespace.
fn encode<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    serde_json::to_value(value)
        .and_then(|v| serde_json::to_string(&v))
        .map_err(|e| e.to_string())
}

/// What a handler's `Err` carries: an explicit [`Outcome`] (`Err(Outcome::not_applied(..)
/// .into())`), settled as it says, or any `std::error::Error` through `?` (a crash), which
/// says nothing of the effect and fails the attempt with the text `"<type>: <message>"`:
/// NOT_APPLIED and retryable (the node's retry policy bounds it) when the node declares
/// its effects `none` or `idempotent` ([`TaskContext::retry_safe`]), UNCERTAIN on any
/// other node.
#[derive(Clone, Debug)]
pub struct HandlerError(Failure);

#[derive(Clone, Debug)]
enum Failure {
    /// The handler's own statement.
    Outcome(Outcome),
    /// An error the handler did not turn into an outcome: its text.
    Crash(String),
}

impl<E: std::error::Error> From<E> for HandlerError {
    fn from(error: E) -> Self {
        Self(Failure::Crash(format!(
            "{}: {error}",
            std::any::type_name::<E>()
        )))
    }
}

impl From<Outcome> for HandlerError {
    fn from(outcome: Outcome) -> Self {
        Self(Failure::Outcome(outcome))
    }
}

/// How a crash settles (an `Err` that is no outcome, a panic): it says nothing of the
/// effect, so it is assumed not applied only where the node declares a repeat safe.
fn crash(text: String, retry_safe: bool) -> Outcome {
    if retry_safe {
        Outcome::not_applied(text, true)
    } else {
        Outcome::uncertain(text)
    }
}

/// What a handler returns.
pub type HandlerResult = Result<Outcome, HandlerError>;

/// A boxed handler future.
pub type HandlerFuture = Pin<Box<dyn Future<Output = HandlerResult> + Send + 'static>>;

/// The work of one attempt. Implemented for every `Fn(TaskContext) -> impl Future<Output
/// = HandlerResult>` closure; implement it yourself for a handler with state.
pub trait Handler: Send + Sync + 'static {
    /// Does the work of one attempt. Watch [`TaskContext::cancellation`] in long work.
    fn handle(&self, ctx: TaskContext) -> HandlerFuture;
}

impl<F, Fut> Handler for F
where
    F: Fn(TaskContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult> + Send + 'static,
{
    fn handle(&self, ctx: TaskContext) -> HandlerFuture {
        Box::pin(self(ctx))
    }
}

// --- options and errors ---------------------------------------------------------------

/// How a worker claims (docs/workers.md section 1). Defaults: concurrency 1, 30 s leases,
/// 10 s long polls, batch settle on, 30 s drain timeout, a random `worker-<12 hex>` id.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    models: Vec<String>,
    worker_id: String,
    concurrency: usize,
    lease: Duration,
    poll: Duration,
    batch_settle: bool,
    drain_timeout: Duration,
}

impl WorkerOptions {
    /// Options for a worker serving `models` (at least one).
    pub fn new<I, S>(models: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            models: models.into_iter().map(Into::into).collect(),
            worker_id: format!("worker-{:012x}", random_u64() & 0xffff_ffff_ffff),
            concurrency: 1,
            lease: Duration::from_secs(30),
            poll: Duration::from_secs(10),
            batch_settle: true,
            drain_timeout: Duration::from_secs(30),
        }
    }
    /// The worker id the engine records on each attempt; settles use the same id.
    pub fn worker_id(mut self, id: impl Into<String>) -> Self {
        self.worker_id = id.into();
        self
    }
    /// Handlers running at once at most (1 to 100).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n;
        self
    }
    /// The lease asked for at claim and at every heartbeat (1 s to 1 h); heartbeats go
    /// about every lease/3.
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }
    /// How long one claim waits for work when none is ready (0 to 60 s).
    pub fn poll(mut self, wait: Duration) -> Self {
        self.poll = wait;
        self
    }
    /// Settle through `TaskService.SettleTasks` in batches (default) or one call per
    /// attempt.
    pub fn batch_settle(mut self, on: bool) -> Self {
        self.batch_settle = on;
        self
    }
    /// How long a stop waits for running handlers before cancelling them.
    pub fn drain_timeout(mut self, timeout: Duration) -> Self {
        self.drain_timeout = timeout;
        self
    }

    fn validate(&self) -> Result<(), WorkerError> {
        let bad = |m: &str| Err(WorkerError::Options(m.to_owned()));
        if self.models.is_empty() || self.models.iter().any(String::is_empty) {
            return bad("models: at least one, none empty");
        }
        if self.worker_id.is_empty() {
            return bad("worker_id: not empty");
        }
        if !(1..=MAX_CLAIM).contains(&self.concurrency) {
            return bad("concurrency: 1 to 100");
        }
        if self.lease < Duration::from_secs(1) || self.lease > Duration::from_secs(3600) {
            return bad("lease: 1 s to 1 h");
        }
        if self.poll > Duration::from_secs(60) {
            return bad("poll: at most 60 s");
        }
        Ok(())
    }
}

/// Why a worker could not start, or stopped on its own.
#[derive(Clone, Debug)]
pub enum WorkerError {
    /// The options are out of range.
    Options(String),
    /// A claim failed with a code retrying cannot fix: `UNAUTHENTICATED` (a bad token),
    /// `PERMISSION_DENIED`, `INVALID_ARGUMENT` or `UNIMPLEMENTED`.
    Fatal(RpcError),
}

impl fmt::Display for WorkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Options(m) => write!(f, "invalid worker options: {m}"),
            Self::Fatal(e) => write!(
                f,
                "the engine refused the worker's claim: {} {}: {}",
                code_name(e.code),
                e.reason.as_deref().unwrap_or("(no reason)"),
                e.message
            ),
        }
    }
}

impl std::error::Error for WorkerError {}

/// A snapshot of a worker's counters (docs/workers.md section 9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// APPLIED completions the engine accepted.
    pub completed: u64,
    /// Failures the engine accepted.
    pub failed: u64,
    /// UNCERTAIN settlements the engine accepted.
    pub uncertain: u64,
    /// Settlements the engine refused (or that could not be sent).
    pub dropped: u64,
    /// Attempts in hand right now.
    pub in_flight: u64,
}

#[derive(Default)]
struct AtomicCounters {
    completed: AtomicU64,
    failed: AtomicU64,
    uncertain: AtomicU64,
    dropped: AtomicU64,
    in_flight: AtomicU64,
}

// --- the runtime ----------------------------------------------------------------------

/// A worker: the task client, options and a handler. [`Worker::start`] runs it.
pub struct Worker<H> {
    tasks: TaskServiceClient<AuthChannel>,
    options: WorkerOptions,
    handler: H,
}

impl<H: Handler> Worker<H> {
    /// A worker over `clients.tasks` running `handler` on each claimed attempt.
    pub fn new(clients: &Clients, options: WorkerOptions, handler: H) -> Self {
        Self {
            tasks: clients.tasks.clone(),
            options,
            handler,
        }
    }

    /// Sends the first claim (`wait_ms = 0`) and returns once it was answered, so a bad
    /// token fails here, loudly, with nothing left running. A transient failure of that
    /// claim does not fail the start: claiming goes on with backoff.
    pub async fn start(self) -> Result<RunningWorker, WorkerError> {
        self.options.validate()?;
        let (settle_tx, settle_rx) = mpsc::channel(MAX_SETTLE_BATCH * 2);
        let shared = Arc::new(Shared {
            tasks: self.tasks,
            settle_unsupported: AtomicBool::new(!self.options.batch_settle),
            options: self.options,
            handler: Box::new(self.handler),
            fatal: Mutex::new(None),
            stop: CancellationToken::new(),
            counters: AtomicCounters::default(),
            in_hand: Mutex::default(),
        });
        let slots = Arc::new(Semaphore::new(shared.options.concurrency));
        let permits = take_permits(&slots).await;
        let first = first_claim(&shared, permits.len()).await?;
        tracing::info!(
            target: "praxis_client::worker",
            worker_id = %shared.options.worker_id,
            models = ?shared.options.models,
            concurrency = shared.options.concurrency,
            "worker started"
        );
        let settler = tokio::spawn(settle_loop(shared.clone(), settle_rx));
        let main = tokio::spawn(claim_loop(shared.clone(), slots, settle_tx, first, permits));
        Ok(RunningWorker {
            shared,
            main,
            settler,
        })
    }

    /// Starts, runs until `signal` resolves (e.g. `tokio::signal::ctrl_c()`) or the
    /// worker stops on a fatal error, then stops gracefully.
    pub async fn run_until<F: Future>(self, signal: F) -> Result<(), WorkerError> {
        let running = self.start().await?;
        let stop = running.shared.stop.clone();
        tokio::select! {
            _ = signal => running.stop(),
            () = stop.cancelled() => {}
        }
        running.wait().await
    }
}

/// A started worker.
pub struct RunningWorker {
    shared: Arc<Shared>,
    main: tokio::task::JoinHandle<()>,
    settler: tokio::task::JoinHandle<()>,
}

impl RunningWorker {
    /// Starts a graceful stop: no more claims; running handlers finish (up to the drain
    /// timeout) and are settled. Idempotent. [`Self::wait`] waits for it.
    pub fn stop(&self) {
        self.shared.stop.cancel();
    }
    /// A token that stops the worker when cancelled (for a signal handler elsewhere).
    pub fn stop_token(&self) -> CancellationToken {
        self.shared.stop.clone()
    }
    /// The counters right now.
    pub fn counters(&self) -> Counters {
        self.shared.counters()
    }
    /// Resolves once the worker stopped (after [`Self::stop`] or a fatal claim error)
    /// with every attempt it held settled or given up; returns the fatal error if any.
    pub async fn wait(self) -> Result<(), WorkerError> {
        let _ = self.main.await;
        let _ = self.settler.await;
        let c = self.shared.counters();
        tracing::info!(
            target: "praxis_client::worker",
            completed = c.completed, failed = c.failed, uncertain = c.uncertain,
            dropped = c.dropped, "worker stopped"
        );
        match self.shared.fatal.lock().expect("fatal lock").take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

struct Shared {
    tasks: TaskServiceClient<AuthChannel>,
    options: WorkerOptions,
    handler: Box<dyn Handler>,
    settle_unsupported: AtomicBool,
    fatal: Mutex<Option<WorkerError>>,
    stop: CancellationToken,
    counters: AtomicCounters,
    /// The cancellation of each attempt in hand, by attempt id.
    in_hand: Mutex<HashMap<String, CancellationToken>>,
}

impl Shared {
    fn lease_ms(&self) -> i64 {
        i64::try_from(self.options.lease.as_millis()).unwrap_or(i64::MAX)
    }
    fn fail_worker(&self, error: WorkerError) {
        tracing::error!(target: "praxis_client::worker", %error, "worker stopping");
        self.fatal.lock().expect("fatal lock").get_or_insert(error);
        self.stop.cancel();
    }
    fn counters(&self) -> Counters {
        let c = &self.counters;
        Counters {
            completed: c.completed.load(Ordering::Relaxed),
            failed: c.failed.load(Ordering::Relaxed),
            uncertain: c.uncertain.load(Ordering::Relaxed),
            dropped: c.dropped.load(Ordering::Relaxed),
            in_flight: c.in_flight.load(Ordering::Relaxed),
        }
    }
}

fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// The canonical upper-case name of a gRPC code (`UNAUTHENTICATED`).
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

fn with_timeout<T>(message: T, timeout: Duration) -> Request<T> {
    let mut request = Request::new(message);
    request.set_timeout(timeout);
    request
}

fn is_transient(error: &RpcError) -> bool {
    matches!(
        error.code,
        Code::Unavailable | Code::DeadlineExceeded | Code::ResourceExhausted
    ) || (error.code == Code::Aborted && error.reason.as_deref() == Some("VERSION_CONFLICT"))
}

fn is_fatal(code: Code) -> bool {
    matches!(
        code,
        Code::Unauthenticated
            | Code::PermissionDenied
            | Code::InvalidArgument
            | Code::Unimplemented
    )
}

fn is_gone(error: &RpcError) -> bool {
    error
        .reason
        .as_deref()
        .is_some_and(|r| GONE_REASONS.contains(&r))
}

/// Exponential backoff from 100 ms, doubling, capped at 5 s, full jitter.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Self {
        Self(BACKOFF_START)
    }
    fn next(&mut self) -> Duration {
        let jittered = self.0.mul_f64((random_u64() % 1001) as f64 / 1000.0);
        self.0 = (self.0 * 2).min(BACKOFF_MAX);
        jittered
    }
    fn reset(&mut self) {
        self.0 = BACKOFF_START;
    }
}

async fn take_permits(slots: &Arc<Semaphore>) -> Vec<OwnedSemaphorePermit> {
    let first = slots
        .clone()
        .acquire_owned()
        .await
        .expect("semaphore never closed");
    let mut permits = vec![first];
    while let Ok(p) = slots.clone().try_acquire_owned() {
        permits.push(p);
    }
    permits
}

fn claim_request(shared: &Shared, max: usize, wait: Duration) -> ClaimTasksRequest {
    ClaimTasksRequest {
        worker_id: shared.options.worker_id.clone(),
        models: shared.options.models.clone(),
        max_tasks: i32::try_from(max).unwrap_or(1),
        lease_ms: shared.lease_ms(),
        wait_ms: i64::try_from(wait.as_millis()).unwrap_or(0),
    }
}

async fn first_claim(shared: &Shared, max: usize) -> Result<Vec<pb::Task>, WorkerError> {
    let request = with_timeout(claim_request(shared, max, Duration::ZERO), CALL_TIMEOUT);
    match shared.tasks.clone().claim_tasks(request).await {
        Ok(r) => Ok(r.into_inner().tasks),
        Err(status) => {
            let error = RpcError::from_status(&status);
            if is_fatal(error.code) {
                let error = WorkerError::Fatal(error);
                tracing::error!(target: "praxis_client::worker", %error, "worker cannot start");
                return Err(error);
            }
            tracing::warn!(target: "praxis_client::worker", %error, "first claim failed; claiming goes on with backoff");
            Ok(Vec::new())
        }
    }
}

async fn claim_loop(
    shared: Arc<Shared>,
    slots: Arc<Semaphore>,
    settle_tx: mpsc::Sender<Pending>,
    mut tasks: Vec<pb::Task>,
    mut permits: Vec<OwnedSemaphorePermit>,
) {
    let mut running = JoinSet::new();
    let mut backoff = Backoff::new();
    let mut trouble = false;
    loop {
        // Every claimed task is run, also when the answer arrives after stop began.
        for task in tasks.drain(..) {
            let Some(permit) = permits.pop() else {
                tracing::error!(target: "praxis_client::worker", attempt_id = %task.attempt_id, "engine sent more tasks than asked for; left to expire");
                continue;
            };
            let cancel = CancellationToken::new();
            shared
                .in_hand
                .lock()
                .expect("in_hand lock")
                .insert(task.attempt_id.clone(), cancel.clone());
            running.spawn(run_attempt(
                shared.clone(),
                task,
                cancel,
                permit,
                settle_tx.clone(),
            ));
        }
        permits.clear();
        while running.try_join_next().is_some() {}
        if shared.stop.is_cancelled() {
            break;
        }
        permits = tokio::select! {
            p = take_permits(&slots) => p,
            () = shared.stop.cancelled() => break,
        };
        let request = with_timeout(
            claim_request(&shared, permits.len(), shared.options.poll),
            shared.options.poll + CALL_TIMEOUT,
        );
        let mut client = shared.tasks.clone();
        tracing::debug!(target: "praxis_client::worker", max_tasks = permits.len(), "claim");
        let answer = tokio::select! {
            a = client.claim_tasks(request) => a,
            () = shared.stop.cancelled() => break,
        };
        match answer {
            Ok(r) => {
                if trouble {
                    tracing::info!(target: "praxis_client::worker", "reconnected");
                    trouble = false;
                }
                backoff.reset();
                tasks = r.into_inner().tasks;
            }
            Err(status) => {
                let error = RpcError::from_status(&status);
                if is_fatal(error.code) {
                    shared.fail_worker(WorkerError::Fatal(error));
                    break;
                }
                if !trouble {
                    tracing::warn!(target: "praxis_client::worker", %error, "claim failed; retrying with backoff");
                    trouble = true;
                }
                permits.clear();
                tokio::select! {
                    () = tokio::time::sleep(backoff.next()) => {}
                    () = shared.stop.cancelled() => break,
                }
            }
        }
    }
    tracing::info!(target: "praxis_client::worker", in_flight = running.len(), "stopped claiming; draining");
    drop(settle_tx);
    let drained = tokio::time::timeout(shared.options.drain_timeout, async {
        while running.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            target: "praxis_client::worker",
            remaining = running.len(),
            "drain timeout: cancelling the remaining handlers; their attempts are left to expire"
        );
        for cancel in shared.in_hand.lock().expect("in_hand lock").values() {
            cancel.cancel();
        }
        running.abort_all();
        while running.join_next().await.is_some() {}
    }
}

/// Aborts a spawned task when dropped (a handler outliving the drain timeout).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The handler's future for `ctx`; with the `otel` feature and a valid `traceparent`, it
/// is created and polled with the attempt's span as the current remote parent
/// ([`crate::trace`]).
fn start_handler(shared: &Shared, ctx: TaskContext) -> HandlerFuture {
    #[cfg(feature = "otel")]
    if let Some(cx) = crate::trace::attempt_context(ctx.traceparent()) {
        use opentelemetry::context::FutureExt;
        let future = {
            let _attached = cx.clone().attach();
            shared.handler.handle(ctx)
        };
        return Box::pin(future.with_context(cx));
    }
    shared.handler.handle(ctx)
}

async fn run_attempt(
    shared: Arc<Shared>,
    task: pb::Task,
    cancel: CancellationToken,
    permit: OwnedSemaphorePermit,
    settle_tx: mpsc::Sender<Pending>,
) {
    shared.counters.in_flight.fetch_add(1, Ordering::Relaxed);
    let attempt_id = task.attempt_id.clone();
    let node_uid = task.node_uid.clone();
    tracing::debug!(target: "praxis_client::worker", %attempt_id, %node_uid, "attempt claimed");
    let ctx = TaskContext::new(task, cancel.clone());
    let retry_safe = ctx.retry_safe();
    let progress = ctx.progress.clone();
    let mut work = AbortOnDrop(tokio::spawn(start_handler(&shared, ctx)));
    let beats = AbortOnDrop(tokio::spawn(heartbeat_loop(
        shared.clone(),
        attempt_id.clone(),
        cancel,
        progress,
    )));
    let result = (&mut work.0).await;
    // Heartbeats go on until the settle is answered (section 4); dropping `beats` ends
    // them.
    let outcome = match result {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(HandlerError(Failure::Outcome(outcome)))) => {
            if let Kind::Fail { error, .. } = &outcome.kind {
                tracing::warn!(target: "praxis_client::worker", %attempt_id, %error, "handler failed");
            }
            outcome
        }
        Ok(Err(HandlerError(Failure::Crash(error)))) => {
            tracing::warn!(target: "praxis_client::worker", %attempt_id, %error, retry_safe, "handler failed");
            crash(error, retry_safe)
        }
        Err(join) => {
            let what = if join.is_panic() {
                panic_text(join.into_panic())
            } else {
                "handler task was aborted".to_owned()
            };
            tracing::warn!(target: "praxis_client::worker", %attempt_id, panic = %what, retry_safe, "handler panicked");
            crash(format!("panic: {what}"), retry_safe)
        }
    };
    let settlement = to_settlement(&shared, &attempt_id, outcome);
    let (done_tx, done_rx) = oneshot::channel();
    let pending = Pending {
        settlement,
        node_uid,
        done: done_tx,
    };
    if settle_tx.send(pending).await.is_ok() {
        let _ = done_rx.await;
    }
    drop(beats);
    drop(permit);
    shared
        .in_hand
        .lock()
        .expect("in_hand lock")
        .remove(&attempt_id);
    shared.counters.in_flight.fetch_sub(1, Ordering::Relaxed);
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-text panic payload)".to_owned()
    }
}

fn truncate(message: &str) -> String {
    if message.chars().count() <= MAX_ERROR_CHARS {
        return message.to_owned();
    }
    message.chars().take(MAX_ERROR_CHARS).collect()
}

fn fail_settlement(
    shared: &Shared,
    attempt_id: &str,
    error: &str,
    retryable: bool,
    effect: EffectOutcome,
    cost: Option<&Decimal>,
) -> Settlement {
    Settlement {
        outcome: Some(settlement::Outcome::Fail(FailTaskRequest {
            attempt_id: attempt_id.to_owned(),
            worker_id: shared.options.worker_id.clone(),
            error: truncate(error),
            retryable,
            effect: effect as i32,
            cost_microcredits: cost.map(|c| c.as_str().to_owned()).unwrap_or_default(),
        })),
    }
}

fn to_settlement(shared: &Shared, attempt_id: &str, outcome: Outcome) -> Settlement {
    if let Some(cost) = outcome.cost.as_ref().filter(|c| c.is_negative()) {
        tracing::error!(target: "praxis_client::worker", attempt_id, %cost, "invalid cost");
        let error = format!("invalid cost \"{cost}\": negative");
        return fail_settlement(shared, attempt_id, &error, false, outcome.effect, None);
    }
    match outcome.kind {
        Kind::Complete(Ok(result_json)) => Settlement {
            outcome: Some(settlement::Outcome::Complete(CompleteTaskRequest {
                attempt_id: attempt_id.to_owned(),
                worker_id: shared.options.worker_id.clone(),
                result_json,
                effect: outcome.effect as i32,
                cost_microcredits: outcome.cost.map(Decimal::into_string).unwrap_or_default(),
            })),
        },
        Kind::Complete(Err(encode)) => {
            let error = format!("result is not JSON-serialisable: {encode}");
            tracing::error!(target: "praxis_client::worker", attempt_id, %error, "unserialisable result");
            fail_settlement(
                shared,
                attempt_id,
                &error,
                false,
                outcome.effect,
                outcome.cost.as_ref(),
            )
        }
        Kind::Fail { error, retryable } => fail_settlement(
            shared,
            attempt_id,
            &error,
            retryable,
            outcome.effect,
            outcome.cost.as_ref(),
        ),
    }
}

/// Extends the attempt's lease every lease/3 until dropped; a progress report brings the
/// next heartbeat forward (at most to [`PROGRESS_INTERVAL`] after the previous one) and
/// rides on it.
async fn heartbeat_loop(
    shared: Arc<Shared>,
    attempt_id: String,
    cancel: CancellationToken,
    progress: Arc<ProgressSlot>,
) {
    use tokio::time::Instant;
    let every = (shared.options.lease / 3).max(Duration::from_millis(200));
    let mut due = Instant::now() + every;
    let mut last: Option<Instant> = None;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(due) => {}
            _ = progress.wake.notified() => {
                let now = Instant::now();
                let soon = last.map_or(now, |at| (at + PROGRESS_INTERVAL).max(now));
                due = due.min(soon);
                continue;
            }
        }
        let now = Instant::now();
        last = Some(now);
        due = now + every;
        let report = progress.take();
        let request = with_timeout(
            HeartbeatRequest {
                attempt_id: attempt_id.clone(),
                worker_id: shared.options.worker_id.clone(),
                lease_ms: shared.lease_ms(),
                progress: report.clone(),
            },
            every.max(Duration::from_secs(2)),
        );
        tracing::debug!(target: "praxis_client::worker", %attempt_id, "heartbeat");
        match shared.tasks.clone().heartbeat(request).await {
            Ok(r) => {
                if r.into_inner().cancelled {
                    tracing::info!(target: "praxis_client::worker", %attempt_id, "attempt cancelled by the engine");
                    cancel.cancel();
                    return;
                }
            }
            Err(status) => {
                let error = RpcError::from_status(&status);
                if is_gone(&error) {
                    tracing::info!(target: "praxis_client::worker", %attempt_id, %error, "lease lost; cancelling the handler");
                    cancel.cancel();
                    return;
                }
                if report.is_some() && error.code == Code::InvalidArgument {
                    tracing::warn!(target: "praxis_client::worker", %attempt_id, %error, "progress refused; heartbeating without it");
                    due = Instant::now(); // the lease still needs extending
                    continue;
                }
                tracing::warn!(target: "praxis_client::worker", %attempt_id, %error, "heartbeat failed; retrying at the next interval");
                if is_transient(&error) {
                    progress.restore(report); // sent with the next heartbeat
                }
            }
        }
    }
}

// --- settling --------------------------------------------------------------------------

struct Pending {
    settlement: Settlement,
    node_uid: String,
    done: oneshot::Sender<()>,
}

fn attempt_of(s: &Settlement) -> &str {
    match &s.outcome {
        Some(settlement::Outcome::Complete(c)) => &c.attempt_id,
        Some(settlement::Outcome::Fail(f)) => &f.attempt_id,
        None => "",
    }
}

async fn settle_loop(shared: Arc<Shared>, mut rx: mpsc::Receiver<Pending>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_SETTLE_BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        let mut work: Vec<(Settlement, String)> = batch
            .iter()
            .map(|p| (p.settlement.clone(), p.node_uid.clone()))
            .collect();
        // A completion refused with INVALID_ARGUMENT is settled again as a failure, at
        // most once (section 2, "Results").
        for _ in 0..2 {
            if work.is_empty() {
                break;
            }
            work = settle_batch(&shared, work).await;
        }
        for p in batch {
            let _ = p.done.send(());
        }
    }
}

/// Settles a batch; returns the failures to send for completions the engine refused.
async fn settle_batch(
    shared: &Arc<Shared>,
    work: Vec<(Settlement, String)>,
) -> Vec<(Settlement, String)> {
    let mut answers = Vec::with_capacity(work.len());
    if !shared.settle_unsupported.load(Ordering::Relaxed) {
        let settlements: Vec<Settlement> = work.iter().map(|(s, _)| s.clone()).collect();
        match settle_many(shared, settlements).await {
            Ok(results) => answers = results,
            Err(error) if error.code == Code::Unimplemented => {
                tracing::info!(target: "praxis_client::worker", "the server has no SettleTasks; settling with CompleteTask / FailTask");
                shared.settle_unsupported.store(true, Ordering::Relaxed);
            }
            Err(error) => {
                answers = work
                    .iter()
                    .map(|_| settlement_result::Result::Error(to_settlement_error(&error)))
                    .collect();
            }
        }
    }
    if answers.is_empty() {
        // One call per attempt, all at once (the batch is at most 100).
        let mut calls = JoinSet::new();
        for (i, (s, _)) in work.iter().enumerate() {
            let (shared, s) = (shared.clone(), s.clone());
            calls.spawn(async move { (i, settle_one(&shared, s).await) });
        }
        let mut slots: Vec<Option<settlement_result::Result>> = vec![None; work.len()];
        while let Some(joined) = calls.join_next().await {
            if let Ok((i, answer)) = joined {
                slots[i] = Some(answer);
            }
        }
        answers = slots
            .into_iter()
            .map(|a| {
                a.unwrap_or_else(|| {
                    let error = RpcError::from_status(&Status::internal("settle task failed"));
                    settlement_result::Result::Error(to_settlement_error(&error))
                })
            })
            .collect();
    }
    work.into_iter()
        .zip(answers)
        .filter_map(|((s, uid), answer)| judge(shared, &s, &uid, answer).map(|f| (f, uid)))
        .collect()
}

fn to_settlement_error(error: &RpcError) -> pb::SettlementError {
    pb::SettlementError {
        code: error.code as i32,
        reason: error.reason.clone().unwrap_or_default(),
        message: error.message.clone(),
    }
}

async fn retry_transient<T, F, Fut>(shared: &Shared, mut call: F) -> Result<T, RpcError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Status>>,
{
    let mut backoff = Backoff::new();
    let mut stopping_since: Option<tokio::time::Instant> = None;
    let mut warned = false;
    loop {
        let error = match call().await {
            Ok(v) => return Ok(v),
            Err(status) => RpcError::from_status(&status),
        };
        if !is_transient(&error) {
            return Err(error);
        }
        if shared.stop.is_cancelled() {
            let since = *stopping_since.get_or_insert_with(tokio::time::Instant::now);
            if since.elapsed() > shared.options.drain_timeout {
                return Err(error);
            }
        }
        if !warned {
            tracing::warn!(target: "praxis_client::worker", %error, "settle failed; retrying with backoff");
            warned = true;
        }
        tokio::time::sleep(backoff.next()).await;
    }
}

async fn settle_many(
    shared: &Shared,
    settlements: Vec<Settlement>,
) -> Result<Vec<settlement_result::Result>, RpcError> {
    let n = settlements.len();
    tracing::debug!(target: "praxis_client::worker", n, "settle");
    let response = retry_transient(shared, || {
        let mut client = shared.tasks.clone();
        let request = with_timeout(
            SettleTasksRequest {
                settlements: settlements.clone(),
                claim: None,
            },
            CALL_TIMEOUT,
        );
        async move { client.settle_tasks(request).await }
    })
    .await?
    .into_inner();
    let results: Vec<_> = response
        .results
        .into_iter()
        .filter_map(|r| r.result)
        .collect();
    if results.len() != n {
        return Err(RpcError::from_status(&Status::internal(
            "SettleTasks answered a different number of results",
        )));
    }
    Ok(results)
}

async fn settle_one(shared: &Shared, s: Settlement) -> settlement_result::Result {
    let answer = match s.outcome {
        Some(settlement::Outcome::Complete(c)) => retry_transient(shared, || {
            let mut client = shared.tasks.clone();
            let request = with_timeout(c.clone(), CALL_TIMEOUT);
            async move { client.complete_task(request).await }
        })
        .await
        .map(|r| settlement_result::Result::Complete(r.into_inner())),
        Some(settlement::Outcome::Fail(f)) => retry_transient(shared, || {
            let mut client = shared.tasks.clone();
            let request = with_timeout(f.clone(), CALL_TIMEOUT);
            async move { client.fail_task(request).await }
        })
        .await
        .map(|r| settlement_result::Result::Fail(r.into_inner())),
        None => Err(RpcError::from_status(&Status::internal("empty settlement"))),
    };
    answer.unwrap_or_else(|error| settlement_result::Result::Error(to_settlement_error(&error)))
}

/// Counts and logs one settlement's answer; a completion refused with INVALID_ARGUMENT
/// becomes a failure to send (section 2).
fn judge(
    shared: &Shared,
    s: &Settlement,
    node_uid: &str,
    answer: settlement_result::Result,
) -> Option<Settlement> {
    let attempt_id = attempt_of(s);
    let counters = &shared.counters;
    let effect = match &s.outcome {
        Some(settlement::Outcome::Complete(c)) => c.effect,
        Some(settlement::Outcome::Fail(f)) => f.effect,
        None => 0,
    };
    let error = match answer {
        settlement_result::Result::Complete(_) | settlement_result::Result::Fail(_)
            if effect == EffectOutcome::Uncertain as i32 =>
        {
            counters.uncertain.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        settlement_result::Result::Complete(_) => {
            counters.completed.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        settlement_result::Result::Fail(_) => {
            counters.failed.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        settlement_result::Result::Error(e) => e,
    };
    counters.dropped.fetch_add(1, Ordering::Relaxed);
    let rpc = RpcError {
        code: Code::from_i32(error.code),
        reason: Some(error.reason.clone()).filter(|r| !r.is_empty()),
        metadata: Default::default(),
        field_violations: Vec::new(),
        message: error.message.clone(),
    };
    let reason = rpc.reason.as_deref().unwrap_or("");
    if is_gone(&rpc) {
        tracing::info!(target: "praxis_client::worker", attempt_id, "result of {node_uid} dropped: {reason}");
        return None;
    }
    match &s.outcome {
        Some(settlement::Outcome::Complete(c)) if rpc.code == Code::InvalidArgument => {
            tracing::error!(target: "praxis_client::worker", attempt_id, error = %rpc, "result rejected; failing the attempt");
            let text = format!("result rejected: {reason}: {}", rpc.message);
            let cost = Decimal::parse(&c.cost_microcredits).ok();
            let effect = EffectOutcome::try_from(c.effect).unwrap_or(EffectOutcome::Applied);
            Some(fail_settlement(
                shared,
                attempt_id,
                &text,
                reason == "RESULT_CONTRACT_VIOLATION",
                effect,
                cost.as_ref(),
            ))
        }
        _ => {
            tracing::error!(
                target: "praxis_client::worker",
                attempt_id,
                code = code_name(rpc.code),
                reason,
                message = %rpc.message,
                "settlement refused"
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_carries_the_provider_and_the_function_policy() {
        let task = pb::Task {
            agent: Some(pb::AgentSpec {
                model: "m".into(),
                provider: "acme".into(),
                functions_json: r#"{"allow":["calc","web.*"],"deny":["*.fetch"]}"#.into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let ctx = TaskContext::new(task, CancellationToken::new());
        assert_eq!(ctx.provider(), "acme");
        assert!(ctx.function_allowed("calc") && ctx.function_allowed("web.search"));
        assert!(!ctx.function_allowed("web.fetch") && !ctx.function_allowed("calculator"));
        let old = TaskContext::new(pb::Task::default(), CancellationToken::new());
        assert!(old.function_allowed("anything") && old.provider().is_empty());
        assert!(glob_matches("*", "") && glob_matches("a*b*c", "axxbyyc"));
        assert!(!glob_matches("a*b", "ab.c") && !glob_matches("ab*ba", "aba"));
        assert!(!glob_matches("a*a", "a") && glob_matches("a**b", "ab"));
    }

    fn message(outcome: &Outcome) -> (&str, bool) {
        match &outcome.kind {
            Kind::Fail { error, retryable } => (error, *retryable),
            Kind::Complete(_) => panic!("not a failure"),
        }
    }

    #[test]
    fn unserializable_results_are_caught_at_encoding() {
        struct Bad;
        impl Serialize for Bad {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("Bad cannot be encoded"))
            }
        }
        let outcome = Outcome::applied(&Bad);
        assert!(matches!(&outcome.kind, Kind::Complete(Err(e)) if e.contains("Bad cannot")));
    }

    #[test]
    fn results_are_canonical_json() {
        #[derive(Serialize)]
        struct R {
            z: i32,
            a: &'static str,
        }
        let outcome = Outcome::applied(&R { z: 1, a: "x" });
        assert!(matches!(outcome.kind, Kind::Complete(Ok(ref j)) if j == r#"{"a":"x","z":1}"#));
    }

    #[test]
    fn errors_are_crashes_settled_by_the_declared_effects() {
        fn parse() -> Result<i32, HandlerError> {
            Ok("x".parse::<i32>()?)
        }
        let HandlerError(Failure::Crash(text)) = parse().unwrap_err() else {
            panic!("an error through ? must be a crash");
        };
        assert!(
            text.starts_with("core::num::error::ParseIntError: "),
            "{text}"
        );
        let safe = crash(text.clone(), true);
        assert_eq!(message(&safe), (text.as_str(), true));
        assert_eq!(safe.effect, EffectOutcome::NotApplied);
        let unsafe_ = crash(text.clone(), false);
        assert_eq!(message(&unsafe_), (text.as_str(), false));
        assert_eq!(unsafe_.effect, EffectOutcome::Uncertain);
        let explicit: HandlerError = Outcome::not_applied("nothing sent", true).into();
        assert!(
            matches!(explicit.0, Failure::Outcome(ref o) if message(o) == ("nothing sent", true))
        );
        let uncertain = Outcome::uncertain("lost the connection mid-call");
        assert_eq!(uncertain.effect, EffectOutcome::Uncertain);
        assert!(!message(&uncertain).1);
        assert!(!message(&Outcome::not_applied("no", false)).1);
    }

    #[test]
    fn only_none_and_idempotent_are_retry_safe() {
        let safe = |effects: pb::NodeEffects| {
            let task = pb::Task {
                effects: effects as i32,
                ..Default::default()
            };
            TaskContext::new(task, CancellationToken::new()).retry_safe()
        };
        assert!(!safe(pb::NodeEffects::Unspecified));
        assert!(safe(pb::NodeEffects::None));
        assert!(safe(pb::NodeEffects::Idempotent));
        assert!(!safe(pb::NodeEffects::External));
    }

    #[test]
    fn long_errors_are_cut() {
        let long = "é".repeat(MAX_ERROR_CHARS + 10);
        assert_eq!(truncate(&long).chars().count(), MAX_ERROR_CHARS);
        assert_eq!(truncate("short"), "short");
    }

    #[test]
    fn options_are_checked() {
        assert!(WorkerOptions::new(["m"]).validate().is_ok());
        assert!(WorkerOptions::new(Vec::<String>::new()).validate().is_err());
        assert!(WorkerOptions::new(["m"]).concurrency(0).validate().is_err());
        assert!(WorkerOptions::new(["m"])
            .concurrency(101)
            .validate()
            .is_err());
        assert!(WorkerOptions::new(["m"])
            .lease(Duration::from_millis(10))
            .validate()
            .is_err());
        let id = WorkerOptions::new(["m"]).worker_id;
        assert!(id.starts_with("worker-") && id.len() == 19, "{id}");
    }

    #[test]
    fn transient_gone_and_fatal_codes() {
        let e = |code, reason: Option<&str>| RpcError {
            code,
            reason: reason.map(str::to_owned),
            metadata: HashMap::new(),
            field_violations: Vec::new(),
            message: String::new(),
        };
        assert!(is_transient(&e(Code::Unavailable, None)));
        assert!(is_transient(&e(Code::Aborted, Some("VERSION_CONFLICT"))));
        assert!(!is_transient(&e(Code::Aborted, None)));
        assert!(is_gone(&e(Code::FailedPrecondition, Some("LEASE_EXPIRED"))));
        assert!(!is_gone(&e(
            Code::FailedPrecondition,
            Some("BUDGET_EXCEEDED")
        )));
        assert!(is_fatal(Code::Unauthenticated) && !is_fatal(Code::Unavailable));
        assert_eq!(code_name(Code::Unauthenticated), "UNAUTHENTICATED");
    }
}
