"""Retention against a real server process: its sweeper archives finished runs past the
configured keep; ``praxis admin archive list|verify`` reads and checks the archive."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

import grpc

from aiws.engine.testing.v1 import clock_pb2
from aiws.engine.v1 import run_pb2, task_pb2
from praxis.core.retention import DAY_MS
from praxis_client import connect, error_details
from tests.support.harness import T0, token_of
from tests.support.runtime import definition, json_out, node
from tests.support.server_process import ServerProcess, free_port, write_config

SINGLE = definition("a", a=node(output=json_out()))


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "praxis.serve.cli", "admin", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_server_archives_and_the_cli_verifies(tmp_path: Path) -> None:
    config = write_config(
        tmp_path / "data",
        retention={"keep_finished_ms": 7 * DAY_MS, "interval_ms": 1000, "batch_runs": 2},
    )
    server = ServerProcess(config, free_port(), "--test-clock", str(T0))
    server.start()
    client = connect(server.address, token_of("agent"))
    run_ids = []
    for index in range(5):
        run = client.runs.StartRun(
            run_pb2.StartRunRequest(request_id=f"r-{index}", definition_json=json.dumps(SINGLE))
        ).run
        run_ids.append(run.run_id)
    while True:  # drive every run to its end
        tasks = client.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w", models=["echo"], max_tasks=50, lease_ms=30_000
            )
        ).tasks
        if not tasks:
            break
        for task in tasks:
            client.tasks.CompleteTask(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id, worker_id="w", result_json='{"ok": true}',
                    effect=1,
                )
            )  # fmt: skip
    states = {client.runs.GetRun(run_pb2.GetRunRequest(run_id=r)).run.state for r in run_ids}
    assert states == {run_pb2.RUN_STATE_COMPLETED}
    client.test_clock.Advance(clock_pb2.AdvanceRequest(by_ms=7 * DAY_MS + 1))
    deadline = time.monotonic() + 30
    archived: dict[str, dict[str, str]] = {}
    while len(archived) < len(run_ids) and time.monotonic() < deadline:
        for run_id in run_ids:
            try:
                client.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), timeout=5)
            except grpc.RpcError as error:
                details = error_details(error)
                assert (details.code, details.reason) == (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "RUN_ARCHIVED",
                )
                archived[run_id] = details.metadata
        time.sleep(0.2)
    assert set(archived) == set(run_ids)  # in batches of 2, by the server's own sweeper
    client.close()

    listed = admin("archive", "list", "--config", str(config))
    assert listed.returncode == 0, listed.stderr
    files = json.loads(listed.stdout)["files"]
    assert [f["name"] for f in files] == [archived[run_ids[0]]["archive"]]
    assert files[0]["lines"] == 5
    verified = admin("archive", "verify", "--config", str(config))  # the server still runs
    assert verified.returncode == 0, verified.stderr
    result = json.loads(verified.stdout)
    assert result["ok"] and result["files"][0]["verified"] == 5
    assert server.terminate() == 0

    # An archive whose rows were changed fails verification.
    path = tmp_path / "data" / "archive" / files[0]["name"]
    lines = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    lines[0]["tables"]["runs"][0]["result_json"] = '{"forged": true}'
    path.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    forged = admin("archive", "verify", "--config", str(config), files[0]["name"])
    assert forged.returncode == 1
    assert forged.stderr.startswith("error: ARCHIVE_INVALID:")
    assert "do not match its digest" in json.loads(forged.stdout)["files"][0]["problems"][0]
