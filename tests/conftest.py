"""Fixtures: a real server on a real SQLite file in tmp_path, or on PostgreSQL.

Modules marked ``pytest.mark.backends("sqlite", "postgres")`` run every test that uses
the ``harness`` (or ``model``) fixture on both databases; ``"postgres-2"`` runs it on two
server replicas sharing one PostgreSQL database, the client alternating between them.
Helpers live in ``tests/support/``; this file holds only fixtures and the hooks that
parametrize them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import postgres
from tests.support.execution import start_model_harness
from tests.support.harness import Harness, migrate, migrated, start_replicas, start_server
from tests.support.postgres import Cluster, required_binaries

POSTGRES_BACKENDS = ("postgres", "postgres-2")
SERVERS = frozenset({"harness", "model"})  # the fixtures that start a server on `database`


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends(*names): databases to run harness tests on")
    config.addinivalue_line(
        "markers", "postgres: needs PostgreSQL (set by tests/conftest.py, never by hand)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"harness", "model"} & set(metafunc.fixturenames):
        marker = metafunc.definition.get_closest_marker("backends")
        metafunc.parametrize("backend", marker.args if marker else ("sqlite",), indirect=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks ``postgres`` every test that runs on PostgreSQL: one that uses the cluster, or
    the ``postgres``/``postgres-2`` variant of a harness test. ``-m "not postgres"``
    leaves the SQLite half (``make test-fast``)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec else None
        if backend in POSTGRES_BACKENDS or "postgres_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture of the test: whether it may reach PostgreSQL. One that does
    without the ``postgres`` marker (a cluster asked for by ``request.getfixturevalue``)
    fails instead of slipping into ``-m "not postgres"`` (``tests/support/postgres.py``)."""
    postgres.expect_marked(item.get_closest_marker("postgres") is not None)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster: one per pytest-xdist worker (each worker is a
    session of its own), so workers never share a cluster, a port or a database."""
    cluster = Cluster(required_binaries())
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database the harness runs on."""
    return str(request.param)


@pytest.fixture
def database(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Path | str:
    """A fresh database: a SQLite file path, or a PostgreSQL URL. For a test that serves
    it (``harness``, ``model``) it is already migrated: a copy of a database migrated once
    per worker, since migrating took most of a server's start-up."""
    serving = not SERVERS.isdisjoint(request.fixturenames)  # else it may test migrating
    if backend in POSTGRES_BACKENDS:
        cluster = request.getfixturevalue("postgres_cluster")
        url: str = cluster.create_database(migrate if serving else None)
        return url
    return migrated(tmp_path / "praxis.db") if serving else tmp_path / "praxis.db"


@pytest.fixture
def harness(database: Path | str, backend: str) -> Iterator[Harness]:
    """A running server with the test principals and a test clock.

    ``postgres-2``: two replicas on one PostgreSQL database sharing the test clock; the
    harness's clients round-robin their calls over both (client-side load balancing).
    """
    running = start_replicas(database, 2) if backend == "postgres-2" else start_server(database)
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def model(database: Path | str, backend: str) -> Iterator[Harness]:
    """A running server with the model principals (on the ``backend`` database; two
    replicas with round-robin clients on ``postgres-2``)."""
    running = start_model_harness(database, backend)
    try:
        yield running
    finally:
        running.close()
