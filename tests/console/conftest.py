"""A real server (real SQLite file, system clock) and a real console on a loopback port."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from praxis.clock import SystemClock
from praxis_console.app import Settings
from praxis_console.serve import ConsoleThread, Listen
from tests.support.console import Console
from tests.support.harness import start_server

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    database = tmp_path_factory.mktemp("console") / "praxis.db"
    harness = start_server(database, clock=SystemClock())  # type: ignore[arg-type]
    thread = ConsoleThread(Settings(harness.address), Listen("127.0.0.1", 0))
    thread.start()
    try:
        yield Console(harness, thread, f"http://127.0.0.1:{thread.port}")
    finally:
        thread.stop()
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
