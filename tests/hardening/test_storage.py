"""Issue 13 item 6: storage failures answered honestly, health follows writes, and a
deleted or replaced database file is noticed (real SQLite files, no mocks)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from aiws.engine.v1 import run_pb2
from praxis.store.db.files import StorageError
from praxis.store.principals import lookups as principal_lookups
from tests.support.harness import Harness, expect_error, start_server
from tests.support.postgres import Cluster, required_binaries
from tests.support.runtime import definition, node

DOCUMENT = json.dumps(definition("a", a=node()))


def start(h: Harness, request_id: str, size: int = 10) -> run_pb2.StartRunResponse:
    return h.client("agent").runs.StartRun(  # type: ignore[no-any-return]
        run_pb2.StartRunRequest(
            request_id=request_id, definition_json=DOCUMENT, input_json=json.dumps("x" * size)
        )
    )


def health(h: Harness) -> int:
    stub = health_pb2_grpc.HealthStub(h.client("agent").channel)
    return stub.Check(health_pb2.HealthCheckRequest(service="")).status  # type: ignore[no-any-return]


SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Harness]:
    running = start_server(tmp_path / "praxis.db")
    try:
        yield running
    finally:
        running.close()


def _cap_pages(h: Harness, pages: int | None) -> None:
    """Sets SQLite's max_page_count on every new connection (None: no cap) and recycles
    the pool, as a full disk would look to the database."""
    engine = h.server.engine.db.engine
    for listener in getattr(engine, "_test_caps", []):
        event.remove(engine, "connect", listener)
    engine._test_caps = []  # type: ignore[attr-defined]
    if pages is not None:

        def cap(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

        event.listen(engine, "connect", cap)
        engine._test_caps.append(cap)  # type: ignore[attr-defined]
    engine.dispose()


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


def test_a_full_disk_is_resource_exhausted_and_not_serving(server: Harness, tmp_path: Path) -> None:
    first = start(server, "r-1").run.run_id
    with sqlite3.connect(tmp_path / "praxis.db") as connection:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
    _cap_pages(server, pages)
    with expect_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "STORAGE_FULL"):
        start(server, "r-2", size=200_000)
    assert health(server) == NOT_SERVING
    # Reads still work, and what was acknowledged is intact.
    assert server.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id=first)).run.run_id
    _cap_pages(server, None)
    start(server, "r-3", size=200_000)
    assert health(server) == SERVING
    server.close()
    assert integrity(tmp_path / "praxis.db") == "ok"


def test_a_read_only_database_is_unavailable_and_not_serving(
    server: Harness, tmp_path: Path
) -> None:
    start(server, "r-1")
    (tmp_path / "praxis.db").chmod(0o400)
    with expect_error(grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"):
        start(server, "r-2")
    assert health(server) == NOT_SERVING
    (tmp_path / "praxis.db").chmod(0o600)
    start(server, "r-3")
    assert health(server) == SERVING


def test_a_deleted_database_file_is_noticed_not_recreated(server: Harness, tmp_path: Path) -> None:
    run_id = start(server, "r-1").run.run_id
    for name in ("praxis.db", "praxis.db-wal", "praxis.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with expect_error(grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"):
        start(server, "r-2")
    # Past the principal cache's lifetime the caller's token is looked up again: that
    # read, too, must notice the missing file rather than open (and create) a new one.
    time.sleep(principal_lookups.CACHE_TTL_S * 2)
    with expect_error(grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"):
        server.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id))
    assert health(server) == NOT_SERVING
    assert not (tmp_path / "praxis.db").exists()  # no empty database was created


def test_a_connection_opened_after_the_file_is_deleted_creates_nothing(
    server: Harness, tmp_path: Path
) -> None:
    # A background reader that passed the guard just before the deletion opens its
    # connection after it: SQLite must refuse the missing file, not create an empty one
    # (which could take the deleted file's inode and pass the guard from then on).
    start(server, "r-1")
    for name in ("praxis.db", "praxis.db-wal", "praxis.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    engine = server.server.engine.db.engine
    engine.dispose()  # the next connection is a new one
    with pytest.raises(OperationalError, match="unable to open database file"):
        engine.connect()
    assert not (tmp_path / "praxis.db").exists()


def test_a_replaced_database_file_is_noticed(server: Harness, tmp_path: Path) -> None:
    start(server, "r-1")
    other = tmp_path / "other"
    other.mkdir()
    start_server(other / "praxis.db").close()
    os.replace(other / "praxis.db", tmp_path / "praxis.db")
    with expect_error(grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"):
        start(server, "r-2")


def test_a_restart_refuses_a_missing_or_replaced_database(tmp_path: Path) -> None:
    database = tmp_path / "praxis.db"
    start_server(database).close()
    saved = tmp_path / "saved.db"
    shutil.copy(database, saved)
    for name in ("praxis.db", "praxis.db-wal", "praxis.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.raises(StorageError):
        start_server(database)
    assert not database.exists()
    other = tmp_path / "other"
    other.mkdir()
    start_server(other / "praxis.db").close()
    shutil.copy(other / "praxis.db", database)
    with pytest.raises(StorageError):
        start_server(database)
    shutil.copy(saved, database)  # the original file restored: it serves again
    start_server(database).close()


def test_database_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        start_server(tmp_path / "praxis.db").close()
    finally:
        os.umask(previous)
    for name in ("praxis.db", "praxis.db.installation"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A cluster of its own: the test stops and restarts it."""
    own = Cluster(required_binaries())
    try:
        yield own
    finally:
        own.stop()


@pytest.mark.postgres
def test_an_unreachable_postgres_is_unavailable_and_not_serving(cluster: Cluster) -> None:
    """Issue 25 item 7: a PostgreSQL that becomes unreachable after start is a storage
    failure like a SQLite one (UNAVAILABLE / STORAGE_UNAVAILABLE, never INTERNAL), and
    health follows writes."""
    server: Harness = start_server(cluster.create_database())
    try:
        start(server, "r-1")
        cluster.halt()
        with expect_error(grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"):
            start(server, "r-2")
        assert health(server) == NOT_SERVING
        cluster.resume()
        start(server, "r-3")
        assert health(server) == SERVING
    finally:
        server.close()
