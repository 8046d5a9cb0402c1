"""Governed runs: binding a head, dynamic revisions, and work-order controls."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, registry_pb2, run_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, proposed, ref
from tests.support.runtime import (
    GOVERNED_PLAN,
    claim,
    complete,
    get_run,
    governed,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def activate(h: Harness, proposal_id: str, document: dict[str, object], base: int = 1) -> None:
    proposed(h, ref(), proposal_id, base, document)
    command = activate_cmd(ref(), proposal_id, base, f"ap-{proposal_id}")
    approve(h, command, f"ap-{proposal_id}")
    execute(h, "alice", f"act-{proposal_id}", command)


def test_starting_a_governed_run_binds_the_head(harness: Harness) -> None:
    run = governed(harness)
    assert run.ref.run_id == "run-1" and run.revision == 1
    registry = harness.client("alice").registry
    head = registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.execution_binding == registry_pb2.EXECUTION_BINDING_BOUND
    assert head.bound_run_id == run.run_id
    history = registry.ListHistory(registry_pb2.ListHistoryRequest(ref=ref())).events
    assert history[-1].kind == registry_pb2.HISTORY_EVENT_KIND_BOUND
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REF_ALREADY_RUN"):  # a ref runs once
        harness.client("agent").runs.StartRun(
            run_pb2.StartRunRequest(request_id="another", ref=ref())
        )


def test_an_activation_applies_to_nodes_not_yet_dispatched(harness: Harness) -> None:
    run = governed(harness)
    [research] = claim(harness)
    revised = json.loads(json.dumps(GOVERNED_PLAN))
    revised["nodes"]["report"]["agent"]["system_prompt"] = "cite sources"
    activate(harness, "p1", revised)
    current = get_run(harness, run.run_id)
    assert current.revision == 2
    by_uid = {n.node_uid: n for n in current.nodes}
    assert (by_uid["research"].revision, by_uid["report"].revision) == (1, 2)
    complete(harness, research, {})
    [draft] = claim(harness)
    complete(harness, draft, {})
    [report] = claim(harness)
    assert report.agent.system_prompt == "cite sources" and report.revision == 2
    complete(harness, report, "done")
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_an_activation_that_changes_a_dispatched_node_is_rejected(harness: Harness) -> None:
    run = governed(harness)
    claim(harness)  # research is dispatched
    revised = json.loads(json.dumps(GOVERNED_PLAN))
    revised["nodes"]["research"]["agent"]["system_prompt"] = "too late"
    proposed(harness, ref(), "p1", 1, revised)
    command = activate_cmd(ref(), "p1", 1, "ap-p1")
    approve(harness, command, "ap-p1")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "REVISION_CONFLICT"):
        execute(harness, "alice", "act-p1", command)
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.revision == 1  # the activation rolled back entirely
    assert get_run(harness, run.run_id).revision == 1


def test_canceling_the_work_order_stops_its_runs(harness: Harness) -> None:
    run = governed(harness)
    [task] = claim(harness)
    harness.client("alice").admin.CancelWorkOrder(
        admin_pb2.CancelWorkOrderRequest(work_order_id="wo-1", reason="budget cut")
    )
    stopping = get_run(harness, run.run_id)
    assert stopping.state == run_pb2.RUN_STATE_CANCELLING  # its attempt was asked to stop
    assert "budget cut" in stopping.result_error
    complete(harness, task, {})  # the worker's report is heard and settles it
    stopped = get_run(harness, run.run_id)
    assert stopped.state == run_pb2.RUN_STATE_CANCELLED
    assert stopped.result_reason == "WORK_ORDER_CANCELED"


def test_a_paused_work_order_dispatches_nothing(harness: Harness) -> None:
    run = governed(harness)
    admin = harness.client("alice").admin
    admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1"))
    assert claim(harness) == []
    admin.ResumeWorkOrder(admin_pb2.ResumeWorkOrderRequest(work_order_id="wo-1"))
    [task] = claim(harness)
    assert task.run_id == run.run_id
    assert states(get_run(harness, run.run_id))["research"] == "RUNNING"
