// The TypeScript scenario worker (conformance/workers/README.md): the public Worker with
// the scripted handler. Prints ready, cancelled and stopped events as JSON lines on
// stdout; logs go to stderr.
import { parseArgs } from "node:util";
import { setTimeout as delay } from "node:timers/promises";
import { context, isSpanContextValid, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { Applied, NotApplied, Uncertain, Worker, WorkerError, connect, type TaskContext } from "@praxis-engine/client";

// A program that traces registers a context manager (an SDK's NodeSDK or
// NodeTracerProvider.register() does); the "trace" scenario needs only this part of it.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

function emit(event: Record<string, string>): void {
  process.stdout.write(JSON.stringify(event) + "\n");
}

function waitAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** The scripted handler: the input's `do` decides. */
async function handle(ctx: TaskContext): Promise<unknown> {
  const spec = ctx.input as Record<string, unknown> | null;
  if (spec === null || typeof spec !== "object" || Array.isArray(spec) || !("do" in spec)) {
    return { echo: ctx.input };
  }
  const text = (key: string, fallback: string) => (typeof spec[key] === "string" ? (spec[key] as string) : fallback);
  const result = "result" in spec ? spec.result : spec;
  switch (spec.do) {
    case "complete":
      return new Applied(result, { cost: typeof spec.cost === "string" ? spec.cost : undefined });
    case "fail":
      throw new NotApplied(text("error", "failed"), { retryable: spec.retryable === true });
    case "uncertain":
      if ("result" in spec) return new Uncertain(text("error", "uncertain"), { result: spec.result });
      return new Uncertain(text("error", "uncertain"));
    case "raise":
      throw new Error(text("error", "raised"));
    case "sleep":
      try {
        await delay(Number(spec.ms ?? 0), undefined, { signal: ctx.signal });
      } catch {
        emit({ event: "cancelled", attempt_id: ctx.attemptId });
      }
      return result;
    case "hang":
      await waitAbort(ctx.signal);
      emit({ event: "cancelled", attempt_id: ctx.attemptId });
      // Stopped before the effect: say so; or the effect happened before the stop landed.
      if (spec.then === "not_applied") throw new NotApplied(text("error", "stopped before the effect"));
      if (spec.then === "applied" && "result" in spec) return new Applied(spec.result);
      return { hung: true };
    case "trace": {
      // The attempt's traceparent and the span context the OpenTelemetry API sees as
      // current inside the handler ("" when none is valid).
      const sc = trace.getSpanContext(context.active());
      const current =
        sc !== undefined && isSpanContextValid(sc)
          ? `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags.toString(16).padStart(2, "0")}`
          : "";
      return { traceparent: ctx.traceparent, current };
    }
    case "progress": {
      const steps = Number(spec.steps ?? 1);
      const pause = async (ms: number) => {
        try {
          await delay(ms, undefined, { signal: ctx.signal });
        } catch {
          // cancelled: stop reporting
        }
      };
      for (let step = 1; step <= steps && !ctx.signal.aborted; step++) {
        ctx.progress(`step ${step} of ${steps}`, { step, of: steps });
        await pause(Number(spec.ms ?? 0));
      }
      await pause(Number(spec.hold_ms ?? 0));
      return { steps };
    }
    case "unserializable":
      return { big: 1n };
  }
  return { echo: ctx.input };
}

const { values } = parseArgs({
  options: {
    address: { type: "string" },
    token: { type: "string" },
    model: { type: "string" },
    "worker-id": { type: "string" },
    concurrency: { type: "string", default: "4" },
    "lease-ms": { type: "string", default: "30000" },
  },
});
const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
  process.stderr.write(`${new Date().toISOString()} ${level} ${message} ${fields ? JSON.stringify(fields) : ""}\n`);
const client = connect(values.address ?? "", values.token);
const worker = new Worker(
  client,
  {
    models: [values.model ?? ""],
    workerId: values["worker-id"],
    concurrency: Number(values.concurrency),
    leaseMs: Number(values["lease-ms"]),
    logger: { debug: () => {}, info: log("INFO"), warn: log("WARNING"), error: log("ERROR") },
  },
  handle,
);
try {
  await worker.start();
  emit({ event: "ready" });
  await worker.run();
  emit({ event: "stopped" });
  client.close();
} catch (err) {
  process.stderr.write(`scenario worker: ${err instanceof WorkerError ? `${err.codeName} ${err.reason} ${err.message}` : String(err)}\n`);
  process.exit(err instanceof WorkerError ? 2 : 3);
}
