import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// The README's quick start must be the example that the test build type-checks.
test("README quick start is examples/get-epochs.ts", () => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
  assert.ok(read("README.md").includes("```ts\n" + read("examples/get-epochs.ts") + "```"));
});

// The README's "write a worker" section must be the example that test/worker.test.ts runs.
test("README worker is examples/worker.ts", () => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
  assert.ok(read("README.md").includes("```ts\n" + read("examples/worker.ts") + "```"));
});
