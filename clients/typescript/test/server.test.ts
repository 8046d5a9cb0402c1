// Runs the helpers against a real gRPC server on loopback: a fake RegistryService that
// behaves like the engine for GetEpochs (bearer token, ErrorInfo, BadRequest).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import {
  ErrorReason,
  EventKind,
  EventService,
  GetEpochsResponseSchema,
  RegistryService,
  connect,
  errorReason,
  fieldViolations,
  type PraxisClients,
} from "@praxis-engine/client";
import { BadRequestSchema, ErrorInfoSchema } from "@praxis-engine/client/gen/google/rpc/error_details_pb";

const TOKEN = "secret";
let server: http2.Http2Server;
let address = "";
const opened: PraxisClients[] = [];

function engineError(code: Code, reason: ErrorReason, field?: string): ConnectError {
  const details = [{ desc: ErrorInfoSchema, value: { domain: "engine.aiws", reason: ErrorReason[reason] } }];
  const badRequest = field
    ? [{ desc: BadRequestSchema, value: { fieldViolations: [{ field, description: "not an identifier" }] } }]
    : [];
  return new ConnectError("message text is not part of the contract", code, undefined, [...details, ...badRequest]);
}

before(async () => {
  const handler = connectNodeAdapter({
    grpc: true,
    connect: false,
    grpcWeb: false,
    routes: (router) => {
      // StreamEvents: the events after the cursor up to seq 3, then the end; with a run
      // filter the stream stays open until the caller cancels; a negative cursor fails.
      router.service(EventService, {
        async *streamEvents(req, ctx) {
          if (req.after < 0n) throw engineError(Code.InvalidArgument, ErrorReason.PAGE_INVALID);
          for (let seq = req.after + 1n; seq <= 3n; seq++) {
            yield { event: { seq: seq + 9007199254740990n, kind: EventKind.RUN_STARTED, runId: "run-1" } };
          }
          if (req.runId !== "") {
            await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
          }
        },
      });
      router.service(RegistryService, {
        getEpochs(req, ctx) {
          if (ctx.requestHeader.get("authorization") !== `Bearer ${TOKEN}`) {
            throw engineError(Code.Unauthenticated, ErrorReason.CREDENTIAL_MISSING);
          }
          if (req.workOrderId === "" || req.workOrderId === "bad id") {
            throw engineError(Code.InvalidArgument, ErrorReason.IDENTIFIER_INVALID, "work_order_id");
          }
          return create(GetEpochsResponseSchema, {
            epochs: { installationId: `inst-${req.workOrderId}`, ownershipEpoch: 1n, authorityEpoch: 9007199254740993n },
          });
        },
      });
    },
  });
  server = http2.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const c of opened) c.close();
  await new Promise((resolve) => server.close(resolve));
});

function open(token?: string): PraxisClients {
  const c = connect(address, token);
  opened.push(c);
  return c;
}

test("connect sends the bearer token and returns typed clients", async () => {
  const res = await open(TOKEN).registry.getEpochs({ workOrderId: "wo-1" });
  assert.equal(res.epochs?.installationId, "inst-wo-1");
  assert.equal(res.epochs?.authorityEpoch, 9007199254740993n);
});

test("a missing or wrong token fails with the engine reason", async () => {
  for (const token of [undefined, "wrong"]) {
    const err = await open(token).registry.getEpochs({ workOrderId: "wo-1" }).then(
      () => assert.fail("call succeeded"),
      (e: unknown) => e,
    );
    assert.deepEqual(errorReason(err), { code: Code.Unauthenticated, codeName: "UNAUTHENTICATED", reason: "CREDENTIAL_MISSING" });
    assert.deepEqual(fieldViolations(err), []);
  }
});

test("field violations travel with INVALID_ARGUMENT", async () => {
  const err = await open(TOKEN).registry.getEpochs({ workOrderId: "bad id" }).catch((e: unknown) => e);
  assert.equal(errorReason(err).reason, ErrorReason[ErrorReason.IDENTIFIER_INVALID]);
  assert.deepEqual(fieldViolations(err).map((v) => v.field), ["work_order_id"]);
});

test("invokeJson calls by name with proto-JSON in and out", async () => {
  const c = open(TOKEN);
  assert.deepEqual(await c.invokeJson("RegistryService", "GetEpochs", '{"workOrderId":"wo-1"}'), {
    ok: true,
    response: { epochs: { installationId: "inst-wo-1", ownershipEpoch: "1", authorityEpoch: "9007199254740993" } },
  });
  assert.deepEqual(await c.invokeJson("aiws.engine.v1.RegistryService", "GetEpochs", { work_order_id: "bad id" }), {
    ok: false,
    error: { code: Code.InvalidArgument, codeName: "INVALID_ARGUMENT", reason: "IDENTIFIER_INVALID" },
  });
  // The fake serves only RegistryService.
  const clock = await c.invokeJson("TestClockService", "Advance", { byMs: "5" });
  assert.equal(clock.ok ? "ok" : clock.error.codeName, "UNIMPLEMENTED");
});

test("invokeJson throws for local problems instead of calling", async () => {
  const c = open(TOKEN);
  const cases: [string, string, string][] = [
    ["RegistryService", "GetEpochs", '{"workOrder":"wo-1"}'],
    ["RegistryService", "GetEpochs", '{"workOrderId":'],
    ["RegistryService", "GetEpochs", '{"workOrderId":1}'],
    ["RunService", "WatchRun", "{}"],
    ["RunService", "Nope", "{}"],
    ["NopeService", "GetEpochs", "{}"],
  ];
  for (const [service, method, json] of cases) {
    await assert.rejects(c.invokeJson(service, method, json), (e: unknown) => !(e instanceof ConnectError), `${service}.${method} ${json}`);
  }
});

async function collect(stream: AsyncIterable<unknown>): Promise<{ messages: unknown[]; error?: unknown }> {
  const messages: unknown[] = [];
  try {
    for await (const message of stream) messages.push(message);
  } catch (error) {
    return { messages, error };
  }
  return { messages };
}

test("invokeStreamJson yields proto-JSON messages until the server ends the stream", async () => {
  const c = open(TOKEN);
  assert.deepEqual(await collect(c.invokeStreamJson("EventService", "StreamEvents", '{"after":"1"}')), {
    messages: [
      { event: { seq: "9007199254740992", kind: "EVENT_KIND_RUN_STARTED", runId: "run-1" } },
      { event: { seq: "9007199254740993", kind: "EVENT_KIND_RUN_STARTED", runId: "run-1" } },
    ],
  });
  const refused = await collect(c.invokeStreamJson("aiws.engine.v1.EventService", "StreamEvents", { after: "-1" }));
  assert.deepEqual(refused.messages, []);
  assert.deepEqual(errorReason(refused.error), { code: Code.InvalidArgument, codeName: "INVALID_ARGUMENT", reason: "PAGE_INVALID" });
});

test("invokeStreamJson stops when the caller aborts", async () => {
  const c = open(TOKEN);
  const controller = new AbortController();
  const stream = c.invokeStreamJson("EventService", "StreamEvents", { runId: "run-1", after: "2" }, { signal: controller.signal });
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  assert.deepEqual(first.value, { event: { seq: "9007199254740993", kind: "EVENT_KIND_RUN_STARTED", runId: "run-1" } });
  controller.abort();
  const after = await iterator.next().then(
    () => "no error",
    (e: unknown) => errorReason(e).codeName,
  );
  assert.equal(after, "CANCELLED");
});

test("invokeStreamJson throws for local problems instead of calling", () => {
  const c = open(TOKEN);
  const cases: [string, string, string][] = [
    ["RunService", "WatchRun", '{"run":"r"}'],
    ["EventService", "StreamEvents", '{"after":'],
    ["RunService", "GetRun", "{}"],
    ["RunService", "Nope", "{}"],
  ];
  for (const [service, method, json] of cases) {
    assert.throws(() => c.invokeStreamJson(service, method, json), (e: unknown) => !(e instanceof ConnectError), `${service}.${method} ${json}`);
  }
});
