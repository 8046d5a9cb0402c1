"""The ready and timer queues: the ``ready_nodes`` and ``run_timers`` rows kept in step
with a run's snapshot on every save."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, bindparam, delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core.records import Control
from praxis.store.controls.tables import work_orders
from praxis.store.db.statements import Statement
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.tables import ready_nodes, run_timers

_DROP_READY = Statement(
    delete(ready_nodes).where(
        ready_nodes.c.run_id == bindparam("rid"), ready_nodes.c.node_uid == bindparam("uid")
    )
)
_DROP_TIMERS = Statement(
    delete(run_timers).where(
        run_timers.c.run_id == bindparam("rid"), run_timers.c.node_uid == bindparam("uid")
    )
)
# A queue row replaces one left behind: SQLite ``INSERT OR REPLACE``, PostgreSQL an upsert.
_REPLACE_READY = Statement(ready_nodes.insert().prefix_with("OR REPLACE", dialect="sqlite"))
_REPLACE_TIMER = Statement(run_timers.insert().prefix_with("OR REPLACE", dialect="sqlite"))
_PG_REPLACE_READY = Statement(
    pg_insert(ready_nodes).on_conflict_do_update(
        index_elements=[ready_nodes.c.run_id, ready_nodes.c.node_uid],
        set_={
            name: getattr(pg_insert(ready_nodes).excluded, name)
            for name in ("model", "not_before_ms", "work_order_id", "ready_at_ms")
        },
    )
)
_PG_REPLACE_TIMER = Statement(
    pg_insert(run_timers).on_conflict_do_update(
        index_elements=[run_timers.c.run_id, run_timers.c.node_uid],
        set_={"due_ms": pg_insert(run_timers).excluded.due_ms},
    )
)


def drop_ready(connection: Connection, run_id: str, uid: str) -> None:
    """Deletes a ready row the snapshot no longer backs."""
    _DROP_READY.run(connection, {"rid": run_id, "uid": uid})


def sync(
    connection: Connection, record: RunRecord, uids: set[str], before: core.RunState | None
) -> None:
    """Makes the ready and timer rows of ``uids`` match the snapshot.

    ``before`` is the state the rows were written from (``None``: a run inserted by this
    transaction, which has none). Only the rows ``before`` implies are deleted (a node
    that was pending has no ready row to delete), and inserts replace a row left behind.
    A timer that ``before`` already has with the same due time is not written again, and
    one that moves is replaced without a delete first (a claim, a heartbeat).
    A ready row records the command's time (``ready_at_ms``): when the node became ready,
    or when a command last changed it while it stayed ready (a re-armed schedule-to-start
    deadline while its work order is held, a revision of its spec).
    """
    state = record.state
    run_id = state.run_id
    prior = before if before is not None and before.status not in core.TERMINAL else None
    if before is not None:
        dropped_ready = sorted(uids)
        if prior is not None:
            dropped_ready = [
                uid for uid in dropped_ready
                if uid not in prior.nodes or core.ready_entry(prior, uid) is not None
            ]  # fmt: skip
        _DROP_READY.run_many(connection, [{"rid": run_id, "uid": uid} for uid in dropped_ready])
    ready, timers, dropped_timers = [], [], []
    for uid in sorted(uids, key=_uid_order):
        entry = core.ready_entry(state, uid)
        if entry is not None:
            ready.append(
                {
                    "run_id": run_id,
                    "node_uid": uid,
                    "model": entry[0],
                    "not_before_ms": entry[1],
                    "work_order_id": record.work_order_id,
                    "ready_at_ms": state.updated_at_ms,
                }
            )
        due = core.timer_entry(state, uid)
        # A timer row that stays is left alone, one that moves is replaced (an upsert, no
        # delete first), one that ends is deleted; so is a new node's row left behind.
        known = prior is not None and (uid in prior.nodes or uid == core.RUN_TIMER)
        was = core.timer_entry(prior, uid) if prior is not None and known else None
        if due is None:
            if before is not None and (not known or was is not None):
                dropped_timers.append({"rid": run_id, "uid": uid})
        elif not known or due != was:
            timers.append({"run_id": run_id, "node_uid": uid, "due_ms": due})
    _DROP_TIMERS.run_many(connection, dropped_timers)
    postgres = connection.dialect.name == "postgresql"
    (_PG_REPLACE_READY if postgres else _REPLACE_READY).run_many(connection, ready)
    (_PG_REPLACE_TIMER if postgres else _REPLACE_TIMER).run_many(connection, timers)


def _uid_order(uid: str) -> tuple[str, int]:
    node_id, _, item = uid.partition("#")
    return node_id, int(item) if item else -1


_DUE_TIMERS = Statement(  # every sweep asks
    select(run_timers.c.run_id)
    .where(run_timers.c.due_ms <= bindparam("now"))
    .order_by(run_timers.c.due_ms)
    .limit(bindparam("limit"))
)


def due_timers(connection: Connection, now: int, limit: int) -> list[Row[Any]]:
    """Up to ``limit`` timers due at ``now`` (their ``run_id``), the oldest first."""
    return list(_DUE_TIMERS.run(connection, {"now": now, "limit": limit}).all())


def any_due(connection: Connection, now: int) -> bool:
    """Whether some timer is due at ``now``."""
    due = connection.execute(
        select(run_timers.c.run_id).where(run_timers.c.due_ms <= now).limit(1)
    ).first()
    return due is not None


_NEXT_READY = Statement(  # every long poll reads it before it waits
    select(func.min(ready_nodes.c.not_before_ms)).where(
        ready_nodes.c.model.in_(bindparam("models", expanding=True))
    )
)
_READY = Statement(
    select(ready_nodes.c.run_id, ready_nodes.c.node_uid)
    .where(
        ready_nodes.c.model.in_(bindparam("models", expanding=True)),
        ready_nodes.c.not_before_ms <= bindparam("now"),
        ready_nodes.c.work_order_id.not_in(
            select(work_orders.c.work_order_id).where(work_orders.c.control != Control.ACTIVE.value)
        ),
    )
    .order_by(ready_nodes.c.seq)
    .limit(bindparam("limit"))
)


def ready(connection: Connection, models: list[str], now: int, limit: int) -> Any:
    """Up to ``limit`` ready rows (``run_id``, ``node_uid``) of ``models`` due at ``now``
    in work orders that are active, in queue order: rows like ``Connection.execute``'s."""
    return _READY.run(connection, {"models": models, "now": now, "limit": limit})


def next_ready(connection: Connection, models: list[str]) -> Any:
    """The earliest ``not_before_ms`` among the ready rows of ``models`` (None: none)."""
    return _NEXT_READY.run(connection, {"models": models}).scalar()
