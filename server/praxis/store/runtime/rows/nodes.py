"""ListRunNodes' rows: a page of a run's nodes in definition order, then item order
(its sizes and tokens: :mod:`praxis.store.runtime.node_pages`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core.definition import Definition
from praxis.core.rejection import Rejection, invalid
from praxis.store.runtime import codec as run_codec
from praxis.store.runtime.tables import run_nodes


def list_nodes(
    connection: Connection,
    row: Any,
    definition: Definition,
    node_id: str,
    status: core.NodeStatus | None,
    size: int,
    start: tuple[str, int] | None,
) -> tuple[list[core.NodeRun], tuple[str, int] | None] | Rejection:
    """Up to ``size`` nodes of the run of ``row`` from ``start``, and where the next page
    starts. Reads at most ``size + 1`` rows per definition node it visits."""
    order = list(definition.nodes) if not node_id else [node_id]
    first_item = -1
    if start is not None:
        if start[0] not in order:
            return invalid(
                "PAGE_INVALID",
                "page_token",
                "page_token names a node the run's definition no longer has; list again",
            )
        order = order[order.index(start[0]) :]
        first_item = start[1]
    found: list[core.NodeRun] = []
    for index, current in enumerate(order):
        query = (
            select(run_nodes)
            .where(run_nodes.c.run_id == row.run_id, run_nodes.c.node_id == current)
            .where(run_nodes.c.item >= (first_item if index == 0 else -1))
            .order_by(run_nodes.c.item)
            .limit(size + 1 - len(found))
        )
        if status is not None:
            query = query.where(run_nodes.c.status == status.value)
        found.extend(run_codec.node_of(node) for node in connection.execute(query))
        if len(found) > size:
            following = found[size]
            return found[:size], (following.node_id, following.item)
    return found, None
