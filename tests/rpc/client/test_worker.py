"""The Python worker helper: the user writes only the handler."""

from __future__ import annotations

import threading
import time

from aiws.engine.v1 import run_pb2
from praxis_client.worker import PermanentError, Task, Worker
from tests.support.harness import Harness
from tests.support.runtime import definition, diamond, get_run, node, start


def wait_ended(h: Harness, run_id: str, timeout_s: float = 10) -> run_pb2.Run:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        run = get_run(h, run_id)
        if run.state in (
            run_pb2.RUN_STATE_COMPLETED,
            run_pb2.RUN_STATE_FAILED,
            run_pb2.RUN_STATE_CANCELLED,
        ):
            return run
        time.sleep(0.02)
    raise AssertionError("run did not end")


def test_worker_runs_a_diamond_and_stops_cleanly(harness: Harness) -> None:
    def handle(task: Task) -> object:
        return {"node": task.node_uid, "saw": task.input}

    worker = Worker(harness.client("agent"), ["echo"], handle, concurrency=2, poll_ms=200)
    worker.start()
    try:
        run = start(harness, diamond(), {"q": 1}).run
        done = wait_ended(harness, run.run_id)
        assert done.state == run_pb2.RUN_STATE_COMPLETED
    finally:
        worker.stop()
    assert worker.completed == 4  # booked by the time stop() has drained
    assert worker._thread is not None and not worker._thread.is_alive()


def test_handler_errors_fail_the_task(harness: Harness) -> None:
    def handle(task: Task) -> object:
        raise PermanentError("no way")

    worker = Worker(harness.client("agent"), ["echo"], handle, poll_ms=200).start()
    try:
        run = start(harness, definition("a", a=node())).run
        done = wait_ended(harness, run.run_id)
        assert done.state == run_pb2.RUN_STATE_FAILED
        assert "PermanentError: no way" in done.result_error
        assert done.nodes[0].attempts == 1
    finally:
        worker.stop()


def test_heartbeats_keep_long_tasks_alive_and_report_stop(harness: Harness) -> None:
    started = threading.Event()
    seen_cancel = threading.Event()

    def handle(task: Task) -> object:
        started.set()
        if task.cancelled.wait(10):
            seen_cancel.set()
        return "too late"

    worker = Worker(harness.client("agent"), ["echo"], handle, lease_ms=1_000, poll_ms=200)
    worker.start()
    try:
        run = start(harness, definition("a", a=node())).run
        assert started.wait(5)
        harness.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
        assert seen_cancel.wait(5)
    finally:
        worker.stop()
    # What the cancelled handler returned is heard: the stop is settled by the report.
    assert worker.completed == 1
    ended = get_run(harness, run.run_id)
    assert ended.state == run_pb2.RUN_STATE_CANCELLED
    assert ended.nodes[0].state == run_pb2.NODE_STATE_DONE
