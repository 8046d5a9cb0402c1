// The worker runtime against fake TaskServices on loopback: the README's worker (legacy
// settle: no SettleTasks), the batch path, outcomes, and a bad token.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import {
  Applied,
  EffectOutcome,
  ErrorReason,
  NodeEffects,
  NotApplied,
  TaskService,
  Uncertain,
  Worker,
  WorkerError,
  connect,
  fromJson,
  toJson,
  type CompleteTaskRequest,
  type Settlement,
} from "@praxis-engine/client";
import { ErrorInfoSchema } from "@praxis-engine/client/gen/google/rpc/error_details_pb";
import * as internal from "../src/worker.js";

async function serve(impl: Partial<ServiceImpl<typeof TaskService>>): Promise<{ address: string; close(): void }> {
  const handler = connectNodeAdapter({ grpc: true, connect: false, grpcWeb: false, routes: (r) => r.service(TaskService, impl) });
  const server = http2.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, close: () => server.close() };
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const idle = (ms: bigint, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, Math.min(Number(ms), 100));
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

test("the README worker (examples/worker.ts) completes a task and stops on SIGTERM", async () => {
  let served = false;
  let done!: (req: CompleteTaskRequest) => void;
  const completed = new Promise<CompleteTaskRequest>((resolve) => (done = resolve));
  const server = await serve({
    async claimTasks(req, ctx) {
      if (!served && req.models[0] === "summarise") {
        served = true;
        const text = "é".repeat(150);
        return { tasks: [{ attemptId: "att-1", nodeUid: "a", inputJson: JSON.stringify({ text }) }] };
      }
      await idle(req.waitMs, ctx.signal);
      return { tasks: [] };
    },
    completeTask(req) {
      done(req);
      return {};
    },
  });
  process.env.PRAXIS_ADDRESS = server.address;
  process.env.PRAXIS_TOKEN = "t";
  // @ts-ignore -- the example is compiled next to this test (tsconfig.test.json)
  const running = import("../examples/worker.js");
  const req = await completed;
  assert.equal(req.resultJson, JSON.stringify({ summary: "é".repeat(100) }));
  assert.equal(req.costMicrocredits, "12.5");
  assert.equal(req.effect, EffectOutcome.APPLIED);
  process.emit("SIGTERM");
  await running;
  server.close();
});

test("settles a batch through SettleTasks with the outcome each handler chose", async () => {
  const queue = ["ok", "fail", "big", "cost", "uncertain", "throw", "throw-idempotent", "throw-none", "throw-external"];
  // What each task's node declares (docs/workers.md, Outcomes); undeclared by default.
  const effects: Record<string, NodeEffects> = {
    "throw-idempotent": NodeEffects.IDEMPOTENT,
    "throw-none": NodeEffects.NONE,
    "throw-external": NodeEffects.EXTERNAL,
  };
  const task = (k: string) => ({ attemptId: `att-${k}`, inputJson: JSON.stringify(k), effects: effects[k] });
  const safeSeen = new Map<string, boolean>();
  const settled = new Map<string, Settlement>();
  let most = 0;
  const server = await serve({
    async settleTasks(req, ctx) {
      for (const s of req.settlements) settled.set(s.outcome.value?.attemptId ?? "", s);
      const results = req.settlements.map((s) => ({
        attemptId: s.outcome.value?.attemptId ?? "",
        result: { case: "complete" as const, value: {} },
      }));
      if (!req.claim) return { results };
      most = Math.max(most, req.claim.maxTasks);
      const tasks = queue.splice(0, req.claim.maxTasks).map(task);
      if (tasks.length === 0) await idle(req.claim.waitMs, ctx.signal);
      return { results, tasks };
    },
    async claimTasks(req, ctx) {
      most = Math.max(most, req.maxTasks);
      const tasks = queue.splice(0, req.maxTasks).map(task);
      if (tasks.length === 0) await idle(req.waitMs, ctx.signal);
      return { tasks };
    },
  });
  const client = connect(server.address, "t");
  const worker = new Worker(client, { models: ["m"], concurrency: 2, pollMs: 100, logger: quiet }, (ctx) => {
    safeSeen.set(String(ctx.input), ctx.retrySafe);
    if (typeof ctx.input === "string" && ctx.input.startsWith("throw-")) throw new Error(`crashed on ${ctx.input}`);
    switch (ctx.input) {
      case "fail":
        return new NotApplied("no", { retryable: true });
      case "big":
        return { n: 1n };
      case "cost":
        return new Applied(1, { cost: "1.50" });
      case "uncertain":
        throw new Uncertain("unsure");
      case "throw":
        throw new RangeError("out of range");
    }
    return new Applied(ctx.input, { cost: 2n });
  });
  await worker.start();
  const deadline = Date.now() + 15_000;
  while (settled.size < 9 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await worker.stop();
  client.close();
  server.close();
  assert.ok(most <= 2, `claimed ${most} with concurrency 2`);
  const get = (k: string) => settled.get(`att-${k}`)?.outcome;
  assert.deepEqual([get("ok")?.case, get("ok")?.value?.costMicrocredits], ["complete", "2"]);
  const fail = get("fail");
  assert.ok(fail?.case === "fail" && fail.value.retryable && fail.value.effect === EffectOutcome.NOT_APPLIED);
  const big = get("big");
  assert.ok(big?.case === "fail" && !big.value.retryable && big.value.error.startsWith("result is not JSON-serialisable"));
  const cost = get("cost");
  assert.ok(cost?.case === "fail" && !cost.value.retryable && cost.value.error.startsWith('invalid cost "1.50"'));
  const unsure = get("uncertain");
  assert.ok(unsure?.case === "fail" && unsure.value.effect === EffectOutcome.UNCERTAIN && !unsure.value.retryable);
  // An uncaught error says nothing of the effect: UNCERTAIN unless the node is retry-safe.
  const thrown = get("throw");
  assert.ok(thrown?.case === "fail" && !thrown.value.retryable && thrown.value.effect === EffectOutcome.UNCERTAIN);
  assert.equal(thrown.value.error, "RangeError: out of range");
  const external = get("throw-external");
  assert.ok(external?.case === "fail" && !external.value.retryable && external.value.effect === EffectOutcome.UNCERTAIN);
  assert.equal(external.value.error, "Error: crashed on throw-external");
  for (const k of ["throw-idempotent", "throw-none"]) {
    const safe = get(k);
    assert.ok(safe?.case === "fail" && safe.value.retryable && safe.value.effect === EffectOutcome.NOT_APPLIED, k);
    assert.equal(safe.value.error, `Error: crashed on ${k}`);
  }
  assert.deepEqual(
    [...safeSeen].filter(([, safe]) => safe).map(([k]) => k).sort(),
    ["throw-idempotent", "throw-none"],
  );
  // An explicit NotApplied keeps its meaning on any node ("fail" declares nothing).
  assert.deepEqual(worker.stats(), { completed: 1, failed: 5, uncertain: 3, dropped: 0, inFlight: 0 });
});

test("the handler reads the node's provider and function policy (docs/workers.md)", async () => {
  let handed = false;
  let seen: { provider: string; allow: string[]; calc: boolean; fetch: boolean; shell: boolean } | undefined;
  const server = await serve({
    async settleTasks(req, ctx) {
      const results = req.settlements.map((s) => ({
        attemptId: s.outcome.value?.attemptId ?? "",
        result: { case: "complete" as const, value: {} },
      }));
      if (!req.claim || handed) {
        await idle(100n, ctx.signal);
        return { results };
      }
      handed = true;
      const agent = { model: "m", provider: "acme", functionsJson: '{"allow":["calc","web.*"],"deny":["*.fetch"]}' };
      return { results, tasks: [{ attemptId: "att-p", inputJson: "1", agent }] };
    },
  });
  const client = connect(server.address, "t");
  const worker = new Worker(client, { models: ["m"], pollMs: 100, logger: quiet }, (ctx) => {
    seen = {
      provider: ctx.provider,
      allow: ctx.functions.allow,
      calc: ctx.functionAllowed("calc"),
      fetch: ctx.functionAllowed("web.fetch"),
      shell: ctx.functionAllowed("shell"),
    };
    return 1;
  });
  await worker.start();
  const deadline = Date.now() + 10_000;
  while (seen === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await worker.stop();
  client.close();
  server.close();
  assert.deepEqual(seen, { provider: "acme", allow: ["calc", "web.*"], calc: true, fetch: false, shell: false });
  // A server that sends no policy (before issue 24) means every function.
  assert.ok(internal.functionPermitted(internal.functionPolicy(""), "anything"));
  assert.ok(internal.globMatches("a*b*c", "axxbyyc") && !internal.globMatches("a*b", "ab.c"));
  assert.ok(internal.globMatches("*", "") && !internal.globMatches("ab*ba", "aba"));
});

test("progress rides on heartbeats brought forward, coalesced and rate-limited", async () => {
  const beats: { text: string; dataJson: string }[] = [];
  let served = false;
  let finished!: () => void;
  const completed = new Promise<void>((resolve) => (finished = resolve));
  const server = await serve({
    async claimTasks(req, ctx) {
      if (!served) {
        served = true;
        return { tasks: [{ attemptId: "att-p", nodeUid: "a", inputJson: "null" }] };
      }
      await idle(req.waitMs, ctx.signal);
      return { tasks: [] };
    },
    heartbeat(req) {
      if (req.progress) beats.push({ text: req.progress.text, dataJson: req.progress.dataJson });
      return {};
    },
    completeTask() {
      finished();
      return {};
    },
  });
  const client = connect(server.address, "t");
  const refused: string[] = [];
  const worker = new Worker(client, { models: ["m"], leaseMs: 60_000, pollMs: 100, batchSettle: false, logger: quiet }, async (ctx) => {
    for (const bad of [() => ctx.progress("x".repeat(513)), () => ctx.progress("", { r: 0.5 }), () => ctx.progress("", { n: 1n })]) {
      try {
        bad();
      } catch (err) {
        if (err instanceof RangeError) refused.push(err.message);
      }
    }
    for (let step = 1; step <= 5; step++) ctx.progress(`step ${step} of 5`, { step });
    await new Promise((r) => setTimeout(r, 300));
    ctx.progress("step 6 of 5", { step: 6 }); // under a second after the last beat: waits
    await new Promise((r) => setTimeout(r, 1_500));
    return "done";
  });
  await worker.start();
  await completed;
  await worker.stop();
  client.close();
  server.close();
  assert.equal(refused.length, 3);
  assert.deepEqual(beats, [
    { text: "step 5 of 5", dataJson: '{"step":5}' },
    { text: "step 6 of 5", dataJson: '{"step":6}' },
  ]);
});

test("a bad token fails start() with UNAUTHENTICATED", async () => {
  const server = await serve({
    claimTasks() {
      throw new ConnectError("no", Code.Unauthenticated, undefined, [
        { desc: ErrorInfoSchema, value: { domain: "engine.aiws", reason: ErrorReason[ErrorReason.CREDENTIAL_INVALID] } },
      ]);
    },
  });
  const client = connect(server.address, "bad");
  const worker = new Worker(client, { models: ["m"], logger: quiet }, () => null);
  await assert.rejects(worker.start(), (err: unknown) => {
    assert.ok(err instanceof WorkerError);
    assert.equal(err.codeName, "UNAUTHENTICATED");
    assert.equal(err.reason, "CREDENTIAL_INVALID");
    return true;
  });
  client.close();
  server.close();
});

test("an uncertain result completes with effect UNCERTAIN; JSON helpers", () => {
  // decideSettlement is internal: the classes must come from the same module instance
  const { decideSettlement } = internal;
  const { settlement } = decideSettlement("a", "w", { value: new internal.Uncertain("?", { result: { x: 1 } }) }, false);
  assert.equal(settlement.outcome.case, "complete");
  assert.equal(settlement.outcome.value?.effect, EffectOutcome.UNCERTAIN);
  const long = decideSettlement("a", "w", { value: new internal.NotApplied("x".repeat(5000)) }, false).settlement;
  assert.ok(long.outcome.case === "fail" && long.outcome.value.error.length === 4000);
  // A thrown non-Error on a retry-safe node and on any other node.
  const safe = decideSettlement("a", "w", { error: "boom" }, true).settlement.outcome;
  assert.ok(safe.case === "fail" && safe.value.retryable && safe.value.effect === EffectOutcome.NOT_APPLIED);
  assert.equal(safe.value.error, "Error: boom");
  const unsafe = decideSettlement("a", "w", { error: "boom" }, false).settlement.outcome;
  assert.ok(unsafe.case === "fail" && !unsafe.value.retryable && unsafe.value.effect === EffectOutcome.UNCERTAIN);
  assert.deepEqual(
    [NodeEffects.UNSPECIFIED, NodeEffects.NONE, NodeEffects.IDEMPOTENT, NodeEffects.EXTERNAL].map((effects) =>
      internal.isRetrySafe({ effects }),
    ),
    [false, true, true, false],
  );
  assert.equal(toJson({ z: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"z":1}');
  assert.deepEqual(fromJson(""), null);
});
