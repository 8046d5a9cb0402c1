"""Resuming a failed or cancelled run: what it runs again, and the exact material a human
approves before a governed run resumes.

A resume keeps the DONE nodes and their results and runs the failed and cancelled ones
again with new attempts (:class:`praxis.core.run.Resume`). Resuming a governed run (one
that executes a registry ref) is a governed action, like a registry command: a human
approves the digest of its :class:`Material` (through the registry's review-and-approve
flow, :func:`praxis.core.registry.check_approval`), which pins the run at its current
version, and the resume consumes that approval once.
"""

from __future__ import annotations

from dataclasses import dataclass

from praxis.core import run as core
from praxis.core import values
from praxis.core.records import Epochs

MAX_LISTED_NODES = 100
"""How many of the nodes a resume runs again the material lists by name (all of them
are counted, and the run's version pins which they are)."""


@dataclass(frozen=True)
class Again:
    """One node a resume runs again, and the operation id it will run under."""

    node_uid: str
    operation_id: str
    new_operation: bool


def again(state: core.RunState) -> list[Again]:
    """The nodes a resume of ``state`` runs again, in node id then item order: never in
    the order of the definition's text, which differs between a definition as submitted
    and as stored (canonical), so that every process computes the same material."""
    found = []
    for uid in sorted(core.ordered_uids(state.definition, state.nodes), key=_node_then_item):
        node = state.nodes[uid]
        if node.status not in (core.NodeStatus.FAILED, core.NodeStatus.CANCELLED):
            continue
        same = core.same_operation(state.definition.nodes[node.node_id], node)
        generation = node.operation if same else node.operation + 1
        found.append(Again(uid, core.operation_id(state.run_id, uid, generation), not same))
    return found


def _node_then_item(uid: str) -> tuple[str, int]:
    node_id, _, item = uid.partition("#")
    return node_id, int(item) if item else -1


@dataclass(frozen=True)
class Material:
    """The exact subject of a human's approval of a governed run's resume."""

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

    def document(self) -> dict[str, values.JsonValue]:
        """The material as a document (what the digest covers)."""
        return {
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

    def digest(self) -> str:
        """``sha256`` over the material."""
        return values.digest(self.document())
