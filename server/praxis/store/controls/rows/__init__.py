"""Installation metadata, work-order controls, epochs and holds."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Insert, bindparam, literal_column, or_, select, update
from sqlalchemy.engine import Connection

from praxis.core import gates
from praxis.core.records import Control, Epochs, Hold, HoldKind, WorkOrder
from praxis.store.controls.tables import holds, work_orders
from praxis.store.db import database, portable
from praxis.store.db.dialect import WRITE_OPTION
from praxis.store.db.metadata import meta
from praxis.store.db.statements import Statement

INSTALLATION_KEY = "installation_id"
CLOCK_KEY = "clock_high_water_ms"
CLOCK_STEP_MS = 250

# Hot-path statements are built once: SQLAlchemy then skips construction and cache-key
# generation on every command (about a third of a command's CPU otherwise).
_GET_META = Statement(select(meta.c.value).where(meta.c.key == bindparam("k")))
_SET_META = Statement(update(meta).where(meta.c.key == bindparam("k")).values(value=bindparam("v")))
_ADD_META = Statement(meta.insert().values(key=bindparam("k"), value=bindparam("v")))
_GET_WORK_ORDER = Statement(
    select(work_orders).where(work_orders.c.work_order_id == bindparam("id"))
)
# An admission's read (StartRun, ResumeRun): the work order's controls and whether a hold
# may apply to it, in one statement (a row even when the work order has no record); the
# holds themselves are read only when one may (they are rare).
_ONE = select(literal_column("1").label("one")).subquery("one")
_ADMISSION = Statement(
    select(
        work_orders.c.control,
        work_orders.c.ownership_epoch,
        work_orders.c.authority_epoch,
        work_orders.c.ancestors_json,
        work_orders.c.closed_at_ms,
        work_orders.c.proposal,
        select(holds.c.hold_id)
        .where(
            holds.c.cleared_at_ms.is_(None),
            or_(holds.c.work_order_id == "", holds.c.work_order_id == bindparam("id")),
        )
        .limit(1)
        .scalar_subquery()
        .label("hold_id"),
    ).select_from(_ONE.outerjoin(work_orders, work_orders.c.work_order_id == bindparam("id")))
)
_ACTIVE_HOLDS = Statement(
    select(holds)
    .where(holds.c.cleared_at_ms.is_(None), holds.c.work_order_id.in_(["", bindparam("id")]))
    .order_by(holds.c.hold_id)
)


def get_meta(connection: Connection, key: str) -> str | None:
    """One metadata value."""
    return _GET_META.run(connection, {"k": key}).scalar()  # type: ignore[no-any-return]


def put_meta(connection: Connection, key: str, value: str) -> None:
    """Sets one metadata value."""
    if not _SET_META.run(connection, {"k": key, "v": value}).rowcount:
        _ADD_META.run(connection, {"k": key, "v": value})


def ensure_installation(connection: Connection, new_id: str) -> str:
    """The installation id, created once with ``new_id``."""
    existing = get_meta(connection, INSTALLATION_KEY)
    if existing is not None:
        return existing
    put_meta(connection, INSTALLATION_KEY, new_id)
    return new_id


def load_work_order(connection: Connection, work_order_id: str) -> WorkOrder:
    """The work order's controls (ACTIVE with epochs 1/1 when never touched).

    A write transaction reads them once: its later commands (a start's admission, then
    its first segment) reuse what it read or saved (:func:`database.memo`)."""
    key = ("work_order", work_order_id)
    writing = bool(connection.get_execution_options().get(WRITE_OPTION))
    if writing:
        found = database.recalled(connection, key)
        if isinstance(found, WorkOrder):
            return found
    row = _GET_WORK_ORDER.run(connection, {"id": work_order_id}).first()
    work_order = work_order_of(work_order_id, row)
    if writing:
        database.memo(connection)[key] = work_order
    return work_order


def load_admission(
    connection: Connection, work_order_id: str
) -> tuple[WorkOrder, tuple[Hold, ...]]:
    """The work order's controls (as :func:`load_work_order`, remembered alike) and the
    holds that apply to it, its ancestors' included: one statement when no hold may apply
    (the holds are read only when one is placed on it or installation-wide, or when it
    is a child)."""
    key = ("work_order", work_order_id)
    writing = bool(connection.get_execution_options().get(WRITE_OPTION))
    found = database.recalled(connection, key) if writing else None
    if isinstance(found, WorkOrder):
        return found, active_holds(connection, work_order_id, found.ancestors)
    row = _ADMISSION.run(connection, {"id": work_order_id}).first()
    work_order = work_order_of(work_order_id, row)
    if writing:
        database.memo(connection)[key] = work_order
    if row.hold_id is None and not work_order.ancestors:
        return work_order, ()
    return work_order, active_holds(connection, work_order_id, work_order.ancestors)


def work_order_of(work_order_id: str, row: Any) -> WorkOrder:
    """A work order from a row of its controls (``control``, the epochs,
    ``ancestors_json``, ``closed_at_ms``, ``proposal``): ACTIVE with epochs 1/1 when
    there is no row or its controls are ``NULL`` (no record, read through an outer join)."""
    if row is None or row.control is None:
        return WorkOrder(work_order_id)
    ancestors = () if row.ancestors_json == "[]" else tuple(json.loads(row.ancestors_json))
    return WorkOrder(
        work_order_id,
        Control(row.control),
        row.ownership_epoch,
        row.authority_epoch,
        ancestors,
        bool(row.closed_at_ms),
        row.proposal if row.proposal in ("PROPOSED", "DECLINED") else "",
    )


def save_work_order(connection: Connection, work_order: WorkOrder, now_ms: int) -> None:
    """Upserts a work order's controls."""
    values = {
        "control": work_order.control.value,
        "ownership_epoch": work_order.ownership_epoch,
        "authority_epoch": work_order.authority_epoch,
        "updated_at_ms": now_ms,
    }
    changed = connection.execute(
        update(work_orders)
        .where(work_orders.c.work_order_id == work_order.work_order_id)
        .values(**values)
    ).rowcount
    if not changed:
        connection.execute(
            work_orders.insert().values(
                work_order_id=work_order.work_order_id,
                own_control=work_order.control.value,
                **values,
            )
        )
    database.memo(connection)[("work_order", work_order.work_order_id)] = work_order


def epochs_of(installation_id: str, work_order: WorkOrder) -> Epochs:
    """The epochs a caller must present for the work order."""
    return Epochs(installation_id, work_order.ownership_epoch, work_order.authority_epoch)


def active_holds(
    connection: Connection, work_order_id: str | None = None, ancestors: tuple[str, ...] = ()
) -> tuple[Hold, ...]:
    """Holds placed and not cleared: all, or those that apply to one work order (with
    ``ancestors``, its ancestors' too: a hold holds a subtree)."""
    if work_order_id is None:
        query = select(holds).where(holds.c.cleared_at_ms.is_(None)).order_by(holds.c.hold_id)
        rows = connection.execute(query)
    elif ancestors:
        scopes = ["", work_order_id, *ancestors]
        query = (
            select(holds)
            .where(holds.c.cleared_at_ms.is_(None), holds.c.work_order_id.in_(scopes))
            .order_by(holds.c.hold_id)
        )
        rows = connection.execute(query)
    else:
        rows = _ACTIVE_HOLDS.run(connection, {"id": work_order_id})
    return tuple(
        Hold(HoldKind(row.kind), row.work_order_id, row.reason, row.placed_at_ms, row.placed_by)
        for row in rows
    )


def place_hold(connection: Connection, hold: Hold) -> Hold:
    """Places a hold unless the same kind already holds the same scope."""
    for existing in active_holds(connection):
        if (existing.kind, existing.work_order_id) == (hold.kind, hold.work_order_id):
            return existing
    connection.execute(
        holds.insert().values(
            kind=hold.kind.value,
            work_order_id=hold.work_order_id,
            reason=hold.reason,
            placed_at_ms=hold.placed_at_ms,
            placed_by=hold.placed_by,
        )
    )
    return hold


def clear_hold(
    connection: Connection, kind: HoldKind, work_order_id: str, by: str, now_ms: int
) -> Hold | None:
    """Clears a placed hold; ``None`` when no such hold is placed."""
    for existing in active_holds(connection):
        if (existing.kind, existing.work_order_id) == (kind, work_order_id):
            connection.execute(
                update(holds)
                .where(
                    holds.c.kind == kind.value,
                    holds.c.work_order_id == work_order_id,
                    holds.c.cleared_at_ms.is_(None),
                )
                .values(cleared_at_ms=now_ms, cleared_by=by)
            )
            return existing
    return None


def observe_clock(connection: Connection, now_ms: int, tolerance_ms: int) -> bool:
    """Records the clock's high-water mark; False (and a hold) when it stepped back.

    A step backwards beyond ``tolerance_ms`` places the installation-wide
    clock-uncertainty hold, which only an admin clears.
    """
    return observe_read_clock(connection, get_meta(connection, CLOCK_KEY), now_ms, tolerance_ms)


def observe_read_clock(
    connection: Connection, stored: str | None, now_ms: int, tolerance_ms: int
) -> bool:
    """:func:`observe_clock` with the mark ``stored`` as this transaction already read it
    (``None``: never written), so that a command reading it with other rows in one
    statement does not read it again."""
    high_water = int(stored) if stored is not None else 0
    # The mark advances in steps of CLOCK_STEP_MS (a step back is then detected up to one
    # step later): on PostgreSQL, commands of different work orders run at once and
    # writing it on every command would queue them all on this one row; on SQLite it
    # would cost every registry command one statement more in the serialized section.
    decision = gates.clock_step(now_ms, high_water, tolerance_ms, CLOCK_STEP_MS)
    if decision == "behind":
        place_hold(
            connection,
            Hold(
                HoldKind.CLOCK_UNCERTAINTY,
                "",
                f"clock read {now_ms} is {high_water - now_ms} ms behind the high-water "
                f"mark {high_water}",
                high_water,
                "engine",
            ),
        )
        return False
    if decision == "advance":
        put_meta(connection, CLOCK_KEY, str(now_ms))
    return True


def work_order_insert(connection: Connection, missing: bool) -> Insert:
    """``INSERT`` into ``work_orders``; with ``missing``, one that skips an id already
    there (each backend's own ``ON CONFLICT DO NOTHING``)."""
    return portable.insert_missing(connection, work_orders) if missing else work_orders.insert()
