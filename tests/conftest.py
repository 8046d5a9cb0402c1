"""Fixtures: a real server on a real SQLite file in tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import Harness, start_server


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    """A running server with the test principals and a test clock."""
    running = start_server(tmp_path / "praxis.db")
    try:
        yield running
    finally:
        running.close()
