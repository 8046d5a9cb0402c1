"""StartRun's dry run: every check and the answer a start would give, nothing stored."""

from __future__ import annotations

import json
import threading

import grpc
import pytest

from aiws.engine.v1 import event_pb2, registry_pb2, run_pb2, task_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import ref, registered
from tests.support.runtime import definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

CHAIN = json.dumps(definition("b", a=node(output=json_out()), b=node("node:a", ("a",))))


def start(h: Harness, principal: str = "agent", **fields: object) -> run_pb2.StartRunResponse:
    fields.setdefault("request_id", "r-1")
    request = run_pb2.StartRunRequest(**fields)  # type: ignore[arg-type]
    return h.client(principal).runs.StartRun(request)  # type: ignore[no-any-return]


def test_a_dry_run_answers_like_a_start_and_stores_nothing(harness: Harness) -> None:
    dry = start(harness, definition_json=CHAIN, dry_run=True, labels={"team": "a"})
    assert dry.dry_run and dry.created
    assert dry.run.state == run_pb2.RUN_STATE_RUNNING and dry.run.labels == {"team": "a"}
    assert [n.node_uid for n in dry.run.nodes] == ["a", "b"]
    runs = harness.client("alice").runs
    assert not runs.ListRuns(run_pb2.ListRunsRequest()).runs
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        runs.GetRun(run_pb2.GetRunRequest(run_id=dry.run.run_id))
    events = harness.client("alice").events.ListEvents(event_pb2.ListEventsRequest())
    assert not events.events
    claimed = harness.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(worker_id="w", models=["echo"], max_tasks=5, lease_ms=30_000)
    )
    assert not claimed.tasks  # no attempt was made ready
    real = start(harness, definition_json=CHAIN)  # the request id was not used up
    assert real.created and not real.dry_run and real.run.run_id != dry.run.run_id
    again = start(harness, definition_json=CHAIN, dry_run=True)
    assert (again.created, again.run.run_id) == (False, real.run.run_id)


def test_a_dry_run_hands_no_work_to_a_waiting_poll(harness: Harness) -> None:
    found: list[int] = []

    def poll() -> None:
        claimed = harness.client("agent").tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w", models=["echo"], max_tasks=5, lease_ms=30_000, wait_ms=1_500
            )
        )
        found.append(len(claimed.tasks))

    waiting = threading.Thread(target=poll)
    waiting.start()
    try:
        start(harness, definition_json=CHAIN, dry_run=True)
    finally:
        waiting.join(10)
    assert found == [0]


def test_a_dry_run_is_refused_exactly_like_a_start(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        start(harness, definition_json='{"version": 1, "nodes": {}}', dry_run=True)
    with expect_error(grpc.StatusCode.NOT_FOUND, "CONTRACT_NOT_FOUND"):
        start(harness, "alice", definition_json=CHAIN, contract_id="c-none", dry_run=True)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        start(harness, "reader", definition_json=CHAIN, dry_run=True)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "NOTIFY_DESTINATION_UNKNOWN"):
        start(
            harness,
            definition_json=CHAIN,
            notify=run_pb2.RunNotify(webhooks=["nowhere"]),
            dry_run=True,
        )


def test_a_dry_run_of_a_ref_leaves_its_head_unbound(harness: Harness) -> None:
    registered(harness)
    dry = start(harness, ref=ref(), dry_run=True)
    assert dry.dry_run and dry.run.revision == 1 and dry.run.ref.run_id == "run-1"
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.execution_binding != registry_pb2.EXECUTION_BINDING_BOUND
    real = start(harness, ref=ref(), request_id="r-real")
    assert real.created  # a governed ref runs once: the dry run did not take its turn
