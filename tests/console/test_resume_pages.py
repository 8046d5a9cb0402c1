"""Resuming from the console over real HTTP: the form is a state change like any other
(CSRF), and the server's refusal is shown with its reason, nothing resumed."""

from __future__ import annotations

import json

from aiws.engine.v1 import run_pb2
from tests.support.console import Console, csrf_of, page

PLAN = {
    "version": 1,
    "nodes": {"only": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:only"},
}


def _started(console: Console, request_id: str) -> str:
    started = console.harness.client("alice").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id, definition_json=json.dumps(PLAN), input_json='"x"'
        )
    )
    return str(started.run.run_id)


def _state(console: Console, run_id: str) -> str:
    run = console.harness.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    return str(run_pb2.RunState.Name(run.state))


def test_a_resume_without_the_csrf_token_is_refused(console: Console) -> None:
    run_id = _started(console, "resume-pages-csrf")
    console.harness.client("alice").runs.StopRun(
        run_pb2.StopRunRequest(run_id=run_id, reason="halt")
    )
    client = console.signed_in("alice")
    refused = client.post(f"/runs/{run_id}/resume", data={"reason": "again"})
    assert refused.status_code == 403
    assert _state(console, run_id) == "RUN_STATE_CANCELLED"


def test_a_run_that_cannot_resume_shows_the_servers_reason(console: Console) -> None:
    run_id = _started(console, "resume-pages-running")  # still running: nothing to resume
    client = console.signed_in("alice")
    form = {"csrf_token": csrf_of(page(client, "/runs")), "reason": "again", "request_id": "r1"}
    refused = client.post(f"/runs/{run_id}/resume", data=form)
    assert refused.status_code == 409, refused.text[:500]
    assert "RUN_NOT_RESUMABLE" in refused.text
    assert _state(console, run_id) in ("RUN_STATE_RUNNING", "RUN_STATE_AWAITING_NODES")
    missing = client.get(f"/runs/{run_id}/resume")  # a review needs its reason
    assert missing.status_code == 400
