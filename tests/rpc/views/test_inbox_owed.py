"""The inbox's other decisions: assessments owed by completed runs under a contract,
handoffs awaiting acknowledgement and approvals about to expire."""

from __future__ import annotations

import itertools

import pytest

from aiws.engine.v1 import approval_pb2, assessment_pb2, handoff_pb2, run_pb2
from aiws.engine.v1 import inbox_pb2 as pb
from tests.support.execution import create_contract, run_of, settle, start_run
from tests.support.harness import Harness
from tests.support.inbox import Watcher, counted
from tests.support.registry import activate_cmd, approve, execute, proposed, registered
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

SINGLE = definition("a", a=node(output=json_out()))
CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))
HOUR = 3_600_000
_ids = itertools.count()


def inbox(h: Harness, **fields: object) -> pb.ListInboxResponse:
    return h.client("alice").inbox.ListInbox(pb.ListInboxRequest(**fields))  # type: ignore[arg-type]


def kinds(response: pb.ListInboxResponse) -> list[str]:
    return [
        pb.InboxItemKind.Name(item.kind).removeprefix("INBOX_ITEM_KIND_") for item in response.items
    ]


def completed(h: Harness, document: dict[str, object] = SINGLE, **fields: object) -> str:
    run = start_run(h, document, **fields)
    for task in claim(h):
        settle(h, task, {"answer": 42})
    assert run_of(h, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    return run.run_id


def assess(h: Harness, run_id: str, kind: int) -> None:
    subject = (
        h.client("alice")
        .assessments.GetAcceptance(assessment_pb2.GetAcceptanceRequest(run_id=run_id))
        .subject_digest
    )
    h.client("alice").assessments.RecordAssessment(
        assessment_pb2.RecordAssessmentRequest(
            request_id=f"as-{next(_ids)}", run_id=run_id, kind=kind,
            verdict=assessment_pb2.ASSESSMENT_VERDICT_PASS, subject_digest=subject,
        )
    )  # fmt: skip


def test_a_completed_run_under_a_contract_owes_verification_and_acceptance(
    model: Harness,
) -> None:
    create_contract(model)
    completed(model)  # no contract: nothing owed
    model.clock.advance(1_000)
    run_id = completed(model, contract_id="c-1")
    listed = inbox(model)
    assert kinds(listed) == ["ACCEPTANCE", "VERIFICATION"]
    accept, verify = listed.items
    assert (accept.item_id, verify.item_id) == (f"acceptance:{run_id}", f"verification:{run_id}")
    assert accept.assessment_due.kind == assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE
    assert (accept.run_id, accept.work_order_id) == (run_id, "wo-1")
    assert accept.assessment_due.contract_id == "c-1"
    assert accept.since_ms == accept.assessment_due.since_ms == model.clock.now_ms()
    assert "awaits acceptance against contract c-1" in accept.summary
    assert kinds(inbox(model, work_order_id="wo-1")) == ["ACCEPTANCE", "VERIFICATION"]
    assert kinds(inbox(model, work_order_id="wo-2")) == []

    assess(model, run_id, assessment_pb2.ASSESSMENT_KIND_VERIFICATION)
    assert kinds(inbox(model)) == ["ACCEPTANCE"]
    assess(model, run_id, assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE)
    assert kinds(inbox(model)) == [] and inbox(model).total == 0


def test_a_new_subject_owes_the_assessments_again(model: Harness) -> None:
    create_contract(model)
    ref = registered(model)
    model.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=ref, input_json="null", contract_id="c-1")
    )
    for task in claim(model):
        settle(model, task, "done")
    assert kinds(inbox(model)) == ["ACCEPTANCE", "VERIFICATION"]
    run_id = inbox(model).items[0].run_id
    assess(model, run_id, assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE)
    assess(model, run_id, assessment_pb2.ASSESSMENT_KIND_VERIFICATION)
    assert kinds(inbox(model)) == []
    proposed(model, ref, "p-2")
    command = activate_cmd(ref, "p-2", 1, "ap-act")
    approve(model, command, "ap-act")
    model.clock.advance(5_000)
    execute(model, "alice", "act-1", command)
    again = inbox(model, kinds=[pb.INBOX_ITEM_KIND_ACCEPTANCE, pb.INBOX_ITEM_KIND_VERIFICATION])
    assert kinds(again) == ["ACCEPTANCE", "VERIFICATION"]
    assert {item.since_ms for item in again.items} == {model.clock.now_ms()}


def test_an_offered_handoff_waits_for_its_acknowledgement(model: Harness) -> None:
    run = start_run(model, CHAIN)
    [a] = claim(model)
    settle(model, a, {"draft": "text"})
    offered = model.client("agent").handoffs.CreateHandoff(
        handoff_pb2.CreateHandoffRequest(
            request_id="h-1", run_id=run.run_id, node_uid="a", to_principal_id="agent2",
            note="yours now",
        )
    ).handoff  # fmt: skip
    [item] = inbox(model).items
    assert item.kind == pb.INBOX_ITEM_KIND_HANDOFF
    assert item.item_id == f"handoff:{offered.delivery_id}"
    assert item.handoff == offered and item.since_ms == offered.created_at_ms
    assert (item.run_id, item.work_order_id) == (run.run_id, run.work_order_id)
    assert item.summary == f"agent hands a of run {run.run_id} to agent2: yours now"
    model.client("agent2").handoffs.AcknowledgeHandoff(
        handoff_pb2.AcknowledgeHandoffRequest(delivery_id=offered.delivery_id)
    )
    assert inbox(model).total == 0


def approval(h: Harness, approval_id: str, ttl_ms: int) -> approval_pb2.Approval:
    return (
        h.client("alice")
        .approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest="sha256:" + f"{next(_ids):064x}",
                expires_at_ms=h.clock.now_ms() + ttl_ms,
            )
        )
        .approval
    )


def test_an_unused_approval_enters_the_inbox_an_hour_before_it_expires(model: Harness) -> None:
    soon = approval(model, "ap-soon", HOUR // 2)
    later = approval(model, "ap-later", 3 * HOUR)
    [item] = inbox(model).items
    assert item.kind == pb.INBOX_ITEM_KIND_APPROVAL_EXPIRING
    assert (item.item_id, item.approval.approval_id) == ("approval:ap-soon", "ap-soon")
    assert item.approval.state == approval_pb2.APPROVAL_STATE_ACTIVE
    assert item.since_ms == soon.expires_at_ms - HOUR
    assert (item.run_id, item.work_order_id) == ("", "")
    assert "approval ap-soon by alice" in item.summary
    assert inbox(model, work_order_id="wo-1").total == 0  # approvals name no work order
    model.clock.advance(2 * HOUR + 1)  # ap-soon expired; ap-later has under an hour left
    assert [i.item_id for i in inbox(model).items] == ["approval:ap-later"]
    assert inbox(model).items[0].since_ms == later.expires_at_ms - HOUR
    model.clock.advance(HOUR)
    assert inbox(model).total == 0


def renew(
    h: Harness, old: approval_pb2.Approval, approval_id: str, ttl_ms: int, who: str = "alice"
) -> approval_pb2.Approval:
    """Approves ``old``'s material and purpose again, as ``who``, for ``ttl_ms``."""
    return (
        h.client(who)
        .approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id, material_digest=old.material_digest,
                expires_at_ms=h.clock.now_ms() + ttl_ms, purpose=old.purpose,
            )
        )
        .approval
    )  # fmt: skip


def expiring(h: Harness) -> list[str]:
    listed = inbox(h, kinds=[pb.INBOX_ITEM_KIND_APPROVAL_EXPIRING])
    return [item.approval.approval_id for item in listed.items]


def test_a_renewed_approval_leaves_the_inbox_while_its_renewal_outlives_the_window(
    model: Harness,
) -> None:
    old = approval(model, "ap-old", HOUR // 2)
    approval(model, "ap-other", HOUR // 2)
    assert expiring(model) == ["ap-old", "ap-other"]
    short = renew(model, old, "ap-short", HOUR)  # within the window too: not a renewal
    assert short.proof_digest == old.proof_digest  # the same human's decision, one proof
    assert expiring(model) == ["ap-old", "ap-other", "ap-short"]
    renewed = renew(model, old, "ap-new", 3 * HOUR)
    assert renewed.state == approval_pb2.APPROVAL_STATE_ACTIVE
    # ap-short is renewed too (same material and purpose); the old approvals stay usable
    assert expiring(model) == ["ap-other"]
    got = model.client("alice").approvals.GetApproval(
        approval_pb2.GetApprovalRequest(approval_id="ap-old")
    )
    assert got.approval.state == approval_pb2.APPROVAL_STATE_ACTIVE
    model.clock.advance(2 * HOUR + 1)  # the renewal is within its last hour: listed alone
    assert expiring(model) == ["ap-new"]


def test_a_renewal_must_be_for_the_same_purpose_by_any_human(model: Harness) -> None:
    old = approval(model, "ap-old", HOUR // 2)
    model.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-purpose", material_digest=old.material_digest,
            expires_at_ms=model.clock.now_ms() + 3 * HOUR, purpose="payments",
        )
    )  # fmt: skip
    assert expiring(model) == ["ap-old"]
    renew(model, old, "ap-bob", 3 * HOUR, who="bob")  # another human's approval renews it
    assert expiring(model) == []


def test_watch_inbox_sees_an_approval_enter_and_its_renewal_take_it_out(
    model: Harness,
) -> None:
    watcher = Watcher(model)
    try:
        assert watcher.wait_for(1).total == 0
        old = approval(model, "ap-old", HOUR // 2)  # no clock change: the commit wakes it
        assert counted(watcher.wait_for(2)) == {"INBOX_ITEM_KIND_APPROVAL_EXPIRING": 1}
        renew(model, old, "ap-new", 3 * HOUR)
        assert watcher.wait_for(3).total == 0
    finally:
        watcher.close()
