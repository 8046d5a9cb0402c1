/**
 * Times travel as `int64 *_ms` fields, UTC epoch milliseconds, which protobuf-es maps to
 * bigint. The allowed range is ±8.64e15 ms, exactly the range of a JavaScript Date.
 */

/** The largest magnitude of a `*_ms` time: 8.64e15. */
export const MAX_EPOCH_MS = 8_640_000_000_000_000n;

/** Thrown for a time that is not an integer number of milliseconds within ±8.64e15. */
export class EpochMsError extends RangeError {
  override name = "EpochMsError";
}

/** The epoch milliseconds of `date`, for a `*_ms` field. Throws for an invalid Date. */
export function toEpochMs(date: Date): bigint {
  const ms = date.getTime();
  if (!Number.isInteger(ms)) {
    throw new EpochMsError("invalid Date");
  }
  return BigInt(ms);
}

/**
 * Validates epoch milliseconds given as a bigint or a number and returns them as a
 * bigint. Throws for non-integers (1.5, NaN, Infinity) and values outside ±8.64e15.
 */
export function epochMs(ms: bigint | number): bigint {
  if (typeof ms === "number" && !Number.isInteger(ms)) {
    throw new EpochMsError(`epoch milliseconds must be an integer: ${ms}`);
  }
  const value = BigInt(ms);
  if (value > MAX_EPOCH_MS || value < -MAX_EPOCH_MS) {
    throw new EpochMsError(`epoch milliseconds out of range: ${value}`);
  }
  return value;
}

/** The Date of a `*_ms` field value; throws as epochMs does. */
export function fromEpochMs(ms: bigint | number): Date {
  return new Date(Number(epochMs(ms)));
}
