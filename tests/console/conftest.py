"""A real server (real SQLite file, system clock) and a real console on a loopback port,
in a process of its own as ``praxis serve --console`` runs it; Debian's Chromium driven by
Playwright for the browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from praxis.clock import SystemClock
from tests.support.console import TIMEOUT_MS, Console, ConsoleProcess
from tests.support.harness import start_server

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    database = tmp_path_factory.mktemp("console") / "praxis.db"
    harness = start_server(database, clock=SystemClock())  # type: ignore[arg-type]
    process = ConsoleProcess(harness.address)
    try:
        yield Console(harness, process, f"http://127.0.0.1:{process.port}")
    finally:
        process.stop()
        harness.close()


@pytest.fixture(scope="module")
def chromium_path() -> Path:
    """Debian's Chromium; its absence fails the tests under CI instead of skipping them."""
    if CHROMIUM.exists():
        return CHROMIUM
    message = "Chromium is not installed (scripts/install_chromium.sh installs it)"
    if os.environ.get("PRAXIS_REQUIRE_CHROMIUM") or os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium_path))
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, console: Console) -> Iterator[Page]:
    """A fresh browser context at 1366x900; a console error (a CSP violation, a script
    error) fails the test."""
    context = browser.new_context(
        base_url=console.base_url, viewport={"width": 1366, "height": 900}
    )
    context.set_default_timeout(TIMEOUT_MS)
    expect.set_options(timeout=TIMEOUT_MS)  # the machine may be busy; waits end early
    opened = context.new_page()
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        yield opened
    finally:
        context.close()
    assert problems == [], problems
