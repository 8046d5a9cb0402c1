"""A real server (real SQLite file, system clock) and a real console on a loopback port."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from praxis.clock import SystemClock
from praxis_console.app import Settings
from praxis_console.serve import ConsoleThread, Listen
from tests.support.harness import Harness, start_server, token_of

CHROMIUM = Path("/usr/bin/chromium")


@dataclass
class Console:
    """A console serving on ``base_url`` in front of ``harness``."""

    harness: Harness
    thread: ConsoleThread
    base_url: str

    def signed_in(self, principal_id: str) -> httpx.Client:
        """An HTTP client with a session of ``principal_id`` (its CSRF token in .csrf)."""
        client = httpx.Client(base_url=self.base_url, follow_redirects=False, timeout=20)
        response = client.post("/signin", data={"token": token_of(principal_id)})
        assert response.status_code == 303, response.text
        return client


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
