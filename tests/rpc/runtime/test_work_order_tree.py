"""Work orders as records and as a tree (issue 42, item 1): WorkOrderService creates,
reads, lists and closes them; a child inherits its parent's controls, holds, actions and
budget."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, run_pb2, task_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from tests.support.harness import Harness, expect_error
from tests.support.registry import execute, propose_cmd, ref, registered
from tests.support.runtime import claim, complete, definition, get_run, json_out, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

ONE = definition("a", a=node(output=json_out()))
OPEN, PAUSED = pb.WORK_ORDER_STATE_OPEN, pb.WORK_ORDER_STATE_PAUSED
CANCELLED, CLOSED = pb.WORK_ORDER_STATE_CANCELLED, pb.WORK_ORDER_STATE_CLOSED


def _create(
    h: Harness, work_order_id: str, parent_id: str = "", principal: str = "alice", **fields: object
) -> pb.CreateWorkOrderResponse:
    request = pb.CreateWorkOrderRequest(work_order_id=work_order_id, parent_id=parent_id, **fields)
    return h.client(principal).work_orders.CreateWorkOrder(request)  # type: ignore[no-any-return]


def _get(h: Harness, work_order_id: str, principal: str = "alice") -> pb.GetWorkOrderRecordResponse:
    request = pb.GetWorkOrderRecordRequest(work_order_id=work_order_id)
    return h.client(principal).work_orders.GetWorkOrderRecord(request)  # type: ignore[no-any-return]


def _admin(h: Harness, verb: str, work_order_id: str) -> admin_pb2.WorkOrder:
    admin = h.client("alice").admin
    if verb == "pause":
        request = admin_pb2.PauseWorkOrderRequest(work_order_id=work_order_id, reason="r")
        return admin.PauseWorkOrder(request).work_order  # type: ignore[no-any-return]
    if verb == "resume":
        request2 = admin_pb2.ResumeWorkOrderRequest(work_order_id=work_order_id)
        return admin.ResumeWorkOrder(request2).work_order  # type: ignore[no-any-return]
    request3 = admin_pb2.CancelWorkOrderRequest(work_order_id=work_order_id, reason="over")
    return admin.CancelWorkOrder(request3).work_order  # type: ignore[no-any-return]


def _tree(h: Harness) -> None:
    """mission > sub > leaf."""
    _create(h, "mission", title="Mission")
    _create(h, "sub", "mission", title="Sub")
    _create(h, "leaf", "sub", title="Leaf")


def _complete_with_cost(h: Harness, task: task_pb2.Task, cost: str) -> None:
    h.client("agent").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            result_json=json.dumps({"ok": True}),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            cost_microcredits=cost,
        )
    )


# --- records ------------------------------------------------------------------------------


def test_a_work_order_is_a_record_with_its_creator_parent_and_children(harness: Harness) -> None:
    created = _create(harness, "mission", title="Ship it", labels={"team": "core"})
    assert not created.replayed
    record = created.work_order
    assert (record.work_order_id, record.title, dict(record.labels)) == (
        "mission",
        "Ship it",
        {"team": "core"},
    )
    assert (record.creator, record.parent_id, record.state) == ("alice", "", OPEN)
    assert record.created_at_ms > 0 and record.spent_microcredits == "0"
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        _create(harness, "sub", "mission", principal="service")  # a service needs the grant
    child = _create(harness, "sub", "mission", title="Part", principal="bob").work_order
    assert (child.parent_id, list(child.ancestors), child.creator) == (
        "mission",
        ["mission"],
        "bob",
    )
    got = _get(harness, "mission")
    assert got.work_order.child_count == 1
    assert [c.work_order_id for c in got.children] == ["sub"]


def test_create_replays_and_refuses_another_content(harness: Harness) -> None:
    _create(harness, "mission", title="A")
    again = _create(harness, "mission", title="A")
    assert again.replayed and again.work_order.title == "A"
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "WORK_ORDER_EXISTS"):
        _create(harness, "mission", title="B")
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "WORK_ORDER_EXISTS"):
        _create(harness, "mission", title="A", principal="bob")


def test_create_refuses_what_it_cannot_record(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.NOT_FOUND, "WORK_ORDER_NOT_FOUND"):
        _create(harness, "sub", "nowhere")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        _create(harness, "bad id")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DECIMAL_NOT_CANONICAL"):
        _create(harness, "m", budget_microcredits="1.50")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        _create(harness, "m", principal="rogue")  # an agent, even granted everything
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        _create(harness, "wo-b", principal="scoped")  # outside its wo-a* grant
    with expect_error(grpc.StatusCode.NOT_FOUND, "WORK_ORDER_NOT_FOUND"):
        _get(harness, "m")  # nothing was written
    assert _create(harness, "wo-a1", principal="scoped").work_order.creator == "scoped"


def test_depth_and_fan_out_are_bounded(harness: Harness) -> None:
    parent = ""
    for level in range(8):
        _create(harness, f"l{level}", parent)
        parent = f"l{level}"
    assert len(_get(harness, "l7").work_order.ancestors) == 7
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_TOO_DEEP"):
        _create(harness, "l8", "l7")


def test_a_work_order_only_runs_named_is_a_root_record(harness: Harness) -> None:
    run = start(harness, ONE, work_order_id="wo-runs").run
    got = _get(harness, "wo-runs")
    assert (got.work_order.parent_id, got.work_order.creator, got.work_order.state) == (
        "",
        "",
        OPEN,
    )
    assert [(c.state, c.count) for c in got.run_counts] == [("RUNNING", 1)]
    assert get_run(harness, run.run_id).work_order_id == "wo-runs"


def test_list_pages_roots_and_children_by_state(harness: Harness) -> None:
    _tree(harness)
    _create(harness, "other", "mission")
    _admin(harness, "pause", "other")
    client = harness.client("alice").work_orders
    roots = client.ListWorkOrders(pb.ListWorkOrdersRequest())
    assert [r.work_order_id for r in roots.work_orders] == ["mission"]
    first = client.ListWorkOrders(pb.ListWorkOrdersRequest(parent_id="mission", page_size=1))
    assert [r.work_order_id for r in first.work_orders] == ["other"] and first.next_page_token
    second = client.ListWorkOrders(
        pb.ListWorkOrdersRequest(parent_id="mission", page_size=1, page_token=first.next_page_token)
    )
    assert [r.work_order_id for r in second.work_orders] == ["sub"]
    paused = client.ListWorkOrders(pb.ListWorkOrdersRequest(parent_id="mission", state=PAUSED))
    assert [r.work_order_id for r in paused.work_orders] == ["other"]
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListWorkOrders(
            pb.ListWorkOrdersRequest(parent_id="sub", page_token=first.next_page_token)
        )


# --- inherited controls -----------------------------------------------------------------


def test_pausing_a_parent_pauses_a_grandchilds_run(harness: Harness) -> None:
    _tree(harness)
    run = start(harness, ONE, work_order_id="leaf").run
    _admin(harness, "pause", "mission")
    assert claim(harness) == []  # the grandchild's attempt is not dispatched
    leaf = _get(harness, "leaf").work_order
    assert (leaf.state, leaf.state_from) == (PAUSED, "mission")
    leaf_controls = harness.client("alice").admin.GetWorkOrder(
        admin_pb2.GetWorkOrderRequest(work_order_id="leaf")
    )
    assert leaf_controls.work_order.control_state == admin_pb2.CONTROL_STATE_PAUSED
    for inherited in ("sub", "leaf"):
        with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CONTROL_INHERITED"):
            _admin(harness, "resume", inherited)
    assert claim(harness) == []
    _admin(harness, "resume", "mission")
    [task] = claim(harness)
    assert task.run_id == run.run_id
    assert _get(harness, "leaf").work_order.state == OPEN


def test_a_child_paused_on_its_own_stays_paused_when_its_parent_resumes(
    harness: Harness,
) -> None:
    _tree(harness)
    start(harness, ONE, work_order_id="leaf")
    _admin(harness, "pause", "leaf")
    _admin(harness, "pause", "mission")
    _admin(harness, "resume", "mission")
    assert claim(harness) == []
    assert _get(harness, "leaf").work_order.state_from == "leaf"
    _admin(harness, "resume", "leaf")
    assert len(claim(harness)) == 1


def test_cancelling_a_parent_cancels_every_descendants_runs(harness: Harness) -> None:
    _tree(harness)
    leaf_run = start(harness, ONE, work_order_id="leaf").run
    sub_run = start(harness, ONE, work_order_id="sub").run
    _admin(harness, "cancel", "mission")
    for run_id in (leaf_run.run_id, sub_run.run_id):
        stopped = get_run(harness, run_id)
        assert stopped.state == run_pb2.RUN_STATE_CANCELLED
        assert stopped.result_reason == "WORK_ORDER_CANCELED"
    assert _get(harness, "leaf").work_order.state == CANCELLED
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CANCELED"):
        start(harness, ONE, work_order_id="leaf")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CLOSED"):
        _create(harness, "late", "sub")


def test_a_hold_on_a_parent_holds_the_subtree(harness: Harness) -> None:
    _tree(harness)
    admin = harness.client("alice").admin
    admin.PlaceHold(
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="mission", reason="restoring"
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RESTORE_HOLD"):
        start(harness, ONE, work_order_id="leaf")
    held = admin.GetWorkOrder(admin_pb2.GetWorkOrderRequest(work_order_id="leaf")).work_order
    assert [hold.work_order_id for hold in held.holds] == ["mission"]
    start(harness, ONE, work_order_id="elsewhere")
    admin.ClearHold(
        admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="mission")
    )
    assert start(harness, ONE, work_order_id="leaf").run.work_order_id == "leaf"


# --- narrowed actions ---------------------------------------------------------------------


def test_a_childs_actions_narrow_its_parents(harness: Harness) -> None:
    _create(harness, "mission", actions=["run.*", "task.*", "work_order.*", "admin.*"])
    _create(harness, "reads", "mission", actions=["run.read", "work_order.*"])
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_ACTIONS_WIDENED"):
        _create(harness, "wider", "mission", actions=["registry.*"])
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_ACTIONS_WIDENED"):
        _create(harness, "wider", "reads", actions=["run.*"])
    start(harness, ONE, work_order_id="mission")  # run.start is permitted there
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, ONE, work_order_id="reads")  # not in the child, whatever the grants
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, ONE, work_order_id="reads", principal="alice")


# --- carved budgets -----------------------------------------------------------------------


def test_a_child_cannot_overspend_its_parent(harness: Harness) -> None:
    _create(harness, "mission", budget_microcredits="100")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"):
        _create(harness, "greedy", "mission", budget_microcredits="100.5")
    _create(harness, "first", "mission", budget_microcredits="100")
    _create(harness, "second", "mission")  # no budget of its own: the parent's limits it
    spender = start(harness, ONE, work_order_id="first").run
    [task] = claim(harness)
    _complete_with_cost(harness, task, "99.25")
    mission = _get(harness, "mission").work_order
    assert (mission.spent_microcredits, mission.remaining_microcredits) == ("99.25", "0.75")
    assert _get(harness, "first").work_order.remaining_microcredits == "0.75"
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"):
        _create(harness, "third", "mission", budget_microcredits="1")
    _create(harness, "third", "mission", budget_microcredits="0.75")  # exactly what is left
    assert get_run(harness, spender.run_id).state == run_pb2.RUN_STATE_COMPLETED
    # The parent has 0.75 left: a sibling's attempt declaring a cost of 1 is refused.
    costly = definition(
        "a",
        a=node(output=json_out(), max_cost_microcredits="1", retry={"attempts": 1}),
    )
    starved = start(harness, costly, work_order_id="second").run
    assert claim(harness) == []
    failed = get_run(harness, starved.run_id)
    assert (failed.state, failed.result_reason) == (run_pb2.RUN_STATE_FAILED, "BUDGET_EXCEEDED")


# --- close --------------------------------------------------------------------------------


def test_close_needs_its_work_done_then_admits_nothing(harness: Harness) -> None:
    _tree(harness)
    run = start(harness, ONE, work_order_id="sub").run
    client = harness.client("alice").work_orders
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_DRAINED"):
        client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="sub"))
    [task] = claim(harness)
    complete(harness, task, {"ok": True})
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_NOT_DRAINED"):
        client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="sub"))  # leaf is open
    client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="leaf"))
    closed = client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="sub")).work_order
    assert closed.state == CLOSED and closed.closed_at_ms > 0
    again = client.CloseWorkOrder(pb.CloseWorkOrderRequest(work_order_id="sub")).work_order
    assert again == closed
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CLOSED"):
        start(harness, ONE, work_order_id="sub")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CLOSED"):
        _create(harness, "late", "sub")
    got = _get(harness, "sub")
    assert [(c.state, c.count) for c in got.run_counts] == [("COMPLETED", 1)]


def test_a_hold_on_a_parent_holds_the_registry_commands_of_a_childs_ref(
    harness: Harness,
) -> None:
    _tree(harness)
    r = registered(harness, ref("leaf", "plan"))
    admin = harness.client("alice").admin
    admin.PlaceHold(
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="mission", reason="restoring"
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RESTORE_HOLD"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    admin.ClearHold(
        admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="mission")
    )
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
