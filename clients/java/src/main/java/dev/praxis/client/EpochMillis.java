package dev.praxis.client;

import java.time.Instant;
import java.util.Objects;

/**
 * Conversions for {@code *_ms} time fields: UTC epoch milliseconds in an {@code int64}.
 *
 * <p>The accepted range is that of ECMAScript dates, {@code ±8.64e15} ms (about ±273,790
 * years), so that every client language can represent every value; anything outside it is
 * rejected rather than clamped.
 */
public final class EpochMillis {
  /** The largest accepted value, 8.64e15 ms after the epoch. */
  public static final long MAX = 8_640_000_000_000_000L;
  /** The smallest accepted value, 8.64e15 ms before the epoch. */
  public static final long MIN = -MAX;

  private EpochMillis() {}

  /** Reports whether {@code ms} is within {@link #MIN} to {@link #MAX}. */
  public static boolean inRange(long ms) {
    return ms >= MIN && ms <= MAX;
  }

  /**
   * Converts epoch milliseconds to an instant.
   *
   * @throws IllegalArgumentException if {@code ms} is out of range
   */
  public static Instant toInstant(long ms) {
    return Instant.ofEpochMilli(requireInRange(ms));
  }

  /**
   * Converts an instant to epoch milliseconds. Sub-millisecond precision is dropped toward
   * the past, as {@link Instant#toEpochMilli()} does.
   *
   * @throws IllegalArgumentException if the instant is out of range
   */
  public static long fromInstant(Instant instant) {
    Objects.requireNonNull(instant, "instant");
    long ms;
    try {
      ms = instant.toEpochMilli();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("instant out of the epoch-millisecond range: " + instant, e);
    }
    return requireInRange(ms);
  }

  private static long requireInRange(long ms) {
    if (!inRange(ms)) {
      throw new IllegalArgumentException("epoch milliseconds out of range: " + ms);
    }
    return ms;
  }
}
