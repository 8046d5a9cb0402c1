package dev.praxis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EpochMillisTest {
  @ParameterizedTest
  @ValueSource(longs = {0, 1, -1, 1_767_225_600_000L, 8_640_000_000_000_000L, -8_640_000_000_000_000L})
  void roundTripsInRange(long ms) {
    assertTrue(EpochMillis.inRange(ms));
    assertEquals(ms, EpochMillis.fromInstant(EpochMillis.toInstant(ms)));
  }

  @ParameterizedTest
  @ValueSource(longs = {8_640_000_000_000_001L, -8_640_000_000_000_001L, Long.MAX_VALUE, Long.MIN_VALUE})
  void rejectsOutOfRange(long ms) {
    assertFalse(EpochMillis.inRange(ms));
    assertThrows(IllegalArgumentException.class, () -> EpochMillis.toInstant(ms));
  }

  @Test
  void knownInstant() {
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), EpochMillis.toInstant(1_767_225_600_000L));
    assertEquals(1_767_225_600_123L, EpochMillis.fromInstant(Instant.parse("2026-01-01T00:00:00.123Z")));
  }

  @Test
  void dropsSubMillisecondsTowardThePast() {
    assertEquals(1, EpochMillis.fromInstant(Instant.ofEpochSecond(0, 1_999_999)));
    assertEquals(-1000, EpochMillis.fromInstant(Instant.ofEpochSecond(-1, 500_000)));
  }

  @Test
  void rejectsInstantsOutOfRange() {
    assertThrows(IllegalArgumentException.class, () -> EpochMillis.fromInstant(Instant.MAX));
    assertThrows(IllegalArgumentException.class, () -> EpochMillis.fromInstant(Instant.MIN));
    Instant justPast = Instant.ofEpochMilli(EpochMillis.MAX).plusMillis(1);
    assertThrows(IllegalArgumentException.class, () -> EpochMillis.fromInstant(justPast));
  }
}
