"""The console's Schedules page in a real headless Chromium: a schedule's calendar, next
time, last run and counts, and its pause, resume and delete buttons."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Page, expect

from aiws.engine.v1 import schedule_pb2, task_pb2
from tests.support.console import Console
from tests.support.harness import token_of

HOUR = 3_600_000
PLAN = {
    "version": 1,
    "nodes": {"only": {"agent": {"model": "m-sched"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:only"},
}


def sign_in(page: Page, console: Console) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def test_the_schedules_page_shows_a_schedule_and_pauses_resumes_deletes_it(
    page: Page, console: Console
) -> None:
    h = console.harness
    h.client("agent").tasks.ClaimTasks(  # the model becomes known; nobody claims its work
        task_pb2.ClaimTasksRequest(
            worker_id="w", models=["m-sched"], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    start = (int(time.time() * 1000) // HOUR - 5) * HOUR
    schedules = h.client("alice").schedules
    schedules.CreateSchedule(
        schedule_pb2.CreateScheduleRequest(
            spec=schedule_pb2.ScheduleSpec(
                schedule_id="hourly-report",
                definition_json=json.dumps(PLAN),
                calendar=schedule_pb2.ScheduleCalendar(interval_ms=HOUR, start_ms=start),
                overlap=schedule_pb2.OVERLAP_POLICY_BUFFER_ONE,
            )
        )
    )
    filled = schedules.BackfillSchedule(
        schedule_pb2.BackfillScheduleRequest(
            schedule_id="hourly-report", start_ms=start, end_ms=start + 2 * HOUR
        )
    )
    sign_in(page, console)
    page.get_by_role("link", name="Schedules").click()
    row = page.locator('tr[data-schedule="hourly-report"]')
    expect(row.locator('[data-field="state"]')).to_have_text("active")
    expect(row.locator('[data-field="started"]')).to_have_text("2")
    expect(row).to_contain_text("every 3600 s")
    expect(row).to_contain_text("buffer-one")
    expect(row.get_by_role("link", name=filled.run_ids[-1])).to_be_visible()
    row.get_by_role("button", name="Pause").click()
    expect(row.locator('[data-field="state"]')).to_have_text("paused")
    expect(row.locator('[data-field="next"]')).to_have_text("none")
    row.get_by_role("button", name="Resume").click()
    expect(row.locator('[data-field="state"]')).to_have_text("active")
    row.get_by_role("button", name="Delete").click()  # asks first (issue 38)
    page.get_by_role("dialog").get_by_role("button", name="Delete schedule").click()
    expect(row.locator('[data-field="state"]')).to_have_text("deleted")
    expect(row.get_by_role("button")).to_have_count(0)


def test_a_state_change_without_the_csrf_token_is_refused(console: Console) -> None:
    client = console.signed_in("alice")
    response = client.post("/schedules/any/control", data={"action": "pause"})
    assert response.status_code == 403
