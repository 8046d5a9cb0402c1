"""End-to-end tests run real server subprocesses; none may outlive its test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli_shell import Shell
from tests.support.server_process import ServerProcess, free_port, kill_leftovers, write_config


@pytest.fixture(autouse=True)
def _no_leftover_servers() -> Iterator[None]:
    yield
    kill_leftovers()


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    """The real ``praxis`` command against a server subprocess of its own."""
    server = ServerProcess(write_config(tmp_path / "server"), free_port())
    server.start(timeout_s=90)  # a shared, loaded machine can be slow to start a server
    try:
        yield Shell(server.address, tmp_path)
    finally:
        server.terminate()
