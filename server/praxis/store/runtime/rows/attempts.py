"""Attempt records: the upsert of an attempt's settlement, reads, and (PostgreSQL) the
lock of an attempt's run taken with the read."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.store.db import locks, statements
from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import attempts, runs

_ATTEMPT_SETTLED = (
    "status",
    "payload_digest",
    "will_retry",
    "effect",
    "cost_microcredits",
    "at_ms",
)

_UPSERT_ATTEMPT = Statement(
    sqlite_insert(attempts).on_conflict_do_update(
        index_elements=[attempts.c.attempt_id],
        set_={name: getattr(sqlite_insert(attempts).excluded, name) for name in _ATTEMPT_SETTLED},
    )
)
_PG_UPSERT_ATTEMPT = Statement(
    pg_insert(attempts).on_conflict_do_update(
        index_elements=[attempts.c.attempt_id],
        set_={name: getattr(pg_insert(attempts).excluded, name) for name in _ATTEMPT_SETTLED},
    )
)
# PostgreSQL: the run of an attempt, locked in the statement that finds it (an attempt
# never moves). After waiting for the lock, FOR UPDATE returns the row's newest version,
# so the row read here is the one the command decides on: no second read of ``runs``.
_LOCK_ATTEMPT_RUN = Statement(
    select(runs)
    .where(
        runs.c.run_id
        == select(attempts.c.run_id)
        .where(attempts.c.attempt_id == bindparam("aid"))
        .scalar_subquery()
    )
    .with_for_update()
)
_LOAD_ATTEMPT = Statement(select(attempts).where(attempts.c.attempt_id == bindparam("aid")))


def lock_attempt_run(connection: Connection, attempt_id: str) -> tuple[Any, core.Attempt | None]:
    """Locks the run of an attempt (waits for its holder), then reads the attempt under
    the lock, in one round trip: the run's ``runs`` row as of the lock (:func:`load_row`
    makes the record; ``None`` when there is no such attempt) and the attempt
    (PostgreSQL only: SQLite's writer holds every run)."""
    with statements.pipelined(connection):
        locked = _LOCK_ATTEMPT_RUN.run(connection, {"aid": attempt_id}, later=True)
        loaded = _LOAD_ATTEMPT.run(connection, {"aid": attempt_id}, later=True)
    return locked.first(), _attempt_of(loaded.first())


def attempt_to_decide(connection: Connection, attempt_id: str) -> tuple[Any, core.Attempt | None]:
    """The attempt a command (heartbeat, settlement) decides on, and its run's ``runs``
    row as of the run's lock, or ``None`` for the row when the run is to be loaded.

    PostgreSQL: the run is locked and the attempt read under the lock
    (:func:`lock_attempt_run`); an attempt committed after the lock's statement read
    ``attempts`` (no claim returns an attempt id before its commit; a guessed one could)
    has its run locked and is read again. SQLite: the attempt alone (its one writer
    holds every run)."""
    if connection.dialect.name != "postgresql":
        return None, load_attempt(connection, attempt_id)
    row, attempt = lock_attempt_run(connection, attempt_id)
    if attempt is not None and (row is None or attempt.run_id != row.run_id):
        locks.run(connection, attempt.run_id)
        return None, load_attempt(connection, attempt_id)
    return row, attempt


def upsert(connection: Connection, attempt: core.Attempt) -> None:
    """Inserts an attempt, or updates its settlement columns (one statement)."""
    row = {
        "status": attempt.status.value,
        "payload_digest": attempt.payload_digest,
        "will_retry": int(attempt.will_retry),
        "effect": attempt.effect,
        "cost_microcredits": attempt.cost_microcredits,
        "at_ms": attempt.at_ms,
    }
    identity = {
        "attempt_id": attempt.attempt_id,
        "run_id": attempt.run_id,
        "node_uid": attempt.node_uid,
        "number": attempt.number,
        "worker_id": attempt.worker_id,
        "principal_id": attempt.principal_id,
    }
    if connection.dialect.name == "sqlite":
        _UPSERT_ATTEMPT.run(connection, {**identity, **row})
    else:
        _PG_UPSERT_ATTEMPT.run(connection, {**identity, **row})


def load_attempt(connection: Connection, attempt_id: str) -> core.Attempt | None:
    """One attempt record, or ``None``."""
    return _attempt_of(_LOAD_ATTEMPT.run(connection, {"aid": attempt_id}).first())


def _attempt_of(row: Any) -> core.Attempt | None:
    if row is None:
        return None
    return core.Attempt(
        attempt_id=row.attempt_id,
        run_id=row.run_id,
        node_uid=row.node_uid,
        number=row.number,
        worker_id=row.worker_id,
        status=core.AttemptStatus(row.status),
        payload_digest=row.payload_digest,
        will_retry=bool(row.will_retry),
        effect=row.effect,
        cost_microcredits=row.cost_microcredits,
        at_ms=row.at_ms,
        principal_id=row.principal_id,
    )


_RUNS_OF = Statement(
    select(attempts.c.attempt_id, attempts.c.run_id).where(
        attempts.c.attempt_id.in_(bindparam("ids", expanding=True))
    )
)


def runs_of(connection: Connection, attempt_ids: list[str]) -> list[Row[Any]]:
    """The ``attempt_id`` and ``run_id`` of the stored attempts among ``attempt_ids``."""
    return list(_RUNS_OF.run(connection, {"ids": attempt_ids}).all())
