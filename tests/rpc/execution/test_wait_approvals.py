"""Authorization waits are approvals of an exact action: reviewed, approved, consumed once.

An ``authorization`` wait authorises the agent nodes that depend on it directly. Its
satisfaction needs the approval of the material ReviewWait returns (the action's node,
operation id, spec and input digests, the payload's digest, the epochs, the purpose),
verified and consumed by SatisfyWait; grants may be limited to purposes and to a
validity window, checked at use.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from aiws.engine.v1 import admin_pb2, approval_pb2, principal_pb2, registry_pb2, run_pb2
from aiws.engine.v1 import common_pb2 as cpb
from aiws.engine.v1 import wait_pb2 as pb
from praxis.core.run import operation_id
from praxis_client import Client, connect
from tests.support.execution import (
    approve_wait,
    authorize_wait,
    review_wait,
    run_of,
    satisfy_wait,
    settle,
    start_run,
)
from tests.support.harness import ROUND_ROBIN, T0, Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, proposed, ref, register_cmd
from tests.support.runtime import claim, definition, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

OK = {"ok": True}
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
HOUR = 3_600_000


def gate(purpose: str = "", expires_in_ms: int = HOUR, **extra: Any) -> dict[str, Any]:
    """An authorization wait node."""
    wait: dict[str, Any] = {"expires_in_ms": expires_in_ms, "schema": SCHEMA, "on_expiry": "fail"}
    if purpose:
        wait["purpose"] = purpose
    return {"kind": "authorization", "wait": wait, **extra}


def guarded(purpose: str = "") -> dict[str, Any]:
    """ask (an authorization) -> charge (an agent reading the wait's payload)."""
    return definition(
        "charge", ask=gate(purpose), charge=node("node:ask", ("ask",), json_out(), model="echo")
    )


def wait_of(h: Harness, run_id: str, uid: str = "ask") -> pb.Wait:
    found = h.client("alice").waits.ListWaits(pb.ListWaitsRequest(run_id=run_id)).waits
    return next(w for w in found if w.node_uid == uid)


def approval(h: Harness, approval_id: str) -> approval_pb2.Approval:
    request = approval_pb2.GetApprovalRequest(approval_id=approval_id)
    return h.client("alice").approvals.GetApproval(request).approval


def _fields(action: pb.AuthorizedAction) -> dict[str, Any]:
    return {field.name: value for field, value in action.ListFields()}


def sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_an_authorization_is_satisfied_only_with_the_approval_of_its_exact_action(
    model: Harness,
) -> None:
    run = start_run(model, guarded())
    wait = wait_of(model, run.run_id)
    op = operation_id(run.run_id, "charge")
    # While open, the wait names what it authorises (the input waits for the payload).
    [pending] = wait.authorizes
    assert (pending.node_uid, pending.model, pending.operation_id) == ("charge", "echo", op)
    assert pending.spec_digest.startswith("sha256:") and not pending.input_digest
    assert not pending.fanout and not wait.approval_id
    # Without an approval: refused, and nothing changes.
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "AUTHORIZATION_APPROVAL_REQUIRED"):
        satisfy_wait(model, wait.wait_id, OK)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_NOT_FOUND"):
        satisfy_wait(model, wait.wait_id, OK, "ap-missing")
    review = review_wait(model, wait.wait_id, OK)
    material = review.material
    assert (material.run_id, material.wait_id, material.node_uid) == (
        run.run_id,
        wait.wait_id,
        "ask",
    )
    assert material.epochs.installation_id == model.installation_id
    assert (material.epochs.ownership_epoch, material.epochs.authority_epoch) == (1, 1)
    assert material.expires_at_ms == T0 + HOUR and material.payload_digest == sha256('{"ok":true}')
    [action] = material.actions
    assert (action.node_uid, action.operation_id, action.spec_digest) == (
        "charge",
        op,
        pending.spec_digest,
    )
    assert action.input_digest == sha256('{"ok":true}')  # the input is the payload
    assert action.input_json == '{"ok":true}'  # shown to the reviewer, bound by its digest
    assert review_wait(model, wait.wait_id, OK).material_digest == review.material_digest
    # The approval of another payload is refused and consumes nothing.
    approve_wait(model, wait.wait_id, {"ok": False}, "ap-other")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        satisfy_wait(model, wait.wait_id, OK, "ap-other")
    assert approval(model, "ap-other").state == approval_pb2.APPROVAL_STATE_ACTIVE
    assert wait_of(model, run.run_id).state == pb.WAIT_STATE_PENDING
    # The approval of this payload satisfies it once.
    created = approve_wait(model, wait.wait_id, OK, "ap-1")
    assert created.material_digest == review.material_digest
    done = satisfy_wait(model, wait.wait_id, OK, "ap-1", request_id="s-1")
    assert done.wait.state == pb.WAIT_STATE_SATISFIED and not done.replayed
    assert (done.wait.approval_id, done.wait.material_digest) == ("ap-1", review.material_digest)
    approved = [pb.AuthorizedAction(**{**_fields(a), "input_json": ""}) for a in material.actions]
    assert list(done.wait.authorizes) == approved  # the input itself: ReviewWait only
    again = satisfy_wait(model, wait.wait_id, OK, "ap-1", request_id="s-1")
    assert again.replayed and again.wait.approval_id == "ap-1"
    consumed = approval(model, "ap-1")
    assert consumed.state == approval_pb2.APPROVAL_STATE_CONSUMED
    assert consumed.consumed_by_request_id == "s-1"
    # The task carries exactly the approved operation and input.
    [task] = claim(model)
    assert task.operation_id == op and sha256(task.input_json) == action.input_digest
    settle(model, task)
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_an_approval_is_consumed_once(model: Harness) -> None:
    first = start_run(model, guarded())
    second = start_run(model, guarded())
    authorize_wait(model, wait_of(model, first.run_id).wait_id, OK, "ap-1")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_CONSUMED"):
        satisfy_wait(model, wait_of(model, second.run_id).wait_id, OK, "ap-1")
    assert wait_of(model, second.run_id).state == pb.WAIT_STATE_PENDING


def test_an_expired_approval_is_refused(model: Harness) -> None:
    run = start_run(model, guarded())
    wait = wait_of(model, run.run_id)
    approve_wait(model, wait.wait_id, OK, "ap-1", ttl_ms=1_000)
    model.clock.advance(1_000)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_EXPIRED"):
        satisfy_wait(model, wait.wait_id, OK, "ap-1")
    assert wait_of(model, run.run_id).state == pb.WAIT_STATE_PENDING
    authorize_wait(model, wait.wait_id, OK, "ap-2")
    assert states(run_of(model, run.run_id))["ask"] == "DONE"


def test_an_input_is_bound_once_it_is_known(model: Harness) -> None:
    """An authorised node that also reads a node not yet done has no input digest; once
    that node is done, the digest is known and an approval of the earlier material no
    longer matches."""
    document = definition(
        "charge",
        ask=gate(),
        quote=node(output=json_out()),
        charge=node(["node:ask", "node:quote"], ("ask", "quote"), json_out()),
    )
    run = start_run(model, document)
    wait = wait_of(model, run.run_id)
    early = review_wait(model, wait.wait_id, OK)
    assert early.material.actions[0].input_digest == ""
    approve_wait(model, wait.wait_id, OK, "ap-early")
    [quote] = claim(model)
    settle(model, quote, {"amount": 5})
    later = review_wait(model, wait.wait_id, OK).material.actions[0]
    assert later.input_digest == sha256('{"ask":{"ok":true},"quote":{"amount":5}}')
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        satisfy_wait(model, wait.wait_id, OK, "ap-early")
    authorize_wait(model, wait.wait_id, OK, "ap-later")
    [charge] = claim(model)
    assert sha256(charge.input_json) == later.input_digest


def test_a_revised_action_or_new_epochs_invalidate_the_approval(model: Harness) -> None:
    governed = definition("charge", ask=gate(), charge=node("node:ask", ("ask",), json_out()))
    r = ref("wo-g", "run-g")
    command = register_cmd(r, "ap-reg", governed)
    approve(model, command, "ap-reg")
    execute(model, "alice", "req-reg", command)
    started = model.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=r, input_json="null")
    )
    run_id = started.run.run_id
    wait = wait_of(model, run_id)
    assert review_wait(model, wait.wait_id, OK).material.work_order_id == "wo-g"
    approve_wait(model, wait.wait_id, OK, "ap-before")
    # A revision changes the authorised node (not dispatched yet): the action changed.
    revised = json.loads(json.dumps(governed))
    revised["nodes"]["charge"]["input"]["template"] = "charge {{input}}"
    proposed(model, r, "p-1", definition=revised)
    activate = activate_cmd(r, "p-1", 1, "ap-act")
    approve(model, activate, "ap-act")
    execute(model, "alice", "req-act", activate)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        satisfy_wait(model, wait.wait_id, OK, "ap-before")
    # New epochs of the work order: the material approved before them no longer holds.
    approve_wait(model, wait.wait_id, OK, "ap-epoch")
    model.client("alice").admin.AdvanceEpoch(
        admin_pb2.AdvanceEpochRequest(
            work_order_id="wo-g", kind=admin_pb2.EPOCH_KIND_AUTHORITY, expected_epoch=1
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        satisfy_wait(model, wait.wait_id, OK, "ap-epoch")
    review = review_wait(model, wait.wait_id, OK)
    assert review.material.epochs.authority_epoch == 2
    authorize_wait(model, wait.wait_id, OK, "ap-after")
    assert wait_of(model, run_id).state == pb.WAIT_STATE_SATISFIED


def test_other_waits_take_no_approval_and_bad_reviews_are_refused(model: Harness) -> None:
    asking = definition(
        "use",
        ask={"kind": "human_input", "wait": {"expires_in_ms": HOUR, "schema": SCHEMA,
                                             "on_expiry": "fail"}},
        use=node("node:ask", ("ask",), json_out()),
    )  # fmt: skip
    human = wait_of(model, start_run(model, asking).run_id)
    assert not human.authorizes
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "APPROVAL_NOT_APPLICABLE"):
        review_wait(model, human.wait_id, OK)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "APPROVAL_NOT_APPLICABLE"):
        satisfy_wait(model, human.wait_id, OK, "ap-1")
    assert satisfy_wait(model, human.wait_id, OK, principal="agent").wait.satisfied_by == "agent"
    run = start_run(model, guarded())
    wait = wait_of(model, run.run_id)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WAIT_PAYLOAD_INVALID"):
        review_wait(model, wait.wait_id, {"ok": "yes"})
    with expect_error(grpc.StatusCode.NOT_FOUND, "WAIT_NOT_FOUND"):
        review_wait(model, "wait_missing", OK)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        satisfy_wait(model, wait.wait_id, OK, "bad id")
    # An agent may read the material, but only a human approves it (rogue: every grant).
    digest = review_wait(model, wait.wait_id, OK, principal="agent").material_digest
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        model.client("rogue").approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-agent", material_digest=digest,
                expires_at_ms=model.clock.now_ms() + 60_000,
            )
        )  # fmt: skip
    # A wait that has not opened yet cannot be reviewed.
    later = definition(
        "charge",
        quote=node(output=json_out()),
        ask={**gate(), "depends_on": ["quote"], "input": {"from": "node:quote"}},
        charge=node("node:ask", ("ask",), json_out()),
    )
    closed = wait_of(model, start_run(model, later).run_id)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WAIT_NOT_OPEN"):
        review_wait(model, closed.wait_id, OK)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        start_run(model, definition("charge", ask=gate("bad purpose"), charge=node(
            "node:ask", ("ask",), json_out())))  # fmt: skip
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        start_run(model, asking | {"nodes": {**asking["nodes"], "ask": {
            **asking["nodes"]["ask"], "wait": {**asking["nodes"]["ask"]["wait"],
                                               "purpose": "payments"}}}})  # fmt: skip


def test_a_purpose_limits_which_grants_and_approvals_apply(model: Harness) -> None:
    """``payer`` holds everything beyond reads only for the purpose ``payments``."""
    run = start_run(model, guarded("payments"))
    wait = wait_of(model, run.run_id)
    assert wait.purpose == "payments"
    review = review_wait(model, wait.wait_id, OK, principal="payer")
    assert review.material.purpose == "payments"

    def create(approval_id: str, purpose: str, who: str = "payer") -> approval_pb2.Approval:
        return (
            model.client(who)
            .approvals.CreateApproval(
                approval_pb2.CreateApprovalRequest(
                    approval_id=approval_id,
                    material_digest=review.material_digest,
                    expires_at_ms=model.clock.now_ms() + 60_000,
                    purpose=purpose,
                )
            )
            .approval
        )

    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "PURPOSE_NOT_GRANTED"):
        create("ap-none", "")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "PURPOSE_NOT_GRANTED"):
        create("ap-travel", "travel")
    # An approval that names no purpose does not authorise an action that has one.
    create("ap-alice", "", "alice")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_PURPOSE_MISMATCH"):
        satisfy_wait(model, wait.wait_id, OK, "ap-alice")
    assert create("ap-pay", "payments").purpose == "payments"
    assert satisfy_wait(model, wait.wait_id, OK, "ap-pay", principal="payer").wait.state == (
        pb.WAIT_STATE_SATISFIED
    )
    # Without the purpose, the payer's grants do not cover the action.
    plain = wait_of(model, start_run(model, guarded()).run_id)
    approve_wait(model, plain.wait_id, OK, "ap-plain")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "PURPOSE_NOT_GRANTED"):
        satisfy_wait(model, plain.wait_id, OK, "ap-plain", principal="payer")
    # A purposed approval never approves a registry command (which has no purpose).
    r = ref("wo-p", "run-p")
    command = register_cmd(r, "ap-reg-pay")
    epochs = model.epochs("wo-p")
    digest = (
        model.client("payer")
        .registry.Review(registry_pb2.ReviewRequest(epochs=epochs, command=command))
        .material_digest
    )
    model.client("payer").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-reg-pay", material_digest=digest,
            expires_at_ms=model.clock.now_ms() + 60_000, purpose="payments",
        )
    )  # fmt: skip
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_PURPOSE_MISMATCH"):
        execute(model, "alice", "req-reg-pay", command)


def _metadata(error: grpc.RpcError) -> dict[str, str]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return dict(info.metadata)
    return {}


def _principal(h: Harness, name: str, grant: principal_pb2.Grant) -> Client:
    """A human created at runtime with ``grant`` (and reads), and a client with its token."""
    reads = principal_pb2.Grant(actions=["run.read", "wait.read", "approval.read"])
    created = h.client("alice").principals.CreatePrincipal(
        principal_pb2.CreatePrincipalRequest(
            principal_id=name, kind=cpb.PRINCIPAL_KIND_HUMAN, grants=[grant, reads]
        )
    )
    [stored, _] = created.principal.grants
    assert (stored.not_before_ms, stored.not_after_ms) == (grant.not_before_ms, grant.not_after_ms)
    if len(h.replicas) > 1:
        return connect(h.address, created.token, insecure=True, options=ROUND_ROBIN)
    return connect(h.address, created.token)


def test_a_grant_applies_only_within_its_window(model: Harness) -> None:
    run = start_run(model, guarded())
    wait = wait_of(model, run.run_id)
    digest = review_wait(model, wait.wait_id, OK).material_digest

    def create(client: Client, approval_id: str) -> None:
        client.approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=digest,
                expires_at_ms=model.clock.now_ms() + HOUR,
            )
        )

    # From the principals file: a grant whose window ended at T0.
    with pytest.raises(grpc.RpcError) as ended:
        create(model.client("lapsed"), "ap-lapsed")
    assert ended.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert _metadata(ended.value) == {"not_before_ms": "1", "not_after_ms": str(T0)}
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"):
        create(model.client("lapsed"), "ap-lapsed")
    # Created at runtime: a grant not valid yet, then valid, then over.
    window = principal_pb2.Grant(
        actions=["*"], not_before_ms=T0 + 60_000, not_after_ms=T0 + 120_000
    )
    windowed = _principal(model, "windowed", window)
    try:
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"):
            create(windowed, "ap-w")
        model.clock.advance(60_000)
        create(windowed, "ap-w")
        # Checked again at use: the approval outlives the grant it was given under.
        model.clock.advance(60_000)
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"):
            satisfy_wait(model, wait.wait_id, OK, "ap-w")
        assert approval(model, "ap-w").state == approval_pb2.APPROVAL_STATE_ACTIVE
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "GRANT_OUTSIDE_WINDOW"):
            windowed.waits.SatisfyWait(
                pb.SatisfyWaitRequest(
                    request_id="w-1", wait_id=wait.wait_id, payload_json="{}", approval_id="ap-w"
                )
            )
    finally:
        windowed.close()
    authorize_wait(model, wait.wait_id, OK, "ap-alice")


def test_grant_purposes_and_windows_are_validated(model: Harness) -> None:
    bad = [
        principal_pb2.Grant(actions=["*"], purposes=["bad purpose"]),
        principal_pb2.Grant(actions=["*"], purposes=["p"] * 2),
        principal_pb2.Grant(actions=["*"], purposes=[f"p{i}" for i in range(17)]),
        principal_pb2.Grant(actions=["*"], not_before_ms=T0, not_after_ms=T0),
        principal_pb2.Grant(actions=["*"], not_before_ms=-1),
    ]
    for index, grant in enumerate(bad):
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "GRANT_INVALID"):
            model.client("alice").principals.CreatePrincipal(
                principal_pb2.CreatePrincipalRequest(
                    principal_id=f"bad-{index}", kind=cpb.PRINCIPAL_KIND_HUMAN, grants=[grant]
                )
            )
    good = principal_pb2.Grant(
        actions=["wait.*"], purposes=["payments", "refunds"], not_after_ms=T0 + HOUR
    )
    created = model.client("alice").principals.CreatePrincipal(
        principal_pb2.CreatePrincipalRequest(
            principal_id="good", kind=cpb.PRINCIPAL_KIND_HUMAN, grants=[good]
        )
    )
    [stored] = created.principal.grants
    assert (list(stored.purposes), stored.not_after_ms) == (["payments", "refunds"], T0 + HOUR)
