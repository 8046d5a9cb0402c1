"""A node's input, gathered from the run's input and its dependencies' stored results."""

from __future__ import annotations

import json

from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core import values
from praxis.core.run import inputs
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.rows.results import node_value


def gather_input(
    connection: Connection,
    record: RunRecord,
    node: core.NodeRun,
    cache: dict[tuple[str, str], values.JsonValue],
) -> values.JsonValue:
    """The input of a node: run input, a dependency's result, a join or a fan-out item
    (:func:`praxis.core.run.inputs.node_input`, reading results from the rows)."""
    state = record.state

    def value(node_id: str) -> values.JsonValue:
        key = (state.run_id, node_id)
        if key not in cache:
            cache[key] = node_value(connection, state, node_id)
        return cache[key]

    def run_input() -> values.JsonValue:
        return json.loads(record.input_json) if record.input_json else None

    return inputs.node_input(state, node, run_input, value)
