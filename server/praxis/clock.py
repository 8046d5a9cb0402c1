"""Clocks, injected everywhere time is needed. Nothing else reads the time."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """A source of UTC epoch milliseconds."""

    def now_ms(self) -> int:
        """The current time."""
        ...


class SystemClock:
    """The machine's wall clock."""

    def now_ms(self) -> int:
        """The current wall-clock time in UTC epoch milliseconds."""
        return time.time_ns() // 1_000_000


class TestClock:
    """A settable clock for tests and conformance (``praxis serve --test-clock``)."""

    __test__ = False  # not a pytest test class

    def __init__(self, now_ms: int) -> None:
        self._now = now_ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        """The clock's current time."""
        with self._lock:
            return self._now

    def set(self, now_ms: int) -> int:
        """Sets the time (it may step backwards)."""
        with self._lock:
            self._now = now_ms
            return self._now

    def advance(self, by_ms: int) -> int:
        """Moves the time forward."""
        with self._lock:
            self._now += by_ms
            return self._now
