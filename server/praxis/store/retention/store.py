"""``ArchiveStore``: archives finished runs past their keep, in bounded batches.

One batch (:meth:`ArchiveStore.archive_batch`):

1. reads, outside any write transaction, up to ``batch_runs`` due runs (finished, past
   the policy's keep for their work order, not referenced: see ``rows.referenced``) and
   every row they have, and computes each run's digest;
2. appends them to the archive file of the day and fsyncs it (``archive.py``);
3. in one short write transaction, deletes the rows of each run still at the version
   read (a run resumed meanwhile is left alone) and writes its tombstone.

The write transaction holds the writers' turn for the deletes of ``batch_runs`` runs
only (default 20; a run's rows are bounded by ``limits.max_run_nodes``); the archiver
then yields the turn until its next batch. Tombstones older than the policy's
``tombstone_keep_ms`` are deleted first in each pass, in batches of the same size.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Connection

from praxis.clock import Clock
from praxis.core.rejection import Code, Rejection
from praxis.core.retention import RetentionPolicy, run_digest
from praxis.store.db.database import Database
from praxis.store.retention import archive, rows

log = logging.getLogger("praxis.store")
SCAN_FACTOR = 10  # due-run candidates read per batch, in multiples of batch_runs
DIGEST_PREFIX = "sha256:"


@dataclass(frozen=True)
class BatchResult:
    """What one batch did."""

    archived: int  # runs archived and deleted
    skipped: int  # due runs left alone: referenced, or changed since they were read
    tombstones_expired: int
    more: bool  # more may be due now: run another batch soon


class ArchiveStore:
    """Archival of finished runs (see the module docstring)."""

    def __init__(
        self, db: Database, clock: Clock, policy: RetentionPolicy, directory: Path
    ) -> None:
        self.db = db
        self.clock = clock
        self.policy = policy
        self.directory = directory
        self._cursor: tuple[int, str] = (0, "")
        # One batch at a time per process (the sweeper's and a test clock's settle share
        # the scan cursor); other processes' batches are told apart by the run versions.
        self._lock = threading.Lock()

    # --- GetRun of an archived run ------------------------------------------------------

    def archived(self, run_id: str) -> tuple[str, Rejection] | None:
        """For a run that is not in the database: ``(its work order, the RUN_ARCHIVED
        answer)`` when it was archived, else ``None``."""
        with self.db.read() as connection:
            row = rows.tombstone(connection, run_id)
        if row is None:
            return None
        return row.work_order_id, _archived(row)

    def archived_request(
        self, connection: Connection, principal_id: str, request_id: str
    ) -> Rejection | None:
        """RUN_ARCHIVED when this principal's ``request_id`` started a run since archived
        (StartRun, in its transaction): a retried start never makes a second run."""
        row = rows.tombstone_of_request(connection, principal_id, request_id)
        return None if row is None else _archived(row)

    def tombstone(self, run_id: str) -> archive.Tombstone | None:
        """``(archive file name, digest)`` of an archived run (verification)."""
        with self.db.read() as connection:
            row = rows.tombstone(connection, run_id)
        return None if row is None else (_archive_name(row), _digest_text(row.digest))

    # --- archiving ----------------------------------------------------------------------

    def archive_batch(self) -> BatchResult:
        """Archives one batch of due runs (see the module docstring).

        Raises:
            OSError: The archive file cannot be written; nothing was deleted.
        """
        with self._lock:
            return self._batch()

    def _batch(self) -> BatchResult:
        now = self.clock.now_ms()
        expired = 0
        if self._cursor == (0, ""):  # a pass starts by expiring old tombstones
            expired = self._expire(now)
            if expired == self.policy.batch_runs:  # a full batch: more may be due
                return BatchResult(0, 0, expired, True)
        shortest = self.policy.shortest_keep_ms()
        if not shortest:
            return BatchResult(0, 0, expired, False)
        size = self.policy.batch_runs
        chosen: list[tuple[Any, dict[str, Any]]] = []
        skipped = 0
        with self.db.read() as connection:
            found = rows.candidates(
                connection, now - shortest, self._cursor, size * SCAN_FACTOR, self.policy.scope()
            )
            for row in found:
                self._cursor = (int(row.finished_at_ms), str(row.run_id))
                if not self.policy.due(row.work_order_id, row.finished_at_ms, now):
                    continue
                if rows.referenced(connection, row.run_id):
                    skipped += 1
                    continue
                tables = rows.rows_of(connection, row.run_id)
                chosen.append((row, tables))
                if len(chosen) == size:
                    break
        scanned_all = len(found) < size * SCAN_FACTOR and len(chosen) < size
        if scanned_all:
            self._cursor = (0, "")  # the next batch starts a new pass
        if not chosen:
            return BatchResult(0, skipped, expired, not scanned_all)
        name = archive.period_name(now)
        lines = [
            {
                "run_id": row.run_id,
                "work_order_id": row.work_order_id,
                "status": row.status,
                "finished_at_ms": int(row.finished_at_ms),
                "archived_at_ms": now,
                "digest": run_digest(row.run_id, tables),
                "tables": tables,
            }
            for row, tables in chosen
        ]
        archive.append(self.directory, name, lines)
        archived = 0
        with self.db.write() as connection:
            keep: list[str] = []
            tombstones = []
            for (row, _tables), line in zip(chosen, lines, strict=True):
                current = rows.current_version(connection, row.run_id)
                if current != (int(row.version), str(row.status)) or rows.referenced(
                    connection, row.run_id
                ):
                    skipped += 1  # resumed or referenced since it was read: kept
                    continue
                keep.append(row.run_id)
                tombstones.append(
                    {
                        "run_id": row.run_id,
                        "work_order_id": row.work_order_id,
                        "principal_id": row.principal_id,
                        "request_id": row.request_id,
                        "status": row.status,
                        "digest": _digest_bytes(line["digest"]),
                        "archived_at_ms": now,
                    }
                )
            rows.prune(connection, keep)
            rows.insert_tombstones(connection, tombstones)
            archived = len(keep)
        if archived:
            log.info("runs archived", extra={"runs": archived, "archive": name})
        return BatchResult(archived, skipped, expired, True)

    def _expire(self, now: int) -> int:
        keep = self.policy.tombstone_keep_ms
        if not keep:
            return 0
        with self.db.read() as connection:  # most passes expire nothing: no write turn
            seqs = rows.expirable(connection, now - keep, self.policy.batch_runs)
        if not seqs:
            return 0
        with self.db.write() as connection:
            return rows.expire_tombstones(connection, seqs, now - keep)

    def archive_due(self, max_batches: int = 1_000_000) -> int:
        """Runs batches of a whole new pass until none is due (tests, benchmarks, a test
        clock's settle); the runs archived. Every run due when it is called is archived
        (or left, referenced) when it returns, by this process or another.

        Raises:
            OSError: The archive file cannot be written.
        """
        total = 0
        with self._lock:
            self._cursor = (0, "")  # a pass begun earlier may have scanned past due runs
            for _ in range(max_batches):
                result = self._batch()
                total += result.archived
                if not result.more:
                    break
        return total

    def count(self) -> int:
        """How many tombstones the database holds."""
        with self.db.read() as connection:
            return rows.count_tombstones(connection)


def _digest_bytes(digest: str) -> bytes:
    """``sha256:<hex>`` as the 32 bytes a tombstone keeps."""
    return bytes.fromhex(digest.removeprefix(DIGEST_PREFIX))


def _digest_text(stored: bytes) -> str:
    return DIGEST_PREFIX + bytes(stored).hex()


def _archive_name(row: Any) -> str:
    """The archive file of a tombstone: the UTC day it was archived."""
    return archive.period_name(int(row.archived_at_ms))


def _archived(row: Any) -> Rejection:
    """The RUN_ARCHIVED answer of a tombstone: where the run went."""
    name, digest = _archive_name(row), _digest_text(row.digest)
    return Rejection(
        Code.FAILED_PRECONDITION,
        "RUN_ARCHIVED",
        f"run {row.run_id!r} finished and was archived to {name} (digest "
        f"{digest}); read it from the archive",
        metadata=(
            ("run_id", row.run_id),
            ("archive", name),
            ("digest", digest),
            ("archived_at_ms", str(row.archived_at_ms)),
            ("status", row.status),
        ),
    )
