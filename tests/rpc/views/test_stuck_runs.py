"""The inbox lists stuck runs: a ready node no worker claims past the threshold.

A run is stuck once a claimable node of it has waited ``STUCK_AFTER_MS`` (5 minutes)
for a worker, unless its work order is paused or held (deliberate) or it waits for a
reconciliation (already in the inbox). The item says which node, since when, its model,
and whether any worker serves that model; it leaves the inbox when a worker leases the
node.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, reconciliation_pb2
from aiws.engine.v1 import inbox_pb2 as pb
from praxis.core.definition import DEFAULT_SCHEDULE_TO_START_MS
from praxis.core.records import Principal, PrincipalKind
from praxis.store.views.stuck import STUCK_AFTER_MS, scan
from praxis.store.wake.hub import INBOX
from tests.support.execution import fail_task, reconcile, start_run
from tests.support.harness import T0, Harness
from tests.support.runtime import claim, definition, expanded, governed, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

STUCK = pb.INBOX_ITEM_KIND_STUCK_RUN
LONG_LEASE = 3_600_000
_ids = itertools.count()


def stuck(h: Harness, **fields: Any) -> list[pb.InboxItem]:
    """The STUCK_RUN items of the inbox."""
    response = h.client("alice").inbox.ListInbox(pb.ListInboxRequest(kinds=[STUCK], **fields))
    count = {c.kind: c.count for c in response.counts}[STUCK]
    assert count == response.total == len(response.items), response
    return list(response.items)


def one(name: str = "a", model: str = "echo", **extra: Any) -> dict[str, Any]:
    return definition(name, **{name: node(model=model, **extra)})


def test_a_node_no_worker_claims_makes_its_run_stuck_past_the_threshold(harness: Harness) -> None:
    run = start_run(harness, one())
    assert stuck(harness) == []
    harness.clock.advance(STUCK_AFTER_MS - 1)
    assert stuck(harness) == []
    harness.clock.advance(1)
    [item] = stuck(harness)
    assert (item.item_id, item.run_id, item.since_ms) == (f"stuck:{run.run_id}", run.run_id, T0)
    assert item.work_order_id == "default"  # an ad hoc run with neither contract nor order
    assert item.stuck_run == pb.StuckRun(
        run_id=run.run_id,
        node_uid="a",
        model="echo",
        ready_since_ms=T0,
        served=False,
        schedule_to_start_deadline_ms=T0 + DEFAULT_SCHEDULE_TO_START_MS,
        stuck_nodes=1,
    )
    assert "no worker serves model 'echo'" in item.summary and "5m00s" in item.summary
    assert [t.run_id for t in claim(harness)] == [run.run_id]
    assert stuck(harness) == []  # leased: no longer waiting


def test_a_served_model_says_its_workers_are_busy(harness: Harness) -> None:
    """A configured model counts as served once a worker claimed work of it; a model
    registered by its workers, while the registration lives (10 minutes)."""
    for model in ("echo", "llama"):
        claim(harness, models=(model,))  # teaches llama; echo is configured
        first = start_run(harness, one(model=model))
        second = start_run(harness, one(model=model))
        [task] = claim(harness, models=(model,), max_tasks=1, lease_ms=LONG_LEASE)
        assert task.run_id == first.run_id  # oldest first: the second waits
        harness.clock.advance(STUCK_AFTER_MS)
        [item] = stuck(harness)
        assert item.run_id == second.run_id
        assert item.stuck_run.served and item.stuck_run.model == model
        assert f"workers of model {model!r} are busy" in item.summary
        harness.clock.advance(10 * 60_000)  # no claim since: the registration lapsed
        [item] = stuck(harness)
        assert not item.stuck_run.served
        assert f"no worker serves model {model!r}" in item.summary
        assert [t.run_id for t in claim(harness, models=(model,))] == [second.run_id]
        assert stuck(harness) == []


def test_one_item_per_run_naming_its_oldest_node(harness: Harness) -> None:
    run_id = expanded(harness, 3)
    harness.clock.advance(STUCK_AFTER_MS)
    [item] = stuck(harness)
    assert item.run_id == run_id
    assert (item.stuck_run.node_uid, item.stuck_run.stuck_nodes) == ("each#0", 3)
    assert "(and 2 more)" in item.summary


def test_a_backoff_counts_from_the_earliest_dispatch(harness: Harness) -> None:
    run = start_run(harness, one(retry={"attempts": 3, "backoff_ms": 600_000}))
    [task] = claim(harness)
    harness.clock.advance(1_000)
    fail_task(harness, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)
    retry_at = T0 + 1_000 + 600_000
    harness.clock.advance(STUCK_AFTER_MS + 60_000)
    assert stuck(harness) == []  # not claimable yet: no worker could have taken it
    harness.clock.set(retry_at + STUCK_AFTER_MS)
    [item] = stuck(harness)
    assert (item.run_id, item.since_ms, item.stuck_run.ready_since_ms) == (
        run.run_id,
        retry_at,
        retry_at,
    )


def test_paused_held_and_reconciling_runs_are_not_stuck(harness: Harness) -> None:
    admin = harness.client("alice").admin
    run = governed(harness)  # work order wo-1
    harness.clock.advance(STUCK_AFTER_MS)
    [item] = stuck(harness)
    assert (item.run_id, item.work_order_id) == (run.run_id, "wo-1")
    assert [i.run_id for i in stuck(harness, work_order_id="wo-1")] == [run.run_id]
    assert stuck(harness, work_order_id="wo-2") == []

    admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1", reason="audit"))
    assert stuck(harness) == []  # paused on purpose
    admin.ResumeWorkOrder(admin_pb2.ResumeWorkOrderRequest(work_order_id="wo-1"))
    assert [i.run_id for i in stuck(harness)] == [run.run_id]
    for scope in ("wo-1", ""):  # a hold on the work order, then on the installation
        hold = {"kind": admin_pb2.HOLD_KIND_RESTORE, "work_order_id": scope}
        admin.PlaceHold(admin_pb2.PlaceHoldRequest(**hold, reason="restored"))  # type: ignore[arg-type]
        assert stuck(harness) == []
        admin.ClearHold(admin_pb2.ClearHoldRequest(**hold))  # type: ignore[arg-type]
        assert [i.run_id for i in stuck(harness)] == [run.run_id]


def test_a_run_waiting_for_a_reconciliation_is_listed_only_as_that(harness: Harness) -> None:
    both = definition(
        "c",
        a=node(output=json_out()),
        b=node(output=json_out()),
        c=node(["node:a", "node:b"], ("a", "b")),
    )  # a and b ready at once
    run = start_run(harness, both)
    [task] = claim(harness, max_tasks=1)
    fail_task(harness, task, common_pb2.EFFECT_OUTCOME_UNCERTAIN)  # a: BLOCKED
    harness.clock.advance(STUCK_AFTER_MS)
    kinds = harness.client("alice").inbox.ListInbox(pb.ListInboxRequest()).items
    assert [(i.kind, i.run_id) for i in kinds] == [(pb.INBOX_ITEM_KIND_RECONCILIATION, run.run_id)]
    reconcile(
        harness,
        task.attempt_id,
        reconciliation_pb2.RECONCILIATION_DECISION_NOT_APPLIED,
        {"checked": "log"},
        f"ap-{next(_ids)}",
    )
    [item] = stuck(harness)  # b still waits, and a is ready again
    assert (item.run_id, item.stuck_run.node_uid, item.since_ms) == (run.run_id, "b", T0)


def test_the_summary_names_when_the_next_run_becomes_stuck(harness: Harness) -> None:
    """WatchInbox waits until then: no write marks the moment."""
    inbox = harness.server.engine.inbox
    alice = Principal("alice", PrincipalKind.HUMAN)
    assert inbox.summary(alice, "").next_change_ms == 0  # type: ignore[union-attr]
    start_run(harness, one())
    harness.clock.advance(1_000)
    start_run(harness, one())
    summary = inbox.summary(alice, "")
    assert summary.next_change_ms == T0 + STUCK_AFTER_MS  # type: ignore[union-attr]
    harness.clock.set(T0 + STUCK_AFTER_MS)
    summary = inbox.summary(alice, "")
    assert summary.counts["STUCK_RUN"] == 1  # type: ignore[union-attr]
    assert summary.next_change_ms == T0 + 1_000 + STUCK_AFTER_MS  # type: ignore[union-attr]


def test_watch_inbox_reports_a_run_becoming_stuck_by_the_clock_alone(harness: Harness) -> None:
    """No write marks the moment a run becomes stuck, and nothing here wakes the stream
    (the clock is moved directly, not through TestClockService): the stream reads again
    when the summary said the next run becomes stuck, not at the hub's recheck (48 to
    60 s, longer than this stream's deadline)."""
    governed(harness)
    harness.clock.set(T0 + STUCK_AFTER_MS - 400)
    stream = harness.client("alice").inbox.WatchInbox(pb.WatchInboxRequest(), timeout=20)
    messages = iter(stream)
    try:
        first = next(messages)
        assert {c.kind: c.count for c in first.counts}[STUCK] == 0
        time.sleep(1.0)  # the stream waits on its timer (re-armed: 400 ms of this clock)
        harness.clock.set(T0 + STUCK_AFTER_MS)
        started = time.monotonic()
        second = next(messages)
        assert time.monotonic() - started < 10
        assert {c.kind: c.count for c in second.counts}[STUCK] == 1
        assert second.fingerprint != first.fingerprint
        harness.client("alice").admin.PauseWorkOrder(
            admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1", reason="audit")
        )
        third = next(messages)  # the pause woke it
        assert {c.kind: c.count for c in third.counts}[STUCK] == 0
    finally:
        stream.cancel()


def test_a_pause_wakes_the_inbox(harness: Harness) -> None:
    woken: list[dict[str, int]] = []
    publish = harness.server.engine.signals.publish

    def recording(wakes: dict[str, int], *args: Any, **kwargs: Any) -> None:
        woken.append(dict(wakes))
        publish(wakes, *args, **kwargs)

    harness.server.engine.signals.publish = recording  # type: ignore[method-assign]
    harness.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id="wo-3", reason="audit")
    )
    assert any(INBOX in wakes for wakes in woken), woken
    assert json.dumps(woken)  # plain data


def test_the_scan_reads_at_most_its_limit_of_ready_nodes_oldest_first(harness: Harness) -> None:
    runs = []
    for _ in range(3):
        runs.append(start_run(harness, one()).run_id)
        harness.clock.advance(1_000)
    harness.clock.advance(STUCK_AFTER_MS)
    with harness.server.engine.db.read() as connection:
        two = scan(connection, "", harness.clock.now_ms(), 2)
        every = scan(connection, "", harness.clock.now_ms(), 10)
    assert [s.run_id for s in two.runs] == runs[:2]
    assert [s.run_id for s in every.runs] == runs
