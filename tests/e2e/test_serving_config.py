"""``praxis serve`` as documented: one process per core by default, and the ``serving``
limits of ``config.json`` applied (issue 8; README "Useful flags", docs/operations.md
"Serving: processes, streams and limits")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import task_pb2, task_pb2_grpc
from praxis_client import error_details
from tests.support.harness import token_of
from tests.support.server_process import ServerProcess, free_port, track, write_config


def test_serve_runs_one_process_per_core_by_default(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    parent = track(
        subprocess.Popen(
            [
                *(sys.executable, "-m", "praxis.serve.cli", "serve", "--config", str(config)),
                *("--listen", "127.0.0.1:0"),
            ],  # no --processes
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    try:
        assert parent.stdout is not None
        line = json.loads(parent.stdout.readline())
        assert line["processes"] == len(os.sched_getaffinity(0)), line
        if line["processes"] > 1:  # the parent supervises that many children
            children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
            assert len(children.read_text().split()) == line["processes"]
    finally:
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=30) == 0


def _claim(worker: str) -> task_pb2.ClaimTasksRequest:
    return task_pb2.ClaimTasksRequest(
        worker_id=worker, models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
    )


def test_the_config_files_serving_limits_apply(tmp_path: Path) -> None:
    config = write_config(
        tmp_path, serving={"max_long_polls": 5, "max_long_polls_per_principal": 1}
    )
    server = ServerProcess(config, free_port())
    server.start()
    metadata = [("authorization", f"Bearer {token_of('agent')}")]
    try:
        with grpc.insecure_channel(server.address) as channel:
            tasks = task_pb2_grpc.TaskServiceStub(channel)
            waiting = tasks.ClaimTasks.future(_claim("w1"), metadata=metadata)
            time.sleep(0.3)  # it waits now
            with pytest.raises(grpc.RpcError) as refused:
                tasks.ClaimTasks(_claim("w2"), metadata=metadata)
            details = error_details(refused.value)
            assert (details.code, details.reason) == (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "LONG_POLL_LIMIT_REACHED",
            )
            assert "principal: 1" in details.message
            waiting.cancel()
    finally:
        server.terminate()


def test_a_bad_serving_limit_refuses_to_start(tmp_path: Path) -> None:
    config = write_config(tmp_path, serving={"max_streams": 0})
    result = subprocess.run(
        [sys.executable, "-m", "praxis.serve.cli", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "max_streams" in result.stderr
