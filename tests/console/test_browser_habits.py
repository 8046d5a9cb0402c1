"""The console a person expects (issue 38, item 3), in Debian's headless Chromium: times
in the browser's zone with the zone shown (UTC on hover and by a switch), a search on the
runs page, Resume on a failed or stopped run (a governed one through its review), a
confirmation before every destructive action that changes nothing when dismissed, a
phone's width without page-level overflow, the Deliveries filter in a row, and empty
states that say what to do. Each new page state is saved under docs/console/."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect

from aiws.engine.v1 import common_pb2, run_pb2, schedule_pb2, task_pb2
from tests.support.console import TIMEOUT_MS, Console, register, shot
from tests.support.harness import Harness, token_of
from tests.support.paths import ROOT

DOCS = ROOT / "docs" / "console"
PHONE = {"width": 390, "height": 844}
MODEL = "m-habits"  # no worker serves it: the runs wait, and can be stopped and resumed
PLAN = {
    "version": 1,
    "nodes": {"only": {"agent": {"model": MODEL}, "input": {"from": "run_input"}}},
    "output": {"from": "node:only"},
}
# Whether anything makes the page itself wider than the window (a table scrolling in its
# own box does not).
OVERFLOW = """() => {
const inScrollBox = (e) => {
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== "visible") return true;
  }
  return false;
};
return {page: document.documentElement.scrollWidth, body: document.body.scrollWidth,
  window: window.innerWidth,
  wide: Array.from(document.querySelectorAll("body *")).filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > window.innerWidth + 0.5 && !inScrollBox(e);
  }).map((e) => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className).slice(0, 5),
  broken: Array.from(document.querySelectorAll("h1 code, dl.facts dd code")).filter(
    (e) => e.getClientRects().length > 1)
    .map((e) => e.textContent)};
}"""


def doc_shot(page: Page, name: str) -> None:
    """The screenshot of a new page state, committed under docs/console/ (and the usual
    copy under test-artifacts/)."""
    shot(page, name)
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / f"{name}.png"), full_page=True)


def sign_in(page: Page, console: Console) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


@pytest.fixture(scope="module")
def known_model(console: Console) -> None:
    """The model becomes known (an empty claim, once, before any run of it); nobody
    claims its work."""
    console.harness.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-habits", models=[MODEL], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )


def start(h: Harness, request_id: str, labels: dict[str, str] | None = None) -> run_pb2.Run:
    started = h.client("alice").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id,
            definition_json=json.dumps(PLAN),
            input_json='"x"',
            labels=labels or {},
        )
    )
    return started.run


def state_of(h: Harness, run_id: str) -> str:
    run = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    return str(run_pb2.RunState.Name(run.state))


def stop(h: Harness, run_id: str) -> None:
    h.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id, reason="operator halt"))


@pytest.fixture
def eastern(browser: Browser, console: Console) -> Iterator[Page]:
    """A browser in New York (EST in December), en-US."""
    context = browser.new_context(
        base_url=console.base_url,
        viewport={"width": 1366, "height": 900},
        timezone_id="America/New_York",
        locale="en-US",
    )
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        yield opened
    finally:
        context.close()
    assert problems == [], problems


def test_empty_states_say_what_to_do(page: Page, console: Console) -> None:
    # First in this module: its server holds no run, ref, delivery or inbox item yet.
    sign_in(page, console)
    expect(page.locator("#inbox-empty")).to_contain_text("appear here as they arrive")
    doc_shot(page, "habits-empty-inbox")
    page.goto("/runs")
    expect(page.locator("#runs-empty")).to_contain_text("praxis runs start")
    doc_shot(page, "habits-empty-runs")
    page.goto("/runs?work_order=wo-nothing-here")
    expect(page.locator("#runs-empty")).to_contain_text("all runs")
    page.goto("/registry")
    expect(page.locator("#refs-empty")).to_contain_text("praxis register")
    page.goto("/schedules")
    expect(page.locator("#schedules-empty")).to_contain_text("praxis schedules create")
    page.goto("/deliveries")
    expect(page.locator("#deliveries-empty")).to_contain_text("notify")


def test_times_are_in_the_browsers_zone_with_utc_on_hover_and_a_switch(
    eastern: Page, console: Console, known_model: None
) -> None:
    run = start(console.harness, "habits-time")
    at = run.created_at_ms
    utc = datetime.fromtimestamp(at / 1000, ZoneInfo("UTC"))
    local = datetime.fromtimestamp(at / 1000, ZoneInfo("America/New_York"))
    millis = f".{at % 1000:03d}"
    utc_text = utc.strftime("%Y-%m-%d %H:%M:%S") + millis + " UTC"
    local_text = local.strftime("%Y-%m-%d %H:%M:%S") + millis + " " + local.strftime("%Z")
    assert local.strftime("%Z") in ("EST", "EDT")

    sign_in(eastern, console)
    eastern.goto(f"/runs?q={run.run_id}")
    created = eastern.locator("#runs tbody tr").first.locator("time").first
    expect(created).to_have_text(local_text)
    expect(created).to_have_attribute("title", utc_text)  # UTC on hover
    expect(eastern.locator("#time-zone")).to_have_text("America/New_York")
    doc_shot(eastern, "habits-times-local")

    eastern.get_by_role("button", name="Show times in UTC").click()
    expect(created).to_have_text(utc_text)
    expect(created).to_have_attribute("title", local_text)
    eastern.reload()  # the choice is remembered
    created = eastern.locator("#runs tbody tr").first.locator("time").first
    expect(created).to_have_text(utc_text)
    expect(eastern.locator("#time-zone")).to_have_text("UTC")
    eastern.goto(f"/runs/{run.run_id}")  # every page, the run page's facts too
    expect(eastern.locator("dl.facts time").first).to_have_text(utc_text)
    eastern.get_by_role("button", name="Show times in America/New_York").click()
    expect(eastern.locator("dl.facts time").first).to_have_text(local_text)


def test_the_runs_page_searches_by_id_label_ref_and_state(
    page: Page, console: Console, known_model: None
) -> None:
    h = console.harness
    labelled = start(h, "habits-search-a", {"team": "search"})
    other = start(h, "habits-search-b", {"team": "billing"})
    stopped = start(h, "habits-search-c", {"team": "search"})
    stop(h, stopped.run_id)
    register(h, "wo-habits-search", "nightly", PLAN)
    governed = (
        h.client("alice")
        .runs.StartRun(
            run_pb2.StartRunRequest(
                request_id="habits-search-ref",
                ref=common_pb2.WorkflowRef(work_order_id="wo-habits-search", run_id="nightly"),
                input_json='"x"',
            )
        )
        .run
    )

    def found(query: str) -> set[str]:
        page.get_by_label("Search").fill(query)
        page.get_by_label("Search").press("Enter")
        expect(page.get_by_label("Search")).to_have_value(query)
        rows = page.locator("#runs tbody tr td:first-child a[href^='/runs/']")
        return set(rows.all_inner_texts())

    sign_in(page, console)
    page.goto("/runs")
    assert found(labelled.run_id) == {labelled.run_id}
    assert found("team=search") == {labelled.run_id, stopped.run_id}
    doc_shot(page, "habits-runs-search")
    assert found("team=search cancelled") == {stopped.run_id}
    assert found("label:team=billing") == {other.run_id}
    assert found("wo-habits-search/nightly") == {governed.run_id}
    assert found(f"{labelled.run_id} cancelled") == set()  # the id, but not in that state
    assert found("run_does_not_exist") == set()
    expect(page.locator("#runs-empty")).to_contain_text("No run matches")
    expect(page.locator("#runs-empty")).to_contain_text("run_does_not_exist")
    doc_shot(page, "habits-runs-search-empty")
    page.get_by_label("Search").fill("state:sleeping")
    page.get_by_label("Search").press("Enter")
    expect(page.locator("#search-problem")).to_contain_text("not a run state")
    doc_shot(page, "habits-runs-search-problem")
    page.goto("/runs")
    page.locator('a.tag[href*="team%3Dbilling"]').first.click()  # a label links to its search
    expect(page.get_by_label("Search")).to_have_value("team=billing")


def test_a_stopped_ad_hoc_run_is_resumed_from_its_page(
    page: Page, console: Console, known_model: None
) -> None:
    h = console.harness
    run = start(h, "habits-resume-adhoc")
    stop(h, run.run_id)
    sign_in(page, console)
    page.goto(f"/runs/{run.run_id}")
    expect(page.locator("#run-state")).to_have_text("CANCELLED")
    page.get_by_label("Reason").fill("halt lifted")
    doc_shot(page, "habits-run-resume")
    page.get_by_role("button", name="Resume run").click()
    expect(page.locator("#resume-outcome")).to_be_visible()
    doc_shot(page, "habits-run-resumed")
    assert state_of(h, run.run_id) in ("RUN_STATE_RUNNING", "RUN_STATE_AWAITING_NODES")
    expect(page.get_by_role("button", name="Resume run")).to_have_count(0)


def test_a_governed_run_resumes_through_its_review(
    page: Page, console: Console, known_model: None
) -> None:
    h = console.harness
    register(h, "wo-habits-resume", "daily", PLAN)
    run = (
        h.client("alice")
        .runs.StartRun(
            run_pb2.StartRunRequest(
                request_id="habits-resume-governed",
                ref=common_pb2.WorkflowRef(work_order_id="wo-habits-resume", run_id="daily"),
                input_json='"x"',
            )
        )
        .run
    )
    stop(h, run.run_id)
    sign_in(page, console)
    page.goto(f"/runs/{run.run_id}")
    page.get_by_label("Reason").fill("restart after the fix")
    page.get_by_role("button", name="Review and resume").click()
    expect(page.locator("h1")).to_contain_text("Resume run")
    expect(page.locator("#material-digest")).to_contain_text("sha256:")
    expect(page.locator("#resume-nodes")).to_contain_text("only")
    expect(page.locator("#resume-reason")).to_have_text("restart after the fix")
    assert state_of(h, run.run_id) == "RUN_STATE_CANCELLED"  # a review changes nothing
    doc_shot(page, "habits-run-resume-review")
    page.get_by_role("button", name="Approve and resume").click()
    expect(page.locator("#resume-outcome")).to_be_visible()
    assert state_of(h, run.run_id) in ("RUN_STATE_RUNNING", "RUN_STATE_AWAITING_NODES")


def test_a_dismissed_confirmation_changes_nothing(
    page: Page, console: Console, known_model: None
) -> None:
    h = console.harness
    run = start(h, "habits-confirm-stop")
    sign_in(page, console)
    page.goto(f"/runs/{run.run_id}")
    page.get_by_label("Reason").fill("no longer needed")
    page.get_by_role("button", name="Stop run").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(run.run_id)
    doc_shot(page, "habits-confirm-stop")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Stop run").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")  # dismissed too
    expect(dialog).to_be_hidden()
    page.reload()
    assert state_of(h, run.run_id) in ("RUN_STATE_RUNNING", "RUN_STATE_AWAITING_NODES")
    page.get_by_label("Reason").fill("no longer needed")
    page.get_by_role("button", name="Stop run").click()
    dialog.get_by_role("button", name="Stop run").click()  # confirmed: now it stops
    expect(page.locator("#stop-outcome")).to_contain_text("stopped")
    assert state_of(h, run.run_id) == "RUN_STATE_CANCELLED"

    h.client("alice").schedules.CreateSchedule(
        schedule_pb2.CreateScheduleRequest(
            spec=schedule_pb2.ScheduleSpec(
                schedule_id="habits-keep",
                definition_json=json.dumps(PLAN),
                calendar=schedule_pb2.ScheduleCalendar(interval_ms=86_400_000),
                overlap=schedule_pb2.OVERLAP_POLICY_SKIP,
            )
        )
    )
    page.goto("/schedules")
    row = page.locator('tr[data-schedule="habits-keep"]')
    row.get_by_role("button", name="Delete").click()
    expect(dialog).to_contain_text("habits-keep")
    dialog.get_by_role("button", name="Cancel").click()
    page.reload()
    expect(row.locator('[data-field="state"]')).to_have_text("active")

    page.goto("/workorders/wo-habits-keep")
    page.get_by_label("Reason").nth(1).fill("for good")
    page.get_by_role("button", name="Cancel for good").click()
    expect(dialog).to_contain_text("wo-habits-keep")
    doc_shot(page, "habits-confirm-cancel-work-order")
    dialog.get_by_role("button", name="Cancel", exact=True).click()
    page.reload()
    expect(page.locator("#control-state")).to_have_text("ACTIVE")


@pytest.mark.parametrize(
    "where",
    ["/inbox", "/runs", "RUN", "/registry", "/contracts", "/schedules", "/deliveries"],
)
def test_a_phone_width_has_no_page_overflow(
    browser: Browser, console: Console, known_model: None, where: str
) -> None:
    h = console.harness
    run = start(h, f"habits-phone-{where.strip('/') or 'run'}", {"team": "search"})
    context = browser.new_context(base_url=console.base_url, viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        sign_in(page, console)
        page.goto(f"/runs/{run.run_id}" if where == "RUN" else where)
        expect(page.get_by_role("navigation", name="Main")).to_be_visible()
        measured = page.evaluate(OVERFLOW)
        assert measured["page"] <= PHONE["width"], measured
        assert measured["body"] <= PHONE["width"], measured
        assert measured["wide"] == [], measured
        assert measured["broken"] == [], measured  # an id on one line (it may scroll)
        name = "run" if where == "RUN" else where.strip("/")
        doc_shot(page, f"habits-phone-{name}")
    finally:
        context.close()


def test_the_deliveries_filter_is_a_row_of_links_without_bullets(
    page: Page, console: Console
) -> None:
    sign_in(page, console)
    page.goto("/deliveries")
    items = page.locator('nav[aria-label="Delivery state"] li')
    assert items.count() >= 3
    boxes = []
    for index in range(items.count()):
        style = items.nth(index).evaluate("(e) => getComputedStyle(e).listStyleType")
        assert style == "none", style
        box = items.nth(index).locator("a").bounding_box()
        assert box is not None
        boxes.append(box)
    for left, right in itertools.pairwise(boxes):  # side by side, never overlapping
        assert left["x"] + left["width"] <= right["x"] or left["y"] + left["height"] <= right["y"]
    doc_shot(page, "habits-deliveries-filter")
