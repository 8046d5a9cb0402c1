"""End-to-end tests run real server subprocesses; none may outlive its test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.server_process import kill_leftovers


@pytest.fixture(autouse=True)
def _no_leftover_servers() -> Iterator[None]:
    yield
    kill_leftovers()
