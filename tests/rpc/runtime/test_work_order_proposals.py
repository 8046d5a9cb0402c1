"""Issue 42, item 1: an agent proposes a child work order and a human decides it.

A proposal is recorded PROPOSED (no run, resume or child in it), checked as a create
would be, and checked again when a human approves it (OPEN) or declined with a reason
(DECLINED, final). The decision is human-only."""

from __future__ import annotations

import threading

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, inbox_pb2, run_pb2, task_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from praxis_client import error_details
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, get_run, json_out, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

ONE = definition("a", a=node(output=json_out()))
APPROVE, DECLINE = pb.PROPOSAL_DECISION_APPROVE, pb.PROPOSAL_DECISION_DECLINE
AGENT = "rogue"  # an AGENT granted "*": it may propose, never decide


def _create(h: Harness, work_order_id: str, parent_id: str = "", **fields: object) -> None:
    h.client("alice").work_orders.CreateWorkOrder(
        pb.CreateWorkOrderRequest(work_order_id=work_order_id, parent_id=parent_id, **fields)
    )


def _propose(
    h: Harness, work_order_id: str, parent_id: str, principal: str = AGENT, **fields: object
) -> pb.ProposeWorkOrderResponse:
    request = pb.ProposeWorkOrderRequest(work_order_id=work_order_id, parent_id=parent_id, **fields)
    return h.client(principal).work_orders.ProposeWorkOrder(request)  # type: ignore[no-any-return]


def _decide(
    h: Harness, work_order_id: str, decision: int, reason: str = "", principal: str = "alice"
) -> pb.WorkOrderRecord:
    request = pb.DecideWorkOrderProposalRequest(
        work_order_id=work_order_id,
        decision=decision,  # type: ignore[arg-type]
        reason=reason,
    )
    found = h.client(principal).work_orders.DecideWorkOrderProposal(request)
    return found.work_order  # type: ignore[no-any-return]


def _get(h: Harness, work_order_id: str) -> pb.GetWorkOrderRecordResponse:
    request = pb.GetWorkOrderRecordRequest(work_order_id=work_order_id)
    return h.client("alice").work_orders.GetWorkOrderRecord(request)  # type: ignore[no-any-return]


def _pending(h: Harness, principal: str = "alice") -> list[str]:
    request = pb.ListWorkOrdersRequest(state=pb.WORK_ORDER_STATE_PROPOSED)
    found = h.client(principal).work_orders.ListWorkOrders(request)
    return [record.work_order_id for record in found.work_orders]


def test_an_agent_proposes_a_child_that_admits_nothing_until_a_human_approves_it(
    harness: Harness,
) -> None:
    _create(
        harness, "mission", budget_microcredits="100", actions=["run.*", "task.*", "work_order.*"]
    )
    proposed = _propose(
        harness,
        "research",
        "mission",
        title="Read the papers",
        labels={"team": "search"},
        budget_microcredits="40",
        actions=["run.*", "work_order.*"],
    )
    record = proposed.work_order
    assert not proposed.replayed
    assert (record.state, record.proposed, record.creator, record.parent_id) == (
        pb.WORK_ORDER_STATE_PROPOSED,
        True,
        AGENT,
        "mission",
    )
    assert (record.budget_microcredits, list(record.actions)) == ("40", ["run.*", "work_order.*"])
    again = _propose(
        harness,
        "research",
        "mission",
        title="Read the papers",
        labels={"team": "search"},
        budget_microcredits="40",
        actions=["run.*", "work_order.*"],
    )
    assert again.replayed and again.work_order == record
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "WORK_ORDER_EXISTS"):
        _propose(harness, "research", "mission", title="Other")
    # Nothing runs in it, no child is made under it, and it is no child of its parent yet.
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_APPROVED"):
        start(harness, ONE, work_order_id="research")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_APPROVED"):
        _create(harness, "deeper", "research")
    parent = _get(harness, "mission")
    assert parent.work_order.child_count == 0
    assert [(c.work_order_id, c.state) for c in parent.children] == [
        ("research", pb.WORK_ORDER_STATE_PROPOSED)
    ]
    assert _pending(harness) == ["research"]
    # An agent cannot decide, even granted everything: a human does.
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        _decide(harness, "research", APPROVE, principal=AGENT)
    approved = _decide(harness, "research", APPROVE)
    assert (approved.state, approved.decided_by, approved.creator) == (
        pb.WORK_ORDER_STATE_OPEN,
        "alice",
        AGENT,
    )
    assert approved.decided_at_ms > 0 and approved.proposed
    assert _decide(harness, "research", APPROVE) == approved  # the same decision: unchanged
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_PROPOSAL_DECIDED"):
        _decide(harness, "research", DECLINE, reason="too late")
    assert _pending(harness) == []
    assert _get(harness, "mission").work_order.child_count == 1
    run = start(harness, ONE, work_order_id="research").run
    [task] = claim(harness)
    complete(harness, task, {"ok": True})
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_a_declined_proposal_is_final_and_says_why(harness: Harness) -> None:
    _create(harness, "mission")
    _propose(harness, "detour", "mission", title="Rewrite everything")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        _decide(harness, "detour", DECLINE)  # a decline says why
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        _decide(harness, "detour", pb.PROPOSAL_DECISION_UNSPECIFIED)
    assert _get(harness, "detour").work_order.state == pb.WORK_ORDER_STATE_PROPOSED
    declined = _decide(harness, "detour", DECLINE, reason="out of scope")
    assert (declined.state, declined.decline_reason, declined.decided_by) == (
        pb.WORK_ORDER_STATE_DECLINED,
        "out of scope",
        "alice",
    )
    assert _decide(harness, "detour", DECLINE, reason="again") == declined
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_PROPOSAL_DECIDED"):
        _decide(harness, "detour", APPROVE)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_APPROVED"):
        start(harness, ONE, work_order_id="detour")
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "WORK_ORDER_EXISTS"):
        _create(harness, "detour", "mission")  # its id stays taken
    # A declined proposal does not keep its parent from closing; a pending one does.
    _propose(harness, "pending", "mission")
    client = harness.client("alice").work_orders
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_DRAINED"):
        client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="mission"))
    _decide(harness, "pending", DECLINE, reason="no")
    closed = client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="mission"))
    assert closed.work_order.state == pb.WORK_ORDER_STATE_CLOSED


def test_approval_checks_the_parent_as_it_is_then(harness: Harness) -> None:
    _create(harness, "mission", budget_microcredits="100")
    _propose(harness, "big", "mission", budget_microcredits="80")
    # The parent spends between the proposal and its approval: 60 of 100 are left.
    start(harness, ONE, work_order_id="mission")
    [task] = claim(harness)
    harness.client("agent").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            result_json='{"ok": true}',
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            cost_microcredits="40",
        )
    )
    assert _get(harness, "mission").work_order.remaining_microcredits == "60"
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"):
        _decide(harness, "big", APPROVE)
    assert _get(harness, "big").work_order.state == pb.WORK_ORDER_STATE_PROPOSED  # unchanged
    # A paused parent admits the approval (the child is paused with it); a cancelled one
    # does not.
    _propose(harness, "small", "mission", budget_microcredits="5")
    harness.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id="mission", reason="review")
    )
    assert _decide(harness, "small", APPROVE).state == pb.WORK_ORDER_STATE_PAUSED
    harness.client("alice").admin.CancelWorkOrder(
        admin_pb2.CancelWorkOrderRequest(work_order_id="mission", reason="over")
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CLOSED"):
        _decide(harness, "big", APPROVE)


def test_a_proposal_is_checked_as_a_create(harness: Harness) -> None:
    _create(harness, "mission", budget_microcredits="10", actions=["run.*", "work_order.*"])
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        _propose(harness, "root", "")  # a proposal is of a child
    with expect_error(grpc.StatusCode.NOT_FOUND, "WORK_ORDER_NOT_FOUND"):
        _propose(harness, "child", "nowhere")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"):
        _propose(harness, "child", "mission", budget_microcredits="11")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_ACTIONS_WIDENED"):
        _propose(harness, "child", "mission", actions=["registry.*"])
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        _propose(harness, "child", "mission", principal="agent")  # no work_order.propose
    with expect_error(grpc.StatusCode.NOT_FOUND, "WORK_ORDER_NOT_FOUND"):
        _get(harness, "child")  # nothing was written
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_PROPOSAL_DECIDED"):
        _decide(harness, "mission", APPROVE)  # created directly: nothing to decide
    with expect_error(grpc.StatusCode.NOT_FOUND, "WORK_ORDER_NOT_FOUND"):
        _decide(harness, "absent", APPROVE)
    parent = ""
    for level in range(8):
        _create(harness, f"l{level}", parent)
        parent = f"l{level}"
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_TOO_DEEP"):
        _propose(harness, "l8", "l7")


def test_the_pending_list_shows_a_human_only_what_their_grants_cover(harness: Harness) -> None:
    _create(harness, "wo-a1")
    _create(harness, "wo-b1")
    _propose(harness, "wo-a1-x", "wo-a1")
    _propose(harness, "wo-b1-x", "wo-b1")
    assert _pending(harness) == ["wo-a1-x", "wo-b1-x"]
    assert _pending(harness, "scoped") == ["wo-a1-x"]  # its grant covers wo-a* only
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        _decide(harness, "wo-b1-x", APPROVE, principal="scoped")
    assert _get(harness, "wo-b1-x").work_order.state == pb.WORK_ORDER_STATE_PROPOSED


def test_a_proposal_waits_in_the_inbox_with_what_a_human_needs_to_decide(
    harness: Harness,
) -> None:
    kind = inbox_pb2.INBOX_ITEM_KIND_WORK_ORDER_PROPOSAL
    inbox = harness.client("alice").inbox
    _create(harness, "mission", budget_microcredits="100")
    _create(harness, "other")
    harness.clock.advance(1_000)
    _propose(
        harness, "research", "mission", title="Read", budget_microcredits="40", actions=["run.*"]
    )
    found = inbox.ListInbox(inbox_pb2.ListInboxRequest(kinds=[kind]))
    [item] = found.items
    assert (item.item_id, item.work_order_id, item.since_ms) == (
        "work_order:research",
        "mission",
        harness.clock.now_ms(),
    )
    proposal = item.work_order_proposal
    assert (proposal.creator, proposal.parent_id, proposal.state) == (
        AGENT,
        "mission",
        pb.WORK_ORDER_STATE_PROPOSED,
    )
    assert (proposal.budget_microcredits, list(proposal.actions)) == ("40", ["run.*"])
    assert proposal.remaining_microcredits == "40"
    assert "research" in item.summary and AGENT in item.summary
    counted = {c.kind: c.count for c in found.counts}
    assert counted[kind] == 1
    assert [i.item_id for i in inbox.ListInbox(inbox_pb2.ListInboxRequest()).items] == [
        "work_order:research"
    ]
    scoped = inbox_pb2.ListInboxRequest(kinds=[kind], work_order_id="other")
    assert list(inbox.ListInbox(scoped).items) == []  # another parent's inbox
    _decide(harness, "research", APPROVE)
    assert list(inbox.ListInbox(inbox_pb2.ListInboxRequest(kinds=[kind])).items) == []


def _race(h: Harness, proposal: str) -> dict[str, object]:
    """alice approves and bob declines ``proposal`` at once: each one's record or reason."""
    barrier = threading.Barrier(2)
    answers: dict[str, object] = {}

    def decide(who: str, decision: int) -> None:
        barrier.wait()
        try:
            answers[who] = _decide(h, proposal, decision, "no", principal=who)
        except grpc.RpcError as error:
            answers[who] = error_details(error).reason

    threads = [
        threading.Thread(target=decide, args=("alice", APPROVE)),
        threading.Thread(target=decide, args=("bob", DECLINE)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_humans_deciding_at_once_leave_one_decision(harness: Harness) -> None:
    _create(harness, "mission")
    for round_ in range(3):
        proposal = f"p{round_}"
        _propose(harness, proposal, "mission")
        answers = _race(harness, proposal)
        lost = [who for who, got in answers.items() if got == "WORK_ORDER_PROPOSAL_DECIDED"]
        assert len(lost) == 1, answers
        [winner] = [who for who in answers if who not in lost]
        final = _get(harness, proposal).work_order
        assert final.decided_by == winner
        opened = winner == "alice"
        assert final.state == (pb.WORK_ORDER_STATE_OPEN if opened else pb.WORK_ORDER_STATE_DECLINED)
