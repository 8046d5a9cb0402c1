//! The Rust conformance runner (see conformance/README.md for the contract).
//!
//! ```text
//! praxis-conformance --address 127.0.0.1:50051 --credentials creds.json \
//!     [--vectors DIR] [--expected-failures FILE] [--results FILE] [--filter TEXT]
//! ```
//!
//! Every call goes through the Rust client's `DynamicClient` (prost-reflect over the
//! committed descriptor set), server streams through `DynamicClient::invoke_stream`; it
//! prints "N passed, N failed".

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use praxis_client::dynamic::{DynamicClient, DynamicError, JsonStream};
use praxis_client::{BearerToken, RpcError};
use serde_json::{json, Map, Value};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};

const LANGUAGE: &str = "rust";
const NS_CODE: &str = "rs";
const ANY: &str = "<any>";

const CODE_NAMES: [&str; 17] = [
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
    "UNAUTHENTICATED",
];

/// A response (proto-JSON), a status, or the client's refusal of the request.
enum Outcome {
    Response(Value),
    Status { code: String, reason: String },
    Client(String),
}

type Fail = String;

/// How long one stream step waits for its messages and its end.
const STREAM_DEADLINE: Duration = Duration::from_secs(5);

/// One message of a server stream (proto-JSON) or how it ended.
enum Item {
    Message(Value),
    End { code: String, reason: String },
}

/// An open server stream (dropping it cancels the call), or how it ended.
struct ServerStream {
    inner: Option<JsonStream>,
    ended: Option<(String, String)>,
}

impl ServerStream {
    /// The next item, or `None` when the deadline passes first.
    async fn next(&mut self, deadline: tokio::time::Instant) -> Result<Option<Item>, Fail> {
        if let Some((code, reason)) = &self.ended {
            return Ok(Some(Item::End { code: code.clone(), reason: reason.clone() }));
        }
        let stream = self.inner.as_mut().expect("an open stream");
        let got = match tokio::time::timeout_at(deadline, stream.message()).await {
            Err(_) => return Ok(None),
            Ok(got) => got,
        };
        let (code, reason) = match got {
            Ok(Some(text)) => {
                return Ok(Some(Item::Message(serde_json::from_str(&text).map_err(|e| e.to_string())?)))
            }
            Ok(None) => ("OK".to_owned(), String::new()),
            Err(DynamicError::Status(status)) => code_and_reason(&status),
            Err(other) => return Err(format!("runner error: {other}")),
        };
        self.inner = None;
        self.ended = Some((code.clone(), reason.clone()));
        Ok(Some(Item::End { code, reason }))
    }
}

fn code_and_reason(status: &tonic::Status) -> (String, String) {
    let error = RpcError::from_status(status);
    let code = CODE_NAMES.get(error.code as usize).copied().unwrap_or("UNKNOWN");
    (code.to_owned(), error.reason.unwrap_or_default())
}

/// Reads a stream step's messages and then, with `end` or `error`, how the stream ends.
async fn read_stream(stream: &mut ServerStream, want: &Value, place: &str) -> Result<Vec<Value>, Fail> {
    let count = want["messages"].as_array().map_or(0, Vec::len);
    let deadline = tokio::time::Instant::now() + STREAM_DEADLINE;
    let mut received = Vec::new();
    while received.len() < count {
        match stream.next(deadline).await? {
            None => {
                return Err(format!(
                    "{place}: expected {count} messages within {STREAM_DEADLINE:?}, got {}",
                    received.len()
                ))
            }
            Some(Item::End { code, reason }) => {
                return Err(format!(
                    "{place}: expected {count} messages, got {} and then the stream ended with ({code}, {reason})",
                    received.len()
                ))
            }
            Some(Item::Message(message)) => received.push(message),
        }
    }
    let expected = if want["end"].as_bool() == Some(true) {
        Some(("OK".to_owned(), String::new()))
    } else {
        want.get("error").map(|error| {
            (
                error["code"].as_str().unwrap_or_default().to_owned(),
                error["reason"].as_str().unwrap_or_default().to_owned(),
            )
        })
    };
    if let Some((want_code, want_reason)) = expected {
        match stream.next(deadline).await? {
            None => return Err(format!("{place}: expected the stream to end within {STREAM_DEADLINE:?}")),
            Some(Item::Message(message)) => {
                return Err(format!("{place}: expected the stream to end, got {}", show(Some(&message))))
            }
            Some(Item::End { code, reason }) if code == want_code && reason == want_reason => {}
            Some(Item::End { code, reason }) => {
                return Err(format!(
                    "{place}: expected the stream to end with ({want_code}, {want_reason}), got ({code}, {reason})"
                ))
            }
        }
    }
    Ok(received)
}

enum Invoker {
    Authed(DynamicClient<InterceptedService<Channel, BearerToken>>),
    Anonymous(DynamicClient<Channel>),
}

struct Runner {
    channel: Channel,
    credentials: HashMap<String, String>,
    invokers: HashMap<String, Invoker>,
    streams: HashMap<String, ServerStream>,
    nonce: String,
    installation_id: String,
}

fn substitute(value: &Value, vars: &HashMap<String, String>) -> Result<Value, Fail> {
    Ok(match value {
        Value::String(text) => Value::String(substitute_text(text, vars)?),
        Value::Array(items) => {
            Value::Array(items.iter().map(|i| substitute(i, vars)).collect::<Result<_, _>>()?)
        }
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                out.insert(key.clone(), substitute(item, vars)?);
            }
            Value::Object(out)
        }
        other => other.clone(),
    })
}

/// Replaces `${name}`, `${name+N}` and `${name-N}` (names `[A-Za-z_][A-Za-z0-9_]*`).
fn substitute_text(text: &str, vars: &HashMap<String, String>) -> Result<String, Fail> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let name_len = after
            .char_indices()
            .take_while(|(i, c)| c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit()))
            .count();
        let name = &after[..name_len];
        let mut tail = &after[name_len..];
        let mut offset: Option<i128> = None;
        if let Some(sign) = tail.chars().next().filter(|c| *c == '+' || *c == '-') {
            let digits: String = tail[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
            if !digits.is_empty() {
                let n: i128 = digits.parse().map_err(|_| format!("bad offset in {text}"))?;
                offset = Some(if sign == '-' { -n } else { n });
                tail = &tail[1 + digits.len()..];
            }
        }
        if name.is_empty() || !tail.starts_with('}') {
            out.push_str("${");
            rest = after;
            continue;
        }
        let value = vars.get(name).ok_or_else(|| format!("unknown variable ${{{name}}}"))?;
        match offset {
            Some(n) => {
                let base: i128 = value.parse().map_err(|_| format!("${{{name}}} is not an integer"))?;
                out.push_str(&(base + n).to_string());
            }
            None => out.push_str(value),
        }
        rest = &tail[1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn show(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".into(),
        Some(v) => {
            let text = v.to_string();
            if text.chars().count() <= 200 { text } else { text.chars().take(200).collect::<String>() + "..." }
        }
    }
}

/// Why `actual` does not match the pattern `expected` (`None` when it does).
fn mismatch(expected: &Value, actual: Option<&Value>, path: &str) -> Option<String> {
    if expected.as_str() == Some(ANY) {
        return actual.is_none().then(|| format!("{path}: missing"));
    }
    if expected.is_null() {
        return actual.map(|a| format!("{path}: expected absent, got {}", show(Some(a))));
    }
    let Some(actual) = actual else {
        return Some(format!("{path}: missing, expected {}", show(Some(expected))));
    };
    match expected {
        Value::Object(want) => {
            let Value::Object(got) = actual else {
                return Some(format!("{path}: expected an object, got {}", show(Some(actual))));
            };
            want.iter().find_map(|(key, item)| mismatch(item, got.get(key), &format!("{path}.{key}")))
        }
        Value::Array(want) => match actual {
            Value::Array(got) if got.len() == want.len() => want
                .iter()
                .zip(got)
                .enumerate()
                .find_map(|(i, (w, g))| mismatch(w, Some(g), &format!("{path}.{i}"))),
            _ => Some(format!("{path}: expected {} items, got {}", want.len(), show(Some(actual)))),
        },
        _ if expected == actual => None,
        _ => Some(format!("{path}: expected {}, got {}", show(Some(expected)), show(Some(actual)))),
    }
}

fn capture(response: &Value, path: &str) -> Result<String, Fail> {
    let mut value = response;
    for part in path.split('.') {
        value = match value {
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            Value::Object(map) => map.get(part),
            _ => None,
        }
        .ok_or_else(|| format!("capture {path:?}: no such value in the response"))?;
    }
    Ok(match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

impl Runner {
    async fn open_stream(
        &mut self,
        principal: &str,
        service: &str,
        method: &str,
        request: &Value,
    ) -> Result<Result<ServerStream, String>, Fail> {
        self.ensure_invoker(principal)?;
        let body = request.to_string();
        let result = match self.invokers.get_mut(principal).expect("inserted above") {
            Invoker::Authed(client) => client.invoke_stream(service, method, &body).await,
            Invoker::Anonymous(client) => client.invoke_stream(service, method, &body).await,
        };
        Ok(match result {
            Ok(stream) => Ok(ServerStream { inner: Some(stream), ended: None }),
            Err(DynamicError::Status(status)) => Ok(ServerStream { inner: None, ended: Some(code_and_reason(&status)) }),
            Err(DynamicError::BadJson(message)) => Err(message),
            Err(other) => return Err(format!("runner error: {other}")),
        })
    }

    async fn stream_step(&mut self, step: &Value, vars: &mut HashMap<String, String>) -> Result<(), Fail> {
        let want = &step["stream"];
        let resume = want["resume"].as_str().unwrap_or_default();
        let (mut stream, place) = if !resume.is_empty() {
            let place = format!("stream {resume:?}");
            match self.streams.remove(resume) {
                Some(stream) => (stream, place),
                None => return Err(format!("{place}: no stream kept under that name")),
            }
        } else {
            let service = step["service"].as_str().unwrap_or_default();
            let method = step["method"].as_str().unwrap_or_default();
            let principal = step["principal"].as_str().unwrap_or_default();
            let place = format!("{service}.{method}");
            let request = substitute(step.get("request").unwrap_or(&json!({})), vars)?;
            match self.open_stream(principal, service, method, &request).await? {
                Ok(stream) => (stream, place),
                Err(refused) => return Err(format!("{place}: client refused: {refused}")),
            }
        };
        let received = Value::Array(read_stream(&mut stream, want, &place).await?);
        let expected = substitute(want.get("messages").unwrap_or(&json!([])), vars)?;
        if let Some(problem) = mismatch(&expected, Some(&received), "messages") {
            return Err(format!("{place}: {problem}"));
        }
        let keep = if resume.is_empty() { want["keep"].as_str().unwrap_or_default() } else { resume };
        let ends = want["end"].as_bool() == Some(true) || want.get("error").is_some();
        if !keep.is_empty() && stream.ended.is_none() && !ends {
            self.streams.insert(keep.to_owned(), stream);
        }
        if let Some(Value::Object(captures)) = step.get("captures") {
            for (name, path) in captures {
                let value = capture(&received, path.as_str().unwrap_or_default())?;
                vars.insert(name.clone(), value);
            }
        }
        Ok(())
    }

    fn ensure_invoker(&mut self, principal: &str) -> Result<(), Fail> {
        if !self.invokers.contains_key(principal) {
            let invoker = if principal.is_empty() {
                Invoker::Anonymous(DynamicClient::new(self.channel.clone()))
            } else {
                let token = self
                    .credentials
                    .get(principal)
                    .ok_or_else(|| format!("no credential for principal {principal:?}"))?;
                let bearer = BearerToken::new(token).map_err(|e| e.to_string())?;
                Invoker::Authed(DynamicClient::new(InterceptedService::new(self.channel.clone(), bearer)))
            };
            self.invokers.insert(principal.to_owned(), invoker);
        }
        Ok(())
    }

    async fn invoke(&mut self, principal: &str, service: &str, method: &str, request: &Value) -> Result<Outcome, Fail> {
        self.ensure_invoker(principal)?;
        let body = request.to_string();
        let result = match self.invokers.get_mut(principal).expect("inserted above") {
            Invoker::Authed(client) => client.invoke(service, method, &body).await,
            Invoker::Anonymous(client) => client.invoke(service, method, &body).await,
        };
        Ok(match result {
            Ok(text) => Outcome::Response(serde_json::from_str(&text).map_err(|e| e.to_string())?),
            Err(DynamicError::Status(status)) => {
                let (code, reason) = code_and_reason(&status);
                Outcome::Status { code, reason }
            }
            Err(DynamicError::BadJson(message)) => Outcome::Client(message),
            Err(other) => return Err(format!("runner error: {other}")),
        })
    }

    async fn setup(&mut self) -> Result<(), Fail> {
        let request = json!({"workOrderId": format!("{NS_CODE}-setup")});
        match self.invoke("alice", "RegistryService", "GetEpochs", &request).await? {
            Outcome::Response(r) => {
                self.installation_id = r["epochs"]["installationId"].as_str().unwrap_or_default().to_owned();
                Ok(())
            }
            _ => Err("GetEpochs failed".into()),
        }
    }

    async fn clock(&mut self, change: &Value, t0: &str) -> Result<String, Fail> {
        let outcome = if let Some(by) = change.get("advanceMs") {
            self.invoke("alice", "TestClockService", "Advance", &json!({"byMs": by})).await?
        } else {
            let offset: i128 = match &change["setOffsetMs"] {
                Value::String(s) => s.parse().map_err(|_| "bad setOffsetMs".to_string())?,
                other => other.as_i64().ok_or("bad setOffsetMs")? as i128,
            };
            let now = t0.parse::<i128>().map_err(|_| "bad t0".to_string())? + offset;
            self.invoke("alice", "TestClockService", "SetTime", &json!({"nowMs": now.to_string()})).await?
        };
        match outcome {
            Outcome::Response(r) => Ok(match &r["nowMs"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            _ => Err("test clock call failed".into()),
        }
    }

    async fn run_vector(&mut self, vector: &Value, index: usize) -> Result<(), Fail> {
        let mut vars = HashMap::new();
        vars.insert("ns".to_owned(), format!("{NS_CODE}-{}-{index:04}", self.nonce));
        vars.insert("installation_id".to_owned(), self.installation_id.clone());
        let t0 = self.clock(&json!({"advanceMs": "1000"}), "0").await?;
        vars.insert("t0".to_owned(), t0);
        let empty = Vec::new();
        let steps = vector["steps"].as_array().unwrap_or(&empty);
        let mut result = Ok(());
        for (i, step) in steps.iter().enumerate() {
            if let Err(e) = self.step(step, &mut vars).await {
                result = Err(format!("step {}: {e}", i + 1));
                break;
            }
        }
        self.streams.clear(); // dropping a stream cancels it
        result
    }

    async fn step(&mut self, step: &Value, vars: &mut HashMap<String, String>) -> Result<(), Fail> {
        if let Some(change) = step.get("clock") {
            let t0 = vars["t0"].clone();
            self.clock(change, &t0).await?;
        }
        if step.get("stream").is_some() {
            return self.stream_step(step, vars).await;
        }
        let service = step["service"].as_str().unwrap_or_default();
        if service.is_empty() {
            return Ok(());
        }
        let method = step["method"].as_str().unwrap_or_default();
        let principal = step["principal"].as_str().unwrap_or_default();
        let place = format!("{service}.{method}");
        let request = substitute(step.get("request").unwrap_or(&json!({})), vars)?;
        let outcome = self.invoke(principal, service, method, &request).await?;
        if let Some(error) = step.get("error") {
            let code = error["code"].as_str().unwrap_or_default();
            let reason = error["reason"].as_str().unwrap_or_default();
            let want = format!("({code}, {reason})");
            return match outcome {
                Outcome::Response(_) => Err(format!("{place}: expected {want}, got a response")),
                Outcome::Client(m) => Err(format!("{place}: expected {want}, client refused: {m}")),
                Outcome::Status { code: c, reason: r } if c == code && r == reason => Ok(()),
                Outcome::Status { code: c, reason: r } => Err(format!("{place}: expected {want}, got ({c}, {r})")),
            };
        }
        if step.get("clientError").is_some() {
            return match outcome {
                Outcome::Client(_) => Ok(()),
                Outcome::Response(_) => Err(format!("{place}: expected the client to refuse, got a response")),
                Outcome::Status { code, .. } => Err(format!("{place}: expected the client to refuse, got {code}")),
            };
        }
        let response = match outcome {
            Outcome::Response(r) => r,
            Outcome::Client(m) => return Err(format!("{place}: expected a response, got {m}")),
            Outcome::Status { code, reason } => {
                return Err(format!("{place}: expected a response, got {code} {reason}"))
            }
        };
        let expected = substitute(step.get("response").unwrap_or(&json!({})), vars)?;
        if let Some(problem) = mismatch(&expected, Some(&response), "response") {
            return Err(format!("{place}: {problem}"));
        }
        if let Some(Value::Object(captures)) = step.get("captures") {
            for (name, path) in captures {
                let value = capture(&response, path.as_str().unwrap_or_default())?;
                vars.insert(name.clone(), value);
            }
        }
        Ok(())
    }
}

fn load_vectors(dir: &Path) -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("vectors directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("read vector file"))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if let Some(vectors) = doc["vectors"].as_array() {
            out.extend(vectors.iter().cloned());
        }
    }
    out
}

fn load_expected_failures(path: &Path) -> HashSet<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[tokio::main]
async fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = HashMap::new();
    for pair in argv.chunks(2) {
        if let [key, value] = pair {
            opts.insert(key.trim_start_matches("--").to_owned(), value.clone());
        }
    }
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..");
    let address = opts.get("address").cloned().or_else(|| env("PRAXIS_ADDRESS")).unwrap_or("127.0.0.1:50051".into());
    let credentials_path = opts
        .get("credentials")
        .cloned()
        .or_else(|| env("PRAXIS_CREDENTIALS"))
        .expect("--credentials (or PRAXIS_CREDENTIALS) is required");
    let vectors_dir = opts
        .get("vectors")
        .cloned()
        .or_else(|| env("PRAXIS_VECTORS"))
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("vectors"));
    let expected_path = opts
        .get("expected-failures")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("expected_failures").join(format!("{LANGUAGE}.txt")));
    let results_path = opts.get("results").cloned().or_else(|| env("PRAXIS_RESULTS"));
    let filter = opts.get("filter").cloned().unwrap_or_default();
    let credentials: HashMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(&credentials_path).expect("read credentials"))
            .expect("credentials are a JSON map of principal to token");
    let channel = Endpoint::from_shared(format!("http://{address}"))
        .expect("address")
        .connect_lazy();
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let nonce = format!("{:06x}", (nanos ^ std::process::id().rotate_left(11)) & 0xff_ffff);
    let mut runner = Runner { channel, credentials, invokers: HashMap::new(), streams: HashMap::new(), nonce, installation_id: String::new() };
    runner.setup().await.expect("setup");
    let expected = load_expected_failures(&expected_path);
    let mut results = Vec::new();
    for (index, vector) in load_vectors(&vectors_dir).iter().enumerate() {
        let name = vector["name"].as_str().unwrap_or_default().to_owned();
        if !filter.is_empty() && !name.contains(&filter) {
            continue;
        }
        let outcome = runner.run_vector(vector, index).await;
        let message = outcome.err().unwrap_or_default();
        let passed = message.is_empty();
        let status = match (expected.contains(&name), passed) {
            (true, true) => "xpass",
            (true, false) => "xfail",
            (false, true) => "pass",
            (false, false) => "fail",
        };
        results.push((name, status, message));
    }
    let (mut passed, mut failed, mut xfailed) = (0, 0, 0);
    let mut lines = String::new();
    for (name, status, message) in &results {
        match *status {
            "pass" => passed += 1,
            "xfail" => xfailed += 1,
            "fail" => {
                failed += 1;
                println!("FAIL {name}: {message}");
            }
            _ => {
                failed += 1;
                println!("XPASS {name}: listed as an expected failure but passed");
            }
        }
        let record = json!({"language": LANGUAGE, "vector": name, "status": status, "message": message});
        lines.push_str(&record.to_string());
        lines.push('\n');
    }
    if let Some(path) = results_path {
        std::fs::write(path, lines).expect("write results");
    }
    let extra = if xfailed > 0 { format!(", {xfailed} expected failures") } else { String::new() };
    println!("{passed} passed, {failed} failed{extra}");
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
