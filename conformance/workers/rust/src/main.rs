//! The Rust scenario worker (conformance/workers/README.md): the public worker runtime with
//! the scripted handler, until SIGTERM. Prints `ready`, `cancelled` and `stopped` events as
//! JSON lines on stdout; logs go to stderr.

use std::io::Write;
use std::time::Duration;

use praxis_client::worker::{HandlerResult, Outcome, TaskContext, Worker, WorkerOptions};
use praxis_client::Decimal;
use serde_json::{json, Value};

fn emit(event: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{event}");
    let _ = out.flush();
}

/// A value whose `Serialize` fails.
struct Unserializable;

impl serde::Serialize for Unserializable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(
            "Unserializable refuses to be serialized",
        ))
    }
}

fn with_cost(outcome: Outcome, spec: &Value) -> Result<Outcome, String> {
    match spec.get("cost").and_then(Value::as_str) {
        Some(cost) => Ok(outcome.with_cost(Decimal::parse(cost).map_err(|e| e.to_string())?)),
        None => Ok(outcome),
    }
}

/// The current OpenTelemetry span context as a W3C `traceparent` ("" when none is valid),
/// read with the API only.
fn current_traceparent() -> String {
    use opentelemetry::trace::TraceContextExt;
    let cx = opentelemetry::Context::current();
    let span = cx.span();
    let sc = span.span_context();
    if !sc.is_valid() {
        return String::new();
    }
    format!(
        "00-{}-{}-{:02x}",
        sc.trace_id(),
        sc.span_id(),
        sc.trace_flags().to_u8()
    )
}

async fn handle(ctx: TaskContext) -> HandlerResult {
    let spec = ctx.input().clone();
    let Some(action) = spec.get("do").and_then(Value::as_str) else {
        return Ok(Outcome::applied(&json!({ "echo": spec })));
    };
    let text = |key: &str, default: &str| {
        spec.get(key)
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_owned()
    };
    let result = spec.get("result").cloned().unwrap_or_else(|| spec.clone());
    match action {
        "complete" => Ok(with_cost(Outcome::applied(&result), &spec)
            .map_err(|e| Outcome::not_applied(e, false))?),
        "fail" => {
            let retryable = spec
                .get("retryable")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            Err(Outcome::not_applied(text("error", "failed"), retryable).into())
        }
        "uncertain" if spec.get("result").is_some() => Ok(Outcome::uncertain_with_result(&result)),
        "uncertain" => Err(Outcome::uncertain(text("error", "uncertain")).into()),
        // A plain error, never an outcome: the runtime settles it by the node's effects.
        "raise" => Err(std::io::Error::other(text("error", "raised")).into()),
        "sleep" => {
            let ms = spec.get("ms").and_then(Value::as_u64).unwrap_or(0);
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                () = ctx.cancelled() => emit(json!({"event": "cancelled", "attempt_id": ctx.attempt_id()})),
            }
            Ok(Outcome::applied(&result))
        }
        "hang" => {
            ctx.cancelled().await;
            emit(json!({"event": "cancelled", "attempt_id": ctx.attempt_id()}));
            match spec.get("then").and_then(Value::as_str) {
                // Stopped before the effect: say so.
                Some("not_applied") => {
                    Err(Outcome::not_applied(text("error", "stopped before the effect"), false).into())
                }
                // The effect happened before the stop landed.
                Some("applied") if spec.get("result").is_some() => Ok(Outcome::applied(&result)),
                _ => Ok(Outcome::applied(&json!({ "hung": true }))),
            }
        }
        "progress" => {
            let steps = spec.get("steps").and_then(Value::as_u64).unwrap_or(1);
            let ms = spec.get("ms").and_then(Value::as_u64).unwrap_or(0);
            let hold = spec.get("hold_ms").and_then(Value::as_u64).unwrap_or(0);
            for step in 1..=steps {
                ctx.progress(
                    &format!("step {step} of {steps}"),
                    Some(json!({ "step": step, "of": steps })),
                )
                .map_err(|e| Outcome::not_applied(e.to_string(), false))?;
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    () = ctx.cancelled() => break,
                }
            }
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(hold)) => {}
                () = ctx.cancelled() => {}
            }
            Ok(Outcome::applied(&json!({ "steps": steps })))
        }
        "unserializable" => Ok(Outcome::applied(&Unserializable)),
        "trace" => Ok(Outcome::applied(&json!({
            "traceparent": ctx.traceparent(),
            "current": current_traceparent(),
        }))),
        _ => Ok(Outcome::applied(&json!({ "echo": spec }))),
    }
}

struct Args {
    address: String,
    token: String,
    model: String,
    worker_id: String,
    concurrency: usize,
    lease_ms: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        address: String::new(),
        token: String::new(),
        model: String::new(),
        worker_id: String::new(),
        concurrency: 4,
        lease_ms: 30_000,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--address" => args.address = value,
            "--token" => args.token = value,
            "--model" => args.model = value,
            "--worker-id" => args.worker_id = value,
            "--concurrency" => {
                args.concurrency = value.parse().map_err(|e| format!("{flag}: {e}"))?
            }
            "--lease-ms" => args.lease_ms = value.parse().map_err(|e| format!("{flag}: {e}"))?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("scenario worker: {e}");
            return std::process::ExitCode::from(64);
        }
    };
    let clients = match praxis_client::connect(&args.address, &args.token).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("scenario worker: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let options = WorkerOptions::new([args.model])
        .worker_id(args.worker_id)
        .concurrency(args.concurrency)
        .lease(Duration::from_millis(args.lease_ms));
    let running = match Worker::new(&clients, options, handle).start().await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("scenario worker: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    emit(json!({"event": "ready"}));
    let stop = running.stop_token();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM handler");
    tokio::select! {
        _ = term.recv() => running.stop(),
        _ = tokio::signal::ctrl_c() => running.stop(),
        () = stop.cancelled() => {}
    }
    if let Err(e) = running.wait().await {
        eprintln!("scenario worker: {e}");
        return std::process::ExitCode::from(3);
    }
    emit(json!({"event": "stopped"}));
    std::process::ExitCode::SUCCESS
}
