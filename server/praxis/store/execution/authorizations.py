"""Authorization waits: the material a human approves, and the approval's consumption.

:func:`material` computes, inside a read or the satisfying transaction, the exact
:class:`praxis.core.authorization.Material` of satisfying an ``authorization`` wait with
a payload: the epochs of the run's work order, the wait and its expiry, its purpose, the
payload's digest, and the authorised actions with the input digests known now.
:func:`verify` checks the named approval against that material with the registry's rule
(:func:`praxis.core.registry.check_approval`, requiring the wait's purpose) and the
authority's verification of the approver; :func:`consume` records the consumption on the
approval's proof (single use, as for registry commands and reconciliations) and the
approved material on ``wait_approvals``, in the transaction that satisfies the wait.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core import authorization as authz
from praxis.core import registry, values
from praxis.core.records import ApprovalEvidence, ApprovalRecord
from praxis.core.rejection import precondition
from praxis.observability import metrics
from praxis.store.controls import rows as controls
from praxis.store.db.database import Database, Rollback
from praxis.store.execution.tables import wait_approvals
from praxis.store.registry.rows import consume_proof, load_approval
from praxis.store.runtime import rows as run_rows
from praxis.store.runtime.rows import RunRecord


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
    inputs: dict[str, str] = {}
    for node in authz.authorised(state.definition, uid):
        current = state.nodes.get(node.node_id)
        if current is not None and authz.input_known(state, node, uid):
            found = run_rows.gather_input(connection, record, current, cache)
            inputs[node.node_id] = values.digest(found)
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
    approval = load_approval(connection, approval_id)
    if approval is None:
        raise Rollback(precondition("APPROVAL_NOT_FOUND", f"no approval {approval_id!r}"))
    evidence = authority.verify_approval(approval.record, found.work_order_id, now)
    if not isinstance(evidence, ApprovalEvidence):
        raise Rollback(evidence)
    state = registry.State(
        epochs=found.epochs,
        head=None,
        proposal=None,
        approval=approval.record,
        proof_consumed=bool(approval.consumed_at_ms),
    )
    problem = registry.check_approval(state, evidence, found.digest(), now, found.purpose)
    if problem:
        raise Rollback(problem)
    return approval.record, evidence


def consume(
    connection: Connection,
    approval: ApprovalRecord,
    found: authz.Material,
    request_id: str,
    principal_id: str,
    now: int,
) -> None:
    """Consumes the approval's proof and records the approved material of the wait."""
    consume_proof(connection, approval, request_id, principal_id, now)
    if metrics.ON:
        Database.after_commit(connection, metrics.approval_consumed)
    connection.execute(
        wait_approvals.insert().values(
            wait_id=found.wait_id,
            run_id=found.run_id,
            approval_id=approval.approval_id,
            material_digest=found.digest(),
            material_json=values.canonical_json(found.document()),
            approved_by=approval.approver_id,
            consumed_at_ms=now,
        )
    )


def approved(connection: Connection, wait_id: str) -> tuple[str, str, tuple[authz.Action, ...]]:
    """The approval id, material digest and authorised actions a wait was satisfied with
    (empty when it was not satisfied with an approval)."""
    row = connection.execute(
        select(wait_approvals).where(wait_approvals.c.wait_id == wait_id)
    ).first()
    if row is None:
        return "", "", ()
    document: dict[str, Any] = json.loads(row.material_json)
    actions = tuple(
        authz.Action(
            node_uid=a["node_uid"],
            model=a["model"],
            operation_id=a["operation_id"],
            spec_digest=a["spec_digest"],
            input_digest=a["input_digest"],
            fanout=a["fanout"],
        )
        for a in document["actions"]
    )
    return row.approval_id, row.material_digest, actions
