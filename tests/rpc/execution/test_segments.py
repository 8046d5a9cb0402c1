"""Segments: recovery by a new server process and a change of owner start new ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from aiws.engine.v1 import admin_pb2, run_pb2
from praxis.clock import TestClock
from tests.support.execution import run_of, settle, start_model_server, start_run
from tests.support.harness import T0, Harness
from tests.support.registry import registered
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


SINGLE = definition("a", a=node(output=json_out()))


def reasons(run: run_pb2.Run) -> list[str]:
    return [run_pb2.SegmentReason.Name(s.reason)[len("SEGMENT_REASON_") :] for s in run.segments]


def test_recovery_starts_a_segment_for_live_runs_only(tmp_path: Path) -> None:
    clock = TestClock(T0)
    first = start_model_server(tmp_path / "praxis.db", clock)
    live = start_run(first, SINGLE)
    assert reasons(live) == ["START"] and live.segments[0].number == 1
    ended = start_run(first, SINGLE)
    tasks = {t.run_id: t for t in claim(first)}
    settle(first, tasks[ended.run_id])
    first.close()
    clock.advance(5_000)
    second = start_model_server(tmp_path / "praxis.db", clock)
    try:
        recovered = run_of(second, live.run_id)
        assert reasons(recovered) == ["START", "RECOVERY"]
        assert [s.number for s in recovered.segments] == [1, 2]
        assert recovered.segments[1].started_at_ms == T0 + 5_000
        assert reasons(run_of(second, ended.run_id)) == ["START"]
        settle(second, tasks[live.run_id])  # the lease survived the restart
        assert run_of(second, live.run_id).state == run_pb2.RUN_STATE_COMPLETED
    finally:
        second.close()


def test_a_change_of_owner_starts_a_segment(model: Harness) -> None:
    ref = registered(model)
    started = model.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=ref, input_json="null")
    )
    model.client("alice").admin.AdvanceEpoch(
        admin_pb2.AdvanceEpochRequest(
            work_order_id="wo-1", kind=admin_pb2.EPOCH_KIND_OWNERSHIP, expected_epoch=1
        )
    )
    run = run_of(model, started.run.run_id)
    assert reasons(run) == ["START", "OWNER_CHANGE"]
    assert [s.ownership_epoch for s in run.segments] == [1, 2]
