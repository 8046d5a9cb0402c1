"""Run segments: a new one on start, on recovery by a new server process, on owner change."""

from __future__ import annotations

import threading
import uuid

from sqlalchemy.engine import Connection

from praxis.core import segments as core
from praxis.store.controls import rows as controls
from praxis.store.controls.emits import OwnerChanged
from praxis.store.db import statements
from praxis.store.db.database import Database
from praxis.store.execution.rows import requests
from praxis.store.execution.rows import segments as segment_rows
from praxis.store.runtime.emits import RunStarted
from praxis.store.runtime.records import RunRecord

OPENED_MAX = 1024  # START segments kept for the StartRun answers still to be written


class SegmentStore:
    """Segments of runs; ``incarnation`` identifies this server process."""

    def __init__(self, db: Database, incarnation: str | None = None) -> None:
        self.db = db
        self.incarnation = incarnation or uuid.uuid4().hex
        # The START segment of each run started here, once its start committed, until
        # the StartRun answer takes it (started()); runs started by others (schedules)
        # are forgotten at OPENED_MAX, and then StartRun reads them instead.
        self._opened: dict[str, core.Segment] = {}
        self._opened_lock = threading.Lock()

    def on_start(self, event: RunStarted) -> None:
        """Segment 1 of a new run; a new run has no segments yet, so none are read."""
        connection, record = event.connection, event.record
        epoch = controls.load_work_order(connection, record.work_order_id).ownership_epoch
        segment = core.begin([], core.Reason.START, record.state.created_at_ms, epoch,
                             self.incarnation)  # fmt: skip
        assert segment is not None
        run_id = record.state.run_id
        self._add(connection, run_id, segment)
        Database.after_commit(connection, lambda: self._open(run_id, segment))

    def _open(self, run_id: str, segment: core.Segment) -> None:
        with self._opened_lock:
            if len(self._opened) >= OPENED_MAX:
                self._opened.clear()
            self._opened[run_id] = segment

    def started(self, record: RunRecord) -> list[core.Segment] | None:
        """The segments of a run this process has just started, as of that commit,
        without reading them (its START segment, as :meth:`on_start` wrote it), or
        ``None`` when this process does not know them (read them instead)."""
        with self._opened_lock:
            segment = self._opened.pop(record.state.run_id, None)
        return None if segment is None else [segment]

    def recover(self, now_ms: int) -> int:
        """Starts a RECOVERY segment for every live run; returns how many."""
        with self.db.write() as connection:
            rows = segment_rows.live_runs(connection)
            epochs: dict[str, int] = {}
            for row in rows:
                if row.work_order_id not in epochs:
                    epochs[row.work_order_id] = controls.load_work_order(
                        connection, row.work_order_id
                    ).ownership_epoch
                self._begin(connection, row.run_id, core.Reason.RECOVERY,
                            epochs[row.work_order_id], now_ms)  # fmt: skip
        return len(rows)

    def on_owner_change(self, event: OwnerChanged) -> None:
        """Starts an OWNER_CHANGE segment for the work order's live runs."""
        connection, work_order_id = event.connection, event.work_order_id
        epoch, now_ms = event.epoch, event.now
        for run_id in segment_rows.live_runs_of(connection, work_order_id):
            self._begin(connection, run_id, core.Reason.OWNER_CHANGE, epoch, now_ms)

    def _begin(
        self, connection: Connection, run_id: str, reason: core.Reason, epoch: int, now: int
    ) -> None:
        stored = segment_rows.load(connection, run_id)
        segment = core.begin(stored, reason, now, epoch, self.incarnation)
        if segment is not None:
            self._add(connection, run_id, segment)

    def _add(self, connection: Connection, run_id: str, segment: core.Segment) -> None:
        with statements.pipelined(connection):  # one round trip on PostgreSQL
            segment_rows.add(connection, run_id, segment, self.incarnation)
            requests.append(connection, "SEGMENT_STARTED", run_id, segment.started_at_ms,
                              number=segment.number, reason=segment.reason.value,
                              ownership_epoch=segment.ownership_epoch)  # fmt: skip

    def list(self, run_id: str) -> list[core.Segment]:
        """A run's segments, oldest first."""
        with self.db.read() as connection:
            return segment_rows.load(connection, run_id)
