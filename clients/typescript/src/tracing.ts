// Continuing a task's trace in the worker (optional: needs `@opentelemetry/api`).
//
// A server that exports traces hands each task its attempt's span as a W3C `traceparent`
// (`Task.traceparent`). When `@opentelemetry/api` is installed (an optional peer
// dependency, loaded lazily on the first task that carries a valid traceparent), the
// worker runs the handler inside `context.with(trace.setSpanContext(context.active(), sc))`
// with that span as the remote parent, so the spans a handler starts (with whatever SDK
// and context manager the program registered) sit under the attempt in the run's trace.
// Without it the handler runs as before; `TaskContext.traceparent` carries the value
// either way. Only local structural types are used here, so the package's type
// declarations never reference `@opentelemetry/api`.

/** A W3C trace context span reference: the fields `@opentelemetry/api`'s SpanContext has. */
export interface RemoteSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote: true;
}

/** The part of `@opentelemetry/api` the worker uses. */
export interface OtelApi {
  context: {
    active(): unknown;
    with<R>(context: unknown, fn: () => R): R;
  };
  trace: {
    setSpanContext(context: unknown, spanContext: RemoteSpanContext): unknown;
  };
}

const HEX = /^[0-9a-f]+$/;
const ZERO = /^0+$/;
const SIZE = 55; // 2 + 1 + 32 + 1 + 16 + 1 + 2

/**
 * Parses a W3C Trace Context `traceparent` (`<version>-<32 hex trace id>-<16 hex span
 * id>-<2 hex flags>`, lowercase hex): version `ff` is invalid, version `00` has exactly
 * these four fields, a later version may append `-<more>`; an all-zero trace or span id
 * is invalid. Only the sampled flag (the one version 00 defines) is kept. Returns
 * undefined when `value` is not a valid traceparent.
 */
export function parseTraceparent(value: string): RemoteSpanContext | undefined {
  if (value.length < SIZE || value[2] !== "-" || value[35] !== "-" || value[52] !== "-") return undefined;
  const version = value.slice(0, 2);
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (![version, traceId, spanId, flags].every((part) => HEX.test(part))) return undefined;
  if (version === "ff" || (version === "00" && value.length !== SIZE)) return undefined;
  if (value.length > SIZE && value[SIZE] !== "-") return undefined;
  if (ZERO.test(traceId) || ZERO.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & 1, isRemote: true };
}

let loaded: Promise<OtelApi | undefined> | undefined;

/** Imports `@opentelemetry/api` once; undefined when it is not installed. */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loaded ??= import("@opentelemetry/api").then(
    (api): OtelApi => ({
      context: api.context,
      trace: { setSpanContext: (ctx, sc) => api.trace.setSpanContext(ctx as never, sc) },
    }),
    () => undefined,
  );
  return loaded;
}

/**
 * Runs `fn` with the attempt's span (`traceparent`) as the current remote parent. Runs
 * it plainly when `traceparent` is empty or invalid, or `@opentelemetry/api` is missing.
 */
export async function withAttemptContext<R>(
  traceparent: string,
  fn: () => R,
  load: () => Promise<OtelApi | undefined> = loadOtelApi,
): Promise<Awaited<R>> {
  const spanContext = parseTraceparent(traceparent);
  const api = spanContext === undefined ? undefined : await load();
  if (api === undefined || spanContext === undefined) return await fn();
  return await api.context.with(api.trace.setSpanContext(api.context.active(), spanContext), fn);
}
