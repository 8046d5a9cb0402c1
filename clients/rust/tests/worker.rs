//! The worker runtime against a fake TaskService on a loopback port: the README's worker
//! (examples/worker.rs, included verbatim), a bad token, unserialisable results, crashes
//! settled by the node's declared effects, cancellation through heartbeats, and the
//! fallback from SettleTasks to CompleteTask.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use praxis_client::aiws::engine::v1::task_service_server::{TaskService, TaskServiceServer};
use praxis_client::aiws::engine::v1::*;
use praxis_client::worker::{
    HandlerResult, Outcome, TaskContext, Worker, WorkerError, WorkerOptions,
};
use praxis_client::{connect, DOMAIN};
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

#[path = "../examples/worker.rs"]
#[allow(dead_code)]
mod example;

#[derive(Default)]
struct State {
    queue: Vec<Task>,
    completed: Vec<CompleteTaskRequest>,
    failed: Vec<FailTaskRequest>,
    settle_calls: usize,
    heartbeats: usize,
    cancel_heartbeats: bool,
    reports: Vec<(ProgressReport, std::time::Instant)>,
}

#[derive(Clone)]
struct Fake {
    state: Arc<Mutex<State>>,
    settle_tasks: bool,
}

fn check_token<T>(request: &Request<T>) -> Result<(), Status> {
    let auth = request
        .metadata()
        .get("authorization")
        .and_then(|v| v.to_str().ok());
    if auth == Some("Bearer secret") {
        return Ok(());
    }
    Err(Status::with_error_details(
        Code::Unauthenticated,
        "bad token",
        ErrorDetails::with_error_info(
            "CREDENTIAL_INVALID",
            DOMAIN,
            std::collections::HashMap::new(),
        ),
    ))
}

#[tonic::async_trait]
impl TaskService for Fake {
    async fn list_models(
        &self,
        _request: Request<ListModelsRequest>,
    ) -> Result<Response<ListModelsResponse>, Status> {
        Err(Status::unimplemented(
            "the fake serves only the worker's methods",
        ))
    }

    async fn claim_tasks(
        &self,
        request: Request<ClaimTasksRequest>,
    ) -> Result<Response<ClaimTasksResponse>, Status> {
        check_token(&request)?;
        let max = request.get_ref().max_tasks as usize;
        let wait = request.get_ref().wait_ms;
        let tasks: Vec<Task> = {
            let mut s = self.state.lock().unwrap();
            let n = max.min(s.queue.len());
            s.queue.drain(..n).collect()
        };
        if tasks.is_empty() && wait > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Response::new(ClaimTasksResponse { tasks }))
    }

    async fn heartbeat(
        &self,
        request: Request<HeartbeatRequest>,
    ) -> Result<Response<HeartbeatResponse>, Status> {
        check_token(&request)?;
        let mut s = self.state.lock().unwrap();
        s.heartbeats += 1;
        if let Some(report) = request.get_ref().progress.clone() {
            s.reports.push((report, std::time::Instant::now()));
        }
        Ok(Response::new(HeartbeatResponse {
            lease_expires_at_ms: 0,
            cancelled: s.cancel_heartbeats,
            paused: false,
        }))
    }

    async fn complete_task(
        &self,
        request: Request<CompleteTaskRequest>,
    ) -> Result<Response<CompleteTaskResponse>, Status> {
        check_token(&request)?;
        self.state
            .lock()
            .unwrap()
            .completed
            .push(request.into_inner());
        Ok(Response::new(CompleteTaskResponse { replayed: false }))
    }

    async fn fail_task(
        &self,
        request: Request<FailTaskRequest>,
    ) -> Result<Response<FailTaskResponse>, Status> {
        check_token(&request)?;
        self.state.lock().unwrap().failed.push(request.into_inner());
        Ok(Response::new(FailTaskResponse {
            will_retry: false,
            replayed: false,
        }))
    }

    async fn settle_tasks(
        &self,
        request: Request<SettleTasksRequest>,
    ) -> Result<Response<SettleTasksResponse>, Status> {
        check_token(&request)?;
        if !self.settle_tasks {
            return Err(Status::unimplemented("no SettleTasks here"));
        }
        let mut s = self.state.lock().unwrap();
        s.settle_calls += 1;
        let mut results = Vec::new();
        for settlement in request.into_inner().settlements {
            let (attempt_id, result) = match settlement.outcome.unwrap() {
                settlement::Outcome::Complete(c) => {
                    let id = c.attempt_id.clone();
                    s.completed.push(c);
                    (
                        id,
                        settlement_result::Result::Complete(CompleteTaskResponse::default()),
                    )
                }
                settlement::Outcome::Fail(f) => {
                    let id = f.attempt_id.clone();
                    s.failed.push(f);
                    (
                        id,
                        settlement_result::Result::Fail(FailTaskResponse::default()),
                    )
                }
            };
            results.push(SettlementResult {
                attempt_id,
                result: Some(result),
            });
        }
        Ok(Response::new(SettleTasksResponse {
            results,
            tasks: Vec::new(),
        }))
    }
}

fn task(id: &str, input: serde_json::Value) -> Task {
    Task {
        attempt_id: id.into(),
        run_id: "run-1".into(),
        node_uid: "a".into(),
        node_id: "a".into(),
        attempt: 1,
        input_json: input.to_string(),
        ..Default::default()
    }
}

async fn serve(fake: Fake) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TaskServiceServer::new(fake))
            .serve_with_incoming(TcpListenerStream::new(listener)),
    );
    address
}

fn fake(settle_tasks: bool, queue: Vec<Task>) -> (Fake, Arc<Mutex<State>>) {
    let state = Arc::new(Mutex::new(State {
        queue,
        ..Default::default()
    }));
    (
        Fake {
            state: state.clone(),
            settle_tasks,
        },
        state,
    )
}

async fn until(state: &Arc<Mutex<State>>, done: impl Fn(&State) -> bool) {
    for _ in 0..200 {
        if done(&state.lock().unwrap()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("condition not reached in 5 s");
}

fn options() -> WorkerOptions {
    WorkerOptions::new(["summarise"])
        .worker_id("w-1")
        .concurrency(2)
        .lease(Duration::from_secs(1))
        .poll(Duration::from_millis(100))
}

#[test]
fn readme_shows_the_example_verbatim() {
    let readme = include_str!("../README.md");
    let example = include_str!("../examples/worker.rs");
    assert!(
        readme.contains(example),
        "README.md must contain examples/worker.rs verbatim"
    );
}

#[tokio::test]
async fn the_readme_worker_completes_with_result_and_cost() {
    let long = "x".repeat(150);
    let (fake, state) = fake(
        true,
        vec![task("att-1", serde_json::json!({ "text": long }))],
    );
    let address = serve(fake).await;
    let clients = connect(&address, "secret").await.unwrap();
    let running = Worker::new(&clients, options(), example::summarise)
        .start()
        .await
        .unwrap();
    until(&state, |s| !s.completed.is_empty()).await;
    running.stop();
    running.wait().await.unwrap();
    let s = state.lock().unwrap();
    let done = &s.completed[0];
    assert_eq!(done.attempt_id, "att-1");
    assert_eq!(done.worker_id, "w-1");
    assert_eq!(
        done.result_json,
        format!(r#"{{"summary":"{}"}}"#, "x".repeat(100))
    );
    assert_eq!(done.effect, EffectOutcome::Applied as i32);
    assert_eq!(done.cost_microcredits, "12.5");
    assert_eq!(s.settle_calls, 1);
}

#[tokio::test]
async fn input_mismatch_and_unserialisable_results_fail_without_retry() {
    struct Bad;
    impl serde::Serialize for Bad {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("Bad cannot be encoded"))
        }
    }
    #[derive(serde::Deserialize)]
    struct Input {
        #[allow(dead_code)]
        text: String,
    }
    async fn handler(ctx: TaskContext) -> HandlerResult {
        if ctx.attempt_id() == "att-bad" {
            return Ok(Outcome::applied(&Bad));
        }
        let _input: Input = ctx.input_as()?; // a mismatch: NOT_APPLIED, not retryable
        example::summarise(ctx).await
    }
    let (fake, state) = fake(
        false,
        vec![
            task("att-bad", serde_json::json!({})),
            task("att-mismatch", serde_json::json!({ "text": 3 })),
            task("att-empty", serde_json::json!({ "text": "" })),
        ],
    );
    let address = serve(fake).await;
    let clients = connect(&address, "secret").await.unwrap();
    let running = Worker::new(&clients, options(), handler)
        .start()
        .await
        .unwrap();
    until(&state, |s| s.failed.len() == 3).await;
    running.stop();
    running.wait().await.unwrap();
    let s = state.lock().unwrap();
    let empty = s
        .failed
        .iter()
        .find(|f| f.attempt_id == "att-empty")
        .unwrap();
    assert!(!empty.retryable);
    assert_eq!(empty.effect, EffectOutcome::NotApplied as i32);
    assert_eq!(empty.error, "no text to summarise"); // the README example's own refusal
    let bad = s.failed.iter().find(|f| f.attempt_id == "att-bad").unwrap();
    assert!(!bad.retryable);
    assert!(
        bad.error.starts_with("result is not JSON-serialisable: "),
        "{}",
        bad.error
    );
    assert!(bad.error.contains("Bad cannot be encoded"));
    assert_eq!(bad.effect, EffectOutcome::Applied as i32);
    let mismatch = s
        .failed
        .iter()
        .find(|f| f.attempt_id == "att-mismatch")
        .unwrap();
    assert!(!mismatch.retryable);
    assert_eq!(mismatch.effect, EffectOutcome::NotApplied as i32);
    assert!(
        mismatch.error.starts_with("input is not a "),
        "{}",
        mismatch.error
    );
    assert!(s.completed.is_empty());
    assert_eq!(s.settle_calls, 0, "SettleTasks answered UNIMPLEMENTED");
}

fn task_declaring(id: &str, input: serde_json::Value, effects: NodeEffects) -> Task {
    Task {
        effects: effects as i32,
        ..task(id, input)
    }
}

#[tokio::test]
async fn a_crash_settles_by_what_the_node_declares_of_its_effects() {
    #[derive(Debug)]
    struct Gateway;
    impl std::fmt::Display for Gateway {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("gateway hung up")
        }
    }
    impl std::error::Error for Gateway {}
    let safe = Arc::new(Mutex::new(Vec::new()));
    let seen = safe.clone();
    let handler = move |ctx: TaskContext| {
        let seen = seen.clone();
        async move {
            if ctx.retry_safe() {
                seen.lock().unwrap().push(ctx.attempt_id().to_owned());
            }
            match ctx.input()["do"].as_str() {
                Some("panic") => panic!("bad state"),
                Some("not-applied") => Err(Outcome::not_applied("nothing sent", true).into()),
                _ => {
                    Err(Gateway)?;
                    Ok(Outcome::applied("unreachable"))
                }
            }
        }
    };
    let raise = serde_json::json!({ "do": "raise" });
    let (fake, state) = fake(
        true,
        vec![
            task("att-undeclared", raise.clone()),
            task_declaring("att-external", raise.clone(), NodeEffects::External),
            task_declaring("att-idempotent", raise.clone(), NodeEffects::Idempotent),
            task_declaring("att-none", raise, NodeEffects::None),
            task("att-panic", serde_json::json!({ "do": "panic" })),
            task_declaring(
                "att-panic-none",
                serde_json::json!({ "do": "panic" }),
                NodeEffects::None,
            ),
            task_declaring(
                "att-not-applied",
                serde_json::json!({ "do": "not-applied" }),
                NodeEffects::External,
            ),
        ],
    );
    let address = serve(fake).await;
    let clients = connect(&address, "secret").await.unwrap();
    let running = Worker::new(&clients, options(), handler)
        .start()
        .await
        .unwrap();
    until(&state, |s| s.failed.len() == 7).await;
    running.stop();
    let mut counters = running.counters();
    for _ in 0..200 {
        if counters.failed + counters.uncertain == 7 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
        counters = running.counters();
    }
    running.wait().await.unwrap();
    let s = state.lock().unwrap();
    let failed = |id: &str| s.failed.iter().find(|f| f.attempt_id == id).unwrap();
    let gateway = format!("{}: gateway hung up", std::any::type_name::<Gateway>());
    // A crash says nothing of the effect: UNCERTAIN unless the node is retry-safe.
    for (id, text) in [
        ("att-undeclared", gateway.as_str()),
        ("att-external", gateway.as_str()),
        ("att-panic", "panic: bad state"),
    ] {
        let f = failed(id);
        assert_eq!(f.effect, EffectOutcome::Uncertain as i32, "{id}");
        assert!(!f.retryable, "{id}");
        assert_eq!(f.error, text, "{id}");
    }
    for (id, text) in [
        ("att-idempotent", gateway.as_str()),
        ("att-none", gateway.as_str()),
        ("att-panic-none", "panic: bad state"),
        ("att-not-applied", "nothing sent"),
    ] {
        let f = failed(id);
        assert_eq!(f.effect, EffectOutcome::NotApplied as i32, "{id}");
        assert!(f.retryable, "{id}");
        assert_eq!(f.error, text, "{id}");
    }
    let mut safe = safe.lock().unwrap().clone();
    safe.sort();
    assert_eq!(safe, ["att-idempotent", "att-none", "att-panic-none"]);
    assert_eq!((counters.failed, counters.uncertain), (4, 3));
}

#[tokio::test]
async fn a_bad_token_fails_start() {
    let (fake, _state) = fake(true, Vec::new());
    let address = serve(fake).await;
    let clients = connect(&address, "wrong").await.unwrap();
    match Worker::new(&clients, options(), example::summarise)
        .start()
        .await
    {
        Err(WorkerError::Fatal(error)) => {
            assert_eq!(
                error.code_and_reason(),
                (Code::Unauthenticated, Some("CREDENTIAL_INVALID"))
            );
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("started with a bad token"),
    }
}

#[tokio::test]
async fn a_cancelled_heartbeat_cancels_the_handler_and_stop_drains() {
    async fn hang(ctx: TaskContext) -> HandlerResult {
        ctx.cancelled().await;
        Err(Outcome::not_applied("cancelled", true).into())
    }
    let (fake, state) = fake(true, vec![task("att-hang", serde_json::json!({}))]);
    let address = serve(fake).await;
    let clients = connect(&address, "secret").await.unwrap();
    let running = Worker::new(&clients, options(), hang)
        .start()
        .await
        .unwrap();
    until(&state, |s| s.heartbeats >= 1).await;
    assert!(
        state.lock().unwrap().failed.is_empty(),
        "settled before the cancellation"
    );
    state.lock().unwrap().cancel_heartbeats = true;
    until(&state, |s| !s.failed.is_empty()).await;
    assert_eq!(running.counters().failed, 1);
    running.stop();
    running.wait().await.unwrap();
    let s = state.lock().unwrap();
    assert_eq!(s.failed[0].error, "cancelled");
    assert!(s.failed[0].retryable);
}

#[tokio::test]
async fn progress_rides_on_heartbeats_brought_forward_and_rate_limited() {
    async fn report(ctx: TaskContext) -> HandlerResult {
        let refused = [
            ctx.progress(&"x".repeat(513), None),
            ctx.progress("", Some(serde_json::json!({ "r": 0.5 }))),
            ctx.progress("", Some(serde_json::json!([1u64 << 53]))),
            ctx.progress("", Some(serde_json::json!({ "log": "y".repeat(1100) }))),
        ];
        assert!(refused.iter().all(Result::is_err), "{refused:?}");
        for step in 1..=5 {
            ctx.progress(
                &format!("step {step} of 5"),
                Some(serde_json::json!({ "step": step })),
            )
            .unwrap();
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        ctx.progress("step 6 of 5", Some(serde_json::json!({ "step": 6 })))
            .unwrap();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        Ok(Outcome::applied(&serde_json::json!({ "done": true })))
    }
    let (fake, state) = fake(true, vec![task("att-p", serde_json::json!({}))]);
    let address = serve(fake).await;
    let clients = connect(&address, "secret").await.unwrap();
    let options = options().lease(Duration::from_secs(60));
    let running = Worker::new(&clients, options, report)
        .start()
        .await
        .unwrap();
    until(&state, |s| !s.completed.is_empty()).await;
    running.stop();
    running.wait().await.unwrap();
    let s = state.lock().unwrap();
    let n = s.reports.len();
    assert!((2..=3).contains(&n), "{:?}", s.reports);
    assert_eq!(s.reports[n - 1].0.text, "step 6 of 5");
    assert_eq!(s.reports[n - 1].0.data_json, r#"{"step":6}"#);
    let gap = s.reports[n - 1].1 - s.reports[n - 2].1;
    assert!(
        gap >= Duration::from_millis(900),
        "not rate-limited: {gap:?}"
    );
}

/// The trace tests below need the `otel` feature: under CI (scripts/test_rust.sh passes
/// `--features otel`) their absence is a failure, never a silent skip.
#[cfg(not(feature = "otel"))]
#[test]
fn trace_tests_run_under_ci() {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the tests with `--features otel` (tests/worker.rs, mod otel)"
    );
}

/// With the `otel` feature (scripts/test_rust.sh runs the tests with it): a span the
/// handler starts is a child of the task's `traceparent`, in the same trace; an empty or
/// malformed `traceparent` gives a root span and the handler still runs.
#[cfg(feature = "otel")]
mod otel {
    use super::*;
    use opentelemetry::trace::{SpanId, TraceContextExt, TraceId, Tracer, TracerProvider};
    use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SimpleSpanProcessor};

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[tokio::test]
    async fn the_handler_runs_inside_the_attempts_trace() {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(SimpleSpanProcessor::new(exporter.clone()))
            .build();
        let tracer = provider.tracer("handler");
        let mut queue = Vec::new();
        for (id, traceparent) in [
            ("att-traced", PARENT),
            ("att-empty", ""),
            (
                "att-malformed",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            ),
            (
                "att-zero",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            ),
        ] {
            let mut t = task(id, serde_json::json!({}));
            t.traceparent = traceparent.into();
            queue.push(t);
        }
        let (fake, state) = fake(true, queue);
        let address = serve(fake).await;
        let clients = connect(&address, "secret").await.unwrap();
        let handler = move |ctx: TaskContext| {
            let tracer = tracer.clone();
            async move {
                // Across an await point too: the context goes with every poll.
                tokio::task::yield_now().await;
                let current = opentelemetry::Context::current();
                let inside = current.span().span_context().clone();
                tracer.in_span(ctx.attempt_id().to_owned(), |_| ());
                Ok(Outcome::applied(&serde_json::json!({
                    "current_is_remote": inside.is_remote(),
                    "current_span": inside.span_id().to_string(),
                })))
            }
        };
        let running = Worker::new(&clients, options(), handler)
            .start()
            .await
            .unwrap();
        until(&state, |s| s.completed.len() == 4).await;
        running.stop();
        running.wait().await.unwrap();
        provider.force_flush().unwrap();
        let spans = exporter.get_finished_spans().unwrap();
        assert_eq!(spans.len(), 4);
        let span = |name: &str| spans.iter().find(|s| s.name == name).unwrap();
        let traced = span("att-traced");
        assert_eq!(
            traced.span_context.trace_id(),
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap()
        );
        assert_eq!(
            traced.parent_span_id,
            SpanId::from_hex("00f067aa0ba902b7").unwrap()
        );
        assert!(traced.parent_span_is_remote);
        for root in ["att-empty", "att-malformed", "att-zero"] {
            let s = span(root);
            assert_eq!(s.parent_span_id, SpanId::INVALID, "{root} has a parent");
            assert_ne!(
                s.span_context.trace_id(),
                TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap()
            );
        }
        let s = state.lock().unwrap();
        let result = |id: &str| {
            let done = s.completed.iter().find(|c| c.attempt_id == id).unwrap();
            serde_json::from_str::<serde_json::Value>(&done.result_json).unwrap()
        };
        assert_eq!(
            result("att-traced"),
            serde_json::json!({"current_is_remote": true, "current_span": "00f067aa0ba902b7"})
        );
        assert_eq!(
            result("att-empty"),
            serde_json::json!({"current_is_remote": false, "current_span": "0000000000000000"})
        );
    }
}
