"""Migration 27 (:func:`work_order_tree`): every work order becomes a record in a tree;
migration 28 (:func:`work_order_proposals`): proposals of children.

The columns of :data:`~praxis.store.controls.tables.WORK_ORDER_TREE_COLUMNS` are added
where missing; every work order already stored is a root whose own control is its
control, and every work order that only runs named gets a root record (ACTIVE, epochs 1
and 1, created when its first run was). Spend counts from the upgrade on: costs reported
before it stay on their contracts and starters only.
"""

from __future__ import annotations

from sqlalchemy import column, func, literal, select, table, update
from sqlalchemy.engine import Connection

from praxis.core.records import Control
from praxis.store.controls.tables import (
    WORK_ORDER_CHILDREN,
    WORK_ORDER_PROPOSAL_COLUMNS,
    WORK_ORDER_PROPOSALS,
    WORK_ORDER_TREE_COLUMNS,
    work_orders,
)
from praxis.store.db import migrations


def work_order_tree(connection: Connection) -> None:
    """Adds the record columns and gives every known work order a root record."""
    migrations.add_columns(connection, work_orders, WORK_ORDER_TREE_COLUMNS)
    WORK_ORDER_CHILDREN.create(connection, checkfirst=True)
    connection.execute(
        update(work_orders)
        .where(work_orders.c.own_control == "")
        .values(own_control=work_orders.c.control, created_at_ms=work_orders.c.updated_at_ms)
    )
    # The runtime slice's runs table, named without importing the slice above this one.
    runs = table("runs", column("work_order_id"), column("created_at_ms"))
    known = select(work_orders.c.work_order_id)
    named = (
        select(runs.c.work_order_id, func.min(runs.c.created_at_ms).label("first"))
        .where(runs.c.work_order_id.not_in(known), runs.c.work_order_id != "")
        .group_by(runs.c.work_order_id)
        .subquery()
    )
    active = literal(Control.ACTIVE.value)
    connection.execute(
        work_orders.insert().from_select(
            [
                "work_order_id",
                "control",
                "own_control",
                "ownership_epoch",
                "authority_epoch",
                "updated_at_ms",
                "created_at_ms",
            ],
            select(
                named.c.work_order_id,
                active,
                active,
                literal(1),
                literal(1),
                named.c.first,
                named.c.first,
            ),
        )
    )


def work_order_proposals(connection: Connection) -> None:
    """Adds the proposal columns (every stored work order was created directly)."""
    migrations.add_columns(connection, work_orders, WORK_ORDER_PROPOSAL_COLUMNS)
    WORK_ORDER_PROPOSALS.create(connection, checkfirst=True)
