"""TaskService.SettleTasks: a batch of settlements answered one by one, then a claim."""

from __future__ import annotations

import threading
import time

import grpc
import pytest

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.store.wake.hub import work_topic
from tests.support.harness import Harness, expect_error
from tests.support.runtime import (
    claim,
    complete,
    completion,
    definition,
    failure,
    get_run,
    json_out,
    node,
    start,
    states,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

APPLIED = common_pb2.EFFECT_OUTCOME_APPLIED


def wide(n: int) -> dict[str, object]:
    """n independent single-node branches; the output joins them."""
    nodes = {f"n{i}": node(output=json_out()) for i in range(n)}
    nodes["out"] = node([f"node:n{i}" for i in range(n)], tuple(nodes), json_out())
    return definition("out", **nodes)


def settle(
    h: Harness, settlements: list[task_pb2.Settlement], claim_request: object = None
) -> task_pb2.SettleTasksResponse:
    request = task_pb2.SettleTasksRequest(settlements=settlements)
    if claim_request is not None:
        request.claim.CopyFrom(claim_request)
    return h.client("agent").tasks.SettleTasks(request)  # type: ignore[no-any-return]


def outcome(result: task_pb2.SettlementResult) -> tuple[str, object]:
    kind = result.WhichOneof("result")
    if kind == "error":
        return "error", result.error.reason
    return kind or "", getattr(result, kind or "").replayed


def test_batch_mixing_valid_stale_foreign_and_malformed_answers_each(harness: Harness) -> None:
    run = start(harness, wide(4), {"x": 1}).run
    tasks = {t.node_uid: t for t in claim(harness)}
    assert set(tasks) == {"n0", "n1", "n2", "n3"}
    complete(harness, tasks["n1"], {"early": True})  # settled before the batch: a replay
    response = settle(
        harness,
        [
            completion(tasks["n0"], {"ok": 0}),
            completion(tasks["n1"], {"other": True}),  # settled with another payload
            completion(tasks["n1"], {"early": True}),  # the same payload: replayed
            completion(tasks["n2"], {"ok": 2}, worker="w2"),  # held by another worker
            task_pb2.Settlement(),  # neither complete nor fail
            completion(tasks["n3"], "not an object"),  # breaks the output contract
            task_pb2.Settlement(
                complete=task_pb2.CompleteTaskRequest(
                    attempt_id="att_" + "0" * 32, worker_id="w1", result_json="{}", effect=APPLIED
                )
            ),
            failure(tasks["n3"], retryable=True),
        ],
    )
    assert [outcome(r) for r in response.results] == [
        ("complete", False),
        ("error", "ATTEMPT_ALREADY_SETTLED"),
        ("complete", True),
        ("error", "WORKER_MISMATCH"),
        ("error", "FIELD_REQUIRED"),
        ("error", "RESULT_CONTRACT_VIOLATION"),
        ("error", "ATTEMPT_NOT_FOUND"),
        ("fail", False),
    ]
    codes = [r.error.code for r in response.results if r.WhichOneof("result") == "error"]
    assert codes == [
        grpc.StatusCode.ALREADY_EXISTS.value[0],
        grpc.StatusCode.FAILED_PRECONDITION.value[0],
        grpc.StatusCode.INVALID_ARGUMENT.value[0],
        grpc.StatusCode.INVALID_ARGUMENT.value[0],
        grpc.StatusCode.NOT_FOUND.value[0],
    ]
    assert [r.attempt_id for r in response.results][:4] == [
        tasks["n0"].attempt_id,
        tasks["n1"].attempt_id,
        tasks["n1"].attempt_id,
        tasks["n2"].attempt_id,
    ]
    assert not response.tasks  # no claim asked for
    after = get_run(harness, run.run_id)
    assert states(after)["n0"] == "DONE"
    assert states(after)["n1"] == "DONE"
    assert states(after)["n2"] == "RUNNING"  # the foreign settlement changed nothing
    assert states(after)["n3"] == "READY"  # failed, to be retried
    assert response.results[7].fail.will_retry


def test_settle_and_claim_in_one_round_trip(harness: Harness) -> None:
    run = start(harness, wide(2), {"x": 1}).run
    tasks = claim(harness)
    response = settle(
        harness,
        [completion(t, {"ok": t.node_uid}) for t in tasks],
        task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=10, lease_ms=30_000),
    )
    assert [outcome(r) for r in response.results] == [("complete", False)] * 2
    assert [t.node_uid for t in response.tasks] == ["out"]  # readied by the batch itself
    final = settle(harness, [completion(response.tasks[0], {"all": True})])
    assert outcome(final.results[0]) == ("complete", False)
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_a_batch_announces_no_work_its_own_claim_took(harness: Harness) -> None:
    """Waiting workers are not woken for the node the settle-and-claim leased at once;
    they are for what it made ready and left."""
    announced: list[dict[str, int]] = []
    for server in harness.replicas or [harness.server]:
        hub = server.engine.runs.signals
        publish = hub.publish

        def recording(wakes: dict[str, int], remote: bool = True, publish=publish) -> None:  # type: ignore[no-untyped-def]
            announced.append(dict(wakes))
            publish(wakes, remote)

        hub.publish = recording  # type: ignore[method-assign]
    start(harness, wide(3), {"x": 1})
    tasks = claim(harness)
    first, rest = tasks[:2], tasks[2:]
    announced.clear()
    one = task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000)
    response = settle(harness, [completion(t, {"ok": t.node_uid}) for t in first], one)
    assert response.tasks == []  # nothing became ready: "out" waits for the third
    response = settle(harness, [completion(t, {"ok": t.node_uid}) for t in rest], one)
    assert [t.node_uid for t in response.tasks] == ["out"]
    assert not any(work_topic("echo") in wakes for wakes in announced), announced
    start(harness, wide(1), {"x": 2})  # a command without a claim announces its ready node
    assert any(wakes.get(work_topic("echo")) == 1 for wakes in announced), announced


def test_retry_of_a_whole_batch_is_replayed(harness: Harness) -> None:
    start(harness, wide(3), {"x": 1})
    batch = [completion(t, {"ok": t.node_uid}) for t in claim(harness)]
    first = settle(harness, batch)
    again = settle(harness, batch)
    assert [outcome(r) for r in first.results] == [("complete", False)] * 3
    assert [outcome(r) for r in again.results] == [("complete", True)] * 3


def test_claim_part_long_polls_until_work_arrives(harness: Harness) -> None:
    started: list[str] = []

    def later() -> None:
        time.sleep(0.3)
        started.append(start(harness, wide(1), {"x": 1}).run.run_id)

    thread = threading.Thread(target=later)
    thread.start()
    t0 = time.monotonic()
    response = settle(
        harness,
        [],
        task_pb2.ClaimTasksRequest(
            worker_id="w1", models=["echo"], max_tasks=10, lease_ms=30_000, wait_ms=5_000
        ),
    )
    thread.join()
    assert [t.node_uid for t in response.tasks] == ["n0"]
    assert time.monotonic() - t0 < 4.0
    assert response.tasks[0].run_id == started[0]


def test_invalid_claim_or_oversized_batch_settles_nothing(harness: Harness) -> None:
    run = start(harness, wide(1), {"x": 1}).run
    (task,) = claim(harness)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "LEASE_INVALID"):
        settle(
            harness,
            [completion(task, {"ok": 1})],
            task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=1, lease_ms=1),
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        settle(harness, [completion(task, {"ok": 1})] * 101)
    assert states(get_run(harness, run.run_id))["n0"] == "RUNNING"


def test_settling_needs_the_task_grant(harness: Harness) -> None:
    start(harness, wide(1), {"x": 1})
    (task,) = claim(harness)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("reader").tasks.SettleTasks(
            task_pb2.SettleTasksRequest(settlements=[completion(task, {"ok": 1})])
        )
