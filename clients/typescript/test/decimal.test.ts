import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DecimalError,
  checkDecimal,
  decimalFromBigInt,
  decimalFromScaled,
  decimalToBigInt,
  decimalToScaled,
  isCanonicalDecimal,
} from "@praxis-engine/client";

const canonical = [
  "0", "1", "-1", "10", "123456789012345678901234567890", "0.5", "-0.5", "1.05",
  "0.000001", "-12.34",
];
const nonCanonical = [
  "", "-", "-0", "1.50", "01", "00", "+1", "1e3", "1E3", ".5", "1.", "-.5", " 1", "1 ",
  "1\n", "0.0", "-0.0", "1,5", "0x10", "NaN", "Infinity", "١", "1.5.1",
];

test("canonical decimals are accepted", () => {
  for (const s of canonical) {
    assert.equal(isCanonicalDecimal(s), true, s);
    assert.equal(checkDecimal(s), s);
  }
});

test("non-canonical decimals are rejected", () => {
  for (const s of nonCanonical) {
    assert.equal(isCanonicalDecimal(s), false, JSON.stringify(s));
    assert.throws(() => checkDecimal(s), DecimalError, JSON.stringify(s));
    assert.throws(() => decimalToScaled(s, 10), DecimalError, JSON.stringify(s));
  }
});

test("integers convert to and from bigint beyond 2^53", () => {
  assert.equal(decimalFromBigInt(-90071992547409930000n), "-90071992547409930000");
  assert.equal(decimalToBigInt("90071992547409930001"), 90071992547409930001n);
  assert.equal(decimalToBigInt("0"), 0n);
  for (const s of ["1.5", "-0", "007"]) {
    assert.throws(() => decimalToBigInt(s), DecimalError, s);
  }
});

test("scaled conversion is exact", () => {
  assert.equal(decimalToScaled("1.5", 2), 150n);
  assert.equal(decimalToScaled("-0.005", 3), -5n);
  assert.equal(decimalToScaled("12", 0), 12n);
  assert.equal(decimalToScaled("0.1", 18), 100000000000000000n);
  assert.throws(() => decimalToScaled("1.005", 2), DecimalError);
  assert.throws(() => decimalToScaled("1", -1), DecimalError);
  assert.throws(() => decimalToScaled("1", 0.5), DecimalError);

  const cases: [bigint, number, string][] = [
    [150n, 2, "1.5"], [-5n, 3, "-0.005"], [0n, 6, "0"], [-100n, 2, "-1"],
    [1n, 0, "1"], [123456789n, 4, "12345.6789"], [10n, 1, "1"],
  ];
  for (const [units, scale, want] of cases) {
    assert.equal(decimalFromScaled(units, scale), want, `${units}e-${scale}`);
  }
  // 0.1 + 0.2 in exact micro-units, where floating point gives 0.30000000000000004.
  const sum = decimalToScaled("0.1", 6) + decimalToScaled("0.2", 6);
  assert.equal(decimalFromScaled(sum, 6), "0.3");
});

test("every canonical value round-trips through scaled bigint", () => {
  for (const s of canonical) {
    assert.equal(decimalFromScaled(decimalToScaled(s, 12), 12), s);
  }
});
