"""Agent replacement: resuming a failed or cancelled governed run onto its ref's head.

A human may activate a revision that fixes the node that failed a governed run. A resume
``to_head`` then runs the run under the head: its DONE nodes keep their results, and the
nodes the head changes run under their new spec. That is safe only when the head changes
nothing that already ran to completion and keeps the graph's shape, so that every kept
result is still the result of the same node reading the same inputs:

- the same node ids, each with the same kind, dependencies, input sources and fan-out
  source, and the same output node (the *shape*);
- no change to a node that is DONE, or to a fan-out node with a DONE item.

:func:`changes` is the node-level diff a human reviews, :func:`conflicts` why a head
cannot be resumed onto (every offending node named, one field violation each).
"""

from __future__ import annotations

from dataclasses import dataclass

from praxis.core import values
from praxis.core.definition import Definition, Node
from praxis.core.rejection import Code, FieldViolation, Rejection
from praxis.core.run.state import NodeStatus, RunState


@dataclass(frozen=True)
class Change:
    """One node the head changes, and what became of it in the run so far.

    Attributes:
        node_id: The node.
        status: Its status in the run (FAILED, CANCELLED, or PENDING when it never ran).
        old_spec_digest: Its spec digest in the run's revision.
        new_spec_digest: Its spec digest in the head.
        old_document: Its entry in the run's definition document, as written there.
        new_document: Its entry in the head's definition document.
    """

    node_id: str
    status: NodeStatus
    old_spec_digest: str
    new_spec_digest: str
    old_document: values.JsonValue = None
    new_document: values.JsonValue = None


def changes(state: RunState, head: Definition) -> tuple[Change, ...]:
    """The nodes of ``state`` whose spec ``head`` changes, in node id order (never the
    definition's text order, so that every process computes the same material)."""
    found = []
    for node_id in sorted(state.definition.nodes):
        old, new = state.definition.nodes[node_id], head.nodes.get(node_id)
        if new is None or new.spec_digest == old.spec_digest:
            continue
        node = state.nodes.get(node_id)
        status = node.status if node is not None else NodeStatus.PENDING
        documents = (_document(state.definition, node_id), _document(head, node_id))
        found.append(Change(node_id, status, old.spec_digest, new.spec_digest, *documents))
    return tuple(found)


def _document(definition: Definition, node_id: str) -> values.JsonValue:
    nodes = definition.document.get("nodes") if isinstance(definition.document, dict) else None
    return nodes.get(node_id) if isinstance(nodes, dict) else None


def conflicts(state: RunState, head: Definition) -> Rejection | None:
    """Why ``state`` cannot be resumed onto ``head``: REPLACEMENT_CONFLICT, with one field
    violation ``nodes.<id>`` (or ``output``) per node whose change is refused."""
    problems: list[FieldViolation] = []
    old = state.definition
    for node_id in sorted(set(old.nodes) | set(head.nodes)):
        problem = _problem(state, old.nodes.get(node_id), head.nodes.get(node_id), node_id)
        if problem:
            problems.append(FieldViolation(f"nodes.{node_id}", problem))
    if old.output != head.output:
        problems.append(FieldViolation("output", f"the head reads the output from {head.output!r}"))
    if not problems:
        return None
    named = ", ".join(v.field.removeprefix("nodes.") for v in problems)
    return Rejection(
        Code.FAILED_PRECONDITION,
        "REPLACEMENT_CONFLICT",
        "the head changes what already ran or the graph's shape, so the run cannot be "
        f"resumed onto it ({named}); register a new ref for that change",
        tuple(problems),
    )


def _problem(state: RunState, old: Node | None, new: Node | None, node_id: str) -> str:
    if old is None:
        return f"the head adds node {node_id!r}"
    if new is None:
        return f"the head removes node {node_id!r}"
    if _shape(old) != _shape(new):
        return f"the head changes the dependencies, input or fan-out of node {node_id!r}"
    if new.spec_digest != old.spec_digest and _ran(state, node_id):
        return f"node {node_id!r} is done (or has done items) and the head changes it"
    return ""


def _shape(node: Node) -> tuple[object, ...]:
    fanout = (node.fanout.node, node.fanout.path) if node.fanout else None
    return node.kind, tuple(sorted(node.depends_on)), node.source, fanout


def _ran(state: RunState, node_id: str) -> bool:
    """Whether the node, or one of its fan-out items, is DONE."""
    return state.count(NodeStatus.DONE, node_id) > 0
