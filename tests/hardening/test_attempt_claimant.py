"""Issue 13 item 1: an attempt is bound to the principal whose claim leased it."""

from __future__ import annotations

import json

import grpc

from aiws.engine.v1 import common_pb2, task_pb2
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, get_run, node, start


def test_another_principal_cannot_heartbeat_complete_or_fail(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    (task,) = claim(harness)  # leased by "agent" as worker w1
    rogue = harness.client("rogue").tasks  # another agent with every grant, same worker id
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ATTEMPT_NOT_YOURS"):
        rogue.Heartbeat(
            task_pb2.HeartbeatRequest(
                attempt_id=task.attempt_id, worker_id="w1", lease_ms=3_600_000
            )
        )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ATTEMPT_NOT_YOURS"):
        rogue.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w1",
                result_json=json.dumps("forged"),
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ATTEMPT_NOT_YOURS"):
        rogue.FailTask(
            task_pb2.FailTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w1",
                error="forged",
                effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
            )
        )
    settled = rogue.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[
                task_pb2.Settlement(
                    complete=task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id,
                        worker_id="w1",
                        result_json=json.dumps("forged"),
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )
            ]
        )
    )
    (result,) = settled.results
    assert result.WhichOneof("result") == "error"
    assert result.error.code == grpc.StatusCode.PERMISSION_DENIED.value[0]
    assert result.error.reason == "ATTEMPT_NOT_YOURS"
    # Nothing of the forgeries was stored: the lease is unchanged and the claimant settles.
    assert get_run(harness, run.run_id).nodes[0].attempt_id == task.attempt_id
    assert not complete(harness, task, "real").replayed
    assert json.loads(get_run(harness, run.run_id).result_json) == "real"


def test_claimant_settles_through_settle_tasks_claim(harness: Harness) -> None:
    """A task claimed through SettleTasks is bound to that caller too."""
    start(harness, definition("a", a=node()))
    response = harness.client("rogue").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            claim=task_pb2.ClaimTasksRequest(
                worker_id="w9", models=["echo"], max_tasks=1, lease_ms=30_000
            )
        )
    )
    (task,) = response.tasks
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ATTEMPT_NOT_YOURS"):
        complete(harness, task, "stolen", worker="w9")  # as "agent"
    harness.client("rogue").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w9",
            result_json=json.dumps("mine"),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )
