// The worker runtime (docs/workers.md): you write the handler; the runtime claims,
// heartbeats, settles, retries, drains and reconnects.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { randomBytes } from "node:crypto";
import { EffectOutcome } from "./gen/aiws/engine/v1/common_pb.js";
import {
  NodeEffects,
  SettlementSchema,
  type ClaimTasksRequestSchema,
  type Settlement,
  type SettlementResult,
  type Task,
} from "./gen/aiws/engine/v1/task_pb.js";
import type { PraxisClients } from "./connect.js";
import { isCanonicalDecimal } from "./decimal.js";
import { codeName, errorReason } from "./errors.js";
import { withAttemptContext } from "./tracing.js";

/** The cost of an attempt in microcredits: a canonical decimal string ("12.5") or a bigint. */
export type Cost = string | bigint;

/** Completes the attempt with `result`: the effect happened (APPLIED). */
export class Applied {
  readonly cost?: Cost;
  constructor(
    readonly result: unknown,
    options: { cost?: Cost } = {},
  ) {
    this.cost = options.cost;
  }
}

/**
 * Fails the attempt: the effect did not happen (NOT_APPLIED), so a retry is safe. Return
 * it or throw it. `retryable` (default false) lets the node's retry policy try again.
 */
export class NotApplied extends Error {
  readonly retryable: boolean;
  readonly cost?: Cost;
  constructor(message: string, options: { retryable?: boolean; cost?: Cost } = {}) {
    super(message);
    this.name = "NotApplied";
    this.retryable = options.retryable ?? false;
    this.cost = options.cost;
  }
}

/**
 * The handler cannot tell whether the effect happened (UNCERTAIN): the node is BLOCKED
 * until a human reconciles it, never retried on its own. Without `result` it fails the
 * attempt; with `result` it completes it. Return it or throw it.
 */
export class Uncertain extends Error {
  readonly cost?: Cost;
  readonly hasResult: boolean;
  readonly result?: unknown;
  constructor(message: string, options: { result?: unknown; cost?: Cost } = {}) {
    super(message);
    this.name = "Uncertain";
    this.cost = options.cost;
    this.hasResult = "result" in options;
    this.result = options.result;
  }
}

/** A node's function policy as the engine sends it: `{"allow": [...], "deny": [...]}`. */
export interface FunctionPolicy {
  allow: string[];
  deny: string[];
}

/** `Task.agent.functionsJson` as a policy; every function when empty (an older server). */
export function functionPolicy(functionsJson: string): FunctionPolicy {
  if (functionsJson === "") return { allow: ["*"], deny: [] };
  const raw = JSON.parse(functionsJson) as Partial<FunctionPolicy>;
  return { allow: raw.allow ?? [], deny: raw.deny ?? [] };
}

/** Whether `text` matches `pattern` whole, `*` matching any run of characters. */
export function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return text === pattern;
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, position);
    if (found < 0 || found + middle.length > end) return false;
    position = found + middle.length;
  }
  return true;
}

/** Whether `policy` permits `functionId` (an allow match and no deny match). */
export function functionPermitted(policy: FunctionPolicy, functionId: string): boolean {
  const allowed = policy.allow.some((pattern) => globMatches(pattern, functionId));
  return allowed && !policy.deny.some((pattern) => globMatches(pattern, functionId));
}

/** What a handler sees of its attempt. */
export interface TaskContext {
  /** The Task as claimed. */
  task: Task;
  /** `task.inputJson` parsed (null when empty). */
  input: unknown;
  attemptId: string;
  runId: string;
  nodeUid: string;
  attempt: number;
  /**
   * The attempt's span as a W3C `traceparent` (`task.traceparent`): empty unless the
   * server exports traces. With `@opentelemetry/api` installed, the handler already runs
   * with it as the active remote parent span, so the spans it starts sit under the attempt.
   */
  traceparent: string;
  /**
   * Whether the node declares its effects `none` or `idempotent` (`task.effects`): only
   * then does an uncaught error settle as NOT_APPLIED and retryable; on any other node
   * (`external`, or nothing declared) it settles as UNCERTAIN (docs/workers.md, Outcomes).
   */
  retrySafe: boolean;
  /**
   * The provider the node asks to run its model with (`task.agent.provider`; empty
   * leaves it to the worker's routing). A worker that cannot serve it fails the attempt
   * as NOT_APPLIED rather than run the model elsewhere (docs/workers.md).
   */
  provider: string;
  /** The node's function policy (`task.agent.functionsJson`), normalized. */
  functions: FunctionPolicy;
  /**
   * Whether the policy lets the node's agent call `functionId`: a match in `allow` (`*`
   * is any run of characters) and none in `deny`. The handler MUST offer the agent only
   * permitted functions and refuse any other call: the engine never sees them.
   */
  functionAllowed(functionId: string): boolean;
  /**
   * Aborted when the attempt is cancelled (run stopped, attempt superseded), its lease is
   * lost, or a shutdown's drain timeout runs out; `signal.reason` says which.
   */
  signal: AbortSignal;
  /**
   * Reports progress (docs/workers.md 4a): a short `text` and/or JSON `data`. It goes with
   * the attempt's next heartbeat, brought forward (at once, or 1 s after the previous
   * one); a later report replaces one not yet sent. Throws a RangeError when `text` is
   * over 512 UTF-8 bytes or `data` is not JSON of safe integers within 1,024 bytes.
   */
  progress(text?: string, data?: unknown): void;
}

/**
 * A handler returns (or resolves to) a plain value (completed, APPLIED), an Applied, a
 * NotApplied or an Uncertain. A thrown NotApplied or Uncertain settles as returned; any
 * other thrown error or rejection (a crash) fails the attempt NOT_APPLIED and retryably
 * when the node is retry-safe (`ctx.retrySafe`), else with effect UNCERTAIN.
 */
export type Handler = (ctx: TaskContext) => unknown;

/** Where the worker logs; `console` by default. */
export interface WorkerLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Options of a Worker; only `models` is required. */
export interface WorkerOptions {
  /** The model ids whose tasks are claimed; at least one. */
  models: string[];
  /** Handlers at once, 1 to 100; default 1. */
  concurrency?: number;
  /** Lease of each attempt, 1,000 to 3,600,000 ms; default 30,000 (heartbeats every third). */
  leaseMs?: number;
  /** Long-poll wait of a claim, 0 to 60,000 ms; default 10,000. */
  pollMs?: number;
  /** The worker id; default `worker-<12 hex>`. */
  workerId?: string;
  /** Settle through TaskService.SettleTasks (default true; falls back on UNIMPLEMENTED). */
  batchSettle?: boolean;
  /** How long stop() waits for handlers and the last settlements; default 30,000 ms. */
  drainTimeoutMs?: number;
  /** Default: console (debug messages dropped). */
  logger?: WorkerLogger;
}

/** Counters of a worker. */
export interface WorkerStats {
  completed: number;
  failed: number;
  uncertain: number;
  dropped: number;
  inFlight: number;
}

/** start() or run() failed: the server refused the worker (bad token, missing grant ...). */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly codeName: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WorkerError";
  }
}

const GONE = new Set([
  "LEASE_EXPIRED",
  "ATTEMPT_SUPERSEDED",
  "ATTEMPT_NOT_FOUND",
  "RUN_TERMINAL",
  "WORKER_MISMATCH",
  "ATTEMPT_ALREADY_SETTLED",
]);
const FATAL = new Set([Code.Unauthenticated, Code.PermissionDenied, Code.InvalidArgument, Code.Unimplemented]);
const MAX_ERROR_TEXT = 4000;
/** A progress report's text, in UTF-8 bytes (the server's cap). */
export const MAX_PROGRESS_TEXT_BYTES = 512;
/** A progress report's data as compact JSON, in UTF-8 bytes (the server's cap). */
export const MAX_PROGRESS_DATA_BYTES = 1024;
/** A progress report waits at most this long after the attempt's previous heartbeat. */
export const PROGRESS_INTERVAL_MS = 1000;

/** A progress report checked against the server's caps; throws a RangeError past them. */
export function progressReport(text = "", data?: unknown): { text: string; dataJson: string } {
  const utf8 = new TextEncoder();
  if (utf8.encode(text).length > MAX_PROGRESS_TEXT_BYTES) {
    throw new RangeError(`progress text: at most ${MAX_PROGRESS_TEXT_BYTES} UTF-8 bytes`);
  }
  if (data === undefined || data === null) return { text, dataJson: "" };
  let dataJson: string | undefined;
  try {
    dataJson = JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value === "number" && !Number.isSafeInteger(value)) {
        throw new RangeError("numbers must be safe integers (send fractions as strings)");
      }
      return value;
    });
  } catch (err) {
    throw new RangeError(`progress data: not JSON the server accepts (${(err as Error).message})`);
  }
  if (dataJson === undefined) throw new RangeError("progress data: not JSON-encodable");
  if (utf8.encode(dataJson).length > MAX_PROGRESS_DATA_BYTES) {
    throw new RangeError(`progress data: at most ${MAX_PROGRESS_DATA_BYTES} bytes of JSON`);
  }
  return { text, dataJson };
}
const RETRY_SAFE = new Set([NodeEffects.NONE, NodeEffects.IDEMPOTENT]);

/** Whether the task's node declares its effects NONE or IDEMPOTENT (UNSPECIFIED is EXTERNAL). */
export function isRetrySafe(task: Pick<Task, "effects">): boolean {
  return RETRY_SAFE.has(task.effects);
}

/** UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, and ABORTED with VERSION_CONFLICT. */
export function isTransient(err: unknown): boolean {
  const { code, reason } = errorReason(err);
  return (
    code === Code.Unavailable ||
    code === Code.DeadlineExceeded ||
    code === Code.ResourceExhausted ||
    (code === Code.Aborted && reason === "VERSION_CONFLICT")
  );
}

/** Exponential backoff from 100 ms, doubling, capped at 5 s, full jitter. */
export class Backoff {
  private attempt = 0;
  next(): number {
    const ceiling = Math.min(100 * 2 ** Math.min(this.attempt, 6), 5000);
    this.attempt++;
    return Math.random() * ceiling;
  }
}

/** Resolves after ms, or at once (false) when signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const consoleLogger: WorkerLogger = {
  debug: () => {},
  info: (m, f) => console.info(`praxis.worker INFO ${m}`, f ?? ""),
  warn: (m, f) => console.warn(`praxis.worker WARNING ${m}`, f ?? ""),
  error: (m, f) => console.error(`praxis.worker ERROR ${m}`, f ?? ""),
};

type SettlementInit = MessageInitShape<typeof SettlementSchema>;

interface Decided {
  settlement: Settlement;
  /** A handler bug (unencodable result, invalid cost): logged at ERROR. */
  bug: boolean;
}

function costText(cost: Cost | undefined): { cost: string; problem?: string } {
  if (cost === undefined || cost === "") return { cost: "" };
  const text = typeof cost === "bigint" ? cost.toString() : String(cost);
  if (typeof cost !== "bigint" && typeof cost !== "string") {
    return { cost: "", problem: `invalid cost "${text}": not a decimal string or bigint` };
  }
  if (!isCanonicalDecimal(text)) return { cost: "", problem: `invalid cost "${text}": not a canonical decimal` };
  if (text.startsWith("-")) return { cost: "", problem: `invalid cost "${text}": negative` };
  return { cost: text };
}

/**
 * Turns what a handler returned or threw into the settlement to send; never throws.
 * `retrySafe` (the node declares its effects none or idempotent) decides how an uncaught
 * error settles: NOT_APPLIED and retryable, or else UNCERTAIN.
 */
export function decideSettlement(
  attemptId: string,
  workerId: string,
  returned: { value: unknown } | { error: unknown },
  retrySafe: boolean,
): Decided {
  const fail = (error: string, retryable: boolean, effect: EffectOutcome, cost: string, bug = false): Decided => ({
    settlement: create(SettlementSchema, {
      outcome: {
        case: "fail",
        value: { attemptId, workerId, error: error.slice(0, MAX_ERROR_TEXT), retryable, effect, costMicrocredits: cost },
      },
    }),
    bug,
  });
  const complete = (result: unknown, effect: EffectOutcome, costIn: Cost | undefined): Decided => {
    const { cost, problem } = costText(costIn);
    if (problem) return fail(problem, false, effect, "", true);
    let resultJson: string | undefined;
    try {
      resultJson = JSON.stringify(result === undefined ? null : result);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return fail(`result is not JSON-serialisable: ${message}`, false, effect, cost, true);
    }
    if (resultJson === undefined) {
      return fail(`result is not JSON-serialisable: ${typeof result}`, false, effect, cost, true);
    }
    const init: SettlementInit = {
      outcome: { case: "complete", value: { attemptId, workerId, resultJson, effect, costMicrocredits: cost } },
    };
    return { settlement: create(SettlementSchema, init), bug: false };
  };
  const failWith = (message: string, retryable: boolean, effect: EffectOutcome, costIn: Cost | undefined) => {
    const { cost, problem } = costText(costIn);
    if (problem) return fail(problem, false, effect, "", true);
    return fail(message, retryable, effect, cost);
  };
  const outcome = "value" in returned ? returned.value : returned.error;
  if (outcome instanceof Applied) return complete(outcome.result, EffectOutcome.APPLIED, outcome.cost);
  if (outcome instanceof NotApplied) {
    return failWith(outcome.message, outcome.retryable, EffectOutcome.NOT_APPLIED, outcome.cost);
  }
  if (outcome instanceof Uncertain) {
    if (outcome.hasResult) return complete(outcome.result, EffectOutcome.UNCERTAIN, outcome.cost);
    return failWith(outcome.message, false, EffectOutcome.UNCERTAIN, outcome.cost);
  }
  if ("error" in returned) {
    const e = returned.error;
    const text = e instanceof Error ? `${e.name}: ${e.message}` : `Error: ${String(e)}`;
    // A crash says nothing of the effect: assumed not applied only where a repeat is safe.
    if (retrySafe) return fail(text, true, EffectOutcome.NOT_APPLIED, "");
    return fail(text, false, EffectOutcome.UNCERTAIN, "");
  }
  return complete(outcome, EffectOutcome.APPLIED, undefined);
}

function attemptOf(s: Settlement): string {
  return s.outcome.value?.attemptId ?? "";
}

/**
 * Claims tasks for its models and runs the handler on each, at most `concurrency` at
 * once, heartbeating and settling them. `await worker.start()`, later `await worker.stop()`;
 * or `await worker.run()` (start, then stop on SIGINT or SIGTERM).
 */
export class Worker {
  readonly workerId: string;
  private readonly opts: Required<Omit<WorkerOptions, "workerId" | "logger">>;
  private readonly log: WorkerLogger;
  private legacy: boolean;
  private readonly counts = { completed: 0, failed: 0, uncertain: 0, dropped: 0 };
  private readonly running = new Map<string, Promise<void>>();
  private readonly claimAbort = new AbortController();
  private readonly hardAbort = new AbortController();
  private readonly handlerAborts = new Set<AbortController>();
  private pending: Settlement[] = [];
  private settling: Promise<void> | undefined;
  private loop: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private fatal: WorkerError | undefined;
  private wakeClaim: (() => void) | undefined;
  private started = false;
  private claiming = false;

  constructor(
    private readonly client: PraxisClients,
    options: WorkerOptions,
    private readonly handler: Handler,
  ) {
    this.workerId = options.workerId ?? `worker-${randomBytes(6).toString("hex")}`;
    this.opts = {
      models: options.models,
      concurrency: options.concurrency ?? 1,
      leaseMs: options.leaseMs ?? 30_000,
      pollMs: options.pollMs ?? 10_000,
      batchSettle: options.batchSettle ?? true,
      drainTimeoutMs: options.drainTimeoutMs ?? 30_000,
    };
    this.legacy = !this.opts.batchSettle;
    this.log = options.logger ?? consoleLogger;
    const o = this.opts;
    const check = (ok: boolean, what: string) => {
      if (!ok) throw new RangeError(`praxis worker: ${what}`);
    };
    check(o.models.length > 0, "models is empty");
    check(Number.isInteger(o.concurrency) && o.concurrency >= 1 && o.concurrency <= 100, "concurrency is outside 1..100");
    check(Number.isInteger(o.leaseMs) && o.leaseMs >= 1000 && o.leaseMs <= 3_600_000, "leaseMs is outside 1000..3600000");
    check(Number.isInteger(o.pollMs) && o.pollMs >= 0 && o.pollMs <= 60_000, "pollMs is outside 0..60000");
  }

  /** A snapshot of the counters. */
  stats(): WorkerStats {
    return { ...this.counts, inFlight: this.running.size };
  }

  /**
   * Sends the first claim (not waiting for work) and resolves once it was answered; the
   * worker then runs until stop(). Rejects with a WorkerError, leaving nothing running,
   * when the server refuses the worker: UNAUTHENTICATED (a bad token), PERMISSION_DENIED,
   * INVALID_ARGUMENT or UNIMPLEMENTED. Transient failures are logged and retried.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error("praxis worker: a Worker starts once");
    this.started = true;
    try {
      const tasks = await this.claim(this.opts.concurrency, 0);
      this.log.info("started", { workerId: this.workerId, models: this.opts.models, concurrency: this.opts.concurrency });
      this.dispatch(tasks);
    } catch (err) {
      this.hardAbort.abort();
      throw err;
    }
    this.loop = this.claimLoop();
  }

  /** Starts, then runs until SIGINT or SIGTERM (a graceful stop) or a fatal refusal. */
  async run(): Promise<void> {
    if (!this.started) await this.start();
    const onSignal = () => void this.stop();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      await this.loop;
      await this.stop();
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    if (this.fatal) throw this.fatal;
  }

  /**
   * Stops gracefully: no more claims, waits for the running handlers (heartbeating them)
   * and settles what they return, for at most drainTimeoutMs; handlers still running then
   * are aborted and their attempts left to expire. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= this.drain();
    return this.stopping;
  }

  /** Resolves when the worker has stopped; rejects with the fatal error that stopped it. */
  async wait(): Promise<void> {
    await this.loop;
    await this.stop();
    if (this.fatal) throw this.fatal;
  }

  private async drain(): Promise<void> {
    this.claimAbort.abort();
    this.wakeClaim?.();
    await this.loop;
    if (this.running.size > 0) this.log.info("stopping: draining the tasks in hand", { inFlight: this.running.size });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.opts.drainTimeoutMs);
    });
    const drained = (async () => {
      await Promise.all(this.running.values());
      await this.flush();
      return "done" as const;
    })();
    if ((await Promise.race([drained, timedOut])) === "timeout") {
      this.log.warn("drain timeout: aborting the handlers still running; their attempts will expire", {
        inFlight: this.running.size,
      });
      for (const a of this.handlerAborts) a.abort(new Error("praxis worker: drain timeout"));
    }
    clearTimeout(timer);
    this.hardAbort.abort();
    await drained.catch(() => undefined);
    this.log.info("stopped", { ...this.counts });
  }

  private async claimLoop(): Promise<void> {
    while (!this.claimAbort.signal.aborted) {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.wakeClaim = resolve));
        this.wakeClaim = undefined;
        continue;
      }
      try {
        this.dispatch(await this.claim(free, this.opts.pollMs));
      } catch (err) {
        if (!this.claimAbort.signal.aborted) {
          this.fatal = err instanceof WorkerError ? err : new WorkerError(String(err), "UNKNOWN", "");
          this.log.error("a claim was refused; stopping", { error: this.fatal.message });
        }
        return;
      }
    }
  }

  /**
   * Claims up to `max` tasks, retrying all but fatal refusals with backoff. With batch
   * settle the pending settlements ride on the claim (SettleTasks with `claim`).
   */
  private async claim(max: number, waitMs: number): Promise<Task[]> {
    const request: MessageInitShape<typeof ClaimTasksRequestSchema> = {
      workerId: this.workerId,
      models: this.opts.models,
      maxTasks: Math.min(max, 100),
      leaseMs: BigInt(this.opts.leaseMs),
      waitMs: BigInt(waitMs),
    };
    const options = { signal: this.claimAbort.signal, timeoutMs: waitMs + 10_000 };
    const backoff = new Backoff();
    let troubled = false;
    for (;;) {
      try {
        const tasks = await this.claimOnce(request, options);
        if (troubled) this.log.info("reconnected");
        return tasks;
      } catch (err) {
        if (this.claimAbort.signal.aborted) throw err;
        const { code, codeName: name, reason } = errorReason(err);
        if (FATAL.has(code)) {
          throw new WorkerError(`praxis worker: claim refused: ${name} ${reason}`.trim(), name, reason, { cause: err });
        }
        if (!troubled) {
          troubled = true;
          const log = isTransient(err) ? this.log.warn : this.log.error;
          log.call(this.log, "claims are failing; retrying with backoff", { code: name, reason, error: String(err) });
        }
        if (!(await sleep(backoff.next(), this.claimAbort.signal))) throw err;
      }
    }
  }

  private async claimOnce(
    request: MessageInitShape<typeof ClaimTasksRequestSchema>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<Task[]> {
    if (this.legacy) return (await this.client.tasks.claimTasks(request, options)).tasks;
    const batch = this.settling ? [] : this.pending.splice(0, 100);
    this.claiming = true;
    void this.flush(); // what finishes during the long poll is the flusher's
    try {
      const response = await this.client.tasks.settleTasks({ settlements: batch, claim: request }, options);
      await this.record(batch, response.results);
      return response.tasks;
    } catch (err) {
      this.pending.unshift(...batch); // sent again later: settling is idempotent
      if (errorReason(err).code !== Code.Unimplemented) throw err;
      this.log.info("the server has no TaskService.SettleTasks; settling with CompleteTask and FailTask");
      this.legacy = true;
      void this.flush();
      return (await this.client.tasks.claimTasks(request, options)).tasks;
    } finally {
      this.claiming = false;
    }
  }

  private dispatch(tasks: Task[]): void {
    for (const task of tasks) {
      const done = this.handle(task).finally(() => {
        this.running.delete(task.attemptId);
        this.wakeClaim?.();
      });
      this.running.set(task.attemptId, done);
    }
  }

  private async handle(task: Task): Promise<void> {
    const abort = new AbortController();
    this.handlerAborts.add(abort);
    const beats = this.heartbeats(task, abort);
    let returned: { value: unknown } | { error: unknown };
    try {
      let input: unknown = null;
      if (task.inputJson !== "") input = JSON.parse(task.inputJson);
      const ctx: TaskContext = {
        task,
        input,
        attemptId: task.attemptId,
        runId: task.runId,
        nodeUid: task.nodeUid,
        attempt: task.attempt,
        traceparent: task.traceparent,
        retrySafe: isRetrySafe(task),
        provider: task.agent?.provider ?? "",
        functions: functionPolicy(task.agent?.functionsJson ?? ""),
        functionAllowed: (functionId: string) =>
          functionPermitted(functionPolicy(task.agent?.functionsJson ?? ""), functionId),
        signal: abort.signal,
        progress: (text?: string, data?: unknown) => beats.progress(progressReport(text, data)),
      };
      // The attempt's span is the handler's parent (./tracing.ts; optional OpenTelemetry).
      returned = { value: await withAttemptContext(task.traceparent, () => this.handler(ctx)) };
    } catch (error) {
      returned = { error };
    } finally {
      beats.stop();
      this.handlerAborts.delete(abort);
    }
    const { settlement, bug } = decideSettlement(task.attemptId, this.workerId, returned, isRetrySafe(task));
    const fields = { attemptId: task.attemptId, nodeUid: task.nodeUid };
    if (settlement.outcome.case === "fail") {
      const f = settlement.outcome.value;
      if (bug) this.log.error(f.error, fields);
      else if ("error" in returned) {
        const { error, retryable } = f;
        this.log.warn("the handler failed", { ...fields, error, retryable, effect: EffectOutcome[f.effect] });
      }
    }
    if (abort.signal.aborted) this.log.info("the handler returned after cancellation", fields);
    if (this.legacy) return this.sendOne(settlement);
    this.pending.push(settlement); // the next claim carries it, or the flusher sends it
    if (this.claiming || this.claimAbort.signal.aborted) void this.flush();
  }

  /**
   * Heartbeats every leaseMs/3 until stopped; aborts the handler when cancelled or gone.
   * A progress report brings the next heartbeat forward (at once, or PROGRESS_INTERVAL_MS
   * after the previous one) and rides on it.
   */
  private heartbeats(
    task: Task,
    abort: AbortController,
  ): { stop(): void; progress(report: { text: string; dataJson: string }): void } {
    const interval = Math.max(Math.floor(this.opts.leaseMs / 3), 200);
    let busy = false;
    let stopped = false;
    let lastBeat = -Infinity;
    let due = 0;
    let pending: { text: string; dataJson: string } | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
    const schedule = (at: number) => {
      if (stopped) return;
      if (timer !== undefined) clearTimeout(timer);
      due = at;
      timer = setTimeout(() => void beat(), Math.max(0, at - performance.now()));
    };
    const beat = async () => {
      timer = undefined;
      if (stopped || this.hardAbort.signal.aborted) return;
      if (busy) return schedule(performance.now() + 50);
      busy = true;
      lastBeat = performance.now();
      const report = pending;
      pending = undefined;
      schedule(lastBeat + interval);
      try {
        const response = await this.client.tasks.heartbeat(
          {
            attemptId: task.attemptId,
            workerId: this.workerId,
            leaseMs: BigInt(this.opts.leaseMs),
            progress: report,
          },
          { timeoutMs: interval, signal: this.hardAbort.signal },
        );
        if (response.cancelled) {
          this.log.info("the attempt was cancelled; aborting the handler", { attemptId: task.attemptId });
          abort.abort(new Error("praxis worker: the attempt was cancelled"));
          stop();
        }
      } catch (err) {
        const { code, codeName: name, reason } = errorReason(err);
        if (GONE.has(reason)) {
          this.log.info("the attempt is gone; aborting the handler", { attemptId: task.attemptId, reason });
          abort.abort(new Error(`praxis worker: the attempt's lease was lost: ${reason}`));
          stop();
        } else if (report !== undefined && code === Code.InvalidArgument) {
          this.log.warn("progress refused; heartbeating without it", { attemptId: task.attemptId, reason });
          schedule(performance.now()); // the lease still needs extending
        } else if (!this.hardAbort.signal.aborted) {
          this.log.warn("heartbeat failed; trying again next interval", { attemptId: task.attemptId, code: name, reason });
          if (isTransient(err)) pending ??= report; // sent with the next heartbeat
        }
      } finally {
        busy = false;
      }
    };
    schedule(performance.now() + interval);
    return {
      stop,
      progress: (report) => {
        pending = report;
        const soon = Math.max(performance.now(), lastBeat + PROGRESS_INTERVAL_MS);
        if (!stopped && soon < due) schedule(soon);
      },
    };
  }

  /** Runs the single batch settler until nothing is pending (also what arrives meanwhile). */
  private async flush(): Promise<void> {
    while (this.pending.length > 0 || this.settling) {
      this.settling ??= this.sendPending().finally(() => {
        this.settling = undefined;
      });
      await this.settling;
    }
  }

  private async sendPending(): Promise<void> {
    while (this.pending.length > 0) {
      await this.sendBatch(this.pending.splice(0, 100));
    }
  }

  private async sendBatch(batch: Settlement[]): Promise<void> {
    if (!this.legacy) {
      try {
        const response = await this.retry(() => this.client.tasks.settleTasks({ settlements: batch }));
        await this.record(batch, response.results);
        return;
      } catch (err) {
        if (errorReason(err).code !== Code.Unimplemented) {
          for (const s of batch) this.refused(s, err);
          return;
        }
        this.log.info("the server has no TaskService.SettleTasks; settling with CompleteTask and FailTask");
        this.legacy = true;
      }
    }
    await Promise.all(batch.map((s) => this.sendOne(s)));
  }

  private async sendOne(s: Settlement): Promise<void> {
    try {
      if (s.outcome.case === "complete") {
        const c = s.outcome.value;
        await this.retry(() => this.client.tasks.completeTask(c));
      } else if (s.outcome.case === "fail") {
        const f = s.outcome.value;
        await this.retry(() => this.client.tasks.failTask(f));
      }
      this.settled(s);
    } catch (err) {
      const { code, reason } = errorReason(err);
      const retry = this.resultRejected(s, code, reason, ConnectError.from(err).rawMessage);
      if (retry) return this.sendOne(retry);
      this.refused(s, err);
    }
  }

  private async record(batch: Settlement[], results: SettlementResult[]): Promise<void> {
    const again: Settlement[] = [];
    batch.forEach((s, i) => {
      const r = results[i];
      if (r?.result.case === "error") {
        const e = r.result.value;
        const retry = this.resultRejected(s, e.code as Code, e.reason, e.message);
        if (retry) again.push(retry);
        else this.refusedWith(s, codeName(e.code as Code), e.reason, e.message);
      } else if (r) {
        this.settled(s);
      } else {
        this.refusedWith(s, "INTERNAL", "", "the server answered fewer results than settlements");
      }
    });
    if (again.length > 0) await this.sendBatch(again);
  }

  /** A completion refused with INVALID_ARGUMENT becomes the failure to send instead. */
  private resultRejected(s: Settlement, code: Code, reason: string, message: string): Settlement | undefined {
    if (s.outcome.case !== "complete" || code !== Code.InvalidArgument) return undefined;
    const c = s.outcome.value;
    this.log.error("the server rejected the result; failing the attempt", { attemptId: c.attemptId, reason, message });
    return create(SettlementSchema, {
      outcome: {
        case: "fail",
        value: {
          attemptId: c.attemptId,
          workerId: c.workerId,
          error: `result rejected: ${reason}: ${message}`.slice(0, MAX_ERROR_TEXT),
          retryable: reason === "RESULT_CONTRACT_VIOLATION",
          effect: c.effect,
          costMicrocredits: c.costMicrocredits,
        },
      },
    });
  }

  private settled(s: Settlement): void {
    const effect = s.outcome.value?.effect;
    if (effect === EffectOutcome.UNCERTAIN) this.counts.uncertain++;
    else if (s.outcome.case === "complete") this.counts.completed++;
    else this.counts.failed++;
    this.log.debug("settled", { attemptId: attemptOf(s) });
  }

  private refused(s: Settlement, err: unknown): void {
    const { codeName: name, reason } = errorReason(err);
    this.refusedWith(s, name, reason, String(err));
  }

  private refusedWith(s: Settlement, code: string, reason: string, message: string): void {
    this.counts.dropped++;
    if (GONE.has(reason)) this.log.info("result dropped", { attemptId: attemptOf(s), reason });
    else this.log.error("settlement refused", { attemptId: attemptOf(s), code, reason, message });
  }

  /** Retries a call on transient errors with backoff until the drain is over. */
  private async retry<T>(call: () => Promise<T>): Promise<T> {
    const backoff = new Backoff();
    for (;;) {
      try {
        return await call();
      } catch (err) {
        if (!isTransient(err) || this.hardAbort.signal.aborted) throw err;
        if (!(await sleep(backoff.next(), this.hardAbort.signal))) throw err;
      }
    }
  }
}
