"""A pooled PostgreSQL connection that died is replaced without failing a command.

The engine does not ping every checkout (``pool_pre_ping`` costs a round trip per
command): a write whose pooled connection is dead fails in its first round trip (its
BEGIN, the installation's lock and, for a command, its first statement travel together),
before anything of it ran, and begins again once on a fresh connection; a connection
idle for ``dialect.IDLE_PING_S`` is pinged at checkout. A disconnect later in a
transaction is never retried: the command fails as UNAVAILABLE.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from praxis.store.db import dialect, files
from praxis.store.db.database import Database
from praxis.store.runtime.rows.attempts import load_attempt
from praxis.store.schema import MIGRATIONS
from tests.support.postgres import Cluster


@pytest.fixture
def cluster(postgres_cluster: Cluster) -> Cluster:
    return postgres_cluster


@pytest.fixture
def db(cluster: Cluster) -> Iterator[Database]:
    database = Database(cluster.create_database(), pool_size=4)
    database.migrate(0, MIGRATIONS)
    database.engine.dispose()  # one connection from here on: the one the test terminates
    try:
        yield database
    finally:
        database.close()


def _backend(connection: Connection) -> int:
    return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _terminate(cluster: Cluster, pid: int) -> None:
    with psycopg.connect(cluster.dsn("postgres"), autocommit=True) as admin:
        row = admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()
        assert row is not None and row[0] is True
        # Termination is asynchronous: wait until the backend is gone.
        gone = "SELECT 1 FROM pg_stat_activity WHERE pid = %s"
        for _ in range(1000):
            if admin.execute(gone, (pid,)).fetchone() is None:
                return
            time.sleep(0.01)
        raise AssertionError(f"backend {pid} is still there")


def test_a_write_on_a_terminated_pooled_connection_begins_again(
    db: Database, cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialect, "IDLE_PING_S", 3600.0)  # no ping: the retry must do it
    first = db.transact(_backend, scoped=True)
    _terminate(cluster, first)
    calls: list[int] = []

    def body(connection: Connection) -> int:
        calls.append(1)
        return _backend(connection)

    second = db.transact(body, scoped=True)
    assert second != first  # a fresh connection
    assert calls == [1, 1]  # its first statement found the connection dead: again


@pytest.mark.parametrize("bodies", [1, 2])
def test_a_command_whose_first_raw_statement_finds_the_connection_dead_begins_again(
    db: Database, cluster: Cluster, monkeypatch: pytest.MonkeyPatch, bodies: int
) -> None:
    """The same through a raw statement (praxis.store.db.libpq), alone or as the first
    of a group of commands sharing one transaction (bodies of one run)."""
    monkeypatch.setattr(dialect, "IDLE_PING_S", 3600.0)
    first = db.transact(_backend, scoped=True)
    _terminate(cluster, first)
    calls: list[int] = []

    def body(connection: Connection) -> None:
        calls.append(1)
        assert load_attempt(connection, "a1") is None

    answers = db.transact_many([body] * bodies, scoped=True, keys=["r1"] * bodies)
    assert answers == [None] * bodies
    assert len(calls) == bodies + 1  # the first body ran twice, the others once
    assert db.transact(_backend, scoped=True) != first


def test_an_exclusive_write_on_a_terminated_pooled_connection_begins_again(
    db: Database, cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialect, "IDLE_PING_S", 3600.0)
    with db.write() as connection:
        first = _backend(connection)
    _terminate(cluster, first)
    with db.write() as connection:
        assert _backend(connection) != first


def test_a_disconnect_after_the_first_statement_is_not_retried(
    db: Database, cluster: Cluster
) -> None:
    calls: list[int] = []

    def body(connection: Connection) -> None:
        calls.append(1)
        _terminate(cluster, _backend(connection))
        load_attempt(connection, "a1")  # a raw statement (praxis.store.db.statements)

    with pytest.raises(files.StorageFailure) as failed:
        db.transact(body, scoped=True)
    assert failed.value.rejection.reason == "STORAGE_UNAVAILABLE"
    assert calls == [1]
    assert db.transact(_backend, scoped=True) > 0  # the next command gets a live one


def test_an_idle_pooled_connection_is_pinged_and_replaced(
    db: Database, cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialect, "IDLE_PING_S", 0.0)  # every checkout counts as idle
    with db.read() as connection:
        first = _backend(connection)
    _terminate(cluster, first)
    with db.read() as connection:  # a read is not retried: the ping replaced it
        assert _backend(connection) != first
