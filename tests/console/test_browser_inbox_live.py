"""The inbox's live view in a real headless Chromium: a snapshot rewrites only what
changed, so a listed item's row stays the same element (a click on it is never lost to a
redraw) and a new item takes its place among them; a later page keeps its own rows while
its counts stay live."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from praxis.clock import SystemClock
from praxis_console import inbox
from praxis_console.app import Settings
from praxis_console.serve import ConsoleThread, Listen
from tests.support.console import Console, expiring_approval
from tests.support.harness import start_server, token_of


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """The console on a thread of this process, not a child: a test here changes its
    page size (``inbox.PAGE_SIZE``)."""
    database = tmp_path_factory.mktemp("console-live") / "praxis.db"
    harness = start_server(database, clock=SystemClock())  # type: ignore[arg-type]
    thread = ConsoleThread(Settings(harness.address), Listen("127.0.0.1", 0))
    thread.start()
    try:
        yield Console(harness, thread, f"http://127.0.0.1:{thread.port}")
    finally:
        thread.stop()
        harness.close()


def _sign_in(page: Page, console: Console) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def _snapshots(page: Page, at_least: int) -> None:
    """Waits until the live view has applied ``at_least`` snapshots."""
    page.wait_for_function(
        "n => Number(document.getElementById('inbox').getAttribute('data-version') || 0) >= n",
        arg=at_least,
    )


def test_a_snapshot_keeps_the_rows_of_items_still_listed(page: Page, console: Console) -> None:
    expiring_approval(console, "ap-kept-1")
    expiring_approval(console, "ap-kept-2")
    _sign_in(page, console)
    rows = page.locator("#inbox-items tr")
    _snapshots(page, 1)
    page.evaluate(
        "() => { window.kept = Array.from(document.querySelectorAll('#inbox-items tr')); }"
    )

    expiring_approval(console, "ap-kept-3")  # a change: the live view sends a snapshot

    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("ap-kept-3")  # oldest first: the new one is last
    same = page.evaluate(
        "() => window.kept.map(row => document.getElementById('inbox-items').contains(row))"
    )
    assert same == [True, True], "a row of an item still listed was replaced"
    expect(rows.nth(0)).to_contain_text("ap-kept-1")
    expect(rows.nth(1)).to_contain_text("ap-kept-2")
    expect(page.locator('.count[data-kind="APPROVAL_EXPIRING"]')).to_have_text("3")


def test_a_later_page_keeps_its_rows_and_its_counts_stay_live(
    page: Page, console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inbox, "PAGE_SIZE", 1)  # the console runs in this process
    expiring_approval(console, "ap-later-1")
    expiring_approval(console, "ap-later-2")
    _sign_in(page, console)
    rows = page.locator("#inbox-items tr")
    expect(rows).to_have_count(1)
    page.get_by_role("link", name="Newer items").click()
    expect(page).to_have_url(re.compile(r"/inbox\?page_token="))
    later = rows.first.get_attribute("data-item")
    assert later
    expect(page.get_by_role("link", name="Oldest items")).to_be_visible()
    _snapshots(page, 1)
    before = int(page.locator('.count[data-kind="APPROVAL_EXPIRING"]').inner_text())

    expiring_approval(console, "ap-later-3")

    expect(page.locator('.count[data-kind="APPROVAL_EXPIRING"]')).to_have_text(str(before + 1))
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-item", later)  # not the first page's
    page.get_by_role("link", name="Oldest items").click()
    expect(page).to_have_url(f"{console.base_url}/inbox")
