package dev.praxis.client;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Canonical decimal strings, the wire form of quantities such as {@code
 * budget_microcredits}: {@code -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?}, never {@code -0}.
 *
 * <p>The engine rejects every other spelling ({@code "1.50"}, {@code "01"}, {@code "+1"},
 * {@code "1e3"}, {@code ".5"}, {@code "1."}, {@code "-0"}) with {@code
 * DECIMAL_NOT_CANONICAL}; these helpers reject them the same way on the client, and convert
 * to and from {@link BigDecimal} without ever passing through floating point.
 */
public final class Decimals {
  private static final Pattern CANONICAL = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?");

  private Decimals() {}

  /** Reports whether {@code value} is a canonical decimal string. */
  public static boolean isCanonical(String value) {
    return value != null && !value.equals("-0") && CANONICAL.matcher(value).matches();
  }

  /**
   * Returns {@code value} unchanged if it is canonical.
   *
   * @throws IllegalArgumentException if it is not; it is never normalised
   */
  public static String requireCanonical(String value) {
    if (!isCanonical(value)) {
      throw new IllegalArgumentException("not a canonical decimal string: \"" + value + "\"");
    }
    return value;
  }

  /**
   * Parses a canonical decimal string exactly.
   *
   * @throws IllegalArgumentException if the string is not canonical
   */
  public static BigDecimal parse(String value) {
    return new BigDecimal(requireCanonical(value));
  }

  /**
   * Formats a number in canonical form: no exponent, no trailing fractional zeros, and
   * {@code "0"} for every zero (so {@code 1.50} gives {@code "1.5"} and {@code 1E+3} gives
   * {@code "1000"}).
   */
  public static String format(BigDecimal value) {
    Objects.requireNonNull(value, "value");
    if (value.signum() == 0) {
      return "0";
    }
    return value.stripTrailingZeros().toPlainString();
  }

  /** Formats an integer in canonical form. */
  public static String format(long value) {
    return Long.toString(value);
  }
}
