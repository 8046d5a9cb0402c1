"""A schedule over a simulated week, served by two server processes on one SQLite file,
one of them SIGKILLed twice mid-sweep: every due time starts exactly one run."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from aiws.engine.testing.v1 import clock_pb2
from aiws.engine.v1 import schedule_pb2
from praxis_client import Client, connect
from tests.support.harness import T0, token_of
from tests.support.schedules import HOUR, spec
from tests.support.server_process import ServerProcess, free_port, write_config

DAY = 24 * HOUR
STEP = 6 * HOUR  # each clock step makes six hourly times due at once: sweeps take a while
KILLS = {7, 18}  # the steps after which process one is SIGKILLed mid-sweep
RESTARTS = {9, 21}


def _set(clients: list[Client], now_ms: int) -> None:
    for client in clients:
        client.test_clock.SetTime(clock_pb2.SetTimeRequest(now_ms=now_ms), timeout=5)


def _caught_up(client: Client, now_ms: int) -> bool:
    schedule = client.schedules.GetSchedule(
        schedule_pb2.GetScheduleRequest(schedule_id="week"), timeout=5
    ).schedule
    return schedule.next_ms > now_ms


def _wait(client: Client, now_ms: int, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not _caught_up(client, now_ms):
        assert time.monotonic() < deadline, f"the schedule did not reach {now_ms}"
        time.sleep(0.02)


@pytest.mark.serial  # SIGKILLs two processes in turn: the machine to itself (make test-python)
def test_a_week_of_hourly_times_starts_each_once_across_two_processes_and_sigkills(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, synchronous="NORMAL")
    one = ServerProcess(config, free_port(), "--test-clock", str(T0))
    two = ServerProcess(config, free_port(), "--test-clock", str(T0))
    one.start()
    two.start()
    first = connect(one.address, token_of("alice"))
    second = connect(two.address, token_of("alice"))
    second.schedules.CreateSchedule(
        schedule_pb2.CreateScheduleRequest(
            spec=spec("week", start_ms=T0 + HOUR, catchup_window_ms=DAY)
        )
    )
    live = [first, second]
    now = T0
    try:
        for step in range(1, 7 * DAY // STEP + 1):
            now = T0 + step * STEP
            if step in RESTARTS:
                one.extra_args = ("--test-clock", str(now))
                one.start()
                first.close()
                first = connect(one.address, token_of("alice"))
                live = [first, second]
            _set(live, now)
            if step in KILLS:
                time.sleep(0.001 * step)  # somewhere inside its sweep of six times
                one.kill()
                live = [second]
            _wait(second, now)
    finally:
        for client in (first, second):
            client.close()
        for server in (one, two):
            if server.process is not None and server.process.poll() is None:
                server.terminate()
    with sqlite3.connect(f"file:{tmp_path / 'praxis.db'}?mode=ro", uri=True) as probe:
        started = probe.execute(
            "SELECT request_id, count(*) FROM runs WHERE request_id LIKE 'schedule:week:%'"
            " GROUP BY request_id"
        ).fetchall()
        counts = probe.execute(
            "SELECT started_count, missed_count, failed_count, next_ms FROM schedules"
        ).fetchone()
    hours = [T0 + hour * HOUR for hour in range(1, 7 * 24 + 1)]
    assert sorted(started) == sorted((f"schedule:week:{at}", 1) for at in hours)
    assert counts == (len(hours), 0, 0, now + HOUR), json.dumps(counts)
