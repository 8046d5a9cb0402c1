"""Work orders contain their runs (issue 23, item 2): every run belongs to one work order,
whose controls, holds and grants apply to its ad hoc runs as to its governed ones."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, run_pb2, task_pb2
from tests.support.execution import create_contract
from tests.support.harness import Harness, expect_error
from tests.support.runtime import (
    claim,
    complete,
    definition,
    fail,
    get_run,
    governed,
    json_out,
    node,
    start,
)

pytestmark = pytest.mark.backends("sqlite", "postgres")

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))


def _pause(h: Harness, work_order_id: str) -> None:
    h.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id=work_order_id, reason="hold on")
    )


def _resume(h: Harness, work_order_id: str) -> None:
    h.client("alice").admin.ResumeWorkOrder(
        admin_pb2.ResumeWorkOrderRequest(work_order_id=work_order_id)
    )


def _cancel(h: Harness, work_order_id: str, reason: str = "mission over") -> None:
    h.client("alice").admin.CancelWorkOrder(
        admin_pb2.CancelWorkOrderRequest(work_order_id=work_order_id, reason=reason)
    )


def _heartbeat(h: Harness, task: task_pb2.Task) -> task_pb2.HeartbeatResponse:
    return h.client("agent").tasks.Heartbeat(  # type: ignore[no-any-return]
        task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=30_000)
    )


# --- belonging -------------------------------------------------------------------------


def test_an_ad_hoc_run_belongs_to_its_contracts_work_order(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    run = start(harness, CHAIN, contract_id="c-x", labels={"team": "search"}).run
    assert (run.work_order_id, run.started_by) == ("wo-x", "agent")
    assert dict(run.labels) == {"team": "search"}
    again = get_run(harness, run.run_id)
    assert (again.work_order_id, again.started_by, dict(again.labels)) == (
        "wo-x",
        "agent",
        {"team": "search"},
    )
    assert not again.HasField("ref")  # still an ad hoc run


def test_an_ad_hoc_run_may_name_its_work_order(harness: Harness) -> None:
    run = start(harness, CHAIN, work_order_id="wo-named").run
    assert run.work_order_id == "wo-named"


def test_an_ad_hoc_run_naming_nothing_belongs_to_the_default_work_order(
    harness: Harness,
) -> None:
    run = start(harness, CHAIN).run
    assert run.work_order_id == "default"
    _pause(harness, "default")
    assert claim(harness) == []
    _resume(harness, "default")
    [task] = claim(harness)
    assert task.run_id == run.run_id


def test_a_governed_run_belongs_to_its_refs_work_order(harness: Harness) -> None:
    run = governed(harness)
    assert (run.work_order_id, run.ref.work_order_id, run.started_by) == ("wo-1", "wo-1", "agent")


def test_a_work_order_and_a_contract_that_disagree_are_refused(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WORK_ORDER_MISMATCH"):
        start(harness, CHAIN, contract_id="c-x", work_order_id="wo-y")
    run = start(harness, CHAIN, contract_id="c-x", work_order_id="wo-x").run
    assert run.work_order_id == "wo-x"


def test_a_ref_and_a_work_order_that_disagree_are_refused(harness: Harness) -> None:
    governed(harness)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WORK_ORDER_MISMATCH"):
        harness.client("agent").runs.StartRun(
            run_pb2.StartRunRequest(
                request_id="other-wo",
                ref=common_pb2.WorkflowRef(work_order_id="wo-1", run_id="run-1"),
                work_order_id="wo-2",
            )
        )


def test_an_invalid_work_order_id_is_refused(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        start(harness, CHAIN, work_order_id="bad id")


# --- authorisation at the work order's scope ---------------------------------------------


def test_run_start_is_authorised_at_the_contracts_work_order(harness: Harness) -> None:
    create_contract(harness, "c-b", work_order_id="wo-b")  # outside scoped's wo-a*
    create_contract(harness, "c-a", work_order_id="wo-a1")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, CHAIN, contract_id="c-b", principal="scoped")
    run = start(harness, CHAIN, contract_id="c-a", principal="scoped").run
    assert (run.work_order_id, run.started_by) == ("wo-a1", "scoped")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, CHAIN, principal="scoped")  # the default work order is outside too
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, CHAIN, principal="scoped", work_order_id="wo-b")


def test_an_unknown_contract_is_not_an_oracle(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, CHAIN, contract_id="c-none", principal="scoped")
    with expect_error(grpc.StatusCode.NOT_FOUND, "CONTRACT_NOT_FOUND"):
        start(harness, CHAIN, contract_id="c-none")  # agent: a grant on every work order


def test_reads_are_authorised_at_the_runs_work_order(harness: Harness) -> None:
    create_contract(harness, "c-b", work_order_id="wo-b")
    outside = start(harness, CHAIN, contract_id="c-b").run
    inside = start(harness, CHAIN, work_order_id="wo-a2").run
    scoped = harness.client("scoped").runs
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        scoped.GetRun(run_pb2.GetRunRequest(run_id=outside.run_id))
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        scoped.StopRun(run_pb2.StopRunRequest(run_id=outside.run_id, reason="no"))
    assert scoped.GetRun(run_pb2.GetRunRequest(run_id=inside.run_id)).run.work_order_id == "wo-a2"
    listed = scoped.ListRuns(run_pb2.ListRunsRequest(work_order_id="wo-a2")).runs
    assert [r.run_id for r in listed] == [inside.run_id]
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        scoped.ListRuns(run_pb2.ListRunsRequest(work_order_id="wo-b"))


# --- controls ----------------------------------------------------------------------------


def test_pausing_a_work_order_stops_dispatch_of_its_ad_hoc_runs(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    run = start(harness, CHAIN, contract_id="c-x").run
    _pause(harness, "wo-x")
    assert claim(harness) == []  # paused before its first dispatch
    _resume(harness, "wo-x")
    [first] = claim(harness)
    _pause(harness, "wo-x")
    beat = _heartbeat(harness, first)
    assert beat.paused and not beat.cancelled and beat.lease_expires_at_ms > 0
    complete(harness, first, {"ok": True})  # the current attempt may finish
    assert claim(harness) == []  # the next one is not dispatched
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_RUNNING
    _resume(harness, "wo-x")
    [second] = claim(harness)
    assert (second.run_id, second.node_id) == (run.run_id, "b")
    assert not _heartbeat(harness, second).paused


def test_cancelling_a_work_order_ends_its_ad_hoc_runs_with_a_reason(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    create_contract(harness, "c-o", work_order_id="wo-other")
    run = start(harness, CHAIN, contract_id="c-x").run
    other = start(harness, CHAIN, contract_id="c-o").run
    tasks = {task.run_id: task for task in claim(harness)}
    _cancel(harness, "wo-x", "mission over")
    ending = get_run(harness, run.run_id)
    assert ending.state == run_pb2.RUN_STATE_CANCELLING  # its attempt is asked to stop
    assert ending.result_reason == "WORK_ORDER_CANCELED"
    assert "mission over" in ending.result_error
    assert get_run(harness, other.run_id).state == run_pb2.RUN_STATE_RUNNING
    assert _heartbeat(harness, tasks[run.run_id]).cancelled
    fail(harness, tasks[run.run_id], "stopped")
    ended = get_run(harness, run.run_id)
    assert ended.state == run_pb2.RUN_STATE_CANCELLED
    assert ended.result_reason == "WORK_ORDER_CANCELED"


def test_a_run_of_a_cancelled_work_order_is_not_resumed(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    run = start(harness, CHAIN, contract_id="c-x").run
    _cancel(harness, "wo-x")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CANCELED"):
        harness.client("agent").runs.ResumeRun(
            run_pb2.ResumeRunRequest(run_id=run.run_id, request_id="again", reason="retry")
        )


def test_stopping_a_run_gives_no_work_order_reason(harness: Harness) -> None:
    run = start(harness, CHAIN).run
    stopped = harness.client("agent").runs.StopRun(
        run_pb2.StopRunRequest(run_id=run.run_id, reason="enough")
    )
    assert stopped.run.state == run_pb2.RUN_STATE_CANCELLED and not stopped.run.result_reason


def test_start_under_a_cancelled_work_order_is_refused(harness: Harness) -> None:
    create_contract(harness, "c-x", work_order_id="wo-x")
    _cancel(harness, "wo-x")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CANCELED"):
        start(harness, CHAIN, contract_id="c-x")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORK_ORDER_CANCELED"):
        start(harness, CHAIN, work_order_id="wo-x")


def test_start_under_a_paused_work_order_waits_for_resume(harness: Harness) -> None:
    _pause(harness, "wo-p")
    run = start(harness, CHAIN, work_order_id="wo-p").run
    assert run.state == run_pb2.RUN_STATE_RUNNING
    assert claim(harness) == []
    _resume(harness, "wo-p")
    [task] = claim(harness)
    assert task.run_id == run.run_id


def test_a_hold_blocks_starting_an_ad_hoc_run(harness: Harness) -> None:
    admin = harness.client("alice").admin
    admin.PlaceHold(
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-h", reason="restoring"
        )
    )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RESTORE_HOLD"):
        start(harness, CHAIN, work_order_id="wo-h")
    start(harness, CHAIN, work_order_id="wo-free")  # another work order is not held
    admin.ClearHold(
        admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-h")
    )
    assert start(harness, CHAIN, work_order_id="wo-h").run.work_order_id == "wo-h"


# --- labels ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("labels", "why"),
    [
        ({f"k{i}": "v" for i in range(17)}, "more than 16 labels"),
        ({"bad key": "v"}, "a key that is not an identifier"),
        ({"k" * 64: "v"}, "a key over 63 characters"),
        ({"": "v"}, "an empty key"),
        ({"k": "v" * 257}, "a value over 256 bytes"),
        ({"k": "é" * 129}, "a value over 256 bytes of UTF-8"),
    ],
)
def test_labels_past_their_bounds_are_refused(
    harness: Harness, labels: dict[str, str], why: str
) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "LABEL_INVALID"):
        start(harness, CHAIN, labels=labels)
    assert harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs == [], why


def test_labels_at_their_bounds_are_kept(harness: Harness) -> None:
    labels = {f"k{i}": "v" for i in range(15)} | {"k" * 63: "é" * 128}
    run = start(harness, CHAIN, labels=labels).run
    assert dict(get_run(harness, run.run_id).labels) == labels


def test_a_request_id_with_other_labels_is_another_request(harness: Harness) -> None:
    start(harness, CHAIN, request_id="same", labels={"a": "1"})
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED"):
        start(harness, CHAIN, request_id="same", labels={"a": "2"})
    assert not start(harness, CHAIN, request_id="same", labels={"a": "1"}).created
