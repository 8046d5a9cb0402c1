"""The "write a worker" snippet of clients/python/README.md runs as written."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc

from aiws.engine.v1 import run_pb2
from praxis_client import error_details
from tests.support.harness import Harness, token_of
from tests.support.paths import ROOT
from tests.support.runtime import TERMINAL, definition, get_run, json_out, node

README = ROOT / "clients" / "python" / "README.md"
# The README names this file in the marker; any path is accepted, so a move of this test
# does not fail it.
MARKER = r"<!-- worker-snippet: executed by \S+ -->"


def snippet() -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(MARKER + r"\s*```python\n(.*?)```", text, re.DOTALL)
    assert found, "the worker snippet is missing from the README"
    return found.group(1)


def start_snippet() -> str:
    """The README's "Start a run and wait for it" block."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"## Start a run and wait for it\s*```python\n(.*?)```", text, re.DOTALL)
    assert found, "the start-a-run snippet is missing from the README"
    return found.group(1)


def start(h: Harness, run_input: object, request_id: str) -> str:
    return start_run(h, run_input, request_id)


def start_run(h: Harness, run_input: object, request_id: str) -> str:
    document = definition("a", a=node(output=json_out(), model="summarise"))
    request = run_pb2.StartRunRequest(
        request_id=request_id,
        definition_json=json.dumps(document),
        input_json=json.dumps(run_input),
    )
    deadline = time.monotonic() + 20
    while True:  # the engine learns the model from the worker's first claim
        try:
            return str(h.client("agent").runs.StartRun(request).run.run_id)
        except grpc.RpcError as error:
            if error_details(error).reason != "MODEL_UNKNOWN" or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def ended(h: Harness, run_id: str) -> run_pb2.Run:
    deadline = time.monotonic() + 20
    while (run := get_run(h, run_id)).state not in TERMINAL:
        assert time.monotonic() < deadline, f"run did not end: {run}"
        time.sleep(0.05)
    return run


def test_the_readme_worker_runs_as_written(harness: Harness, tmp_path: Path) -> None:
    program = tmp_path / "worker.py"
    program.write_text(snippet(), encoding="utf-8")
    env = {**os.environ, "PRAXIS_ADDRESS": harness.address, "PRAXIS_TOKEN": token_of("agent")}
    process = subprocess.Popen(
        [sys.executable, str(program)], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        good = ended(harness, start_run(harness, {"text": "hello"}, "readme-good"))
        assert good.state == run_pb2.RUN_STATE_COMPLETED
        assert json.loads(good.result_json) == {"summary": "hello"}
        bad = ended(harness, start_run(harness, {}, "readme-bad"))
        assert bad.state == run_pb2.RUN_STATE_FAILED and bad.nodes[0].attempts == 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_snippet_is_the_handler_plus_at_most_ten_lines() -> None:
    lines = [line for line in snippet().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.startswith("def handle"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    assert len(lines) - (end - start) <= 10


def test_the_readme_run_completes_with_the_readme_worker(harness: Harness, tmp_path: Path) -> None:
    """The README's own definition and its worker agree: the run completes with the
    worker's result (the node's output contract accepts what the worker returns)."""
    program = tmp_path / "worker.py"
    program.write_text(snippet(), encoding="utf-8")
    env = {**os.environ, "PRAXIS_ADDRESS": harness.address, "PRAXIS_TOKEN": token_of("agent")}
    process = subprocess.Popen(
        [sys.executable, str(program)], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        start(harness, {"text": "warm-up"}, "readme-warm-up")  # the engine learns the model
        code = start_snippet().replace('"127.0.0.1:50051"', repr(harness.address))
        code = code.replace('"..."', '"the README run"')
        printed: list[object] = []
        namespace = {"token": token_of("agent"), "print": printed.append}
        exec(compile(code, "README.md", "exec"), namespace)  # the block as written
        assert printed == [{"summary": "the README run"}]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
