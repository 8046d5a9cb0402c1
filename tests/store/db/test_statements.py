"""The statement layer answers as SQLAlchemy does; savepoints and writer turns hold."""

from __future__ import annotations

import fcntl
import gc
import os
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    func,
    literal_column,
    select,
    update,
)
from sqlalchemy.engine import Connection
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
    """PostgreSQL with one pooled connection: every transaction reuses it."""
    database = Database(postgres_cluster.create_database(), pool_size=1)
    metadata.create_all(database.engine, tables=[ready_nodes])
    try:
        yield database
    finally:
        database.close()


def test_raw_rows_equal_sqlalchemy_rows_on_postgres(
    pg: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL libpq answers as SQLAlchemy does, the expanding ``IN`` list (sent
    as an array, ``= ANY``) included; an empty list matches nothing, and ``NOT IN`` is
    ``<> ALL``."""
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
        assert len(raw_calls) == 5
        assert READY.run(connection, {"models": [], "now": 5, "limit": 10}).all() == []
        others = Statement(
            select(ready_nodes.c.node_uid)
            .where(ready_nodes.c.node_uid.not_in(bindparam("uids", expanding=True)))
            .order_by(ready_nodes.c.seq)
        )
        assert others.run(connection, {"uids": ["a", "b", "c"]}).scalars() == ["d"]
        assert others.run(connection, {"uids": []}).scalars() == ["a", "b", "c", "d"]
        odd = 'q"\\{,}'  # what an array literal must quote
        INSERT.run(connection, _row(odd))
        assert others.run(connection, {"uids": ["a", "b", "c", "d"]}).scalars() == [odd]
        assert others.run(connection, {"uids": ["a", "b", "c", "d", odd]}).scalars() == []
        assert len(raw_calls) == 11


def test_a_postgres_driver_error_is_a_dbapi_error(pg: Database) -> None:
    """A raw statement's psycopg error is SQLAlchemy's DBAPIError with the SQLSTATE
    (what the retry of a lost race and the storage classification read)."""
    with pytest.raises(DBAPIError) as failed, pg.write() as connection:
        INSERT.run(connection, {**_row("a"), "seq": 7})
        INSERT.run(connection, {**_row("b"), "seq": 7})
    assert failed.value.orig is not None
    assert getattr(failed.value.orig, "sqlstate", "") == "23505"
    assert not failed.value.connection_invalidated


UIDS = Statement(select(ready_nodes.c.node_uid).order_by(ready_nodes.c.seq))
VALUES = Table(
    "raw_values",
    MetaData(),
    Column("k", Integer, primary_key=True, autoincrement=False),
    Column("t", String(200)),
    Column("n", BigInteger),
    Column("b", Boolean),
)


def _uids(connection: Connection) -> list[str]:
    return list(UIDS.run(connection).scalars())


def test_libpq_sends_and_loads_values_as_psycopg_does(pg: Database) -> None:
    """Text (non-ASCII, quotes, percent signs, backslashes), 64-bit integers, booleans
    and NULL go through libpq's text parameters and come back as through SQLAlchemy;
    SQL with a literal ``%`` (``%%`` in psycopg's format) is sent as ``%``."""
    VALUES.create(pg.engine)
    odd = "ü→✓ 'quoted' 100% %(x)s \\ \t {a,b}"
    rows = [
        {"k": 1, "t": odd, "n": 2**62, "b": True},
        {"k": 2, "t": "a%b", "n": -(2**63), "b": False},
        {"k": 3, "t": None, "n": None, "b": None},
    ]
    percent = Statement(select(VALUES.c.k).where(VALUES.c.t == literal_column("'a%b'")))
    with pg.write() as connection:
        Statement(VALUES.insert()).run_many(connection, rows[:2])
        Statement(VALUES.insert()).run(connection, rows[2])
        raw = Statement(select(VALUES).order_by(VALUES.c.k)).run(connection).all()
        through = connection.execute(select(VALUES).order_by(VALUES.c.k)).all()
        assert [tuple(row) for row in raw] == [tuple(row) for row in through]
        assert [row._asdict() for row in raw] == rows
        assert percent.run(connection).scalars() == [2]


def test_a_string_with_a_nul_is_refused_and_nothing_is_stored(pg: Database) -> None:
    """libpq's text parameters end at a NUL: such a value goes to psycopg, which
    refuses it with a clear error, instead of being cut short."""
    with pytest.raises(DBAPIError, match="NUL"), pg.write() as connection:
        INSERT.run(connection, _row("a\x00b"))
    with pg.read() as connection:
        assert _uids(connection) == []


def test_a_failed_pipeline_fails_its_transaction_and_the_connection_serves_on(
    pg: Database,
) -> None:
    with (
        pytest.raises(DBAPIError) as failed,
        pg.write() as connection,
        statements.pipelined(connection),
    ):
        INSERT.run(connection, {**_row("a"), "seq": 1})
        INSERT.run(connection, {**_row("b"), "seq": 1})  # a duplicate key
        INSERT.run(connection, {**_row("c"), "seq": 3})  # never runs
    assert getattr(failed.value.orig, "sqlstate", "") == "23505"
    # the same connection (a pool of one)
    with pg.write() as connection, statements.pipelined(connection):
        INSERT.run_many(connection, [_row("d"), _row("e")])
    with pg.read() as connection:
        assert _uids(connection) == ["d", "e"]


def test_a_statement_through_sqlalchemy_inside_a_pipeline_sees_what_came_before(
    pg: Database,
) -> None:
    with pg.write() as connection, statements.pipelined(connection):
        INSERT.run_many(connection, [_row("a"), _row("b")])
        seen = connection.execute(select(ready_nodes.c.node_uid).order_by("seq")).scalars()
        assert list(seen) == ["a", "b"]
        INSERT.run(connection, _row("c"))
    with pg.read() as connection:
        assert _uids(connection) == ["a", "b", "c"]


def test_a_statement_that_cannot_be_prepared_is_prepared_once_it_can(pg: Database) -> None:
    """A failed PREPARE leaves no name behind: once its table exists it runs."""
    later = Table("later", MetaData(), Column("k", Integer, primary_key=True))
    count = Statement(select(func.count()).select_from(later))
    with pytest.raises(DBAPIError, match="later"), pg.read() as connection:
        count.run(connection)
    later.create(pg.engine)
    with pg.read() as connection:
        assert count.run(connection).scalar() == 0


def test_statements_deallocated_behind_its_back_are_prepared_again(pg: Database) -> None:
    with pg.read() as connection:
        assert _uids(connection) == []
        connection.exec_driver_sql("DEALLOCATE ALL")
    with pytest.raises(DBAPIError, match="does not exist"), pg.read() as connection:
        _uids(connection)  # the one statement that finds its name gone
    with pg.read() as connection:
        assert _uids(connection) == []


def test_a_closed_connection_leaves_nothing_behind(pg: Database) -> None:
    """What libpq keeps per connection goes with it (no connection stays alive)."""
    from praxis.store.db import libpq

    with pg.read() as connection:
        assert _uids(connection) == []
        driver = weakref.ref(connection.connection.driver_connection)
        assert libpq._sessions.get(driver()) is not None
    pg.engine.dispose()  # closes the pooled connection
    gc.collect()
    assert driver() is None  # and its session went with it (weakly keyed)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_savepoint_rolls_back_only_its_command(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """On both databases; the ``backend`` parameter (not the fixture's name) is what
    tests/conftest.py marks ``postgres``, so the SQLite half leaves the PostgreSQL case out."""
    db: Database = request.getfixturevalue("pg" if backend == "postgres" else "db")
    with db.write() as connection:
        assert statements.current_savepoint(connection) is None
        kept = Savepoint(connection)
        assert statements.current_savepoint(connection) is kept
        INSERT.run(connection, _row("kept"))
        kept.commit()
        undone = Savepoint(connection)
        INSERT.run(connection, _row("undone"))
        undone.rollback()
        assert statements.current_savepoint(connection) is None
    with db.read() as connection:
        assert _uids(connection) == ["kept"]


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
