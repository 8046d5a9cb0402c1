"""The one place that knows which database is underneath.

The rule, held by ``tests/unit/test_rows_rule.py``: every SQLite/PostgreSQL difference
lives in ``store/db/`` (this module: engines, connection settings, the write lock's entry;
:mod:`.portable`: the statements each backend spells its own way behind one call, such as
``INSERT ... ON CONFLICT``; :mod:`.locks`, :mod:`.statements`, :mod:`.libpq`, :mod:`.loop_pg`,
:mod:`.files`, :mod:`.backup`) or in a row function of its slice
(``store/<slice>/rows.py`` or a ``rows/`` package), which gives each backend its own
statement for the same call, as Temporal's persistence does (``lockTaskQueueQry``: a
plain ``SELECT`` on SQLite, ``... FOR UPDATE`` on PostgreSQL). A store class calls a row
function or asks a capability (``Database.single_writer``, :func:`.locks.needed`: what
its branch depends on), never which backend it runs on. Outside ``store/`` only the
process's edge (``app.py``, ``serve/``) names a backend: the configured URL picks the
wake transport, file locations and the pool size there.

SQLite: WAL journal, ``synchronous=FULL`` (unless the operator chooses otherwise),
``foreign_keys=ON``, a ``busy_timeout``, and write transactions opened with
``BEGIN IMMEDIATE`` so that writers serialize at BEGIN instead of failing at COMMIT.

PostgreSQL: write transactions take the installation's advisory lock, exclusive for most
commands (the serial order of SQLite's single writer) and shared for the commands that lock
exactly what they touch (see :mod:`praxis.store.db.locks`).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool, QueuePool

from praxis.store.db import locks

WRITE_OPTION = "praxis_write"


POOL_SIZE_MAX = 1_000


def pool_size_floor(executor_threads: int) -> int:
    """The fewest PostgreSQL connections a server process can run with, and its default.

    Each executor thread (a unary RPC, a stream's read) and the sweeper hold at most two
    at once: their transaction, and a principal's lookup when the principals cache
    misses inside it. Plus one for a metrics scrape. Fewer could leave every thread
    holding one connection while waiting for its second. The store calls on the event
    loop hold at most half the pool (:class:`praxis.store.db.loop_pg.LoopPool`), so with
    at least this many one connection is always left for the holder that needs a second.
    """
    return 2 * (executor_threads + 1) + 1


def check_pool_size(size: int, executor_threads: int) -> str | None:
    """Why ``size`` cannot be a process's PostgreSQL pool size, or None."""
    floor = pool_size_floor(executor_threads)
    if isinstance(size, bool) or not isinstance(size, int) or not floor <= size <= POOL_SIZE_MAX:
        return (
            f"db_pool_size must be an integer in [{floor}, {POOL_SIZE_MAX}] "
            f"(at least 2 x (serving.executor_threads + 1) + 1 = {floor}), not {size!r}"
        )
    return None


def make_engine(
    url: str, synchronous: str = "FULL", pool_size: int = 16, pg_pool_size: int | None = None
) -> Engine:
    """Creates an engine with the project's connection settings for its dialect.

    ``pg_pool_size``: on PostgreSQL, the most connections the engine holds at once (no
    overflow; a checkout past it waits); None keeps ``pool_size`` plus as many again.
    """
    if url.startswith("sqlite"):
        return _sqlite_engine(url, synchronous, pool_size)
    # psycopg prepares nothing itself: the hot path's statements are prepared by
    # praxis.store.db.libpq, whose names psycopg's own cache would deallocate (it sends
    # DEALLOCATE ALL after a ROLLBACK once it has prepared anything).
    from praxis.store.db import loop_pg  # psycopg: installed with PostgreSQL only

    connect_args = {"prepare_threshold": None}
    # Store calls on the event loop park on their connection's socket and on the pool
    # instead of blocking the loop (praxis.store.db.loop_pg).
    size, overflow = (pg_pool_size, 0) if pg_pool_size is not None else (pool_size, pool_size)
    engine = create_engine(
        url,
        poolclass=loop_pg.LoopPool,
        pool_size=size,
        max_overflow=overflow,
        connect_args=connect_args,
    )
    loop_pg.open_off_the_loop(engine)
    _ping_when_idle(engine)
    _answer_pipelines_first(engine)
    return engine


def _answer_pipelines_first(engine: Engine) -> None:
    """Ends a :func:`praxis.store.db.libpq.pipeline` in progress on a connection before
    SQLAlchemy sends a statement through psycopg's cursor, which knows nothing of it."""
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    @event.listens_for(engine, "before_cursor_execute")
    def _before(connection: Connection, *_args: Any) -> None:
        libpq.interrupt(connection.connection.driver_connection)


IDLE_PING_S = 1.0
"""A pooled PostgreSQL connection idle this long is pinged when checked out."""
_CHECKED_IN = "praxis_checked_in"


def _ping_when_idle(engine: Engine) -> None:
    """Pings a pooled connection only when it sat idle for :data:`IDLE_PING_S`.

    ``pool_pre_ping`` would cost a round trip on every checkout: on the hot path (a
    connection back in the pool for milliseconds) that is one of every command's ~15.
    A connection that died since its last use anyway (a restart, a terminated backend)
    fails at its transaction's first statement, and :class:`praxis.store.db.database.Database`
    runs the command again on a fresh one (nothing of it ran); an idle connection, the
    likelier to have died (an idle timeout, a restart overnight), is pinged first, and a
    dead one is replaced before the command sees it.
    """

    @event.listens_for(engine.pool, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info[_CHECKED_IN] = time.monotonic()

    @event.listens_for(engine.pool, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_CHECKED_IN)
        if since is None or time.monotonic() - since < IDLE_PING_S:
            return
        try:
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
            dbapi_connection.rollback()
        except Exception as error:  # the pool replaces the connection and checks out again
            raise exc.DisconnectionError(f"a pooled connection is gone: {error}") from error


def _sqlite_engine(url: str, synchronous: str, pool_size: int) -> Engine:
    if synchronous not in ("FULL", "NORMAL", "EXTRA"):
        raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
    engine = create_engine(
        url,
        poolclass=QueuePool,
        pool_size=pool_size,
        max_overflow=pool_size * 4,
        connect_args={"check_same_thread": False, "timeout": 30},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        # Statement journals (a statement inside a command's SAVEPOINT) in memory, not in a
        # temporary file created, written and unlinked per statement: a third of the
        # write path's system calls (statements are bounded, so is the memory).
        cursor.execute("PRAGMA temp_store=MEMORY")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        # On the sqlite3 connection itself: through SQLAlchemy's execution path it costs
        # several times the statement (see statements.py).
        driver: Any = connection.connection.driver_connection
        driver.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def sqlite_uri(path: Path, mode: str) -> str:
    """A SQLite URI of ``path`` that never creates it (``mode`` ``ro`` or ``rw``; any
    character of the path quoted)."""
    return f"{path.resolve().as_uri()}?mode={mode}"


def open_existing_only(engine: Engine, path: Path) -> None:
    """Every connection ``engine`` opens from now on opens ``path`` read-write but never
    creates it: once the file is pinned, a connection opened after it was deleted fails
    (SQLITE_CANTOPEN, refused as STORAGE_UNAVAILABLE) instead of creating an empty
    database, which could even take the deleted file's inode and pass the guard."""
    uri = sqlite_uri(path, "rw")

    @event.listens_for(engine, "do_connect")
    def _existing(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        cargs[:] = [uri]
        cparams["uri"] = True


def offline_sqlite_engine(path: Path) -> Engine:
    """An engine on the existing SQLite file ``path`` that no server has open (a file
    being prepared offline, such as a restore's copy): one connection at a time, never
    creating the file, ``synchronous=FULL`` and ``foreign_keys=ON``, and the file's own
    journal mode left as it is (a snapshot's rollback journal: no WAL beside the file
    that would have to follow it when it is renamed)."""
    uri = sqlite_uri(path, "rw")
    engine = create_engine("sqlite://", poolclass=NullPool, creator=lambda: _connect(uri))

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        driver: Any = connection.connection.driver_connection
        driver.execute("BEGIN IMMEDIATE")

    return engine


def _connect(uri: str) -> Any:
    connection = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


def lock_for_write(connection: Connection, scoped: bool = False, deferred: bool = False) -> None:
    """Serializes write transactions across processes (a no-op where BEGIN already does).

    ``scoped``: the command locks what it touches itself (PostgreSQL: the installation's
    lock is taken shared, see :mod:`praxis.store.db.locks`). ``deferred``: the lock
    travels with the transaction's first statement (:func:`locks.take_global`).
    """
    locks.take_global(connection, scoped, deferred)


# Every table's column names in one catalog query: the schema check of every start reads
# them (a reflection query per table took most of a server's start-up on PostgreSQL).
_COLUMNS = {
    "sqlite": "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p"
    " WHERE m.type = 'table'",
    "postgresql": "SELECT c.relname, a.attname FROM pg_catalog.pg_attribute AS a"
    " JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid"
    " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')"
    " AND a.attnum > 0 AND NOT a.attisdropped",
}


def table_columns(connection: Connection) -> dict[str, set[str]]:
    """The column names of every table of the database's (default) schema, by table."""
    found: dict[str, set[str]] = {}
    for table, column in connection.exec_driver_sql(_COLUMNS[connection.dialect.name]):
        found.setdefault(table, set()).add(column)
    return found
