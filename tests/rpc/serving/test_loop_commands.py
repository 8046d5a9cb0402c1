"""Issue 40, items 2 and 3: the hot RPCs are coroutines that await the database's writer
thread, so none of them needs a thread of the bounded executor; a command answered is
durable; a command whose write fails gets its own error, the others of its group commit
are unaffected.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.limits import ServingLimits
from praxis_client import error_details
from tests.support.harness import start_server
from tests.support.registry import approve, execute, ref, register_cmd
from tests.support.runtime import definition, json_out, node, states

pytestmark = pytest.mark.backends("sqlite")


def test_hot_rpcs_answer_while_every_executor_thread_is_busy(tmp_path: Path) -> None:
    """With every executor thread taken (as by slow unary calls), a run is started, read,
    claimed, heartbeated, completed and stopped, and a registry command executed: none of
    them waits for a pool thread."""
    h = start_server(tmp_path / "praxis.db", serving=ServingLimits(executor_threads=2))
    epochs = h.epochs()  # GetEpochs runs on the executor: read before it is taken
    release = threading.Event()
    busy = [h.server.executor.submit(release.wait, 60) for _ in range(2)]
    try:
        agent = h.client("agent")
        document = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))
        started = agent.runs.StartRun(
            run_pb2.StartRunRequest(request_id="r1", definition_json=json.dumps(document)),
            timeout=5,
        ).run
        assert agent.runs.GetRun(run_pb2.GetRunRequest(run_id=started.run_id), timeout=5).run
        [task] = agent.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=0
            ),
            timeout=5,
        ).tasks
        beat = agent.tasks.Heartbeat(
            task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=30_000),
            timeout=5,
        )
        assert beat.lease_expires_at_ms > 0
        agent.tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w1",
                result_json=json.dumps({"text": "x"}),
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            ),
            timeout=5,
        )
        stopped = agent.runs.StopRun(
            run_pb2.StopRunRequest(run_id=started.run_id, reason="enough"), timeout=5
        ).run
        assert stopped.state == run_pb2.RUN_STATE_CANCELLED
        command = register_cmd(ref(), "ap-1")
        approve(h, command, "ap-1", epochs=epochs)  # Review, CreateApproval
        executed = execute(h, "alice", "req-reg", command, epochs)
        assert executed.receipt.head_revision == 1
    finally:
        release.set()
        for future in busy:
            future.result(timeout=5)
        h.close()


def test_a_failing_command_of_a_group_commit_gets_its_own_error(tmp_path: Path) -> None:
    """Commands queued together share one COMMIT; one that fails (a foreign attempt, an
    unknown run) is answered with its own code and reason, and the others of the same
    batch commit and answer as if alone."""
    h = start_server(tmp_path / "praxis.db")
    try:
        agent = h.client("agent")
        document = definition("a", a=node(output=json_out()))
        runs = [
            agent.runs.StartRun(
                run_pb2.StartRunRequest(request_id=f"r{i}", definition_json=json.dumps(document))
            ).run.run_id
            for i in range(8)
        ]
        tasks = list(
            agent.tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id="w1", models=["echo"], max_tasks=8, lease_ms=30_000, wait_ms=0
                )
            ).tasks
        )
        assert len(tasks) == 8
        calls = [
            agent.tasks.CompleteTask.future(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w1",
                    result_json=json.dumps({"text": "x"}),
                    effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                )
            )
            for task in tasks
        ]
        strays = [
            agent.runs.StopRun.future(run_pb2.StopRunRequest(run_id=f"run-none-{i}", reason="x"))
            for i in range(4)
        ]
        for call in calls:
            assert not call.result(timeout=10).replayed
        for stray in strays:
            with pytest.raises(grpc.RpcError) as refused:
                stray.result(timeout=10)
            assert refused.value.code() == grpc.StatusCode.NOT_FOUND
            assert error_details(refused.value).reason == "RUN_NOT_FOUND"
        for run_id in runs:
            run = agent.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
            assert run.state == run_pb2.RUN_STATE_COMPLETED, states(run)
    finally:
        h.close()
