"""The input a node's attempt receives: the run's input, a dependency's result, a join of
several, or one item of a fan-out. Pure: the results are read through ``value``, so the
store (from its rows) and a simulation (from memory) gather inputs the same way."""

from __future__ import annotations

from collections.abc import Callable

from praxis.core import values
from praxis.core.run.state import NodeRun, RunState


def node_input(
    state: RunState,
    node: NodeRun,
    run_input: Callable[[], values.JsonValue],
    value: Callable[[str], values.JsonValue],
) -> values.JsonValue:
    """The input of ``node``; ``run_input()`` is the run's input and ``value(node_id)`` a
    finished node's result (a fan-out node's: its items' results in item order), each
    read only when the node's source needs it."""
    spec = state.definition.nodes[node.node_id]
    kind = spec.source.kind
    if kind == "run_input":
        return run_input()
    if kind == "node":
        return value(spec.source.nodes[0])
    if kind == "join":
        return {node_id: value(node_id) for node_id in spec.source.nodes}
    assert spec.fanout is not None
    found = value(spec.fanout.node)
    for key in spec.fanout.path:
        found = found[key]  # the fan-out checked the path
    return found[node.item]  # an array, checked by the fan-out
