"""Authorization waits: the exact action that the approval of a satisfaction binds.

An ``authorization`` wait pauses its branch until a verified human authorises what
follows it. What it authorises, its *authorised actions*, are the agent nodes that
depend on it directly, in definition order (nodes further down and other waits are not
included: they are authorised, or not, by their own waits). Each is named by:

- its node uid and model;
- its operation id (:func:`praxis.core.run.operation_id`), the same across safe
  retries; empty for a fan-out node, whose items get their own ids when it expands;
- its spec digest (:attr:`praxis.core.definition.Node.spec_digest`), which a revision
  that changes the node changes;
- its input digest: ``sha256`` over the canonical JSON of the input its task will carry,
  as if the wait were satisfied with the payload under review. It is known when every
  other node the input reads is done; otherwise (and for a fan-out node) it is empty.

The human approves a :class:`Material`: these actions, the wait, its run and work
order, the epochs, the wait's expiry, its declared purpose and the payload's digest.
SatisfyWait recomputes the material when it commits and consumes an approval of exactly
that digest (:func:`praxis.core.registry.check_approval`, with the wait's purpose), so a
changed payload, a revised node, an input that changed or new epochs all mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass

from praxis.core import values
from praxis.core.definition import Definition, Node
from praxis.core.records import Epochs
from praxis.core.run.commands import operation_id
from praxis.core.run.state import NodeStatus, RunState

KIND = "authorization"


@dataclass(frozen=True)
class Action:
    """One authorised action: an agent node that depends directly on the wait."""

    node_uid: str
    model: str
    operation_id: str
    spec_digest: str
    input_digest: str
    fanout: bool
    input_json: str = ""
    """The input whose digest is ``input_digest``, for a person to read (ReviewWait
    only); outside the material's digest, which binds it through ``input_digest``."""

    def document(self) -> dict[str, values.JsonValue]:
        """The action as the material's digest covers it."""
        return {
            "node_uid": self.node_uid,
            "model": self.model,
            "operation_id": self.operation_id,
            "spec_digest": self.spec_digest,
            "input_digest": self.input_digest,
            "fanout": self.fanout,
        }


@dataclass(frozen=True)
class Material:
    """The exact subject of the approval of an authorization wait's satisfaction."""

    epochs: Epochs
    work_order_id: str
    run_id: str
    wait_id: str
    node_uid: str
    expires_at_ms: int
    purpose: str
    payload_digest: str
    actions: tuple[Action, ...]

    def document(self) -> dict[str, values.JsonValue]:
        """The material as a document (what the digest covers)."""
        return {
            "action": "AUTHORIZE",
            "installation_id": self.epochs.installation_id,
            "ownership_epoch": self.epochs.ownership_epoch,
            "authority_epoch": self.epochs.authority_epoch,
            "work_order_id": self.work_order_id,
            "run_id": self.run_id,
            "wait_id": self.wait_id,
            "node_uid": self.node_uid,
            "expires_at_ms": self.expires_at_ms,
            "purpose": self.purpose,
            "payload_digest": self.payload_digest,
            "actions": [action.document() for action in self.actions],
        }

    def digest(self) -> str:
        """``sha256`` over the material."""
        return values.digest(self.document())


def authorised(definition: Definition, wait_node_id: str) -> tuple[Node, ...]:
    """The agent nodes that depend directly on the wait, in node id order: never in the
    order of the definition's text, which differs between a definition as submitted and
    as stored (canonical), so that every process computes the same material."""
    dependents = sorted(set(definition.dependents.get(wait_node_id, ())))
    found = (definition.nodes[node_id] for node_id in dependents)
    return tuple(node for node in found if node.kind == "agent")


def input_known(state: RunState, node: Node, wait_node_id: str) -> bool:
    """Whether the node's input is known once the wait's payload is: it does not fan
    out, and every other node it reads is done."""
    if node.fanout is not None:
        return False
    for source in node.source.nodes:
        if source == wait_node_id:
            continue
        found = state.nodes.get(source)
        if found is None or found.status is not NodeStatus.DONE:
            return False
    return True


def actions(
    state: RunState, wait_node_id: str, inputs: dict[str, values.JsonValue]
) -> tuple[Action, ...]:
    """The authorised actions of the wait in ``state``; ``inputs`` holds the input of
    each node whose input is known (see :func:`input_known`)."""
    return tuple(
        Action(
            node_uid=node.node_id,
            model=node.agent.model,
            operation_id="" if node.fanout else _operation(state, node.node_id),
            spec_digest=node.spec_digest,
            input_digest=values.digest(inputs[node.node_id]) if node.node_id in inputs else "",
            fanout=node.fanout is not None,
            input_json=(
                values.canonical_json(inputs[node.node_id]) if node.node_id in inputs else ""
            ),
        )
        for node in authorised(state.definition, wait_node_id)
    )


def _operation(state: RunState, node_id: str) -> str:
    """The operation id the node's next attempt runs under (a resume may have begun a
    new operation for it)."""
    found = state.nodes.get(node_id)
    return operation_id(state.run_id, node_id, found.operation if found is not None else 0)
