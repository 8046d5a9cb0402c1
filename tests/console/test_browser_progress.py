"""Progress from workers on the console's run page, in a real headless Chromium: a
praxis_client Worker's handler reports progress twice while the page is open; each report
shows in the node's row live (WatchRun, pushed over server-sent events), without a
reload, and the last one stays once the run completed."""

from __future__ import annotations

import json
import threading

from playwright.sync_api import Page, expect

from aiws.engine.v1 import run_pb2
from praxis_client.worker import TaskContext, Worker
from tests.support.console import Console, shot
from tests.support.harness import token_of
from tests.support.runtime import definition, node


def test_the_run_page_shows_each_progress_report_live(page: Page, console: Console) -> None:
    first_shown, finish = threading.Event(), threading.Event()

    def handle(task: TaskContext) -> object:
        task.progress("indexing 1 of 2", {"done": 1, "total": 2})
        first_shown.wait(30)
        task.progress("indexing 2 of 2", {"done": 2, "total": 2})
        finish.wait(30)
        return "indexed"

    h = console.harness
    worker = Worker(h.client("agent"), ["echo"], handle, poll_ms=200).start()
    try:
        run_id = (
            h.client("agent")
            .runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id="progress-page",
                    definition_json=json.dumps(definition("a", a=node())),
                    input_json="null",
                )
            )
            .run.run_id
        )
        page.goto("/signin")
        page.get_by_label("Bearer token").fill(token_of("alice"))
        page.get_by_label("Bearer token").press("Enter")
        page.goto(f"/runs/{run_id}")
        report = page.locator('#nodes tr[data-uid="a"] [data-field="report"]')
        expect(page.locator("#nodes th", has_text="Worker progress")).to_have_count(1)
        expect(report).to_have_text('indexing 1 of 2 {"done":1,"total":2}')
        first_shown.set()
        expect(report).to_have_text('indexing 2 of 2 {"done":2,"total":2}')  # live
        expect(page.locator("#live-status")).to_have_text("Live")
        shot(page, "30-run-progress")
        finish.set()
        expect(page.locator("#run-state")).to_have_text("COMPLETED")
        expect(report).to_have_text('indexing 2 of 2 {"done":2,"total":2}')
    finally:
        first_shown.set()
        finish.set()
        worker.stop(5)
