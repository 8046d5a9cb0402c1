"""Authorization waits: the material a human approves, and the approval's consumption.

:func:`material` computes, inside a read or the satisfying transaction, the exact
:class:`praxis.core.authorization.Material` of satisfying an ``authorization`` wait with
a payload: the epochs of the run's work order, the wait and its expiry, its purpose, the
payload's digest, and the authorised actions with the input digests known now.
:func:`verify` checks the named approval against that material, requiring the wait's
purpose, and :func:`consume` records the consumption on the approval's proof, both with
the shared rule of :mod:`praxis.store.execution.approved` (single use, as for registry
commands, reconciliations and resumes), and the approved material on ``wait_approvals``,
in the transaction that satisfies the wait.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core import authorization as authz
from praxis.core import values
from praxis.core.records import ApprovalEvidence, ApprovalRecord
from praxis.store.controls import rows as controls
from praxis.store.execution import approved as approved_actions
from praxis.store.execution.rows import authorizations as rows
from praxis.store.runtime.inputs import gather_input
from praxis.store.runtime.records import RunRecord


def material(
    connection: Connection,
    record: RunRecord,
    wait_id: str,
    uid: str,
    payload: values.JsonValue,
    installation_id: str,
) -> authz.Material:
    """The material of satisfying the (open) wait of node ``uid`` with ``payload``."""
    state = record.state
    spec = state.definition.nodes[uid]
    assert spec.wait is not None
    cache: dict[tuple[str, str], values.JsonValue] = {(state.run_id, uid): payload}
    inputs: dict[str, values.JsonValue] = {}
    for node in authz.authorised(state.definition, uid):
        current = state.nodes.get(node.node_id)
        if current is not None and authz.input_known(state, node, uid):
            found = gather_input(connection, record, current, cache)
            inputs[node.node_id] = found
    work_order = controls.load_work_order(connection, record.work_order_id)
    return authz.Material(
        epochs=controls.epochs_of(installation_id, work_order),
        work_order_id=record.work_order_id,
        run_id=state.run_id,
        wait_id=wait_id,
        node_uid=uid,
        expires_at_ms=state.nodes[uid].deadline_ms,
        purpose=spec.wait.purpose,
        payload_digest=values.digest(payload),
        actions=authz.actions(state, uid, inputs),
    )


def verify(
    connection: Connection,
    authority: Authority,
    approval_id: str,
    found: authz.Material,
    now: int,
) -> tuple[ApprovalRecord, ApprovalEvidence]:
    """The named approval and the authority's evidence, when they approve ``found`` for
    its purpose now; otherwise raises :class:`Rollback` with the reason."""
    return approved_actions.verify(
        connection,
        authority,
        approval_id,
        found.digest(),
        found.epochs,
        found.work_order_id,
        now,
        found.purpose,
    )


def consume(
    connection: Connection,
    approval: ApprovalRecord,
    found: authz.Material,
    request_id: str,
    principal_id: str,
    now: int,
) -> None:
    """Consumes the approval's proof and records the approved material of the wait."""
    approved_actions.consume(connection, approval, request_id, principal_id, now)
    rows.record_approval(connection, found, approval.approval_id, approval.approver_id, now)
