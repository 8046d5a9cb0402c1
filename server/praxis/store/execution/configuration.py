"""The configuration reloaded live, as stored: who reloaded what, and which version each
server process serves. No table of its own:

- each reload is one ``CONFIG_RELOADED`` event of the model event log (subject
  ``config``): who, when, the versions before and after, and the JSON paths of the
  changed keys, never a value; the latest one's version is the installation's;
- each server process keeps one ``meta`` row (``config.process.<digest of its id>``)
  with the version it serves, written at start and after each reload and rewritten every
  minute, removed at a clean stop; a crashed process's row is removed by the next start
  on its host, and one not rewritten for :data:`STALE_MS` is no longer listed.

A process that reloads its file records the event and its row; every other process,
woken on the ``config`` topic, re-reads its own file and records its row.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core.records import Principal
from praxis.core.rejection import Rejection, invalid
from praxis.core.reload import Change
from praxis.store.controls import rows as controls
from praxis.store.db.database import Database
from praxis.store.execution.rows import configuration as rows
from praxis.store.execution.rows import requests

REFRESH_MS = 60_000
"""How often a process rewrites its row (wall-clock ``seen_at_ms``) while it serves."""
STALE_MS = 180_000
"""A row not rewritten for this long is of a process presumed gone (a crash on another
machine): it is no longer listed, and the next start anywhere removes it."""
SUBJECT = "config"
RELOADED = "CONFIG_RELOADED"
PROCESS_KEY = "config.process."
MAX_RELOADS = 100


@dataclass(frozen=True)
class ProcessRow:
    """One server process and the configuration version it serves."""

    process_id: str
    version: str
    applied_at_ms: int


@dataclass(frozen=True)
class ReloadRow:
    """One recorded reload."""

    seq: int
    previous_version: str
    version: str
    reloaded_by: str
    reloaded_at_ms: int
    changed: tuple[str, ...]
    restart_required: tuple[str, ...]


@dataclass(frozen=True)
class Reloaded:
    """What a reload applied in the answering process, and each process's version."""

    change: Change
    processes: tuple[ProcessRow, ...]
    process_id: str  # the answering process's


@dataclass(frozen=True)
class Status:
    """The installation's configuration: the latest reload's version, each process's."""

    version: str
    processes: tuple[ProcessRow, ...]
    reloads: tuple[ReloadRow, ...]


def process_id() -> str:
    """This server's id: ``<host>:<pid>:<start ms>.<random>`` (unique per start, also for
    several servers of one process, as in tests)."""
    start = int(time.time() * 1000)
    return f"{socket.gethostname()}:{os.getpid()}:{start}.{uuid.uuid4().hex[:6]}"


def _key(process: str) -> str:
    """The ``meta`` key of a process's row (at most 64 characters, whatever its host)."""
    return PROCESS_KEY + hashlib.sha256(process.encode("utf-8")).hexdigest()[:40]


class ConfigStore:
    """Reloads and served versions, authorized with ``admin.config`` / ``admin.read``."""

    def __init__(self, db: Database, authority: Authority, clock: Clock) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.process_id = process_id()

    def authorize(self, principal: Principal, action: str) -> Rejection | None:
        """Whether ``principal`` may take ``action`` installation-wide."""
        evidence = self.authority.authorize(principal, action, "", self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    def latest_version(self) -> str:
        """The version of the latest reload recorded ('' when never reloaded)."""
        with self.db.read() as connection:
            return _latest(connection)

    def record(self, reloaded_by: str, change: Change, only_if_new: bool) -> bool:
        """Records a reload and this process's new version, in one transaction; with
        ``only_if_new``, nothing but the process's row when the latest reload recorded is
        of the same version (a signal passed to several processes). Whether it was."""
        now = self.clock.now_ms()
        with self.db.write() as connection:
            if only_if_new and _latest(connection) == change.version:
                self._report(connection, change.version, now)
                return False
            requests.append(
                connection,
                RELOADED,
                SUBJECT,
                now,
                by=reloaded_by,
                previous_version=change.previous_version,
                version=change.version,
                changed=list(change.changed),
                restart_required=list(change.restart_required),
            )
            self._report(connection, change.version, now)
        return True

    def report(self, version: str) -> None:
        """Records the version this process serves (at start and after each reload)."""
        with self.db.write() as connection:
            self._report(connection, version, self.clock.now_ms())

    def _report(self, connection: Connection, version: str, now: int) -> None:
        row = {
            "process_id": self.process_id,
            "version": version,
            "applied_at_ms": now,
            "seen_at_ms": _wall_ms(),
        }
        controls.put_meta(connection, _key(self.process_id), json.dumps(row))

    def refresh(self) -> None:
        """Rewrites this process's row as it is, seen now (every :data:`REFRESH_MS`)."""
        with self.db.write() as connection:
            found = controls.get_meta(connection, _key(self.process_id))
            if found is None:
                return
            row = json.loads(found)
            row["seen_at_ms"] = _wall_ms()
            controls.put_meta(connection, _key(self.process_id), json.dumps(row))

    def forget(self) -> None:
        """Removes this process's row (a clean stop)."""
        self._remove([self.process_id])

    def sweep_gone(self) -> None:
        """Removes the rows of this host's processes that are gone and the stale rows of
        any host (a crash leaves its row behind); at start."""
        host = socket.gethostname()
        with self.db.read() as connection:
            found = _rows(connection)
        stale = _wall_ms() - STALE_MS
        self._remove(
            [
                str(row["process_id"])
                for row in found
                if _gone(str(row["process_id"]), host) or _seen(row) < stale
            ]
        )

    def _remove(self, processes: list[str]) -> None:
        if not processes:
            return
        with self.db.write() as connection:
            rows.remove_processes(connection, [_key(p) for p in processes])

    def processes(self) -> tuple[ProcessRow, ...]:
        """Every process row, in process id order."""
        with self.db.read() as connection:
            return _processes(connection)

    def status(self, principal: Principal, limit: int) -> Status | Rejection:
        """The configuration status (``admin.read``): ``limit`` latest reloads (0: 20)."""
        problem = self.authorize(principal, "admin.read")
        if problem:
            return problem
        if limit < 0 or limit > MAX_RELOADS:
            return invalid(
                "PAGE_INVALID", "reload_limit", f"reload_limit must be in [0, {MAX_RELOADS}]"
            )
        with self.db.read() as connection:
            found = rows.latest_events(connection, SUBJECT, RELOADED, limit or 20)
            reloads = []
            for row in found:
                payload = json.loads(row.payload_json)
                reloads.append(
                    ReloadRow(
                        int(row.seq),
                        str(payload["previous_version"]),
                        str(payload["version"]),
                        str(payload["by"]),
                        int(row.at_ms),
                        tuple(payload["changed"]),
                        tuple(payload["restart_required"]),
                    )
                )
            return Status(_latest(connection), _processes(connection), tuple(reloads))


def _latest(connection: Connection) -> str:
    found = rows.latest_events(connection, SUBJECT, RELOADED, 1)
    return str(json.loads(found[0].payload_json)["version"]) if found else ""


def _rows(connection: Connection) -> list[dict[str, Any]]:
    return [json.loads(value) for value in rows.process_values(connection, PROCESS_KEY)]


def _processes(connection: Connection) -> tuple[ProcessRow, ...]:
    """The rows of the processes seen lately, in process id order."""
    stale = _wall_ms() - STALE_MS
    return tuple(
        ProcessRow(str(r["process_id"]), str(r["version"]), int(r["applied_at_ms"]))
        for r in sorted(_rows(connection), key=lambda r: str(r["process_id"]))
        if _seen(r) >= stale
    )


def _seen(row: dict[str, Any]) -> int:
    return int(row.get("seen_at_ms", 0))


def _wall_ms() -> int:
    """Wall-clock ms: rows age in real time, whatever a test clock says."""
    return int(time.time() * 1000)


def _gone(row_id: str, host: str) -> bool:
    """Whether a process row is of a process of ``host`` that no longer runs."""
    parts = row_id.split(":")
    if len(parts) < 3 or ":".join(parts[:-2]) != host or not parts[-2].isdigit():
        return False
    try:
        os.kill(int(parts[-2]), 0)  # signal 0: does it exist?
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False
