"""A run whose outcome is decided while its work settles, on the console's run page in a
real headless Chromium (issue 37, items 1 and 2): a stop asks the running attempts to
stop and says so; a run whose orphan still runs shows COMPLETING and what it waits for,
and turns COMPLETED live once the orphan's worker reported."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from tests.support.console import Console, shot
from tests.support.harness import Harness, token_of
from tests.support.runtime import definition, json_out, node


def sign_in(page: Page) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")


def start(h: Harness, request_id: str, document: dict[str, object]) -> str:
    started = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id, definition_json=json.dumps(document), input_json="null"
        )
    )
    return started.run.run_id


def claim(h: Harness) -> dict[str, task_pb2.Task]:
    claimed = h.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(worker_id="w1", models=["echo"], max_tasks=10, lease_ms=60_000)
    )
    return {task.node_uid: task for task in claimed.tasks}


def complete(h: Harness, task: task_pb2.Task, result: object) -> None:
    h.client("agent").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            result_json=json.dumps(result),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )


def test_a_run_completing_under_a_running_orphan_shows_what_it_waits_for(
    page: Page, console: Console
) -> None:
    h = console.harness
    document = definition(
        "out", out=node(output=json_out()), side=node(output=json_out(), effects="external")
    )
    run_id = start(h, "settling-page", document)
    tasks = claim(h)
    complete(h, tasks["out"], {"answer": 42})
    sign_in(page)
    page.goto(f"/runs/{run_id}")
    expect(page.locator("#run-state")).to_have_text("COMPLETING")
    settling = page.locator("#run-settling")
    expect(settling).to_be_visible()
    expect(settling).to_contain_text("becomes COMPLETED")
    expect(settling).to_contain_text("1 attempt(s) asked to stop")
    expect(page.locator('#nodes tr[data-uid="side"] [data-field="state"]')).to_have_text("STOPPING")
    expect(page.locator("#stop-run")).to_have_count(0)  # the outcome is decided
    shot(page, "40-run-completing")
    complete(h, tasks["side"], {"posted": True})  # the orphan's worker reports
    expect(page.locator("#run-state")).to_have_text("COMPLETED")  # live
    expect(settling).to_be_hidden()
    expect(page.locator('#nodes tr[data-uid="side"] [data-field="state"]')).to_have_text("DONE")


def test_stopping_a_run_from_its_page_asks_its_attempts_to_stop(
    page: Page, console: Console
) -> None:
    h = console.harness
    run_id = start(h, "stopping-page", definition("a", a=node(effects="external")))
    claim(h)
    sign_in(page)
    page.goto(f"/runs/{run_id}")
    page.get_by_label("Reason").fill("wrong input")
    page.get_by_role("button", name="Stop run").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("asked to stop")
    dialog.get_by_role("button", name="Stop run").click()  # confirmed
    expect(page.locator("#stop-outcome")).to_contain_text("Stop requested")
    expect(page.locator("#run-state")).to_have_text("CANCELLING")
    expect(page.locator("#run-settling")).to_contain_text("becomes CANCELLED")
    shot(page, "41-run-cancelling")
