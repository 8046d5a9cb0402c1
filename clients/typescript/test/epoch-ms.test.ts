import { test } from "node:test";
import assert from "node:assert/strict";
import { EpochMsError, MAX_EPOCH_MS, epochMs, fromEpochMs, toEpochMs } from "@praxis-engine/client";

test("dates round-trip through epoch milliseconds", () => {
  for (const ms of [0n, 1n, -1n, 1_700_000_000_123n, MAX_EPOCH_MS, -MAX_EPOCH_MS]) {
    assert.equal(toEpochMs(fromEpochMs(ms)), ms);
  }
  assert.equal(fromEpochMs(1_700_000_000_123n).toISOString(), "2023-11-14T22:13:20.123Z");
  assert.equal(fromEpochMs(1_700_000_000_123).getTime(), 1_700_000_000_123);
  assert.equal(toEpochMs(new Date("1969-12-31T23:59:59.999Z")), -1n);
});

test("out-of-range and non-integer times are rejected", () => {
  const bad: (bigint | number)[] = [
    MAX_EPOCH_MS + 1n, -MAX_EPOCH_MS - 1n, 2n ** 63n - 1n, 8.64e15 + 2, -8.64e15 - 2,
    1.5, -0.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY,
  ];
  for (const ms of bad) {
    assert.throws(() => epochMs(ms), EpochMsError, String(ms));
    assert.throws(() => fromEpochMs(ms), EpochMsError, String(ms));
  }
  assert.throws(() => toEpochMs(new Date(Number.NaN)), EpochMsError);
  assert.equal(epochMs(8.64e15), MAX_EPOCH_MS);
});
