"""Runs held decoded in this process, so that their commands decide without reading.

Every write of a run moves its version with a compare-and-swap
(:func:`praxis.store.runtime.rows.saving.save`), and the run's ``runs`` row, its nodes
and its attempts are written only there; so a copy of the run at version ``v`` is the
run at ``v``, whichever process wrote it. This process keeps such copies (the newest it
wrote or read, least recently used dropped past :data:`RUNS_HELD`), and a command on
SQLite decides on one without reading the run's rows: its save's ``UPDATE ... WHERE
version = v`` is the check. When that update matches no row (another process wrote the
run, or it was archived), the command is undone and decided again on the stored run
(:class:`~praxis.store.runtime.records.Stale`, :meth:`praxis.store.runtime.unit.Unit.transact`).

Each copy also holds:

- the live attempts this process wrote along an unbroken chain of its own saves (a save
  from the version held, committed): exactly their rows at the version held, so a
  heartbeat or settlement finds its attempt without reading it (a settled one is
  dropped: a settlement repeated reads it, and the copy stays as small as the work in
  flight);
- node results it wrote or read once committed (a node's result is written once and
  never changed): a claim's node input without reading it. Bounded by
  :data:`RESULT_BYTES_HELD` in all, and a result over :data:`RESULT_BYTES_EACH` is not kept.

A copy is written here only once its transaction committed (or, for a read, as read):
never what a rolled-back command decided.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from praxis.core import run as core
from praxis.store.runtime.records import RunRecord

RUNS_HELD = 64
"""Runs held per process (the snapshot cache's bound before runs were held whole)."""
RESULT_BYTES_HELD = 4 * 1024 * 1024
"""Bytes of node results held per process, in all."""
RESULT_BYTES_EACH = 64 * 1024
"""A result larger than this is read when needed, not held."""


@dataclass
class _Held:
    state: core.RunState
    record: RunRecord | None = None  # None: only the state is known (a node read of GetRun)
    attempts: dict[str, core.Attempt] = field(default_factory=dict)
    results: dict[str, str] = field(default_factory=dict)
    size: int = 0  # bytes of ``results``


class HeldRuns:
    """The runs this process holds, by run id (thread-safe)."""

    def __init__(
        self,
        size: int = RUNS_HELD,
        result_bytes: int = RESULT_BYTES_HELD,
        result_each: int = RESULT_BYTES_EACH,
    ) -> None:
        self._size = size
        self._result_bytes = result_bytes
        self._result_each = result_each
        self._runs: OrderedDict[str, _Held] = OrderedDict()
        self._attempts: dict[str, str] = {}  # attempt id -> run id, of the attempts held
        self._bytes = 0
        self._lock = threading.Lock()

    # --- states (the snapshot cache of reads) -------------------------------------------

    def get(self, run_id: str, version: int, digest: str) -> core.RunState | None:
        """The state of ``run_id`` at exactly ``version``, or ``None``."""
        with self._lock:
            found = self._runs.get(run_id)
            if (
                found is None
                or found.state.version != version
                or found.state.definition.digest != digest
            ):
                return None
            self._runs.move_to_end(run_id)
            return found.state

    def remember(self, state: core.RunState) -> None:
        """Keeps a complete state read from the run's rows."""
        with self._lock:
            found = self._runs.get(state.run_id)
            if found is not None and found.state.version >= state.version:
                self._runs.move_to_end(state.run_id)
                return  # the same state, or a newer one this process wrote since
            self._put(state.run_id, _carried(_Held(state), found))

    # --- whole runs ------------------------------------------------------------------

    def read(self, record: RunRecord) -> None:
        """Keeps a complete run just read from its rows (its attempts unknown)."""
        if record.partial:
            return
        with self._lock:
            found = self._runs.get(record.state.run_id)
            if found is not None and found.state.version > record.state.version:
                return  # a newer one this process wrote since the read
            if found is not None and found.state.version == record.state.version:
                found.record = found.record or _whole(record)
                self._runs.move_to_end(record.state.run_id)
                return
            self._put(record.state.run_id, _carried(_Held(record.state, _whole(record)), found))

    def written(
        self,
        expected: int | None,
        record: RunRecord,
        attempts: Iterable[core.Attempt],
        result: tuple[str, str] | None,
    ) -> None:
        """Keeps a run this process saved from version ``expected`` (``None``: inserted),
        once committed: ``attempts`` and ``result`` (node uid, text) are what the save
        wrote. The attempts held before stay when the copy held was at ``expected``."""
        run_id, version = record.state.run_id, record.state.version
        with self._lock:
            found = self._runs.get(run_id)
            if found is not None and found.state.version >= version:
                return  # cannot happen with one writer per run; never go back
            held = _carried(_Held(record.state, _whole(record)), found)
            if found is not None and found.state.version == expected:  # an unbroken chain
                held.attempts = found.attempts
            for attempt in attempts:  # live ones only: what heartbeats and settlements need
                if attempt.status is core.AttemptStatus.LIVE:
                    held.attempts[attempt.attempt_id] = attempt
                elif held.attempts.pop(attempt.attempt_id, None) is not None:
                    self._attempts.pop(attempt.attempt_id, None)  # settled: read if asked
            self._put(run_id, held)
            if result is not None:
                self._add_result(held, result[0], result[1])

    def record(self, run_id: str) -> RunRecord | None:
        """The run held, or ``None``."""
        with self._lock:
            found = self._runs.get(run_id)
            if found is None or found.record is None:
                return None
            self._runs.move_to_end(run_id)
            return found.record

    def attempt(self, attempt_id: str) -> tuple[RunRecord, core.Attempt] | None:
        """The attempt held and its run, both at the run's version held, or ``None``."""
        with self._lock:
            run_id = self._attempts.get(attempt_id)
            found = None if run_id is None else self._runs.get(run_id)
            if found is None or found.record is None:
                return None
            attempt = found.attempts.get(attempt_id)
            if attempt is None:
                return None
            self._runs.move_to_end(found.state.run_id)
            return found.record, attempt

    def result(self, run_id: str, uid: str) -> str | None:
        """A node's stored result held, as JSON text, or ``None``."""
        with self._lock:
            found = self._runs.get(run_id)
            return None if found is None else found.results.get(uid)

    def keep_result(self, run_id: str, uid: str, text: str) -> None:
        """Keeps a node's committed result (when its run is held)."""
        with self._lock:
            found = self._runs.get(run_id)
            if found is not None:
                self._add_result(found, uid, text)

    def drop(self, run_id: str) -> None:
        """Forgets a run (its copy turned out stale)."""
        with self._lock:
            found = self._runs.pop(run_id, None)
            if found is not None:
                self._forget(found)

    def __len__(self) -> int:
        with self._lock:
            return len(self._runs)

    @property
    def result_bytes(self) -> int:
        """Bytes of node results held."""
        with self._lock:
            return self._bytes

    # --- under the lock ----------------------------------------------------------------

    def _put(self, run_id: str, held: _Held) -> None:
        old = self._runs.pop(run_id, None)
        if old is not None:
            for attempt_id in old.attempts:
                if attempt_id not in held.attempts:
                    self._attempts.pop(attempt_id, None)
            if old.results is not held.results:
                self._bytes -= old.size
        self._runs[run_id] = held
        for attempt_id in held.attempts:
            self._attempts[attempt_id] = run_id
        if old is None or old.results is not held.results:
            self._bytes += held.size
        while len(self._runs) > self._size:
            _, evicted = self._runs.popitem(last=False)
            self._forget(evicted)

    def _forget(self, held: _Held) -> None:
        for attempt_id in held.attempts:
            self._attempts.pop(attempt_id, None)
        self._bytes -= held.size

    def _add_result(self, held: _Held, uid: str, text: str) -> None:
        size = len(text)
        if size > self._result_each or uid in held.results:
            return
        held.results[uid] = text
        held.size += size
        self._bytes += size
        while self._bytes > self._result_bytes and self._runs:
            run_id, oldest = next(iter(self._runs.items()))
            if oldest is held:  # the newest result's own run: drop its results only
                self._bytes -= held.size
                held.results, held.size = {}, 0
                return
            del self._runs[run_id]
            self._forget(oldest)


def _carried(held: _Held, found: _Held | None) -> _Held:
    """``held`` with the results of the copy it replaces (a result never changes)."""
    if found is not None:
        held.results, held.size = found.results, found.size
    return held


def _whole(record: RunRecord) -> RunRecord:
    """``record`` as a load of its rows makes it (the count of its nodes as stored)."""
    if record.node_count == len(record.state.nodes) and not record.partial:
        return record
    return replace(record, node_count=len(record.state.nodes), partial=False)
