"""Clocks, injected everywhere time is needed. Nothing else reads the time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
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
        # Called after every change made through the TestClockService of any server that
        # shares this clock (in-process replicas): each wakes its own waiters and sweeper.
        self._listeners: list[Callable[[], None]] = []

    def watch(self, listener: Callable[[], None]) -> None:
        """Calls ``listener`` after each :meth:`changed`."""
        with self._lock:
            self._listeners.append(listener)

    def unwatch(self, listener: Callable[[], None]) -> None:
        """Stops calling ``listener`` (a server that stops)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def changed(self) -> None:
        """Tells every listener that the time was set or advanced."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

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
