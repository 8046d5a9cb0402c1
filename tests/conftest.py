"""Fixtures: a real server on a real SQLite file in tmp_path, or on PostgreSQL.

Modules marked ``pytest.mark.backends("sqlite", "postgres")`` run every test that uses
the ``harness`` (or ``model``) fixture on both databases.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import postgres_cluster  # noqa: F401  # fixture
from tests.support import Harness, start_server


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends(*names): databases to run harness tests on")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"harness", "model"} & set(metafunc.fixturenames):
        marker = metafunc.definition.get_closest_marker("backends")
        metafunc.parametrize("backend", marker.args if marker else ("sqlite",), indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database the harness runs on."""
    return str(request.param)


@pytest.fixture
def database(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Path | str:
    """A fresh database: a SQLite file path, or a PostgreSQL URL."""
    if backend == "postgres":
        url: str = request.getfixturevalue("postgres_cluster").create_database()
        return url
    return tmp_path / "praxis.db"


@pytest.fixture
def harness(database: Path | str) -> Iterator[Harness]:
    """A running server with the test principals and a test clock."""
    running = start_server(database)
    try:
        yield running
    finally:
        running.close()
