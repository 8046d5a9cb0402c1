"""The statement layer answers as SQLAlchemy does; savepoints and writer turns hold."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import DBAPIError

from praxis.store.db import statements
from praxis.store.db.database import Database
from praxis.store.db.metadata import metadata
from praxis.store.db.statements import Savepoint, Statement
from praxis.store.db.writer_turn import WriterTurn
from praxis.store.runtime.tables import ready_nodes
from tests.support.postgres import Cluster

READY = Statement(
    select(ready_nodes.c.seq, ready_nodes.c.node_uid)
    .where(
        ready_nodes.c.model.in_(bindparam("models", expanding=True)),
        ready_nodes.c.not_before_ms <= bindparam("now"),
        ready_nodes.c.work_order_id != "held",  # a literal: a bound default
    )
    .order_by(ready_nodes.c.seq)
    .limit(bindparam("limit"))
)
INSERT = Statement(ready_nodes.insert())
DELAY = Statement(update(ready_nodes).where(ready_nodes.c.node_uid == bindparam("uid")))


def _row(
    uid: str, model: str = "m", not_before: int = 0, work_order: str = ""
) -> dict[str, object]:
    return {
        "run_id": "r",
        "node_uid": uid,
        "model": model,
        "not_before_ms": not_before,
        "work_order_id": work_order,
    }


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database(f"sqlite:///{tmp_path / 'x.db'}")
    metadata.create_all(database.engine, tables=[ready_nodes])
    return database


def test_raw_rows_equal_sqlalchemy_rows(db: Database) -> None:
    with db.write() as connection:
        INSERT.run_many(connection, [_row("a"), _row("b", "n"), _row("c", not_before=9)])
        inserted = INSERT.run(connection, _row("d", work_order="held"))
        assert inserted.inserted_primary_key == (4,)
        changed = DELAY.run(connection, {"uid": "b", "not_before_ms": 1})
        assert changed.rowcount == 1
        params = {"models": ["m", "n"], "now": 5, "limit": 10}
        raw = READY.run(connection, params)
        through = connection.execute(READY.element, params)
        assert (
            [tuple(row) for row in raw] == [tuple(row) for row in through] == [(1, "a"), (2, "b")]
        )
        first = READY.run(connection, {"models": ["m"], "now": 5, "limit": 1}).first()
        assert (first.seq, first.node_uid) == (1, "a")
        assert READY.run(connection, {"models": ["x"], "now": 5, "limit": 1}).first() is None
        assert READY.run(connection, {"models": ["n"], "now": 5, "limit": 1}).scalar() == 2


def test_other_dialects_go_through_sqlalchemy(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    with db.write() as connection:
        monkeypatch.setattr(statements, "_driver", lambda _connection: pytest.fail("raw"))
        monkeypatch.setattr(connection.dialect, "name", "mysql")
        INSERT.run_many(connection, [_row("a"), _row("b")])
        found = READY.run(connection, {"models": ["m"], "now": 5, "limit": 5}).all()
        assert [row.node_uid for row in found] == ["a", "b"]


@pytest.fixture
def pg(postgres_cluster: Cluster) -> Iterator[Database]:
    database = Database(postgres_cluster.create_database(), pool_size=4)
    metadata.create_all(database.engine, tables=[ready_nodes])
    try:
        yield database
    finally:
        database.close()


def test_raw_rows_equal_sqlalchemy_rows_on_postgres(
    pg: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the psycopg cursor answers as SQLAlchemy does; the expanding
    ``IN`` list goes through SQLAlchemy, the rest do not."""
    raw_calls = []
    driver = statements._driver
    monkeypatch.setattr(statements, "_driver", lambda c: raw_calls.append(1) or driver(c))
    with pg.write() as connection:
        assert len(raw_calls) == 1  # the transaction's own lock (praxis.store.db.locks)
        raw_calls.clear()
        INSERT.run_many(connection, [_row("a"), _row("b", "n"), _row("c", not_before=9)])
        inserted = INSERT.run(connection, _row("d", work_order="held"))
        assert inserted.inserted_primary_key == (4,)
        changed = DELAY.run(connection, {"uid": "b", "not_before_ms": 1})
        assert changed.rowcount == 1
        assert len(raw_calls) == 3  # run_many, the insert, the update
        params = {"models": ["m", "n"], "now": 5, "limit": 10}
        raw = READY.run(connection, params)
        through = connection.execute(READY.element, params)
        assert [tuple(r) for r in raw] == [tuple(r) for r in through] == [(1, "a"), (2, "b")]
        uids = Statement(select(ready_nodes.c.node_uid).where(ready_nodes.c.seq > bindparam("s")))
        assert uids.run(connection, {"s": 2}).scalars() == ["c", "d"]
        assert len(raw_calls) == 4


def test_a_postgres_driver_error_is_a_dbapi_error(pg: Database) -> None:
    """A raw statement's psycopg error is SQLAlchemy's DBAPIError with the SQLSTATE
    (what the retry of a lost race and the storage classification read)."""
    with pytest.raises(DBAPIError) as failed, pg.write() as connection:
        INSERT.run(connection, {**_row("a"), "seq": 7})
        INSERT.run(connection, {**_row("b"), "seq": 7})
    assert failed.value.orig is not None
    assert getattr(failed.value.orig, "sqlstate", "") == "23505"
    assert not failed.value.connection_invalidated


def test_a_savepoint_rolls_back_only_its_command(db: Database) -> None:
    with db.write() as connection:
        kept = Savepoint(connection)
        INSERT.run(connection, _row("kept"))
        kept.commit()
        undone = Savepoint(connection)
        INSERT.run(connection, _row("undone"))
        undone.rollback()
    with db.read() as connection:
        uids = [
            row.node_uid for row in READY.run(connection, {"models": ["m"], "now": 0, "limit": 9})
        ]
    assert uids == ["kept"]


def test_a_writer_turn_excludes_other_holders_until_released(tmp_path: Path) -> None:
    turn = WriterTurn(tmp_path / "x.db")
    other = os.open(turn.path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        with turn.held(), pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released: free at once
        fcntl.flock(other, fcntl.LOCK_UN)
    finally:
        os.close(other)
        turn.close()
    assert turn.path.stat().st_mode & 0o777 == 0o600
