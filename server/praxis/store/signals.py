"""In-process wake-ups: long polls and streams wait on these instead of sleeping.

Each :class:`Signal` is a generation counter under a condition variable. A waiter reads
the generation, checks the database, and waits for the generation to move (or for a
timeout, the backstop that notices writes made by other server processes).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


class Signal:
    """A generation counter that waiters can block on."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._generation = 0

    def generation(self) -> int:
        """The current generation."""
        with self._condition:
            return self._generation

    def notify(self) -> None:
        """Moves the generation and wakes every waiter."""
        with self._condition:
            self._generation += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout_s: float) -> int:
        """Blocks until the generation differs from ``seen`` or ``timeout_s`` passes."""
        with self._condition:
            if self._generation == seen and timeout_s > 0:
                self._condition.wait(timeout_s)
            return self._generation


@dataclass
class Signals:
    """The engine's wake-ups: new ready work, changed runs, new events, clock moves."""

    work: Signal = field(default_factory=Signal)
    runs: Signal = field(default_factory=Signal)
    events: Signal = field(default_factory=Signal)
    timers: Signal = field(default_factory=Signal)

    def all(self) -> None:
        """Wakes everyone (the test clock moved, or the server is stopping)."""
        for signal in (self.work, self.runs, self.events, self.timers):
            signal.notify()
