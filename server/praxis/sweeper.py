"""The background sweeper: one thread per installation that drives due work.

With ``praxis serve --processes N`` only the first process runs it; a second sweeper
would be harmless (each expiry is a compare-and-swap on the run's version), only wasted.

It expires leases and timeouts that fall due (:meth:`RunStore.sweep`), then takes the
other passes it was given (the schedules' due starts, :meth:`ScheduleStore.sweep`: each
start is idempotent, so a sweeper in every process is safe there too); retry backoffs
need no sweep because a claim only sees ready rows whose backoff has passed. Each pass
reads only the due timer rows, so its cost grows with due work, not with stored runs.

With a retention policy it also archives finished runs past their keep
(:class:`ArchiveStore`): one bounded batch per pass while runs are due, then nothing
until ``interval_ms`` later. Each batch is its own short write transaction, and the
sweep runs between two batches, so archiving never holds the writers' turn for long.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from praxis.store.retention.store import ArchiveStore
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
        archive: ArchiveStore | None = None,
    ) -> None:
        self.store = store
        self.passes = tuple(passes)
        self.archive = archive
        self._archive_at = 0.0  # time.monotonic() of the next archiving batch
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
            archived = self._archive()
            if not touched and not archived and not self._stopping.is_set():
                self.wake.wait(self.interval_s)

    def _archive(self) -> bool:
        """One archiving batch when one is due; True when another should follow at once."""
        if self.archive is None or time.monotonic() < self._archive_at:
            return False
        try:
            more = self.archive.archive_batch().more
        except Exception:  # an archive folder that cannot be written: logged, retried later
            log.exception("archiving failed")
            more = False
        if not more:
            self._archive_at = time.monotonic() + self.archive.policy.interval_ms / 1000
        return more
