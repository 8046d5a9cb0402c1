"""The ``work_order_reservations`` statements (:mod:`praxis.store.controls.budgets`):
what running attempts hold against work-order budgets."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, delete, select
from sqlalchemy.engine import Connection

from praxis.store.controls.tables import work_order_reservations as _table
from praxis.store.db.statements import Statement

_RELEASE = Statement(
    delete(_table).where(_table.c.attempt_id.in_(bindparam("aids", expanding=True)))
)
_TOTAL = Statement(
    select(_table.c.amount_microcredits).where(_table.c.work_order_id == bindparam("wid"))
)
_ELSEWHERE = Statement(
    select(_table.c.amount_microcredits).where(
        _table.c.work_order_id == bindparam("wid"), _table.c.run_id != bindparam("rid")
    )
)


def insert(connection: Connection, rows: Sequence[dict[str, object]]) -> None:
    """Writes these reservation rows (one statement, executemany)."""
    connection.execute(_table.insert(), rows)


def delete_of(connection: Connection, attempt_ids: list[str]) -> None:
    """Deletes every row of these attempts, in every work order."""
    _RELEASE.run(connection, {"aids": attempt_ids})


def amounts(connection: Connection, work_order_id: str, run_id: str = "") -> list[str]:
    """The amounts held against ``work_order_id`` (canonical decimal text), without
    ``run_id``'s own when given."""
    if run_id:
        found = _ELSEWHERE.run(connection, {"wid": work_order_id, "rid": run_id}).scalars()
    else:
        found = _TOTAL.run(connection, {"wid": work_order_id}).scalars()
    return list(found)
