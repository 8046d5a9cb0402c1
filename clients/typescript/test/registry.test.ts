import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromJson, toJson, type DescFile } from "@bufbuild/protobuf";
import { ExecuteRequestSchema, findMethod, praxisRegistry } from "@praxis-engine/client";

const SERVICES = [
  "aiws.engine.v1.RegistryService", "aiws.engine.v1.ApprovalService", "aiws.engine.v1.AdminService",
  "aiws.engine.v1.RunService", "aiws.engine.v1.TaskService", "aiws.engine.v1.EventService",
  "aiws.engine.v1.ContractService", "aiws.engine.v1.ReconciliationService",
  "aiws.engine.v1.WaitService", "aiws.engine.v1.AssessmentService", "aiws.engine.v1.HandoffService",
  "aiws.engine.v1.ScheduleService", "aiws.engine.testing.v1.TestClockService",
];

test("every generated file is in praxisRegistry", async () => {
  const genDir = fileURLToPath(new URL("../../dist/gen/", import.meta.url));
  const files = readdirSync(genDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("_pb.js"));
  assert.ok(files.length >= 11, `found ${files.length} generated files`);
  for (const f of files) {
    const mod = (await import(join(genDir, f))) as Record<string, unknown>;
    const descs = Object.entries(mod).filter(([name]) => name.startsWith("file_"));
    assert.equal(descs.length, 1, f);
    const file = descs[0]![1] as DescFile;
    const types = [...file.messages, ...file.enums, ...file.services];
    assert.ok(types.length > 0, f);
    for (const t of types) {
      assert.equal(praxisRegistry.get(t.typeName), t, `${f}: ${t.typeName}`);
    }
  }
});

test("findMethod resolves every method of every service, by full and bare name", () => {
  let count = 0;
  for (const name of SERVICES) {
    const service = praxisRegistry.getService(name);
    assert.ok(service, name);
    for (const m of service.methods) {
      assert.equal(findMethod(name, m.name), m);
      assert.equal(findMethod(name.slice(name.lastIndexOf(".") + 1), m.name), m);
      count++;
    }
  }
  assert.ok(count >= 30, `only ${count} methods`);
  for (const [service, method] of [["RegistryService", "Nope"], ["NopeService", "GetEpochs"], ["registryservice", "GetEpochs"]]) {
    assert.throws(() => findMethod(service!, method!));
  }
});

test("a proto-JSON request survives the round trip invokeJson makes", () => {
  const json = {
    epochs: { installationId: "i-1", ownershipEpoch: "9007199254740993", authorityEpoch: "2" },
    requestId: "r-1",
    command: {
      propose: {
        ref: { workOrderId: "wo-1", runId: "run-1" }, proposalId: "p-1", baseRevision: "3",
        definitionJson: '{"version":1}', policyDigests: { safety: "sha256:00" },
      },
    },
  };
  const msg = fromJson(ExecuteRequestSchema, json, { registry: praxisRegistry });
  assert.equal(msg.epochs?.ownershipEpoch, 9007199254740993n);
  assert.equal(msg.command?.command.case, "propose");
  assert.deepEqual(toJson(ExecuteRequestSchema, msg, { registry: praxisRegistry }), json);
  // Default values are omitted, as in every language's proto-JSON.
  assert.deepEqual(toJson(ExecuteRequestSchema, create(ExecuteRequestSchema)), {});
});
