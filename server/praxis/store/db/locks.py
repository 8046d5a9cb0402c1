"""Locks as narrow as the data, on PostgreSQL (SQLite keeps its single writer).

On SQLite every write transaction begins with ``BEGIN IMMEDIATE``: one writer at a time,
and every function here is a no-op. On PostgreSQL a write transaction takes the
installation's advisory lock (:data:`GLOBAL`) in one of two modes:

- *scoped* commands (runs, tasks, the sweeper, registry commands, event
  acknowledgements) take it **shared**, so they never wait for one another on it, and
  then lock exactly what they touch, always in this order:

  1. the work order (:func:`work_order`, a transaction-scoped advisory lock on its id:
     registry commands, StartRun of a ref);
  2. runs (:func:`run`, ``SELECT ... FOR UPDATE`` on the ``runs`` row; every node,
     ready, timer, attempt and result row of a run is written only under it). Claims
     and the sweeper never wait for a run: they lock ``FOR UPDATE SKIP LOCKED``
     (:func:`runs_skip_locked`) and re-check what they read before locking;
  3. budgets (:func:`budget`: the run's contract, then the starting principal when it
     has a spend cap), whose ledgers span runs;
  4. small installation-wide keys (:func:`key`: worker-registered models, an event
     subscriber's cursor), taken only when the command writes them.

- every other command (administration, principals, contracts, handoffs, ...) takes it
  **exclusive**, as before: it runs alone, which is rarely and always correct.

The installation's lock and the advisory locks travel with the transaction's next
statement, in its round trip (:func:`praxis.store.db.statements.defer`): the server takes
each just before the statement it protects, in the order they were asked for.

Idempotency does not rest on these locks: request ids, consumed approvals and settled
attempts are unique keys, and a transaction that loses a race on one is retried by
:class:`praxis.store.db.database.Database` and then sees the winner's row (a replay).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.engine import Connection

from praxis.store.db import statements
from praxis.store.db.statements import Statement

log = logging.getLogger("praxis.store")

GLOBAL_NAMESPACE = 0x50524158  # "PRAX": (namespace, 0) is the installation's lock
WORK_ORDERS = 1
BUDGETS = 2
KEYS = 3

MIGRATION_KEY = 1  # (GLOBAL_NAMESPACE, 1): the session lock of migrations

_TRY_MIGRATE = text("SELECT pg_try_advisory_lock(:ns, :key)")
_MIGRATE = text("SELECT pg_advisory_lock(:ns, :key)")
_UNMIGRATE = text("SELECT pg_advisory_unlock(:ns, :key)")
_LOCK = text("SELECT pg_advisory_xact_lock(:ns, hashtext(:key))")
# The same, sent with the transaction's next statement (statements.defer).
_LOCK_DEFERRED = b"SELECT pg_advisory_xact_lock($1::integer, hashtext($2::text))"
_RUN = Statement(text("SELECT 1 FROM runs WHERE run_id = :rid FOR UPDATE"))
# The installation's lock, the first statement of every write transaction (prepared).
_GLOBAL_SQL = f"SELECT pg_advisory_xact_lock({GLOBAL_NAMESPACE}, 0)"
_GLOBAL_SHARED_SQL = f"SELECT pg_advisory_xact_lock_shared({GLOBAL_NAMESPACE}, 0)"
_GLOBAL = Statement(text(_GLOBAL_SQL))
_GLOBAL_SHARED = Statement(text(_GLOBAL_SHARED_SQL))
_RUNS_SKIP_ROWS = Statement(
    text("SELECT * FROM runs WHERE run_id = ANY(:rids) ORDER BY run_id FOR UPDATE SKIP LOCKED"),
    rows=True,
)


@contextmanager
def migrating(engine: Engine) -> Iterator[None]:
    """Holds the installation's migration lock (PostgreSQL; SQLite: nothing to hold,
    its migrations run in ``BEGIN IMMEDIATE`` transactions).

    A session lock on its own connection: a replica that finds it taken logs that it
    waits for another replica's migration, then waits (with no timeout: a migration may
    take long, and the other replica's crash releases the lock with its connection).
    """
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as connection:
        connection.commit()
        key = {"ns": GLOBAL_NAMESPACE, "key": MIGRATION_KEY}
        if not connection.execute(_TRY_MIGRATE, key).scalar():
            connection.commit()
            log.warning("another replica is migrating the database; waiting for it to finish")
            connection.execute(_MIGRATE, key)
            log.info("the other replica's migration ended; checking the schema")
        connection.commit()
        try:
            yield
        finally:
            connection.execute(_UNMIGRATE, key)
            connection.commit()


def postgres(connection: Connection) -> bool:
    """Whether ``connection`` is to PostgreSQL (where the locks below exist)."""
    return connection.dialect.name == "postgresql"


def needed(connection: Connection) -> bool:
    """Whether write transactions on ``connection`` run beside one another, so that a
    command locks what it reads before relying on it (PostgreSQL); ``False`` under
    SQLite's single writer, where every function here is a no-op. A store asks this
    (over-read candidates, read again after a lock), never which database it is on."""
    return postgres(connection)


def take_global(connection: Connection, scoped: bool, deferred: bool = False) -> None:
    """The installation's lock: shared for scoped commands, exclusive otherwise.

    ``deferred``: sent with the transaction's first statement, in its round trip
    (:func:`praxis.store.db.statements.defer`), before it; a transaction that sends no
    statement never takes it (and has nothing to protect)."""
    if not postgres(connection):
        return
    if deferred and statements.defer(
        connection, (_GLOBAL_SHARED_SQL if scoped else _GLOBAL_SQL).encode()
    ):
        return
    (_GLOBAL_SHARED if scoped else _GLOBAL).run(connection, {})


def _advisory(connection: Connection, namespace: int, name: str) -> None:
    # The namespace is the first of two int4 keys (hashtext gives the second); a hash
    # collision only makes two commands wait for each other, never lets one through.
    # Sent with the transaction's next statement (the one it protects), in its round trip.
    if postgres(connection) and not statements.defer(connection, _LOCK_DEFERRED, (namespace, name)):
        connection.execute(_LOCK, {"ns": namespace, "key": name})


def work_order(connection: Connection, work_order_id: str) -> None:
    """Serializes the commands of one work order (registry commands, its holds)."""
    if work_order_id:
        _advisory(connection, WORK_ORDERS, work_order_id)


def run(connection: Connection, run_id: str) -> None:
    """Locks one run's row until the transaction ends (waits for its holder)."""
    if postgres(connection):
        _RUN.run(connection, {"rid": run_id})


def runs_skip_locked(connection: Connection, run_ids: Iterable[str]) -> set[str]:
    """Locks the runs no other transaction holds; returns them (SQLite: all of them)."""
    return set(runs_skip_locked_rows(connection, run_ids))


def runs_skip_locked_rows(connection: Connection, run_ids: Iterable[str]) -> dict[str, Any]:
    """:func:`runs_skip_locked`, returning the whole ``runs`` row of each run locked, as
    of its lock (FOR UPDATE returns a row's newest version), so that a claim need not
    read it again (PostgreSQL; SQLite: every run, with no row)."""
    wanted = sorted(set(run_ids))
    if not postgres(connection) or not wanted:
        return {run_id: None for run_id in wanted}
    return {row.run_id: row for row in _RUNS_SKIP_ROWS.run(connection, {"rids": wanted})}


def budget(connection: Connection, contract_id: str, principal_id: str) -> None:
    """Locks the ledgers a run spends from: its contract, then its capped principal."""
    if contract_id:
        budget_key(connection, "contract:" + contract_id)
    if principal_id:
        budget_key(connection, "principal:" + principal_id)


def budget_key(connection: Connection, name: str) -> None:
    """Locks one ledger by name (``contract:<id>`` or ``principal:<id>``); a command
    that locks several takes them in sorted order, as :func:`budget` does."""
    _advisory(connection, BUDGETS, name)


def key(connection: Connection, name: str) -> None:
    """Locks one small installation-wide key (``models``, ``subscriber:<name>``)."""
    _advisory(connection, KEYS, name)


# --- the event log's order ------------------------------------------------------------
#
# ``run_events.seq`` comes from a sequence, and concurrent transactions commit out of
# sequence order: a reader of "events after X" that saw 7 committed while 6 was still in
# flight would move its cursor past 6 and never see it. The rule that prevents it:
#
# - a writer, before it takes sequence values for events, takes a *shared* advisory lock
#   keyed by the sequence's last value L_w (every value it takes is > L_w), held until
#   its transaction ends (:func:`before_events`);
# - a reader first reads the sequence's last value L, then the smallest such key K
#   among the locks held by other transactions, and reads only events with
#   ``seq <= min(L, K)`` (:func:`event_horizon`).
#
# Why it is sound: an event with seq s <= L was allocated before the reader read L; its
# writer locked its key K_w < s before allocating it. If that writer is still running
# when the reader lists the locks, K <= K_w < s and s is not read. Otherwise it ended
# before the listing, and PostgreSQL makes a commit visible before releasing its locks,
# so the event query (a later snapshot) sees it if it committed. Writers never wait on
# these locks (shared locks do not conflict); a reader holds nothing.

_BEFORE_EVENTS = Statement(
    text(
        "SELECT pg_advisory_xact_lock_shared("
        "CASE WHEN is_called THEN last_value ELSE last_value - 1 END) FROM run_events_seq_seq"
    )
)
_LAST_SEQ = text(
    "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM run_events_seq_seq"
)
# Single-bigint advisory keys (objsubid 1) are used only by before_events; every other
# lock of the engine uses the two-key form (objsubid 2).
_IN_FLIGHT = text(
    "SELECT min((classid::bigint << 32) | objid::bigint) FROM pg_locks"
    " WHERE locktype = 'advisory' AND objsubid = 1 AND pid <> pg_backend_pid()"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


_EVENTS_LOCKED = "praxis.events_locked"


def before_events(connection: Connection) -> None:
    """Called by a writer just before it appends run events (PostgreSQL).

    Once per transaction: the key taken first is below every value the transaction takes
    afterwards, so a claim that dispatches many tasks (one save each) locks once. A lock
    taken inside a SAVEPOINT counts only for that savepoint (rolling it back releases
    the lock); one taken outside any savepoint counts for the whole transaction. The
    savepoints are :class:`~praxis.store.db.statements.Savepoint` s (the only kind the
    stores open; SQLAlchemy's ``begin_nested`` is not seen here).
    """
    if not postgres(connection):
        return
    root, nested = connection.get_transaction(), statements.current_savepoint(connection)
    held = connection.info.get(_EVENTS_LOCKED)
    if root is not None and held is not None and held[0] is root and held[1] in (None, nested):
        return  # already held by this transaction (or this very savepoint)
    _BEFORE_EVENTS.run(connection, {})
    connection.info[_EVENTS_LOCKED] = (root, nested)


def event_horizon(connection: Connection) -> tuple[int, bool] | None:
    """``(horizon, held)``: read only events with ``seq <= horizon``; ``held`` when a
    writer in flight holds some back. ``None`` on SQLite (one writer: no horizon)."""
    if not postgres(connection):
        return None
    last = int(connection.execute(_LAST_SEQ).scalar() or 0)
    in_flight = connection.execute(_IN_FLIGHT).scalar()
    if in_flight is None or int(in_flight) >= last:
        return last, False
    return int(in_flight), True
