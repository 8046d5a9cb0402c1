"""Prometheus metrics of an in-process server: each counter moves by what the calls did.

The metric objects are per process (:data:`praxis.observability.metrics.REGISTRY`), so every test
reads deltas around its own calls.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from aiws.engine.v1 import admin_pb2, run_pb2, run_pb2_grpc, schedule_pb2, task_pb2, task_pb2_grpc
from praxis.core import webhooks
from praxis.deliverer import DeliveryLimits, Destination
from praxis.limits import ServingLimits
from praxis.observability import metrics
from praxis.serve import metrics_endpoint
from tests.support.harness import T0, Harness, expect_error, start_server, token_of
from tests.support.registry import approve, execute, ref, register_cmd
from tests.support.runtime import (
    claim,
    complete,
    definition,
    diamond,
    drive,
    fail,
    json_out,
    node,
    start,
)
from tests.support.schedules import create, spec
from tests.support.webhooks import SECRET, Receiver

RUNS = "aiws.engine.v1.RunService"
TASKS = "aiws.engine.v1.TaskService"


def value(name: str, **labels: str) -> float:
    """A sample of this process's metrics (0 when it was never recorded)."""
    found = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found


def delta(name: str, **labels: str) -> Callable[[], float]:
    """How much ``name`` moved since this call."""
    before = value(name, **labels)
    return lambda: value(name, **labels) - before


def eventually(check: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Harness]:
    h = start_server(
        tmp_path / "praxis.db",
        metrics=True,
        models=("echo", "gpt-test"),
        serving=ServingLimits(max_long_polls=1, max_streams=2),
    )
    try:
        yield h
    finally:
        h.close()


def test_rpcs_are_counted_by_service_method_and_code(served: Harness) -> None:
    started = delta("praxis_rpc_requests_total", service=RUNS, method="StartRun", code="OK")
    missing = delta("praxis_rpc_requests_total", service=RUNS, method="GetRun", code="NOT_FOUND")
    anonymous = delta(
        "praxis_rpc_requests_total", service=RUNS, method="GetRun", code="UNAUTHENTICATED"
    )
    timed = delta("praxis_rpc_duration_seconds_count", service=RUNS, method="GetRun")
    start(served, diamond(), {})
    start(served, diamond(), {})
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        served.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id="run_nope"))
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        served.client(None).runs.GetRun(run_pb2.GetRunRequest(run_id="run_nope"))
    # An aborted call's status may reach the client before the handler's thread returns.
    eventually(lambda: (started(), missing(), anonymous(), timed()) == (2, 1, 1, 2))


def test_streams_are_counted_and_open_ones_gauged(served: Harness) -> None:
    run_id = start(served, diamond(), {}).run.run_id
    open_streams = delta("praxis_serving_open", kind="stream")
    ended = delta("praxis_rpc_requests_total", service=RUNS, method="WatchRun", code="CANCELLED")
    refused = delta("praxis_serving_refusals_total", kind="stream", scope="total")
    metadata = [("authorization", f"Bearer {token_of('alice')}")]
    with grpc.insecure_channel(served.address) as channel:
        runs = run_pb2_grpc.RunServiceStub(channel)
        held = [runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), metadata=metadata)]
        held.append(runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), metadata=metadata))
        for stream in held:
            next(stream)
        assert open_streams() == 2
        with pytest.raises(grpc.RpcError):
            next(runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), metadata=metadata))
        assert refused() == 1
        for stream in held:
            stream.cancel()
        eventually(lambda: open_streams() == 0 and ended() == 2)


def test_long_polls_are_gauged_and_refusals_counted_by_limit(served: Harness) -> None:
    waiting = delta("praxis_serving_open", kind="long_poll")
    refused = delta("praxis_serving_refusals_total", kind="long_poll", scope="total")
    metadata = [("authorization", f"Bearer {token_of('agent')}")]
    request = task_pb2.ClaimTasksRequest(
        worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
    )
    with grpc.insecure_channel(served.address) as channel:
        tasks = task_pb2_grpc.TaskServiceStub(channel)
        poll = tasks.ClaimTasks.future(request, metadata=metadata)
        eventually(lambda: waiting() == 1)
        with expect_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "LONG_POLL_LIMIT_REACHED"):
            tasks.ClaimTasks(request, metadata=metadata)
        assert refused() == 1
        start(served, diamond(), {})  # wakes the waiting poll
        assert len(poll.result(timeout=10).tasks) == 1
    eventually(lambda: waiting() == 0)


def test_a_run_counts_claims_settlements_and_durations(served: Harness) -> None:
    claimed = delta("praxis_tasks_claimed_total", model="echo")
    settled = delta("praxis_attempts_settled_total", outcome="COMPLETED", effect="APPLIED")
    nodes = delta("praxis_node_duration_seconds_count", model="echo", outcome="DONE")
    runs = delta("praxis_run_duration_seconds_count", state="COMPLETED")
    run_seconds = delta("praxis_run_duration_seconds_sum", state="COMPLETED")
    run_id = start(served, diamond(), {}).run.run_id
    served.clock.advance(2_000)
    drive(served, run_id)
    assert (claimed(), settled(), nodes(), runs()) == (4, 4, 4, 1)
    assert run_seconds() == pytest.approx(2.0)


def test_retries_and_lease_expiries_are_counted(served: Harness) -> None:
    retries = delta("praxis_retries_total", model="echo")
    failed = delta("praxis_attempts_settled_total", outcome="FAILED", effect="NOT_APPLIED")
    expired = delta("praxis_lease_expiries_total")
    expired_attempts = delta("praxis_attempts_settled_total", outcome="EXPIRED", effect="NONE")
    start(served, definition("a", a=node(retry={"attempts": 3}, effects="idempotent")), {})
    (task,) = claim(served)
    assert fail(served, task).will_retry
    served.clock.advance(60_000)  # past the retry backoff
    (again,) = claim(served, lease_ms=1_000)
    assert again.attempt == 2
    served.clock.advance(5_000)  # the lease expires; the sweeper notices
    eventually(lambda: expired() == 1)
    assert (retries(), failed(), expired_attempts()) == (2, 1, 1)


def test_write_transactions_and_group_commits_are_counted(served: Harness) -> None:
    transactions = delta("praxis_db_write_transactions_total")
    commands = delta("praxis_db_group_commit_batch_size_sum")
    latency = delta("praxis_db_commit_duration_seconds_count")
    start(served, diamond(), {})
    assert transactions() >= 1 and commands() >= 1 and latency() == transactions()


def test_the_writers_turn_is_timed(served: Harness) -> None:
    held = delta("praxis_db_writer_turn_held_seconds_total")
    start(served, diamond(), {})
    assert 0 < held() < 10  # a StartRun's transaction held the turn for a while


def test_registry_commands_and_consumed_approvals_are_counted(served: Harness) -> None:
    applied = delta("praxis_registry_commands_total", action="registry.register", outcome="applied")
    replayed = delta(
        "praxis_registry_commands_total", action="registry.register", outcome="replayed"
    )
    consumed = delta("praxis_approvals_consumed_total")
    command = register_cmd(ref(), "ap-1")
    approve(served, command, "ap-1")
    execute(served, "alice", "req-1", command)
    execute(served, "alice", "req-1", command)
    assert (applied(), replayed(), consumed()) == (1, 1, 1)


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the endpoint, keyed by name and sorted labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_the_endpoint_serves_stored_state_read_at_scrape_time(served: Harness) -> None:
    endpoint = metrics_endpoint.Endpoint("127.0.0.1:0")
    try:
        endpoint.watch(served.server.engine.db, served.clock)
        for _ in range(3):
            start(served, definition("a", a=node(), b=node(model="gpt-test")), {})
        held = claim(served, max_tasks=2)
        samples = scrape(endpoint.port)
        assert samples[("praxis_tasks_ready", (("model", "echo"),))] == 1
        assert samples[("praxis_tasks_ready", (("model", "gpt-test"),))] == 3
        for model in ("echo", "gpt-test"):
            for reason in ("backoff", "held"):
                labels = (("model", model), ("reason", reason))
                assert samples[("praxis_tasks_deferred", labels)] == 0
        assert samples[("praxis_leases_outstanding", ())] == len(held) == 2
        by_state = {labels: count for (name, labels), count in samples.items()
                    if name == "praxis_runs"}  # fmt: skip
        assert sum(by_state.values()) == 3 and len(by_state) >= 1
        assert samples[("praxis_database_size_bytes", ())] > 0
        assert not [key for key in samples if key[0] == "praxis_holds"]  # none placed
        complete(served, held[0], "done")
        served.client("alice").admin.PlaceHold(
            admin_pb2.PlaceHoldRequest(
                kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-9", reason="restored"
            )
        )
        again = scrape(endpoint.port)
        assert again[("praxis_leases_outstanding", ())] == 1
        assert again[("praxis_holds", (("kind", "RESTORE"),))] == 1
        key = ("praxis_rpc_requests_total", (("code", "OK"), ("method", "ClaimTasks"),
                                             ("service", TASKS)))  # fmt: skip
        assert samples[key] >= 1  # this process's own metrics are served too
    finally:
        endpoint.close()


def test_labels_never_carry_ids(served: Harness) -> None:
    run_id = start(served, diamond(), {}).run.run_id
    drive(served, run_id)
    text = json.dumps([sample.labels for family in metrics.REGISTRY.collect()
                       for sample in family.samples])  # fmt: skip
    assert run_id not in text and "agent" not in text and "w1" not in text


def test_the_config_key_is_read(tmp_path: Path) -> None:
    from praxis.serve import config as config_module

    path = tmp_path / "config.json"
    path.write_text(
        json.dumps(
            {
                "database_url": "sqlite:///x.db",
                "principals_path": "p.json",
                "metrics_listen": "127.0.0.1:9464",
            }
        )
    )
    assert config_module.load(path).metrics_listen == "127.0.0.1:9464"
    path.write_text(json.dumps({"database_url": "sqlite:///x.db", "principals_path": "p.json"}))
    assert config_module.load(path).metrics_listen is None


def test_an_unused_attempt_stays_counted_once(served: Harness) -> None:
    """A settlement replayed (the attempt already settled) counts nothing more."""
    settled = delta("praxis_attempts_settled_total", outcome="COMPLETED", effect="APPLIED")
    start(served, definition("a", a=node(output=json_out())), {})
    (task,) = claim(served)
    complete(served, task, {"x": 1})
    complete(served, task, {"x": 1})  # an idempotent repeat
    assert settled() == 1


def node_seconds(outcome: str) -> tuple[Callable[[], float], Callable[[], float]]:
    """How many node durations of ``outcome`` were observed, and their sum, since now."""
    labels = {"model": "echo", "outcome": outcome}
    return (
        delta("praxis_node_duration_seconds_count", **labels),
        delta("praxis_node_duration_seconds_sum", **labels),
    )


def test_every_node_that_ends_observes_its_duration_once(served: Harness) -> None:
    """Worker settlements, an expansion the engine settles, a cancellation before and
    after dispatch, a timeout: each node once, from its start to its end."""
    done, done_seconds = node_seconds("DONE")
    fanout = definition(
        "join",
        split=node(output=json_out()),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
        join=node("node:each", ("each",), json_out({"type": "array"})),
    )
    start(served, fanout, {})
    (split,) = claim(served)
    served.clock.advance(1_000)
    complete(served, split, {"items": [1, 2, 3]})  # split: 1 s; each expands now
    items = claim(served)
    assert len(items) == 3
    served.clock.advance(2_000)
    for task in items:
        complete(served, task, {"item": 1})  # 3 items of 2 s; the expansion ends: 2 s
        complete(served, task, {"item": 1})  # a repeat observes nothing more
    (join,) = claim(served)
    complete(served, join, [1, 2, 3])  # join: 0 s
    assert (done(), done_seconds()) == (6, pytest.approx(1 + 3 * 2 + 2 + 0))

    cancelled, cancelled_seconds = node_seconds("CANCELLED")
    chain = definition(
        "b",
        a=node(output=json_out(), effects="idempotent"),
        b=node("node:a", ("a",), json_out()),
    )
    run_id = start(served, chain, {}).run.run_id
    (running,) = claim(served)  # a runs
    served.clock.advance(500)
    served.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id, reason="x"))
    fail(served, running, "stopped")  # the worker's report settles the stop
    # a ran 0.5 s; b never started (0 s)
    assert (cancelled(), cancelled_seconds()) == (2, pytest.approx(0.5))

    failed, failed_seconds = node_seconds("FAILED")
    start(
        served,
        definition(
            "a",
            a=node(output=json_out(), timeout_ms=1_000, retry={"attempts": 1}, effects="none"),
        ),
        {},
    )
    assert len(claim(served)) == 1
    served.clock.advance(1_500)  # past its timeout: the sweeper ends it
    eventually(lambda: failed() == 1)
    assert failed_seconds() == pytest.approx(1.5)
    assert done() == 6 and cancelled() == 2


def test_ready_counts_only_claimable_tasks_and_backoff_is_apart(served: Harness) -> None:
    endpoint = metrics_endpoint.Endpoint("127.0.0.1:0")
    try:
        endpoint.watch(served.server.engine.db, served.clock)
        retried = definition("a", a=node(retry={"attempts": 3, "backoff_ms": 10_000}))
        start(served, retried, {})
        start(served, definition("a", a=node()), {})
        (task, _other) = claim(served, max_tasks=1) + claim(served, max_tasks=1)
        assert fail(served, task).will_retry  # back to ready, in backoff for 10 s
        ready = ("praxis_tasks_ready", (("model", "echo"),))
        backoff = ("praxis_tasks_deferred", (("model", "echo"), ("reason", "backoff")))
        samples = scrape(endpoint.port)
        assert (samples[ready], samples[backoff]) == (0, 1)
        assert claim(served) == []  # indeed not claimable
        served.clock.advance(10_000)
        samples = scrape(endpoint.port)
        assert (samples[ready], samples[backoff]) == (1, 0)
    finally:
        endpoint.close()


def test_schedule_times_are_counted_by_outcome_and_late_starts_observed(served: Harness) -> None:
    served.server.sweeper.stop()  # the test sweeps by hand
    missed = delta("praxis_schedule_times_total", outcome="missed")
    started = delta("praxis_schedule_times_total", outcome="started")
    late = delta("praxis_schedule_start_lateness_seconds_sum")
    starts = delta("praxis_schedule_start_lateness_seconds_count")
    minute = 60_000
    every_minute = spec("m", interval_ms=minute, start_ms=T0 + minute)
    every_minute.overlap = schedule_pb2.OVERLAP_POLICY_ALLOW_ALL
    create(served, every_minute)
    served.clock.set(T0 + 10 * minute)  # minutes 1-8 fell beyond the 1-minute window
    served.server.engine.schedules.sweep()
    assert (missed(), started(), starts(), late()) == (8, 2, 2, 60.0)


def test_webhook_tries_are_counted_and_the_outbox_is_a_gauge(tmp_path: Path) -> None:
    receiver = Receiver(default="fail")
    key = webhooks.secret_key(SECRET)
    assert key is not None
    h = start_server(
        tmp_path / "praxis.db",
        metrics=True,
        webhooks={"ops": Destination("ops", receiver.url, key)},
        notifications=DeliveryLimits(timeout_s=2, max_attempts=1),
    )
    endpoint = metrics_endpoint.Endpoint("127.0.0.1:0")
    try:
        endpoint.watch(h.server.engine.db, h.clock)
        dead = delta("praxis_webhook_tries_total", state="DEAD")
        run = start(h, definition("a", a=node()), notify=run_pb2.RunNotify(webhooks=["ops"]))
        h.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run.run_id))
        eventually(lambda: dead() == 1)
        samples = scrape(endpoint.port)
        assert samples[("praxis_webhook_deliveries", (("state", "DEAD"),))] == 1
    finally:
        endpoint.close()
        h.close()
        receiver.close()
