// The worker continues the attempt's trace: a span the handler starts is a child of the
// task's traceparent (with @opentelemetry/api, a context manager and the SDK installed,
// as a program that traces has them); an empty or malformed traceparent gives a root span.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { TaskService, Worker, connect, type Settlement } from "@praxis-engine/client";
import { parseTraceparent, withAttemptContext } from "../src/tracing.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

test("parseTraceparent accepts W3C traceparents and nothing else", () => {
  assert.deepEqual(parseTraceparent(TRACEPARENT), {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    traceFlags: 1,
    isRemote: true,
  });
  assert.equal(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.traceFlags, 0);
  assert.equal(parseTraceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-later")?.traceFlags, 1);
  for (const bad of [
    "",
    "garbage",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 has 4 fields
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // uppercase
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero span id
    "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", // misplaced dash
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", // non-hex flags
    "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // non-hex version
    " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // whitespace
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ", // whitespace
    "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", // later version, no dash
    "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", // wrong separators
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1", // short flags
  ]) {
    assert.equal(parseTraceparent(bad), undefined, bad);
  }
});

test("without @opentelemetry/api (or a valid traceparent) the handler runs as before", async () => {
  let loads = 0;
  const missing = async () => (loads++, undefined);
  assert.equal(await withAttemptContext(TRACEPARENT, () => "ran", missing), "ran");
  assert.equal(loads, 1);
  assert.equal(await withAttemptContext("", async () => "ran async", missing), "ran async");
  assert.equal(await withAttemptContext("00-zz", () => "ran", missing), "ran");
  assert.equal(loads, 1, "an invalid traceparent never loads the API");
  await assert.rejects(withAttemptContext(TRACEPARENT, () => { throw new RangeError("boom"); }, missing), RangeError);
});

test("a span the handler starts is a child of the attempt's span", async () => {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("praxis-worker-test");

  const queue = [
    { attemptId: "att-traced", traceparent: TRACEPARENT, inputJson: '"x"' },
    { attemptId: "att-empty", traceparent: "", inputJson: '"x"' },
    { attemptId: "att-malformed", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", inputJson: '"x"' },
  ];
  const settled = new Map<string, Settlement>();
  const handler = connectNodeAdapter({
    grpc: true,
    connect: false,
    grpcWeb: false,
    routes: (r) =>
      r.service(TaskService, {
        async settleTasks(req) {
          for (const s of req.settlements) settled.set(s.outcome.value?.attemptId ?? "", s);
          const results = req.settlements.map((s) => ({
            attemptId: s.outcome.value?.attemptId ?? "",
            result: { case: "complete" as const, value: {} },
          }));
          const tasks = req.claim ? queue.splice(0, req.claim.maxTasks) : [];
          if (req.claim && tasks.length === 0) await new Promise((r) => setTimeout(r, 50));
          return { results, tasks };
        },
      }),
  });
  const server = http2.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connect(`127.0.0.1:${(server.address() as AddressInfo).port}`, "t");
  const worker = new Worker(client, { models: ["m"], concurrency: 3, pollMs: 100, logger: quiet }, async (ctx) => {
    await new Promise((r) => setTimeout(r, 5)); // the parent survives an await
    tracer.startSpan(`handler ${ctx.attemptId}`).end();
    return ctx.attemptId;
  });
  try {
    await worker.start();
    const deadline = Date.now() + 15_000;
    while (settled.size < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
  } finally {
    client.close();
    server.close();
    context.disable();
  }

  for (const id of ["att-traced", "att-empty", "att-malformed"]) {
    const s = settled.get(id);
    assert.equal(s?.outcome.case === "complete" && s.outcome.value.resultJson, JSON.stringify(id), id);
  }
  const spans = new Map(exporter.getFinishedSpans().map((s) => [s.name.replace("handler ", ""), s]));
  assert.equal(spans.size, 3);
  const traced = spans.get("att-traced")!;
  assert.equal(traced.spanContext().traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
  assert.equal(traced.parentSpanContext?.spanId, "00f067aa0ba902b7");
  assert.equal(traced.parentSpanContext?.isRemote, true);
  for (const id of ["att-empty", "att-malformed"]) {
    const root = spans.get(id)!;
    assert.equal(root.parentSpanContext, undefined, `${id} has a parent`);
    assert.notEqual(root.spanContext().traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
  }
});
