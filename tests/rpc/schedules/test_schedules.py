"""ScheduleService over gRPC: every due time starts once, the overlap policies, the
catch-up window, pause, resume, delete, backfill and the governed schedule's approval.

The server's own sweeper is off: each test advances the test clock and sweeps by hand,
so what a sweep does is deterministic.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, run_pb2, schedule_pb2
from tests.support.harness import T0, Harness, expect_error
from tests.support.registry import ref, registered
from tests.support.schedules import HOUR, create, get, runs_of, spec

MINUTE = 60_000


pytestmark = pytest.mark.backends("sqlite", "postgres")


@pytest.fixture
def h(harness: Harness) -> Harness:
    """The harness with its sweepers stopped: the tests sweep by hand."""
    for server in harness.replicas or [harness.server]:
        server.sweeper.stop()
    return harness


def at(h: Harness, now_ms: int) -> int:
    """Sets the clock and sweeps; returns the steps the sweep wrote."""
    h.clock.set(now_ms)
    return h.server.engine.schedules.sweep()


def stop(h: Harness, run_id: str) -> None:
    h.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id, reason="done"))


def test_every_due_time_of_a_week_starts_one_run(h: Harness) -> None:
    create(h, spec("hourly", start_ms=T0 + HOUR))
    for hour in range(1, 7 * 24 + 1):
        at(h, T0 + hour * HOUR + 1_000)
        assert at(h, T0 + hour * HOUR + 2_000) == 0  # a second sweep starts nothing
    runs = runs_of(h, "hourly")
    assert len(runs) == 7 * 24
    schedule = get(h, "hourly")
    assert schedule.started_count == 7 * 24 and schedule.missed_count == 0
    assert schedule.next_ms == T0 + (7 * 24 + 1) * HOUR
    assert all(run.work_order_id == "default" for run in runs)


def test_skip_starts_nothing_while_the_last_run_runs(h: Harness) -> None:
    create(h, spec("skip", start_ms=T0 + HOUR, overlap=schedule_pb2.OVERLAP_POLICY_SKIP))
    at(h, T0 + HOUR)
    at(h, T0 + 2 * HOUR)
    assert len(runs_of(h, "skip")) == 1 and get(h, "skip").skipped_count == 1
    stop(h, runs_of(h, "skip")[0].run_id)
    at(h, T0 + 3 * HOUR)
    assert len(runs_of(h, "skip")) == 2


def test_buffer_one_keeps_one_time_and_starts_it_when_the_run_ends(h: Harness) -> None:
    create(h, spec("buf", start_ms=T0 + HOUR, overlap=schedule_pb2.OVERLAP_POLICY_BUFFER_ONE))
    at(h, T0 + HOUR)
    at(h, T0 + 2 * HOUR)
    at(h, T0 + 3 * HOUR)
    schedule = get(h, "buf")
    assert schedule.buffered_ms == T0 + 2 * HOUR and schedule.skipped_count == 1
    assert len(runs_of(h, "buf")) == 1
    stop(h, runs_of(h, "buf")[0].run_id)
    at(h, T0 + 3 * HOUR + MINUTE)
    runs = runs_of(h, "buf")
    assert len(runs) == 2 and get(h, "buf").buffered_ms == 0
    assert get(h, "buf").last_scheduled_ms == T0 + 2 * HOUR


def test_allow_all_overlaps_and_cancel_other_stops_the_last_run(h: Harness) -> None:
    create(h, spec("all", start_ms=T0 + HOUR))
    create(h, spec("cancel", start_ms=T0 + HOUR, overlap=schedule_pb2.OVERLAP_POLICY_CANCEL_OTHER))
    at(h, T0 + HOUR)
    at(h, T0 + 2 * HOUR)
    overlapping = runs_of(h, "all")
    assert len(overlapping) == 2
    assert all(run.state == run_pb2.RUN_STATE_RUNNING for run in overlapping)
    first, second = runs_of(h, "cancel")
    got = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=first.run_id)).run
    assert got.state == run_pb2.RUN_STATE_CANCELLED
    assert second.state == run_pb2.RUN_STATE_RUNNING


def test_catch_up_starts_the_times_within_the_window_and_misses_the_rest(h: Harness) -> None:
    create(
        h, spec("minutely", interval_ms=MINUTE, start_ms=T0 + MINUTE, catchup_window_ms=10 * MINUTE)
    )
    at(h, T0 + 30 * MINUTE)  # down for 30 minutes: 30 times fell
    schedule = get(h, "minutely")
    assert schedule.started_count == 11  # minutes 20..30: within 10 minutes of now
    assert schedule.missed_count == 19  # minutes 1..19: beyond the window
    assert len(runs_of(h, "minutely")) == 11
    assert schedule.next_ms == T0 + 31 * MINUTE


def test_the_default_window_is_a_minute(h: Harness) -> None:
    create(h, spec("late", start_ms=T0 + HOUR))
    at(h, T0 + HOUR + MINUTE + 1)
    assert get(h, "late").missed_count == 1 and not runs_of(h, "late")


def test_pause_resume_delete(h: Harness) -> None:
    create(h, spec("p", start_ms=T0 + HOUR))
    client = h.client("alice").schedules
    paused = client.PauseSchedule(schedule_pb2.PauseScheduleRequest(schedule_id="p")).schedule
    assert paused.state == schedule_pb2.SCHEDULE_STATE_PAUSED
    at(h, T0 + HOUR)
    at(h, T0 + 2 * HOUR + 30 * MINUTE)
    assert not runs_of(h, "p")
    resumed = client.ResumeSchedule(schedule_pb2.ResumeScheduleRequest(schedule_id="p")).schedule
    assert resumed.next_ms == T0 + 3 * HOUR  # the times fallen while paused never start
    at(h, T0 + 3 * HOUR)
    assert len(runs_of(h, "p")) == 1
    client.DeleteSchedule(schedule_pb2.DeleteScheduleRequest(schedule_id="p"))
    at(h, T0 + 4 * HOUR)
    assert len(runs_of(h, "p")) == 1 and get(h, "p").state == schedule_pb2.SCHEDULE_STATE_DELETED
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "SCHEDULE_DELETED"):
        client.ResumeSchedule(schedule_pb2.ResumeScheduleRequest(schedule_id="p"))
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "SCHEDULE_EXISTS"):
        create(h, spec("p", start_ms=T0 + 2 * HOUR))


def test_backfill_starts_each_past_time_once(h: Harness) -> None:
    create(h, spec("b", start_ms=T0 - 500 * HOUR))
    client = h.client("alice").schedules
    request = schedule_pb2.BackfillScheduleRequest(
        schedule_id="b", start_ms=T0 - 10 * HOUR, end_ms=T0 - 5 * HOUR
    )
    first = client.BackfillSchedule(request)
    assert first.started == 5 and len(first.run_ids) == 5
    again = client.BackfillSchedule(request)
    assert again.started == 0 and list(again.run_ids) == list(first.run_ids)
    assert len(runs_of(h, "b")) == 5
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "BACKFILL_RANGE_INVALID"):
        client.BackfillSchedule(
            schedule_pb2.BackfillScheduleRequest(
                schedule_id="b", start_ms=T0 - 500 * HOUR, end_ms=T0
            )
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "BACKFILL_RANGE_INVALID"):
        client.BackfillSchedule(
            schedule_pb2.BackfillScheduleRequest(schedule_id="b", start_ms=T0, end_ms=T0 + HOUR)
        )


def test_create_is_idempotent_by_schedule_id_and_validated(h: Harness) -> None:
    first = create(h, spec("same", start_ms=T0 + HOUR))
    again = h.client("alice").schedules.CreateSchedule(
        schedule_pb2.CreateScheduleRequest(spec=spec("same", start_ms=T0 + HOUR))
    )
    assert again.replayed and again.schedule == first
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "SCHEDULE_EXISTS"):
        create(h, spec("same", start_ms=T0 + 2 * HOUR))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "CALENDAR_INVALID"):
        create(h, spec("bad", cron="61 * * * *"))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "CALENDAR_INVALID"):
        create(h, spec("bad", cron="0 * * * *", time_zone="Mars/Olympus"))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "CALENDAR_INVALID"):
        create(h, spec("bad", interval_ms=10))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        create(h, spec("bad", overlap=schedule_pb2.OVERLAP_POLICY_UNSPECIFIED))
    with expect_error(grpc.StatusCode.NOT_FOUND, "SCHEDULE_NOT_FOUND"):
        get(h, "bad")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        create(h, spec("by-agent", start_ms=T0 + HOUR), principal="agent")


def test_a_cron_schedule_follows_its_time_zone(h: Harness) -> None:
    # T0 is 2027-01-15T08:00:00Z; 09:30 in Paris (UTC+1 in January) is 08:30Z.
    create(h, spec("paris", cron="30 9 * * *", time_zone="Europe/Paris"))
    assert get(h, "paris").next_ms == T0 + 30 * MINUTE
    at(h, T0 + 30 * MINUTE)
    assert len(runs_of(h, "paris")) == 1


def test_a_schedule_of_a_ref_needs_a_human_approval_of_its_material(h: Harness) -> None:
    r = registered(h, ref(run_id="nightly"))
    governed = spec("gov", start_ms=T0 + HOUR, ref=r)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_REQUIRED"):
        create(h, governed)
    alice = h.client("alice")
    review = alice.schedules.ReviewSchedule(schedule_pb2.ReviewScheduleRequest(spec=governed))
    assert '"CREATE_SCHEDULE"' in review.material_json
    other = alice.schedules.ReviewSchedule(
        schedule_pb2.ReviewScheduleRequest(spec=spec("gov", start_ms=T0 + 2 * HOUR, ref=r))
    )
    for approval_id, digest in (
        ("ap-other", other.material_digest),
        ("ap-gov", review.material_digest),
    ):
        alice.approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=digest,
                expires_at_ms=T0 + HOUR,
                work_order_id=r.work_order_id,
            )
        )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        create(h, governed, approval_id="ap-other")
    schedule = create(h, governed, approval_id="ap-gov")
    assert schedule.governed and schedule.work_order_id == r.work_order_id
    at(h, T0 + HOUR)
    at(h, T0 + 2 * HOUR)
    runs = runs_of(h, "gov")
    assert len(runs) == 2  # ad hoc runs of the ref's active definition: a ref runs once
    assert all(run.work_order_id == r.work_order_id and not run.ref.run_id for run in runs)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_CONSUMED"):
        create(h, spec("gov2", start_ms=T0 + HOUR, ref=r), approval_id="ap-gov")


@pytest.mark.backends("postgres-2")
def test_two_replicas_sweeping_at_once_start_each_time_once(h: Harness) -> None:
    """Two replicas on one PostgreSQL database sweep the same due times concurrently."""
    create(h, spec("raced", interval_ms=10 * MINUTE, start_ms=T0 + HOUR, catchup_window_ms=HOUR))
    engines = [server.engine for server in h.replicas]
    assert len(engines) == 2
    for hour in range(1, 25):
        h.clock.set(T0 + hour * HOUR)
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda engine: engine.schedules.sweep(), engines))
    runs = runs_of(h, "raced")
    assert len(runs) == 24 * 6 - 5  # every 10 minutes from T0 + 1h to T0 + 24h
    schedule = get(h, "raced")
    assert (schedule.started_count, schedule.missed_count) == (len(runs), 0)
