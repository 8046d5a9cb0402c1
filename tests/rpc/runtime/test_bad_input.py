"""Bad input to RunService and TaskService: each refused with its code and reason."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis_client import error_details
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, json_out, node, start

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def test_unknown_run(harness: Harness) -> None:
    runs = harness.client("agent").runs
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        runs.GetRun(run_pb2.GetRunRequest(run_id="run_missing"))
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        runs.StopRun(run_pb2.StopRunRequest(run_id="run_missing"))
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        list(runs.WatchRun(run_pb2.WatchRunRequest(run_id="run_missing")))
    with expect_error(INVALID, "IDENTIFIER_INVALID"):
        runs.GetRun(run_pb2.GetRunRequest(run_id="bad id"))


def test_malformed_definition_reports_every_violation(harness: Harness) -> None:
    document = definition(
        "d",
        a=node(output={"type": "text"}),
        b=node("node:a", ("a",)),
        c=node("run_input", ("a",)),
        **{"x.y": node()},
    )
    with pytest.raises(grpc.RpcError) as caught:
        start(harness, document)
    details = error_details(caught.value)
    assert (details.code, details.reason) == (INVALID, "DEFINITION_INVALID")
    fields = {field for field, _ in details.field_violations}
    assert {
        "definition_json.output.from",
        "definition_json.nodes.a.agent.output",
        "definition_json.nodes.c.depends_on",
        "definition_json.nodes.x.y",
    } <= fields


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "DOCUMENT_MALFORMED"),
        ('{"version": 1, "version": 1}', "DOCUMENT_DUPLICATE_KEY"),
        ('{"version": 1.5}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ("[]", "DEFINITION_INVALID"),
        ('{"version": 2, "nodes": {}, "output": {"from": "node:a"}}', "DEFINITION_INVALID"),
    ],
)
def test_definition_documents_are_parsed_strictly(harness: Harness, text: str, reason: str) -> None:
    with expect_error(INVALID, reason):
        harness.client("agent").runs.StartRun(
            run_pb2.StartRunRequest(request_id="r1", definition_json=text)
        )


def test_start_needs_a_source_and_a_request_id(harness: Harness) -> None:
    runs = harness.client("agent").runs
    with expect_error(INVALID, "FIELD_REQUIRED"):
        runs.StartRun(run_pb2.StartRunRequest(request_id="r1"))
    with expect_error(INVALID, "FIELD_REQUIRED"):
        runs.StartRun(run_pb2.StartRunRequest(definition_json="{}"))


def test_unknown_model_lists_the_known_models(harness: Harness) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        start(harness, definition("a", a=node(model="gpt-9")))
    details = error_details(caught.value)
    assert (details.code, details.reason) == (INVALID, "MODEL_UNKNOWN")
    assert "echo" in details.field_violations[0][1]


def test_models_claimed_by_workers_become_known(harness: Harness) -> None:
    with expect_error(INVALID, "MODEL_UNKNOWN"):
        start(harness, definition("a", a=node(model="local-llm")))
    assert claim(harness, models=("local-llm",)) == []
    run = start(harness, definition("a", a=node(model="local-llm"))).run
    [task] = claim(harness, models=("local-llm",))
    assert task.run_id == run.run_id


def test_oversized_results_are_refused(tmp_path: object) -> None:
    from pathlib import Path

    from praxis.core.definition import Limits
    from tests.support.harness import start_server

    h = start_server(Path(str(tmp_path)) / "small.db", limits=Limits(max_result_bytes=64))
    try:
        start(h, definition("a", a=node()))
        [task] = claim(h)
        with expect_error(INVALID, "RESULT_TOO_LARGE"):
            complete(h, task, "x" * 100)
        complete(h, task, "small")
    finally:
        h.close()


def test_results_that_break_the_contract(harness: Harness) -> None:
    schema = {
        "type": "object",
        "required": ["score"],
        "properties": {"score": {"type": "integer"}, "tag": {"enum": ["a", "b"]}},
        "additionalProperties": False,
    }
    start(harness, definition("a", a=node(output=json_out(schema))))
    [task] = claim(harness)
    for bad in ({"tag": "a"}, {"score": "1"}, {"score": 1, "tag": "c"}, {"score": 1, "x": 0}, [1]):
        with expect_error(INVALID, "RESULT_CONTRACT_VIOLATION"):
            complete(harness, task, bad)
    for text, reason in (
        ("{", "DOCUMENT_MALFORMED"),
        ("", "FIELD_REQUIRED"),
        ("1.5", "DOCUMENT_NUMBER_FORBIDDEN"),
    ):
        with expect_error(INVALID, reason):
            harness.client("agent").tasks.CompleteTask(
                task_pb2.CompleteTaskRequest(
                    attempt_id=task.attempt_id,
                    worker_id="w1",
                    result_json=text,
                    effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                )
            )
    complete(harness, task, {"score": 3, "tag": "b"})


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"lease_ms": 0}, "LEASE_INVALID"),
        ({"lease_ms": 10**12}, "LEASE_INVALID"),
        ({"wait_ms": -1}, "LEASE_INVALID"),
        ({"wait_ms": 3_600_000}, "LEASE_INVALID"),
        ({"max_tasks": 0}, "PAGE_INVALID"),
        ({"max_tasks": 1_000}, "PAGE_INVALID"),
        ({"models": []}, "FIELD_REQUIRED"),
        ({"worker_id": ""}, "FIELD_REQUIRED"),
        ({"models": ["bad model"]}, "IDENTIFIER_INVALID"),
    ],
)
def test_claims_with_absurd_parameters(
    harness: Harness, fields: dict[str, object], reason: str
) -> None:
    request = {"worker_id": "w1", "models": ["echo"], "max_tasks": 1, "lease_ms": 5_000, **fields}
    with expect_error(INVALID, reason):
        harness.client("agent").tasks.ClaimTasks(task_pb2.ClaimTasksRequest(**request))  # type: ignore[arg-type]


def test_settlement_fields(harness: Harness) -> None:
    start(harness, definition("a", a=node()))
    [task] = claim(harness)
    tasks = harness.client("agent").tasks
    with expect_error(grpc.StatusCode.NOT_FOUND, "ATTEMPT_NOT_FOUND"):
        tasks.FailTask(
            task_pb2.FailTaskRequest(
                attempt_id="att_missing", worker_id="w1", effect=common_pb2.EFFECT_OUTCOME_APPLIED
            )
        )
    with expect_error(INVALID, "ENUM_INVALID"):
        tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id, worker_id="w1", result_json='"x"'
            )
        )
    with expect_error(INVALID, "DECIMAL_NOT_CANONICAL"):
        tasks.FailTask(
            task_pb2.FailTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w1",
                cost_microcredits="1.50",
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )
    with expect_error(INVALID, "COST_INVALID"):
        tasks.FailTask(
            task_pb2.FailTaskRequest(
                attempt_id=task.attempt_id,
                worker_id="w1",
                cost_microcredits="-1",
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WORKER_MISMATCH"):
        complete(harness, task, "x", worker="w2")
    with expect_error(INVALID, "LEASE_INVALID"):
        tasks.Heartbeat(task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1"))


def test_request_id_reuse_with_another_definition(harness: Harness) -> None:
    start(harness, definition("a", a=node()), request_id="same")
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED"):
        start(harness, definition("b", b=node()), request_id="same")


def test_credentials_and_grants_are_required(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        harness.client(None).runs.GetRun(run_pb2.GetRunRequest(run_id="run_x"))
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, definition("a", a=node()), principal="reader")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("service").tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(worker_id="w", models=["echo"], max_tasks=1, lease_ms=5_000)
        )


def test_list_runs_page_bounds(harness: Harness) -> None:
    runs = harness.client("agent").runs
    with expect_error(INVALID, "PAGE_INVALID"):
        runs.ListRuns(run_pb2.ListRunsRequest(page_size=5_000))
    with expect_error(INVALID, "PAGE_INVALID"):
        runs.ListRuns(run_pb2.ListRunsRequest(page_token="garbage"))
    assert json.loads("[]") == list(runs.ListRuns(run_pb2.ListRunsRequest()).runs)
