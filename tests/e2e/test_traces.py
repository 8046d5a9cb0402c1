"""Traces from a real ``praxis serve --processes 2`` subprocess, across a restart: the
run started with a caller's ``traceparent`` is one trace at a test OTLP receiver."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.observability.tracing import parse_traceparent
from praxis_client import connect
from praxis_client.worker import Worker
from tests.support.harness import token_of
from tests.support.server_process import ServerProcess, free_port, write_config
from tests.support.traces import (
    CALLER_TRACE,
    FANOUT_UIDS,
    check_one_trace,
    fanout,
    otel_env,
    receiving,
    start_traced,
    traced_handler,
    wait_ended,
)


def test_a_run_is_one_trace_across_processes_and_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as (receiver, endpoint):
        for key, value in otel_env(endpoint).items():
            monkeypatch.setenv(key, value)
        server = ServerProcess(write_config(tmp_path), free_port(), "--processes", "2")
        server.start(60)
        client = connect(server.address, token_of("agent"))
        try:
            run_id = start_traced(client.runs, fanout())
            (task,) = client.tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id="w-1", models=["echo"], max_tasks=1, lease_ms=60_000
                )
            ).tasks
            parent = parse_traceparent(task.traceparent)
            assert task.node_uid == "split" and parent is not None and parent.sampled
            assert f"{parent.trace_id:032x}" == CALLER_TRACE
            claimed_ms = time.time() * 1000
            # The split attempt's span is open across a restart of every process.
            assert server.terminate() == 0
            server.start(60)
            client.tasks.CompleteTask(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w-1",
                    result_json='{"items": [1, 2, 3]}',
                    effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                )
            )
            provider, traced = traced_handler(endpoint)
            worker = Worker(client, ["echo"], traced, concurrency=2, poll_ms=200)
            worker.start()
            try:
                run = wait_ended(client.runs, run_id)
                assert run.state == run_pb2.RUN_STATE_COMPLETED
            finally:
                worker.stop(10)
                provider.shutdown()
        finally:
            client.close()
            assert server.terminate() == 0  # flushes every process's batch processor
        check_one_trace(receiver, run_id, FANOUT_UIDS, handled=len(FANOUT_UIDS) - 1)
        (split,) = [s for s in receiver.named("praxis.attempt ") if s.name.endswith("split")]
        assert split.start_ns <= claimed_ms * 1_000_000 < split.end_ns
        assert f"{split.span_id}" == f"{parent.span_id:016x}"
