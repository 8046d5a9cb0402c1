"""Results: a node's stored result, a fan-out's items' results, the run's result."""

from __future__ import annotations

import json

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core import values
from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import node_results

_ITEM_RESULTS = Statement(  # a fan-out's results in item order (its join's input)
    select(node_results.c.result_json)
    .where(node_results.c.run_id == bindparam("run_id"))
    .where(node_results.c.node_id == bindparam("node_id"), node_results.c.item >= 0)
    .order_by(node_results.c.item)
)
_RESULT_TEXT = Statement(
    select(node_results.c.result_json).where(
        node_results.c.run_id == bindparam("rid"), node_results.c.node_uid == bindparam("uid")
    )
)


def node_value(connection: Connection, state: core.RunState, node_id: str) -> values.JsonValue:
    """A node's result: its stored value, or its items' results in item order."""
    spec = state.definition.nodes.get(node_id)
    if spec is not None and spec.fanout is not None:
        rows = _ITEM_RESULTS.run(connection, {"run_id": state.run_id, "node_id": node_id})
        return [json.loads(row.result_json) for row in rows]
    text = result_text(connection, state.run_id, node_id)
    return None if text is None else json.loads(text)


def result_text(connection: Connection, run_id: str, uid: str) -> str | None:
    """The stored result of one node uid, as JSON text."""
    text = _RESULT_TEXT.run(connection, {"rid": run_id, "uid": uid}).scalar()
    return None if text is None else str(text)


def run_result(connection: Connection, state: core.RunState) -> str:
    """The run's result: the output node's value, as canonical JSON."""
    return values.canonical_json(node_value(connection, state, state.definition.output))
