"""Work orders as records in a tree: rows, inherited controls and spend.

Each ``work_orders`` row keeps its own control (``own_control``) and the control that
applies to it (``control``: the most restrictive of its own and its ancestors', which
every claim filter reads). A control set on a work order is written down its subtree in
the same transaction, walking ``parent_id`` level by level (at most
:data:`~praxis.core.work_orders.MAX_LEVELS` statements, each over changed work orders
only). A row also keeps its ancestors (root first), so that every ancestor check is one
primary-key read plus at most seven more.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from sqlalchemy import bindparam, column, func, select, table, update
from sqlalchemy.engine import Connection, Row

from praxis.core import money
from praxis.core import work_orders as core
from praxis.core.records import Control
from praxis.store.controls import rows as control_rows
from praxis.store.controls.tables import work_orders
from praxis.store.db import database
from praxis.store.db.statements import Statement

# The runtime slice's runs table, named here without importing the slice (which sits
# above the controls): only the two columns a work order's counts read.
_runs = table("runs", column("work_order_id"), column("status"))


def node_of(row: Row[Any]) -> core.Node:
    """The record of a ``work_orders`` row."""
    own = row.own_control or row.control  # a row the upgrade has not reached (never)
    return core.Node(
        work_order_id=row.work_order_id,
        own=Control(own),
        control=Control(row.control),
        parent_id=row.parent_id,
        ancestors=tuple(json.loads(row.ancestors_json)),
        title=row.title,
        labels=json.loads(row.labels_json),
        creator=row.creator,
        created_at_ms=row.created_at_ms,
        closed_at_ms=row.closed_at_ms,
        budget=Decimal(row.budget_microcredits) if row.budget_microcredits else None,
        spent=Decimal(row.spent_microcredits),
        actions=tuple(json.loads(row.actions_json)),
        proposal=core.Proposal(row.proposal),
        decided_by=row.decided_by,
        decided_at_ms=row.decided_at_ms,
        decline_reason=row.decline_reason,
    )


_LOAD = Statement(select(work_orders).where(work_orders.c.work_order_id == bindparam("id")))
_ANCESTORS = Statement(
    select(work_orders).where(work_orders.c.work_order_id.in_(bindparam("ids", expanding=True)))
)


def load(connection: Connection, work_order_id: str) -> core.Node | None:
    """A work order's record, or ``None`` when none is stored."""
    row = _LOAD.run(connection, {"id": work_order_id}).first()
    return None if row is None else node_of(row)


def chain(connection: Connection, node: core.Node) -> list[core.Node]:
    """``node``'s ancestors, root first, then ``node`` (one read)."""
    if not node.ancestors:
        return [node]
    rows = _ANCESTORS.run(connection, {"ids": list(node.ancestors)})
    found = {row.work_order_id: node_of(row) for row in rows}
    return [found[a] for a in node.ancestors if a in found] + [node]


def chain_of(connection: Connection, work_order_id: str) -> list[core.Node]:
    """The chain of a work order (empty when it has no record)."""
    node = load(connection, work_order_id)
    return [] if node is None else chain(connection, node)


_NOT_CHILDREN = (core.Proposal.PROPOSED.value, core.Proposal.DECLINED.value)


def child_count(connection: Connection, work_order_id: str) -> int:
    """How many children a work order has (pending and declined proposals are not)."""
    query = select(func.count()).where(
        work_orders.c.parent_id == work_order_id, work_orders.c.proposal.not_in(_NOT_CHILDREN)
    )
    return int(connection.execute(query).scalar_one())


def proposal_count(connection: Connection, work_order_id: str) -> int:
    """How many pending proposals name a work order as their parent."""
    query = select(func.count()).where(
        work_orders.c.parent_id == work_order_id,
        work_orders.c.proposal == core.Proposal.PROPOSED.value,
    )
    return int(connection.execute(query).scalar_one())


def decide(
    connection: Connection,
    work_order_id: str,
    proposal: core.Proposal,
    decided_by: str,
    reason: str,
    now_ms: int,
) -> bool:
    """Records a human's decision on a proposal still pending; False (nothing written)
    when another decision committed first."""
    decided = connection.execute(
        update(work_orders)
        .where(
            work_orders.c.work_order_id == work_order_id,
            work_orders.c.proposal == core.Proposal.PROPOSED.value,
        )
        .values(
            proposal=proposal.value,
            decided_by=decided_by,
            decided_at_ms=now_ms,
            decline_reason=reason,
            updated_at_ms=now_ms,
        )
    )
    database.memo(connection).pop(("work_order", work_order_id), None)
    return bool(decided.rowcount)


def oldest_pending(connection: Connection, limit: int, parent_id: str = "") -> list[core.Node]:
    """The ``limit`` oldest pending proposals (the inbox's): anywhere in the tree, or under
    ``parent_id`` only."""
    query = select(work_orders).where(work_orders.c.proposal == core.Proposal.PROPOSED.value)
    if parent_id:
        query = query.where(work_orders.c.parent_id == parent_id)
    query = query.order_by(work_orders.c.created_at_ms, work_orders.c.work_order_id)
    return [node_of(row) for row in connection.execute(query.limit(limit))]


def pending(connection: Connection, after: str | None, limit: int) -> list[core.Node]:
    """Up to ``limit`` pending proposals anywhere in the tree after ``after``, by id."""
    query = select(work_orders).where(work_orders.c.proposal == core.Proposal.PROPOSED.value)
    if after is not None:
        query = query.where(work_orders.c.work_order_id > after)
    query = query.order_by(work_orders.c.work_order_id).limit(limit)
    return [node_of(row) for row in connection.execute(query)]


def insert(connection: Connection, node: core.Node, now_ms: int, missing: bool = False) -> bool:
    """Stores a new record (ACTIVE, or its parent's control; epochs 1 and 1); with
    ``missing``, only if no record has that id (False when one had)."""
    statement = control_rows.work_order_insert(connection, missing)
    inserted = connection.execute(
        statement.values(
            work_order_id=node.work_order_id,
            control=node.control.value,
            own_control=node.own.value,
            ownership_epoch=1,
            authority_epoch=1,
            updated_at_ms=now_ms,
            parent_id=node.parent_id,
            ancestors_json=json.dumps(list(node.ancestors)),
            title=node.title,
            labels_json=json.dumps(dict(node.labels), sort_keys=True),
            creator=node.creator,
            created_at_ms=node.created_at_ms,
            closed_at_ms=0,
            budget_microcredits="" if node.budget is None else money.text(node.budget),
            spent_microcredits=money.text(node.spent),
            actions_json=json.dumps(list(node.actions)),
            proposal=node.proposal.value,
        )
    )
    database.memo(connection).pop(("work_order", node.work_order_id), None)
    return bool(inserted.rowcount)


def set_control(
    connection: Connection, work_order_id: str, own: Control, now_ms: int
) -> list[tuple[str, Control]]:
    """Sets a work order's own control and writes the control that now applies down its
    subtree; the work orders whose applied control changed, each with it (itself first,
    then level by level)."""
    node = load(connection, work_order_id)
    if node is None:
        node = core.Node(work_order_id, own, own)
        insert(connection, node, now_ms)
        return [(work_order_id, own)]
    parent = load(connection, node.parent_id) if node.parent_id else None
    applied = core.effective(own, parent.control if parent else Control.ACTIVE)
    _write(connection, work_order_id, applied, now_ms, own)
    changed = [(work_order_id, applied)] if applied is not node.control else []
    frontier = {work_order_id: applied} if changed else {}
    for _ in range(core.MAX_LEVELS):
        if not frontier:
            break
        parents, frontier = frontier, {}
        rows = connection.execute(
            select(
                work_orders.c.work_order_id,
                work_orders.c.parent_id,
                work_orders.c.own_control,
                work_orders.c.control,
            )
            .where(work_orders.c.parent_id.in_(list(parents)))
            .order_by(work_orders.c.work_order_id)
        ).all()
        for row in rows:
            child_own = Control(row.own_control or row.control)
            child = core.effective(child_own, parents[row.parent_id])
            if child.value != row.control:
                _write(connection, row.work_order_id, child, now_ms)
                changed.append((row.work_order_id, child))
                frontier[row.work_order_id] = child
    return changed


def _write(
    connection: Connection,
    work_order_id: str,
    applied: Control,
    now_ms: int,
    own: Control | None = None,
) -> None:
    values: dict[str, object] = {"control": applied.value, "updated_at_ms": now_ms}
    if own is not None:
        values["own_control"] = own.value
    connection.execute(
        update(work_orders).where(work_orders.c.work_order_id == work_order_id).values(**values)
    )
    database.memo(connection).pop(("work_order", work_order_id), None)


def close(connection: Connection, work_order_id: str, now_ms: int) -> None:
    """Marks a work order closed."""
    connection.execute(
        update(work_orders)
        .where(work_orders.c.work_order_id == work_order_id)
        .values(closed_at_ms=now_ms, updated_at_ms=now_ms)
    )
    database.memo(connection).pop(("work_order", work_order_id), None)


def charge(connection: Connection, work_order_id: str, cost: Decimal, now_ms: int) -> None:
    """Adds an attempt's reported cost to its run's work order and to every ancestor
    (a work order that has no record yet gets a root record)."""
    node = load(connection, work_order_id)
    if node is None:
        # Two settlements may record the same new work order at once (PostgreSQL): the
        # second one's insert does nothing, and it adds its cost to the row the first
        # committed.
        if insert(connection, core.Node(work_order_id, spent=cost), now_ms, missing=True):
            return
        node = load(connection, work_order_id)
        assert node is not None
    for each in chain(connection, node):
        connection.execute(
            update(work_orders)
            .where(work_orders.c.work_order_id == each.work_order_id)
            .values(spent_microcredits=money.text(money.add(each.spent, cost)))
        )


def run_counts(connection: Connection, work_order_id: str) -> list[tuple[str, int]]:
    """A work order's own runs' counts by status, in status order."""
    query = (
        select(_runs.c.status, func.count())
        .where(_runs.c.work_order_id == work_order_id)
        .group_by(_runs.c.status)
        .order_by(_runs.c.status)
    )
    return [(str(status), int(count)) for status, count in connection.execute(query)]


def live_runs(connection: Connection, work_order_id: str, terminal: tuple[str, ...]) -> int:
    """How many of a work order's runs are not in one of the ``terminal`` statuses."""
    query = select(func.count()).where(
        _runs.c.work_order_id == work_order_id, _runs.c.status.not_in(terminal)
    )
    return int(connection.execute(query).scalar_one())


def page(
    connection: Connection,
    parent_id: str,
    after: str | None,
    limit: int,
) -> list[core.Node]:
    """Up to ``limit`` children of ``parent_id`` (empty: the roots) after ``after``, by id."""
    query = select(work_orders).where(work_orders.c.parent_id == parent_id)
    if after is not None:
        query = query.where(work_orders.c.work_order_id > after)
    query = query.order_by(work_orders.c.work_order_id).limit(limit)
    return [node_of(row) for row in connection.execute(query)]
