// The TypeScript conformance runner (see conformance/README.md for the contract).
//
//   node dist/main.js --address 127.0.0.1:50051 --credentials creds.json \
//     [--vectors DIR] [--expected-failures FILE] [--results FILE] [--filter TEXT]
//
// Every call goes through the TypeScript client's invokeJson, and every server stream
// through invokeStreamJson (protobuf-es fromJson / toJson over the generated
// descriptors); it prints "N passed, N failed".
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { connect, errorReason, type PraxisClients } from "@praxis-engine/client";

const LANGUAGE = "typescript";
const NS_CODE = "ts";
const ANY = "<any>";
const MISSING = Symbol("missing");
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Outcome =
  | { kind: "response"; response: Json }
  | { kind: "error"; code: string; reason: string }
  | { kind: "client"; message: string };

class VectorError extends Error {}

/** How long one stream step waits for its messages and its end. */
const STREAM_DEADLINE_MS = 5_000;

type StreamItem = { kind: "message"; message: Json } | { kind: "end"; code: string; reason: string };

/**
 * An open server stream: a pump moves its messages (and, last, how it ended) into a
 * queue so that a step can wait for the next one with a deadline.
 */
class ServerStream {
  private readonly items: StreamItem[] = [];
  private waiter: (() => void) | undefined;
  ended: StreamItem | undefined;

  constructor(
    messages: AsyncIterable<unknown>,
    private readonly controller: AbortController,
  ) {
    void this.pump(messages);
  }

  private push(item: StreamItem): void {
    this.items.push(item);
    this.waiter?.();
  }

  private async pump(messages: AsyncIterable<unknown>): Promise<void> {
    let end: StreamItem = { kind: "end", code: "OK", reason: "" };
    try {
      for await (const message of messages) this.push({ kind: "message", message: message as Json });
    } catch (err) {
      const { codeName, reason } = errorReason(err);
      end = { kind: "end", code: codeName, reason };
    }
    if (!this.controller.signal.aborted) this.push(end);
  }

  /** The next item, or undefined when the deadline passes first. */
  async next(deadline: number): Promise<StreamItem | undefined> {
    if (this.ended) return this.ended;
    while (this.items.length === 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        timer = setTimeout(resolve, remaining);
      });
      clearTimeout(timer);
      this.waiter = undefined;
    }
    const item = this.items.shift()!;
    if (item.kind === "end") this.ended = item;
    return item;
  }

  cancel(): void {
    if (!this.ended) this.controller.abort();
  }
}

function substitute(value: Json, vars: Map<string, string>): Json {
  if (typeof value === "string") {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)([+-][0-9]+)?\}/g, (_m, name: string, offset?: string) => {
      const text = vars.get(name);
      if (text === undefined) throw new VectorError(`unknown variable \${${name}}`);
      return offset ? (BigInt(text) + BigInt(offset)).toString() : text;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars));
  if (value !== null && typeof value === "object") {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) out[key] = substitute(item, vars);
    return out;
  }
  return value;
}

function show(value: Json | typeof MISSING): string {
  if (value === MISSING) return "(absent)";
  const text = JSON.stringify(value);
  return text.length <= 200 ? text : `${text.slice(0, 200)}...`;
}

function mismatch(expected: Json, actual: Json | typeof MISSING, path: string): string | null {
  if (expected === ANY) return actual === MISSING ? `${path}: missing` : null;
  if (expected === null) return actual === MISSING ? null : `${path}: expected absent, got ${show(actual)}`;
  if (actual === MISSING) return `${path}: missing, expected ${show(expected)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${path}: expected ${expected.length} items, got ${show(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const problem = mismatch(expected[i]!, actual[i]!, `${path}.${i}`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return `${path}: expected an object, got ${show(actual)}`;
    }
    for (const [key, item] of Object.entries(expected)) {
      const got = Object.prototype.hasOwnProperty.call(actual, key) ? actual[key]! : MISSING;
      const problem = mismatch(item, got, `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof expected !== typeof actual || expected !== actual) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  return null;
}

function capture(response: Json, path: string): string {
  let value: Json = response;
  for (const part of path.split(".")) {
    if (Array.isArray(value) && /^[0-9]+$/.test(part) && Number(part) < value.length) {
      value = value[Number(part)]!;
    } else if (value !== null && typeof value === "object" && !Array.isArray(value) && part in value) {
      value = value[part]!;
    } else {
      throw new VectorError(`capture ${JSON.stringify(path)}: no such value in the response`);
    }
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Reads a stream step's messages and then, with `end` or `error`, how the stream ends. */
async function readStream(stream: ServerStream, want: JsonObject, where: string): Promise<Json[]> {
  const count = ((want.messages ?? []) as Json[]).length;
  const deadline = Date.now() + STREAM_DEADLINE_MS;
  const received: Json[] = [];
  while (received.length < count) {
    const item = await stream.next(deadline);
    if (item === undefined) {
      throw new VectorError(`${where}: expected ${count} messages within ${STREAM_DEADLINE_MS} ms, got ${received.length}`);
    }
    if (item.kind === "end") {
      throw new VectorError(
        `${where}: expected ${count} messages, got ${received.length} and then the stream ended with (${item.code}, ${item.reason})`,
      );
    }
    received.push(item.message);
  }
  let expected: { code: string; reason: string } | undefined;
  if (want.end === true) expected = { code: "OK", reason: "" };
  else if (want.error) {
    const error = want.error as JsonObject;
    expected = { code: String(error.code ?? ""), reason: String(error.reason ?? "") };
  }
  if (expected) {
    const item = await stream.next(deadline);
    if (item === undefined) throw new VectorError(`${where}: expected the stream to end within ${STREAM_DEADLINE_MS} ms`);
    if (item.kind !== "end") throw new VectorError(`${where}: expected the stream to end, got ${show(item.message)}`);
    if (item.code !== expected.code || item.reason !== expected.reason) {
      throw new VectorError(
        `${where}: expected the stream to end with (${expected.code}, ${expected.reason}), got (${item.code}, ${item.reason})`,
      );
    }
  }
  return received;
}

class Runner {
  private readonly clients = new Map<string, PraxisClients>();
  private streams = new Map<string, ServerStream>();
  readonly nonce = randomBytes(3).toString("hex");
  installationId = "";

  constructor(private readonly address: string, private readonly credentials: Record<string, string>) {}

  private client(principal: string): PraxisClients {
    let found = this.clients.get(principal);
    if (found === undefined) {
      if (principal && !(principal in this.credentials)) {
        throw new VectorError(`no credential for principal ${JSON.stringify(principal)}`);
      }
      found = connect(this.address, principal ? this.credentials[principal] : undefined);
      this.clients.set(principal, found);
    }
    return found;
  }

  async invoke(principal: string, service: string, method: string, request: Json): Promise<Outcome> {
    const client = this.client(principal);
    try {
      const result = await client.invokeJson(service, method, request, { timeoutMs: 30_000 });
      if (result.ok) return { kind: "response", response: result.response as Json };
      return { kind: "error", code: result.error.codeName, reason: result.error.reason };
    } catch (err) {
      return { kind: "client", message: err instanceof Error ? err.message : String(err) };
    }
  }

  async setup(): Promise<void> {
    const outcome = await this.invoke("alice", "RegistryService", "GetEpochs", { workOrderId: `${NS_CODE}-setup` });
    if (outcome.kind !== "response") throw new Error(`GetEpochs failed: ${JSON.stringify(outcome)}`);
    this.installationId = String(((outcome.response as JsonObject).epochs as JsonObject).installationId);
  }

  private async clock(change: JsonObject, t0: string): Promise<string> {
    const outcome = "advanceMs" in change
      ? await this.invoke("alice", "TestClockService", "Advance", { byMs: change.advanceMs! })
      : await this.invoke("alice", "TestClockService", "SetTime", {
          nowMs: (BigInt(t0) + BigInt(String(change.setOffsetMs))).toString(),
        });
    if (outcome.kind !== "response") throw new VectorError(`test clock call failed: ${JSON.stringify(outcome)}`);
    return String((outcome.response as JsonObject).nowMs);
  }

  async runVector(vector: JsonObject, index: number): Promise<void> {
    const vars = new Map<string, string>([
      ["ns", `${NS_CODE}-${this.nonce}-${String(index).padStart(4, "0")}`],
      ["installation_id", this.installationId],
    ]);
    vars.set("t0", await this.clock({ advanceMs: "1000" }, "0"));
    const steps = (vector.steps ?? []) as JsonObject[];
    try {
      for (let i = 0; i < steps.length; i++) {
        try {
          await this.step(steps[i]!, vars);
        } catch (err) {
          if (err instanceof VectorError) throw new VectorError(`step ${i + 1}: ${err.message}`);
          throw err;
        }
      }
    } finally {
      for (const stream of this.streams.values()) stream.cancel();
      this.streams.clear();
    }
  }

  private openStream(principal: string, service: string, method: string, request: Json): ServerStream | string {
    const client = this.client(principal);
    const controller = new AbortController();
    try {
      const messages = client.invokeStreamJson(service, method, request, { signal: controller.signal, timeoutMs: 120_000 });
      return new ServerStream(messages, controller);
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  private async streamStep(step: JsonObject, vars: Map<string, string>): Promise<void> {
    const want = step.stream as JsonObject;
    const resume = String(want.resume ?? "");
    let stream: ServerStream;
    let where: string;
    if (resume) {
      where = `stream ${JSON.stringify(resume)}`;
      const kept = this.streams.get(resume);
      if (kept === undefined) throw new VectorError(`${where}: no stream kept under that name`);
      this.streams.delete(resume);
      stream = kept;
    } else {
      where = `${String(step.service)}.${String(step.method)}`;
      const request = substitute(step.request ?? {}, vars);
      const opened = this.openStream(String(step.principal ?? ""), String(step.service), String(step.method), request);
      if (typeof opened === "string") throw new VectorError(`${where}: client refused: ${opened}`);
      stream = opened;
    }
    let received: Json[];
    try {
      received = await readStream(stream, want, where);
      const problem = mismatch(substitute((want.messages ?? []) as Json, vars), received, "messages");
      if (problem) throw new VectorError(`${where}: ${problem}`);
    } catch (err) {
      stream.cancel();
      throw err;
    }
    const keep = resume || String(want.keep ?? "");
    if (keep && !stream.ended && !want.end && !want.error) this.streams.set(keep, stream);
    else stream.cancel();
    for (const [name, path] of Object.entries((step.captures ?? {}) as JsonObject)) {
      vars.set(name, capture(received, String(path)));
    }
  }

  private async step(step: JsonObject, vars: Map<string, string>): Promise<void> {
    if (step.clock) await this.clock(step.clock as JsonObject, vars.get("t0")!);
    if (step.stream) return this.streamStep(step, vars);
    if (!step.service) return;
    const service = String(step.service);
    const method = String(step.method);
    const where = `${service}.${method}`;
    const request = substitute(step.request ?? {}, vars);
    const outcome = await this.invoke(String(step.principal ?? ""), service, method, request);
    if (step.error) {
      const want = step.error as JsonObject;
      const wantText = `(${want.code ?? ""}, ${want.reason ?? ""})`;
      if (outcome.kind === "response") throw new VectorError(`${where}: expected ${wantText}, got a response`);
      if (outcome.kind === "client") throw new VectorError(`${where}: expected ${wantText}, client refused: ${outcome.message}`);
      if (outcome.code !== (want.code ?? "") || outcome.reason !== (want.reason ?? "")) {
        throw new VectorError(`${where}: expected ${wantText}, got (${outcome.code}, ${outcome.reason})`);
      }
      return;
    }
    if (step.clientError) {
      if (outcome.kind !== "client") {
        const got = outcome.kind === "response" ? "a response" : outcome.code;
        throw new VectorError(`${where}: expected the client to refuse, got ${got}`);
      }
      return;
    }
    if (outcome.kind !== "response") {
      const got = outcome.kind === "client" ? outcome.message : `${outcome.code} ${outcome.reason}`;
      throw new VectorError(`${where}: expected a response, got ${got}`);
    }
    const problem = mismatch(substitute(step.response ?? {}, vars), outcome.response, "response");
    if (problem) throw new VectorError(`${where}: ${problem}`);
    for (const [name, path] of Object.entries((step.captures ?? {}) as JsonObject)) {
      vars.set(name, capture(outcome.response, String(path)));
    }
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
  }
}

function loadVectors(directory: string): JsonObject[] {
  const files = readdirSync(directory).filter((name) => name.endsWith(".json")).sort();
  const out: JsonObject[] = [];
  for (const name of files) {
    const file = JSON.parse(readFileSync(join(directory, name), "utf8")) as JsonObject;
    out.push(...((file.vectors ?? []) as JsonObject[]));
  }
  return out;
}

function loadExpectedFailures(path: string): Set<string> {
  if (!existsSync(path)) return new Set();
  const names = readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.split("#")[0]!.trim())
    .filter((line) => line.length > 0);
  return new Set(names);
}

function args(): Map<string, string> {
  const out = new Map<string, string>();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out.set(argv[i]!.replace(/^--/, ""), argv[i + 1] ?? "");
  return out;
}

async function main(): Promise<number> {
  const opts = args();
  const address = opts.get("address") ?? process.env.PRAXIS_ADDRESS ?? "127.0.0.1:50051";
  const credentialsPath = opts.get("credentials") ?? process.env.PRAXIS_CREDENTIALS;
  if (!credentialsPath) throw new Error("--credentials (or PRAXIS_CREDENTIALS) is required");
  const vectorsDir = opts.get("vectors") ?? process.env.PRAXIS_VECTORS ?? join(ROOT, "vectors");
  const expectedPath = opts.get("expected-failures") ?? join(ROOT, "expected_failures", `${LANGUAGE}.txt`);
  const resultsPath = opts.get("results") ?? process.env.PRAXIS_RESULTS;
  const filter = opts.get("filter") ?? "";
  const runner = new Runner(address, JSON.parse(readFileSync(credentialsPath, "utf8")) as Record<string, string>);
  const expected = loadExpectedFailures(expectedPath);
  const results: { vector: string; status: string; message: string }[] = [];
  try {
    await runner.setup();
    const vectors = loadVectors(vectorsDir);
    for (let index = 0; index < vectors.length; index++) {
      const vector = vectors[index]!;
      const name = String(vector.name);
      if (filter && !name.includes(filter)) continue;
      let passed = true;
      let message = "";
      try {
        await runner.runVector(vector, index);
      } catch (err) {
        passed = false;
        message = err instanceof VectorError ? err.message : `runner error: ${String(err)}`;
      }
      const status = expected.has(name) ? (passed ? "xpass" : "xfail") : passed ? "pass" : "fail";
      results.push({ vector: name, status, message });
    }
  } finally {
    runner.close();
  }
  for (const r of results) {
    if (r.status === "fail") console.log(`FAIL ${r.vector}: ${r.message}`);
    if (r.status === "xpass") console.log(`XPASS ${r.vector}: listed as an expected failure but passed`);
  }
  if (resultsPath) {
    writeFileSync(resultsPath, results.map((r) => JSON.stringify({ language: LANGUAGE, ...r }) + "\n").join(""));
  }
  const passed = results.filter((r) => r.status === "pass").length;
  const failed = results.filter((r) => r.status === "fail" || r.status === "xpass").length;
  const xfailed = results.filter((r) => r.status === "xfail").length;
  console.log(`${passed} passed, ${failed} failed${xfailed ? `, ${xfailed} expected failures` : ""}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
