"""A node's input, gathered from the run's input and its dependencies' stored results."""

from __future__ import annotations

import functools
import json

from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core import values
from praxis.core.run import inputs
from praxis.store.db.database import Database
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.rows.results import node_value, result_text


def gather_input(
    connection: Connection,
    record: RunRecord,
    node: core.NodeRun,
    cache: dict[tuple[str, str], values.JsonValue],
    held: HeldRuns | None = None,
) -> values.JsonValue:
    """The input of a node: run input, a dependency's result, a join or a fan-out item
    (:func:`praxis.core.run.inputs.node_input`, reading results from the rows). ``held``:
    a dependency's result as this process holds it (:mod:`praxis.store.runtime.held`),
    else read and then held once this transaction commits."""
    state = record.state

    def value(node_id: str) -> values.JsonValue:
        key = (state.run_id, node_id)
        if key not in cache:
            spec = state.definition.nodes.get(node_id)
            if held is None or spec is None or spec.fanout is not None:
                cache[key] = node_value(connection, state, node_id)
                return cache[key]
            text = held.result(state.run_id, node_id)
            if text is None:
                text = result_text(connection, state.run_id, node_id)
                if text is not None:  # a result is written once: held once committed
                    keep = functools.partial(held.keep_result, state.run_id, node_id, text)
                    Database.after_commit(connection, keep)
            cache[key] = None if text is None else json.loads(text)
        return cache[key]

    def run_input() -> values.JsonValue:
        return json.loads(record.input_json) if record.input_json else None

    return inputs.node_input(state, node, run_input, value)
