/**
 * Canonical decimal strings, the wire form of quantities (money, budget, cost, counts
 * that may exceed 2^53): `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, no exponent, no `+`, no
 * trailing fractional zeros, no `-0`. Non-canonical values are rejected, never
 * normalised. Conversions use bigint, never floating point.
 */

const CANONICAL = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

/** Thrown for a decimal string that is not canonical, or a value that has no such form. */
export class DecimalError extends RangeError {
  override name = "DecimalError";
}

/** True when `s` is a canonical decimal string. */
export function isCanonicalDecimal(s: string): boolean {
  return typeof s === "string" && s !== "-0" && CANONICAL.test(s);
}

/**
 * Returns `s` when it is a canonical decimal string, and throws DecimalError otherwise:
 * "1.50", "01", "+1", "1e3", "-0", ".5" and "1." all throw.
 */
export function checkDecimal(s: string): string {
  if (!isCanonicalDecimal(s)) {
    throw new DecimalError(`decimal not canonical: ${JSON.stringify(s)}`);
  }
  return s;
}

/** The canonical decimal string of an integer. */
export function decimalFromBigInt(n: bigint): string {
  return n.toString();
}

/** Converts a canonical decimal string without a fraction to a bigint. */
export function decimalToBigInt(s: string): bigint {
  if (checkDecimal(s).includes(".")) {
    throw new DecimalError(`decimal is not an integer: ${JSON.stringify(s)}`);
  }
  return BigInt(s);
}

/**
 * Converts a canonical decimal string to an integer count of `10^-scale` units:
 * `decimalToScaled("1.5", 2) === 150n`. Throws when `s` has more fractional digits
 * than `scale`, since that would lose precision.
 */
export function decimalToScaled(s: string, scale: number): bigint {
  checkScale(scale);
  const [whole, fraction = ""] = checkDecimal(s).split(".");
  if (fraction.length > scale) {
    throw new DecimalError(`decimal ${s} has more than ${scale} fractional digits`);
  }
  const negative = whole!.startsWith("-");
  const digits = BigInt(whole!.replace("-", "") + fraction.padEnd(scale, "0"));
  return negative ? -digits : digits;
}

/**
 * The canonical decimal string of `units * 10^-scale`:
 * `decimalFromScaled(150n, 2) === "1.5"`, `decimalFromScaled(-5n, 3) === "-0.005"`.
 */
export function decimalFromScaled(units: bigint, scale: number): string {
  checkScale(scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const cut = digits.length - scale;
  const fraction = digits.slice(cut).replace(/0+$/, "");
  const text = digits.slice(0, cut) + (fraction ? `.${fraction}` : "");
  return negative ? `-${text}` : text;
}

function checkScale(scale: number): void {
  if (!Number.isSafeInteger(scale) || scale < 0) {
    throw new DecimalError(`scale must be a non-negative integer: ${scale}`);
  }
}
