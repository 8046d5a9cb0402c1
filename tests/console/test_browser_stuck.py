"""A stuck run in a real headless Chromium: the inbox page, open before the run is
stuck, shows it live once the clock passes the threshold (no write happens: WatchInbox
reports the change, the console reads the inbox again and pushes it), says that no
worker serves its model, and links to the run's page."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from aiws.engine.testing.v1 import clock_pb2
from aiws.engine.v1 import run_pb2
from tests.support.console import Console, ConsoleProcess, shot
from tests.support.harness import start_server, token_of
from tests.support.runtime import definition, node

STUCK_AFTER_MS = 5 * 60_000  # docs/operations.md


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """This module's console: in front of a server on a test clock (the conftest's runs
    on the system clock)."""
    harness = start_server(tmp_path_factory.mktemp("stuck") / "praxis.db")
    process = ConsoleProcess(harness.address)
    try:
        yield Console(harness, process, f"http://127.0.0.1:{process.port}")
    finally:
        process.stop()
        harness.close()


def test_a_stuck_run_appears_live_with_a_link_to_its_run(page: Page, console: Console) -> None:
    started = console.harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="stuck-1",
            definition_json=json.dumps(definition("a", a=node())),
            input_json="null",
        )
    )
    run_id = started.run.run_id

    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")
    expect(page.locator('.count[data-kind="STUCK_RUN"]')).to_have_text("0")
    expect(page.locator("#inbox-empty")).to_be_visible()

    console.harness.client("alice").test_clock.Advance(
        clock_pb2.AdvanceRequest(by_ms=STUCK_AFTER_MS)
    )
    row = page.locator("#inbox-items tr", has_text=run_id)
    expect(row).to_have_count(1)  # live, without a reload
    expect(row.locator(".tag")).to_have_text("Stuck run")
    expect(row).to_contain_text("no worker serves model 'echo'")
    expect(page.locator('.count[data-kind="STUCK_RUN"]')).to_have_text("1")
    shot(page, "20-inbox-stuck-run")

    row.get_by_role("link").click()
    expect(page).to_have_url(f"{console.base_url}/runs/{run_id}")
    expect(page.locator("main")).to_contain_text(run_id)
