"""The pure decisions of schedules: calendars (cron in a time zone, intervals), the
catch-up window, the overlap policies and the start request id."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from praxis.core import calendar as calendars
from praxis.core import schedule as core

MINUTE = 60_000
HOUR = 60 * MINUTE


def ms(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp() * 1000)  # type: ignore[misc]


def cron(expression: str, zone: str = "", start: int = 0, end: int = 0) -> calendars.Calendar:
    return calendars.Calendar(expression, 0, zone, start, end)


def every(interval: int, start: int, end: int = 0) -> calendars.Calendar:
    return calendars.Calendar("", interval, "", start, end)


def spec(calendar: calendars.Calendar, overlap: core.Overlap, window: int = 0) -> core.Spec:
    return core.Spec("s", calendar, overlap, window, definition_json="{}")


def test_a_cron_time_is_read_in_its_time_zone() -> None:
    daily = cron("30 9 * * *", "Europe/Paris")
    assert calendars.first_at_or_after(daily, ms(2027, 1, 15)) == ms(2027, 1, 15, 8, 30)
    assert calendars.first_at_or_after(daily, ms(2027, 7, 15)) == ms(2027, 7, 15, 7, 30)


def test_daylight_saving_gaps_and_repeats_follow_croniter() -> None:
    nightly = cron("30 2 * * *", "Europe/Paris")
    # 2026-03-29: 02:00 -> 03:00 local; the skipped 02:30 falls at 03:00 (01:00Z).
    assert calendars.first_at_or_after(nightly, ms(2026, 3, 28, 12)) == ms(2026, 3, 29, 1)
    # 2026-10-25: 03:00 -> 02:00 local; 02:30 falls at both instants.
    first = calendars.first_at_or_after(nightly, ms(2026, 10, 24, 12))
    assert first == ms(2026, 10, 25, 0, 30)
    assert calendars.first_at_or_after(nightly, first + 1) == ms(2026, 10, 25, 1, 30)


def test_an_interval_is_phased_on_its_start_and_ends_before_its_end() -> None:
    hourly = every(HOUR, 1_000, end=1_000 + 3 * HOUR)
    assert calendars.first_at_or_after(hourly, 0) == 1_000
    assert calendars.first_at_or_after(hourly, 1_001) == 1_000 + HOUR
    assert calendars.times(hourly, 0, 10 * HOUR, 100) == [1_000 + k * HOUR for k in range(3)]
    assert calendars.first_at_or_after(hourly, 1_000 + 2 * HOUR + 1) == 0


def test_calendar_checks() -> None:
    assert calendars.check(every(HOUR, 0)) is None
    assert calendars.check(cron("*/5 * * * 1-5", "America/New_York")) is None
    for bad in (
        cron("* * * * * *"),  # six fields
        cron("61 * * * *"),
        cron("0 3 * * *", "Mars/Olympus"),
        cron("0 3 * * *", "../etc/passwd"),
        every(999, 0),
        calendars.Calendar("0 3 * * *", HOUR, "", 0, 0),
        calendars.Calendar("", 0, "", 0, 0),
        every(HOUR, 10, end=5),
    ):
        problem = calendars.check(bad)
        assert problem is not None and problem.reason == "CALENDAR_INVALID", bad


def test_overlap_policies() -> None:
    for policy in core.Overlap:
        assert core.overlap(policy, False, 0) is core.Action.START
    assert core.overlap(core.Overlap.ALLOW_ALL, True, 0) is core.Action.START
    assert core.overlap(core.Overlap.SKIP, True, 0) is core.Action.SKIP
    assert core.overlap(core.Overlap.BUFFER_ONE, True, 0) is core.Action.BUFFER
    assert core.overlap(core.Overlap.BUFFER_ONE, True, 5) is core.Action.SKIP
    assert core.overlap(core.Overlap.CANCEL_OTHER, True, 0) is core.Action.CANCEL_AND_START


def test_a_step_misses_what_fell_beyond_the_window_and_takes_the_next() -> None:
    minutely = spec(every(MINUTE, 0), core.Overlap.ALLOW_ALL, window=10 * MINUTE)
    step = core.step(minutely, MINUTE, 0, 30 * MINUTE, running=False)
    assert step == core.Step(20 * MINUTE, core.Action.START, 19, 21 * MINUTE, 0)
    assert core.step(minutely, 31 * MINUTE, 0, 30 * MINUTE, running=False) is None


def test_only_missed_times_still_advance_the_cursor() -> None:
    hourly = spec(every(HOUR, 0), core.Overlap.SKIP, window=MINUTE)
    step = core.step(hourly, HOUR, 0, HOUR + 2 * MINUTE, running=False)
    assert step == core.Step(0, None, 1, 2 * HOUR, 0)


def test_a_buffered_time_starts_first_once_the_run_ended() -> None:
    hourly = spec(every(HOUR, 0), core.Overlap.BUFFER_ONE)
    kept = core.step(hourly, 2 * HOUR, 0, 2 * HOUR, running=True)
    assert kept == core.Step(2 * HOUR, core.Action.BUFFER, 0, 3 * HOUR, 2 * HOUR)
    assert core.step(hourly, 3 * HOUR, 2 * HOUR, 2 * HOUR + 5, running=True) is None
    started = core.step(hourly, 3 * HOUR, 2 * HOUR, 2 * HOUR + 5, running=False)
    assert started == core.Step(2 * HOUR, core.Action.START, 0, 3 * HOUR, 0, from_buffer=True)


def test_a_huge_gap_jumps_to_the_window_after_a_bounded_count() -> None:
    secondly = spec(every(1_000, 0), core.Overlap.SKIP, window=MINUTE)
    now = 10**9
    step = core.step(secondly, 1_000, 0, now, running=False)
    assert step is not None and step.missed == core.MAX_MISSED_COUNTED
    assert step.scheduled_ms == now - MINUTE


@settings(deadline=None, max_examples=60)
@given(
    interval=st.integers(MINUTE, 10 * HOUR),
    start=st.integers(0, 10**12),
    ticks=st.lists(st.integers(1, 3 * HOUR), min_size=1, max_size=20),
)
def test_allow_all_with_a_wide_window_takes_every_time_once_in_order(
    interval: int, start: int, ticks: list[int]
) -> None:
    """However the sweeps fall, each time is taken once, in order, none missed."""
    found = spec(every(interval, start), core.Overlap.ALLOW_ALL, window=core.MAX_CATCHUP_WINDOW_MS)
    cursor, now, taken = start, start, []
    for tick in ticks:
        now += tick
        while (step := core.step(found, cursor, 0, now, running=True)) is not None:
            assert step.missed == 0
            taken.append(step.scheduled_ms)
            cursor = step.next_ms
    assert taken == calendars.times(found.calendar, start, now + 1, 10**6)


def test_request_ids_depend_on_schedule_and_time_only() -> None:
    assert core.request_id("s", 5) == "schedule:s:5" == core.request_id("s", 5)
    assert core.request_id("s", 5) != core.request_id("s", 6)
