"""Resuming a failed or cancelled run: what it runs again, and the exact material a human
approves before a governed run resumes.

A resume keeps the DONE nodes and their results and runs the failed and cancelled ones
again with new attempts (:class:`praxis.core.run.Resume`). Resuming a governed run (one
that executes a registry ref) is a governed action, like a registry command: a human
approves the digest of its :class:`Material` (through the registry's review-and-approve
flow, :func:`praxis.core.registry.check_approval`), which pins the run at its current
version, and the resume consumes that approval once.

Running an action again that already took effect, or that a human authorised, is a
governed action too, whatever the run: a node whose last effect was APPLIED, or whose
action an authorization wait's approval covered, is never offered a new attempt without
a fresh human approval of exactly that action (its node, the operation it runs under and
the digest of its input), which the material lists (:attr:`Again.needs_approval`).

Agent replacement: a governed run may be resumed onto its ref's head
(:mod:`praxis.core.run.replace`); the material then carries the head's revision and the
node-level diff (:class:`praxis.core.run.replace.Change`) the human approves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from praxis.core import run as core
from praxis.core import values
from praxis.core.definition import Definition
from praxis.core.records import Epochs
from praxis.core.run import replace as replace_run

MAX_LISTED_NODES = 100
"""How many of the nodes a resume runs again the material lists by name (all of them
are counted, and the run's version pins which they are)."""


@dataclass(frozen=True)
class Again:
    """One node a resume runs again, and the operation id it will run under.

    Attributes:
        applied: Its last settled effect was APPLIED.
        authorized: An authorization wait's approval covered its action.
        input_digest: With ``needs_approval``: ``sha256`` over the input its next attempt
            will carry ("" while a node it reads is not done).
    """

    node_uid: str
    operation_id: str
    new_operation: bool
    applied: bool = False
    authorized: bool = False
    input_digest: str = ""

    @property
    def needs_approval(self) -> bool:
        """Whether running it again needs a human's approval of this exact action."""
        return self.applied or self.authorized

    def action(self) -> dict[str, values.JsonValue]:
        """The exact action a human approves running again (what the digest covers)."""
        return {
            "node_uid": self.node_uid,
            "operation_id": self.operation_id,
            "input_digest": self.input_digest,
            "applied": self.applied,
            "authorized": self.authorized,
        }


def again(
    state: core.RunState,
    authorised: frozenset[str] = frozenset(),
    inputs: Mapping[str, str] | None = None,
    head: Definition | None = None,
) -> list[Again]:
    """The nodes a resume of ``state`` runs again, in node id then item order: never in
    the order of the definition's text, which differs between a definition as submitted
    and as stored (canonical), so that every process computes the same material.

    Args:
        state: The run.
        authorised: The node ids whose action an authorization wait's approval covered.
        inputs: The input digest of each node uid that needs an approval, where known.
        head: Agent replacement: the head the run is resumed onto.
    """
    replaced = (
        frozenset(change.node_id for change in replace_run.changes(state, head))
        if head is not None
        else frozenset()
    )
    definition = head or state.definition
    found = []
    for uid in sorted(core.ordered_uids(state.definition, state.nodes), key=_node_then_item):
        node = state.nodes[uid]
        if node.status not in (core.NodeStatus.FAILED, core.NodeStatus.CANCELLED):
            continue
        same = core.same_operation(definition.nodes[node.node_id], node)
        same = same and node.node_id not in replaced
        generation = node.operation if same else node.operation + 1
        applied = node.effect == core.Effect.APPLIED.value
        authorized = node.node_id in authorised
        digest = (inputs or {}).get(uid, "") if applied or authorized else ""
        operation = core.operation_id(state.run_id, uid, generation)
        found.append(Again(uid, operation, not same, applied, authorized, digest))
    return found


def _node_then_item(uid: str) -> tuple[str, int]:
    node_id, _, item = uid.partition("#")
    return node_id, int(item) if item else -1


@dataclass(frozen=True)
class Material:
    """The exact subject of a human's approval of a resume.

    Attributes:
        to_revision: Agent replacement: the head's revision the run is resumed onto (0:
            the run keeps its revision).
        to_definition_digest: The head's definition digest (with ``to_revision``).
        changes: The nodes the head changes (with ``to_revision``).
    """

    epochs: Epochs
    work_order_id: str
    ref_run_id: str
    run_id: str
    run_version: int
    revision: int
    definition_digest: str
    nodes: tuple[Again, ...]
    reason: str
    run_timeout_ms: int
    to_revision: int = 0
    to_definition_digest: str = ""
    changes: tuple[replace_run.Change, ...] = ()

    @property
    def needs_approval(self) -> tuple[Again, ...]:
        """The nodes whose new attempt needs a human's approval of its exact action."""
        return tuple(node for node in self.nodes if node.needs_approval)

    def document(self) -> dict[str, values.JsonValue]:
        """The material as a document (what the digest covers). The keys of re-approval
        and replacement appear only when there are any, so that the digest of a plain
        resume is the one it always was."""
        document: dict[str, values.JsonValue] = {
            "action": "RESUME_RUN",
            "installation_id": self.epochs.installation_id,
            "ownership_epoch": self.epochs.ownership_epoch,
            "authority_epoch": self.epochs.authority_epoch,
            "work_order_id": self.work_order_id,
            "ref_run_id": self.ref_run_id,
            "run_id": self.run_id,
            "run_version": self.run_version,
            "revision": self.revision,
            "definition_digest": self.definition_digest,
            "nodes": [[n.node_uid, n.operation_id] for n in self.nodes],
            "reason": self.reason,
            "run_timeout_ms": self.run_timeout_ms,
        }
        again = self.needs_approval
        if again:
            document["reapprove"] = [node.action() for node in again]
        if self.to_revision:
            document["to_revision"] = self.to_revision
            document["to_definition_digest"] = self.to_definition_digest
            document["changes"] = [
                [c.node_id, c.status.value, c.old_spec_digest, c.new_spec_digest]
                for c in self.changes
            ]
        return document

    def digest(self) -> str:
        """``sha256`` over the material."""
        return values.digest(self.document())
