"""The background sweeper: one thread per installation that drives due work.

With ``praxis serve --processes N`` only the first process runs it; a second sweeper
would be harmless (each expiry is a compare-and-swap on the run's version), only wasted.

It expires leases and timeouts that fall due (:meth:`RunStore.sweep`), then takes the
other passes it was given (the schedules' due starts, :meth:`ScheduleStore.sweep`: each
start is idempotent, so a sweeper in every process is safe there too); retry backoffs
need no sweep because a claim only sees ready rows whose backoff has passed. Each pass
reads only the due timer rows, so its cost grows with due work, not with stored runs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from praxis.store.runtime.runs import RunStore

log = logging.getLogger("praxis.sweeper")


class Sweeper:
    """Runs :meth:`RunStore.sweep` and the other passes until stopped."""

    def __init__(
        self,
        store: RunStore,
        wake: threading.Event,
        interval_s: float = 0.1,
        passes: Sequence[Callable[[], int]] = (),
    ) -> None:
        self.store = store
        self.passes = tuple(passes)
        self.wake = wake
        self.interval_s = interval_s
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="praxis-sweeper", daemon=True)

    def start(self) -> None:
        """Starts the thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stops the thread and waits for the pass in progress."""
        self._stopping.set()
        self.wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self.wake.clear()
            touched = 0
            for sweep in (self.store.sweep, *self.passes):
                try:
                    touched += sweep()
                except Exception:  # keep sweeping; the next pass retries
                    log.exception("sweep failed")
            if not touched and not self._stopping.is_set():
                self.wake.wait(self.interval_s)
