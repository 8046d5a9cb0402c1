"""The Python client's shared surface: service names, run and registry helpers, JSON."""

from __future__ import annotations

import json
import math

import grpc
import pytest

from aiws.engine.v1 import registry_pb2, run_pb2
from praxis_client import (
    SERVICE_NAMES,
    RunFailed,
    Worker,
    from_json,
    result_of,
    review_approve_execute,
    run_and_wait,
    to_json,
)
from praxis_client.worker import NotApplied, TaskContext
from tests.support.harness import Harness, expect_error
from tests.support.registry import ref, register_cmd
from tests.support.runtime import definition, json_out, node


def test_connect_exposes_every_service_under_the_canonical_names(harness: Harness) -> None:
    client = harness.client("alice")
    stubs = {name: type(getattr(client, name)).__name__ for name in SERVICE_NAMES}
    assert stubs == {
        "registry": "RegistryServiceStub",
        "approvals": "ApprovalServiceStub",
        "admin": "AdminServiceStub",
        "runs": "RunServiceStub",
        "tasks": "TaskServiceStub",
        "events": "EventServiceStub",
        "contracts": "ContractServiceStub",
        "reconciliations": "ReconciliationServiceStub",
        "waits": "WaitServiceStub",
        "assessments": "AssessmentServiceStub",
        "handoffs": "HandoffServiceStub",
        "simulations": "SimulationServiceStub",
        "test_clock": "TestClockServiceStub",
    }


def handle(task: TaskContext) -> object:
    if task.input == "refuse":
        raise NotApplied("refused", retryable=False)
    return {"got": task.input}


def test_run_and_wait_returns_the_finished_run(harness: Harness) -> None:
    client = harness.client("agent")
    worker = Worker(client, ["echo"], handle, poll_ms=200).start()
    try:
        document = to_json(definition("a", a=node(output=json_out())))
        done = run_and_wait(
            client, run_pb2.StartRunRequest(definition_json=document, input_json='"hi"'), 20
        )
        assert result_of(done) == {"got": "hi"}
        failed = run_and_wait(
            client, run_pb2.StartRunRequest(definition_json=document, input_json='"refuse"'), 20
        )
        with pytest.raises(RunFailed) as raised:
            result_of(failed)
        assert raised.value.state == run_pb2.RUN_STATE_FAILED
        assert "refused" in raised.value.result_error
    finally:
        worker.stop(5)


def test_run_and_wait_times_out_and_surfaces_refusals(harness: Harness) -> None:
    client = harness.client("agent")
    document = to_json(definition("a", a=node(output=json_out())))
    with pytest.raises(TimeoutError):  # nobody works on it
        run_and_wait(client, run_pb2.StartRunRequest(definition_json=document), 0.5)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        run_and_wait(client, run_pb2.StartRunRequest(definition_json='{"version": 1}'), 5)


def test_review_approve_execute_registers_a_definition(harness: Harness) -> None:
    command = register_cmd(ref(), "")
    reply = review_approve_execute(
        harness.client("alice"),
        harness.client("alice"),
        command,
        expires_at_ms=harness.clock.now_ms() + 600_000,
    )
    assert reply.receipt.head_revision == 1 and not reply.replayed
    assert reply.receipt.approval_id.startswith("approval-")
    assert command.register.approval_id == ""  # the caller's message is left alone
    head = harness.client("agent").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.revision == 1


def test_review_approve_execute_needs_an_approving_human(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        review_approve_execute(
            harness.client("alice"),
            harness.client("agent"),  # an agent may not approve
            register_cmd(ref(), ""),
            expires_at_ms=harness.clock.now_ms() + 600_000,
        )


def test_json_helpers_are_canonical_and_strict() -> None:
    assert to_json({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'
    assert from_json("") is None and from_json('{"a":1}') == {"a": 1}
    with pytest.raises(TypeError):
        to_json({"s": {1}})
    with pytest.raises(ValueError):
        to_json(math.nan)
    assert json.loads(to_json({"x": "y"})) == {"x": "y"}
