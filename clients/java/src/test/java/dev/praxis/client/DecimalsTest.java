package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DecimalsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "0", "1", "-1", "10", "1.5", "-1.5", "0.5", "-0.5", "0.05", "123456789012345678901234567890",
        "1.000000000000000000000000001", "9007199254740993"
      })
  void acceptsCanonical(String value) {
    assertTrue(Decimals.isCanonical(value));
    assertEquals(value, Decimals.requireCanonical(value));
    assertEquals(value, Decimals.format(Decimals.parse(value)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "-0", "1.50", "01", "+1", "1e3", "1E3", ".5", "1.", "-", "-.5", "00", "0.0", "-0.0",
        " 1", "1 ", "1,5", "١", "NaN", "Infinity", "0x10", "1.5.1", "--1", "1_000"
      })
  void rejectsNonCanonical(String value) {
    assertFalse(Decimals.isCanonical(value));
    assertThrows(IllegalArgumentException.class, () -> Decimals.requireCanonical(value));
    assertThrows(IllegalArgumentException.class, () -> Decimals.parse(value));
  }

  @Test
  void rejectsNull() {
    assertFalse(Decimals.isCanonical(null));
    assertThrows(IllegalArgumentException.class, () -> Decimals.parse(null));
  }

  @ParameterizedTest
  @CsvSource({
    "1.50, 1.5",
    "0.000, 0",
    "-0.000, 0",
    "1E+3, 1000",
    "-0.010, -0.01",
    "100, 100",
    "1E-7, 0.0000001",
    "12345.6789000, 12345.6789",
  })
  void formatsCanonically(String input, String expected) {
    assertEquals(expected, Decimals.format(new BigDecimal(input)));
  }

  @Test
  void formatRoundTripsExactly() {
    Random random = new Random(42);
    for (int i = 0; i < 2000; i++) {
      BigDecimal value = new BigDecimal(new BigInteger(96, random), random.nextInt(40) - 20);
      if (random.nextBoolean()) {
        value = value.negate();
      }
      String text = Decimals.format(value);
      assertTrue(Decimals.isCanonical(text), text);
      assertEquals(0, value.compareTo(Decimals.parse(text)), text);
    }
  }

  @Test
  void formatsLongs() {
    assertEquals("-9223372036854775808", Decimals.format(Long.MIN_VALUE));
    assertEquals("0", Decimals.format(0L));
  }
}
