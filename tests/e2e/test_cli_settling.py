"""`praxis runs stop` and `praxis runs show` of a run whose stop waits for its worker's
report (issue 37, items 1 and 2), at 80 columns, against a real server."""

from __future__ import annotations

import json

import pytest

from aiws.engine.v1 import common_pb2, task_pb2
from praxis_client import connect
from tests.support.cli_shell import Shell
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node


def test_a_stopped_run_says_what_it_waits_for_until_the_worker_reports(
    shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    (shell.home / "one.json").write_text(
        json.dumps(definition("a", a=node(output=json_out(), effects="external")))
    )
    run_id = str(shell.ok("runs", "start", "-f", "one.json", "--json").json()["run"]["run_id"])
    worker = connect(shell.address, token_of("agent"))
    [task] = worker.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=1, lease_ms=60_000)
    ).tasks
    stopped = shell.ok("runs", "stop", run_id, "--reason", "wrong input")
    assert f"run {run_id} CANCELLING" in stopped.out, stopped.out
    assert "1 attempt(s) asked to stop" in stopped.out, stopped.out
    assert all(len(line) <= 80 for line in stopped.out.splitlines()), stopped.out
    shown = shell.ok("runs", "show", run_id)
    assert "CANCELLING" in shown.out and "STOPPING" in shown.out, shown.out
    [waiting] = [line for line in shown.out.splitlines() if line.startswith("waiting for:")]
    assert "1 attempt(s) asked to stop" in waiting and len(waiting) <= 80, shown.out
    listed = shell.ok("runs", "list", "--state", "cancelling", "--json")
    assert run_id in listed.out, listed.out
    worker.tasks.FailTask(
        task_pb2.FailTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            error="stopped before the call",
            effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
        )
    )
    ended = shell.ok("runs", "show", run_id)
    assert "CANCELLED" in ended.out and "waiting for" not in ended.out, ended.out
