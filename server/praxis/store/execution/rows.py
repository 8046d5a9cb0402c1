"""Rows of the execution model as callers see them: waits, reconciliations, handoffs.

The execution stores answer with these, and the read models of other slices (the
inbox, :mod:`praxis.store.views`) read through them without holding those stores.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import authorization as authz
from praxis.core import effects, handoff
from praxis.core import run as core
from praxis.core.definition import Node
from praxis.core.records import Ref
from praxis.store.execution import authorizations
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.tables import run_events


class WaitState(enum.Enum):
    """What a wait's node and satisfaction say about it."""

    NOT_OPEN = "NOT_OPEN"
    PENDING = "PENDING"
    SATISFIED = "SATISFIED"
    EXPIRED = "EXPIRED"
    DEFAULTED = "DEFAULTED"
    CANCELLED = "CANCELLED"


@dataclass(frozen=True)
class WaitView:
    """One wait as a caller sees it.

    ``actions`` are what an ``authorization`` wait authorises: from the current
    definition (no input digests) while it is open, as approved once satisfied, when
    ``approval_id`` and ``material_digest`` name the approval consumed.
    """

    wait_id: str
    run_id: str
    node_uid: str
    spec: Node
    state: WaitState
    opened_at_ms: int
    expires_at_ms: int
    payload_json: str
    satisfied_by: str
    satisfied_at_ms: int
    actions: tuple[authz.Action, ...] = ()
    approval_id: str = ""
    material_digest: str = ""

    @property
    def purpose(self) -> str:
        """The purpose the wait declares (authorization waits; empty: none)."""
        return self.spec.wait.purpose if self.spec.wait else ""


def wait_view(connection: Connection, record: RunRecord, row: Any, now: int) -> WaitView:
    """One stored wait (``row``, of the loaded run ``record``) as a caller sees it."""
    node = record.state.nodes.get(row.node_uid)
    spec = record.state.definition.nodes[row.node_uid]
    assert spec.wait is not None
    state = _state(node, bool(row.satisfied_by), spec.wait.on_expiry == "default", now)
    expires = 0
    if node is not None and node.status is core.NodeStatus.WAITING:
        expires = node.deadline_ms
    elif state is not WaitState.NOT_OPEN:  # settled: the snapshot no longer keeps it
        expires = _opened_expiry(connection, record.state.run_id, row.node_uid)
    opened = expires - spec.wait.expires_in_ms if expires else 0
    actions: tuple[authz.Action, ...] = ()
    approval_id = material_digest = ""
    if spec.kind == authz.KIND:
        if row.satisfied_by:
            approval_id, material_digest, actions = authorizations.approved(connection, row.wait_id)
        if not material_digest:  # open, expired, or satisfied before approvals
            actions = authz.actions(record.state, row.node_uid, {})
    return WaitView(
        wait_id=row.wait_id,
        run_id=record.state.run_id,
        node_uid=spec.node_id,
        spec=spec,
        state=state,
        opened_at_ms=opened,
        expires_at_ms=expires,
        payload_json=row.payload_json,
        satisfied_by=row.satisfied_by,
        satisfied_at_ms=row.satisfied_at_ms,
        actions=actions,
        approval_id=approval_id,
        material_digest=material_digest,
    )


_OPENED = (
    select(run_events.c.payload_json)
    .where(
        run_events.c.run_id == bindparam("rid"),
        run_events.c.node_uid == bindparam("uid"),
        run_events.c.kind == "NODE_WAITING",
    )
    .order_by(run_events.c.seq.desc())
    .limit(1)
)


def _opened_expiry(connection: Connection, run_id: str, uid: str) -> int:
    """The expiry a settled wait had, from the event written when it opened (0 if none)."""
    text = connection.execute(_OPENED, {"rid": run_id, "uid": uid}).scalar()
    return int(json.loads(text).get("expires_at_ms", 0)) if text else 0


def _state(node: core.NodeRun | None, satisfied: bool, defaults: bool, now: int) -> WaitState:
    if node is None or node.status in (core.NodeStatus.PENDING, core.NodeStatus.READY):
        return WaitState.NOT_OPEN
    if node.status is core.NodeStatus.WAITING:
        if node.deadline_ms > now:
            return WaitState.PENDING
        # Past its expiry, before the sweep applies it: report what the sweep will do.
        return WaitState.DEFAULTED if defaults else WaitState.EXPIRED
    if node.status is core.NodeStatus.DONE:
        return WaitState.SATISFIED if satisfied else WaitState.DEFAULTED
    if node.status is core.NodeStatus.FAILED:
        return WaitState.EXPIRED
    return WaitState.CANCELLED


# --- reconciliations ----------------------------------------------------------------


@dataclass(frozen=True)
class ReconciliationView:
    """One stored reconciliation."""

    attempt_id: str
    run_id: str
    node_uid: str
    completed: bool
    state: effects.ReconciliationState
    decision: str
    evidence_json: str
    approval_id: str
    decided_by: str
    opened_at_ms: int
    decided_at_ms: int
    error: str
    result_json: str

    operation: int = 0
    """The node's operation generation (``NodeRun.operation``) while the reconciliation
    is pending; a decided one of an earlier generation shows the node's current one."""

    @property
    def operation_id(self) -> str:
        """The operation id, shared by every attempt of the node's operation."""
        return core.operation_id(self.run_id, self.node_uid, self.operation)


def reconciliation_view(r: Any) -> ReconciliationView:
    """The reconciliation of a ``reconciliations`` row."""
    return ReconciliationView(
        attempt_id=r.attempt_id,
        run_id=r.run_id,
        node_uid=r.node_uid,
        completed=bool(r.completed),
        state=effects.ReconciliationState(r.state),
        decision=r.decision,
        evidence_json=r.evidence_json,
        approval_id=r.approval_id,
        decided_by=r.decided_by,
        opened_at_ms=r.opened_at_ms,
        decided_at_ms=r.decided_at_ms,
        error=r.error,
        result_json=r.result_json,
    )


# --- handoffs -----------------------------------------------------------------------


def handoff_of(row: Any) -> handoff.Handoff:
    """The handoff of a ``handoffs`` row."""
    return handoff.Handoff(
        delivery_id=row.delivery_id,
        run_id=row.run_id,
        node_uid=row.node_uid,
        from_principal_id=row.from_principal_id,
        to_principal_id=row.to_principal_id,
        outputs_digest=row.outputs_digest,
        note=row.note,
        state=handoff.State(row.state),
        created_at_ms=row.created_at_ms,
        acknowledged_at_ms=row.acknowledged_at_ms,
        work=None if row.revision < 0 else _work_of_row(row),
    )


def _work_of_row(row: Any) -> handoff.Work:
    ref = Ref(row.ref_work_order_id, row.ref_run_id) if row.ref_run_id else None
    return handoff.Work(ref, row.revision, row.definition_digest)
