"""Hot-path statements: compiled once, run on the raw DBAPI cursor on SQLite.

A command runs about ten statements; through SQLAlchemy each one pays for cache-key
generation, compilation lookup, parameter processing and result wrapping, which cost
several times the statement itself on SQLite. A :class:`Statement` wraps a SQLAlchemy
Core statement built once at import; on SQLite it compiles it once per parameter shape
(the columns given), then hands the SQL and a
parameter tuple straight to the ``sqlite3`` cursor of the connection's transaction. Rows
come back as named tuples (``row.run_id`` as with SQLAlchemy rows).

On PostgreSQL it sends the SQL compiled for psycopg straight through libpq
(:mod:`praxis.store.db.libpq`: prepared once per connection, parameters as text, rows
loaded by psycopg's loaders); a driver error is raised as SQLAlchemy's ``DBAPIError`` (a
lost connection invalidated), as ``Connection.execute`` would. Parameter sets of
:meth:`Statement.run_many` travel in one pipeline (one round trip, not one per row), as
do the statements of a :func:`pipelined` block.

It is an optimisation only: on any other dialect, for a statement whose column types
process values (none of the hot tables' types do), or whose parameters expand (``IN``
lists, on PostgreSQL), it runs the same statement through ``Connection.execute``, with
the same result surface. The
transaction is the caller's (SQLAlchemy's BEGIN and COMMIT; on PostgreSQL the BEGIN
travels with the transaction's first statement), on the same DBAPI connection, so every
command is still one transaction with the same durability.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql.expression import Executable, TextClause

Params = Mapping[str, Any]
_POSTCOMPILE = re.compile(r"__\[POSTCOMPILE_(\w+)\]")
_PG_IN = re.compile(r"(NOT )?IN \(__\[POSTCOMPILE_(\w+)\]\)")
_PYFORMAT = re.compile(r"%\((\w+)\)s")
_RAW_DIALECTS = frozenset({"sqlite", "postgresql"})


class Rows:
    """The part of a SQLAlchemy ``Result`` the stores use, over fetched tuples."""

    __slots__ = ("_rows", "lastrowid", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int, lastrowid: int | None = None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    @property
    def inserted_primary_key(self) -> tuple[int | None]:
        """The integer key SQLite gave the row one INSERT added."""
        return (self.lastrowid,)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)

    def first(self) -> Any:
        """The first row, or ``None``."""
        return self._rows[0] if self._rows else None

    def all(self) -> list[Any]:
        """Every row."""
        return self._rows

    def scalar(self) -> Any:
        """The first column of the first row, or ``None``."""
        return self._rows[0][0] if self._rows else None

    def scalars(self) -> list[Any]:
        """The first column of every row."""
        return [row[0] for row in self._rows]


class _Plan:
    """One statement compiled for SQLite for one parameter shape."""

    __slots__ = (
        "defaults", "expanding", "named", "names", "numbered", "returns_key", "returns_rows",
        "row_type", "sql",
    )  # fmt: skip

    def __init__(self, sql: str, names: tuple[str, ...], expanding: frozenset[str],
                 defaults: dict[str, Any], named: bool = False) -> None:  # fmt: skip
        self.sql = sql
        self.names = names
        self.expanding = expanding
        self.defaults = defaults
        self.named = named  # parameters by name (psycopg), not by position (sqlite3)
        # PostgreSQL: the SQL with $1..$n for the names, as libpq prepares it (see libpq).
        self.numbered = _numbered(sql, names) if named else b""
        self.returns_key = False  # an INSERT that returns its generated key (PostgreSQL)
        self.returns_rows = False  # a SELECT (or RETURNING) whose rows the caller reads
        self.row_type: Any = None

    def named_arguments(self, params: Params) -> dict[str, Any]:
        return {
            name: params[name] if name in params else self.defaults[name] for name in self.names
        }

    def arguments(self, params: Params) -> list[Any]:
        if not self.expanding:  # the common case: one value per name, in order
            if not self.defaults:
                return [params[name] for name in self.names]
            defaults = self.defaults
            return [params[name] if name in params else defaults[name] for name in self.names]
        values: list[Any] = []
        for name in self.names:
            value = params[name] if name in params else self.defaults[name]
            if name in self.expanding:
                values.extend(value)
            else:
                values.append(value)
        return values


class Statement:
    """A statement built once; raw on SQLite, through SQLAlchemy elsewhere."""

    def __init__(self, element: Executable, rows: bool = False) -> None:
        self.element = element
        self.rows = rows  # a text statement whose rows are read (a Core one says so itself)
        self._plans: dict[tuple[str, ...], _Plan | None] = {}
        self._lock = threading.Lock()

    def run(self, connection: Connection, params: Params | None = None, later: bool = False) -> Any:
        """Executes once with ``params``; returns rows (``first``, ``all``, ``scalar``,
        ``rowcount``, iteration) like ``Connection.execute``.

        ``later``: inside a :func:`pipelined` block on PostgreSQL, the statement travels
        with the block's others and its rows (and ``rowcount``) are there once the block
        has ended; elsewhere it runs at once, as without it."""
        params = params or {}
        plan = self._plan(connection, params)
        if plan is None:
            return connection.execute(self.element, dict(params))
        if plan.named:
            answered = _libpq_run(connection, plan, params, later)
            if answered is not None:
                return answered
        cursor = _driver(connection).cursor()
        try:
            if plan.named:
                fetched = _pg_execute(connection, cursor, plan, plan.named_arguments(params))
                if plan.returns_key:  # INSERT ... RETURNING its serial key, as SQLAlchemy
                    return Rows([], cursor.rowcount, fetched[0][0] if fetched else None)
                if not plan.returns_rows:
                    return Rows([], cursor.rowcount)
                if plan.row_type is None:
                    plan.row_type = collections.namedtuple(  # type: ignore[misc]  # dynamic row type
                        "Row", [column[0] for column in cursor.description], rename=True
                    )
                make = plan.row_type._make
                return Rows([make(row) for row in fetched], cursor.rowcount)
            else:
                cursor.execute(_sql(plan, params), plan.arguments(params))
            if cursor.description is None:
                return Rows([], cursor.rowcount, cursor.lastrowid)
            if plan.row_type is None:
                plan.row_type = collections.namedtuple(  # type: ignore[misc]  # dynamic row type
                    "Row", [column[0] for column in cursor.description], rename=True
                )
            make = plan.row_type._make
            return Rows([make(row) for row in cursor.fetchall()], cursor.rowcount)
        finally:
            cursor.close()

    def run_many(self, connection: Connection, rows: Sequence[Params]) -> None:
        """Executes once per parameter set (``executemany``); all sets have one shape."""
        if not rows:
            return
        plan = self._plan(connection, rows[0])
        if plan is None or plan.expanding:
            connection.execute(self.element, [dict(row) for row in rows])
            return
        if plan.named and _libpq_run_many(connection, plan, rows):
            return
        cursor = _driver(connection).cursor()
        try:
            if plan.named:
                _pg_execute(connection, cursor, plan, [plan.named_arguments(r) for r in rows])
            else:
                cursor.executemany(plan.sql, [plan.arguments(row) for row in rows])
        finally:
            cursor.close()

    def _plan(self, connection: Connection, params: Params) -> _Plan | None:
        if connection.dialect.name not in _RAW_DIALECTS:
            return None
        key = (connection.dialect.name, *params)  # a process may open both databases
        try:
            return self._plans[key]
        except KeyError:
            pass
        with self._lock:
            plan = self._compile(connection, params)
            self._plans[key] = plan
            return plan

    def _compile(self, connection: Connection, params: Params) -> _Plan | None:
        element: Any = self.element  # a Core statement: a ClauseElement as well
        compiled: Any = element.compile(dialect=connection.dialect, column_keys=sorted(params))
        names = tuple(compiled.positiontup or ())
        binds = compiled.binds
        if compiled._bind_processors or any(  # nothing may convert values
            column[3]._cached_result_processor(connection.dialect, None) is not None
            for column in compiled._result_columns
        ):
            return None
        named = connection.dialect.name == "postgresql"
        sql = compiled.string
        arrays: set[str] = set()
        if named:  # pyformat: the names in the order they appear (no positiontup)
            if not isinstance(element, TextClause):  # (a text's rows are not known here)
                sql = _PG_IN.sub(lambda match: _any(match, arrays), sql)  # IN lists: arrays
            if compiled.escaped_bind_names or _POSTCOMPILE.search(sql):
                return None  # escaped or other expanding parameters: let SQLAlchemy run it
            names = tuple(dict.fromkeys(_PYFORMAT.findall(sql)))
            if any(
                name not in binds or (binds[name].expanding and name not in arrays)
                for name in names
            ):
                return None
        expanding = frozenset(n for n in names if binds[n].expanding and n not in arrays)
        defaults = {
            name: binds[name].effective_value
            for name in names
            if name not in params and binds[name].value is not None
        }
        if any(name not in params and name not in defaults for name in names):
            return None  # a default SQLAlchemy would compute: let it
        plan = _Plan(sql, names, expanding, defaults, named)
        returning = getattr(compiled, "implicit_returning", None) or []
        if named and len(returning) > 1:
            return None  # a composite generated key: let SQLAlchemy build it
        plan.returns_key = named and len(returning) == 1
        plan.returns_rows = (bool(compiled._result_columns) or self.rows) and not plan.returns_key
        return plan


def _any(match: re.Match[str], arrays: set[str]) -> str:
    """``x IN (<list>)`` as ``x = ANY(<array>)`` (``NOT IN``: ``<> ALL``), for PostgreSQL:
    one prepared statement whatever the list's length (an empty one matches nothing, as
    SQLAlchemy's empty ``IN``)."""
    arrays.add(match.group(2))
    return f"{'<> ALL' if match.group(1) else '= ANY'}(%({match.group(2)})s)"


def _sql(plan: _Plan, params: Params) -> str:
    if not plan.expanding:
        return plan.sql
    return _POSTCOMPILE.sub(lambda match: ", ".join("?" * len(params[match.group(1)])), plan.sql)


def _numbered(sql: str, names: tuple[str, ...]) -> bytes:
    """Pyformat SQL (``%(name)s``, ``%%``) as libpq takes it (``$1``, ``%``)."""
    numbers = {name: f"${index}" for index, name in enumerate(names, 1)}
    return "%".join(
        _PYFORMAT.sub(lambda match: numbers[match.group(1)], part) for part in sql.split("%%")
    ).encode()


def _libpq_run(
    connection: Connection, plan: _Plan, params: Params, later: bool = False
) -> Rows | None:
    """Runs a PostgreSQL plan through :mod:`libpq`; ``None``: its values are not all of
    the types it sends (psycopg's cursor runs it). Inside a pipeline a statement whose
    rows are not read now (``later``, or none) is queued and its rows filled in when
    the pipeline is answered."""
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    driver = _driver(connection)
    found = libpq.session(driver)
    sent = libpq.arguments(plan.arguments(params)) if found is not None else None
    if sent is None or found is None:
        libpq.interrupt(driver)
        return None
    wanted = plan.returns_rows or plan.returns_key
    answer = Rows([], -1)
    sink = None
    if found.piping and (later or not plan.returns_rows):
        sink = functools.partial(_fill, answer, found, plan)
    try:
        result = libpq.execute(driver, found, plan.numbered, sent, wanted, sink)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, plan.sql, params, error) from error
    if result is not None:
        _fill(answer, found, plan, result)
    return answer


def _fill(answer: Rows, found: Any, plan: _Plan, result: Any) -> None:
    """Sets ``answer`` from a libpq ``result`` of ``plan``."""
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    rowcount = result.command_tuples
    answer.rowcount = -1 if rowcount is None else rowcount
    if not (plan.returns_rows or plan.returns_key):
        return
    if plan.row_type is None:
        plan.row_type = collections.namedtuple(  # type: ignore[misc]  # dynamic row type
            "Row", libpq.columns(result), rename=True
        )
    rows = libpq.load(found, result, plan.row_type._make)
    if plan.returns_key:  # INSERT ... RETURNING its serial key, as SQLAlchemy
        answer.lastrowid = rows[0][0] if rows else None
    else:
        answer._rows = rows


def _libpq_run_many(connection: Connection, plan: _Plan, rows: Sequence[Params]) -> bool:
    """:meth:`Statement.run_many` through :mod:`libpq`, in one pipeline; ``False``:
    nothing was sent (a value of a type it does not send)."""
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    driver = _driver(connection)
    found = libpq.session(driver)
    if found is None:
        return False
    batch = [libpq.arguments(plan.arguments(row)) for row in rows]
    if any(sent is None for sent in batch):
        libpq.interrupt(driver)
        return False
    try:
        with libpq.pipeline(driver, found):
            for sent in batch:
                libpq.execute(driver, found, plan.numbered, sent, False)  # type: ignore[arg-type]  # checked above
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, plan.sql, None, error) from error
    return True


def _driver(connection: Connection) -> Any:
    """The ``sqlite3`` or psycopg connection under ``connection`` (inside its transaction)."""
    return connection.connection.driver_connection


def _pg_execute(connection: Connection, cursor: Any, plan: _Plan, arguments: Any) -> list[Any]:
    """Runs ``plan`` on the psycopg ``cursor`` (``executemany`` for a list of sets) and
    fetches its rows when it returns any (inside a :func:`pipelined` block the fetch is
    what waits for the answers). A driver error becomes the ``DBAPIError`` SQLAlchemy
    raises, and a lost connection is invalidated, as with ``Connection.execute``."""
    try:
        if isinstance(arguments, list):
            cursor.executemany(plan.sql, arguments)
            return []
        cursor.execute(plan.sql, arguments)
        return cursor.fetchall() if plan.returns_rows or plan.returns_key else []
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, plan.sql, arguments, error) from error


def _wrapped(connection: Connection, sql: str, arguments: Any, error: Exception) -> StatementError:
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, _driver(connection), None)  # type: ignore[arg-type]  # a driver error
    if lost:
        connection.invalidate(error)
    return DBAPIError.instance(
        sql,
        arguments,
        error,
        dialect.loaded_dbapi.Error,
        connection_invalidated=lost,
        dialect=dialect,
    )


@contextlib.contextmanager
def pipelined(connection: Connection) -> Iterator[None]:
    """Sends the block's statements without waiting for each answer (PostgreSQL).

    libpq's pipeline mode (:func:`praxis.store.db.libpq.pipeline`): the statements of
    the block travel together and their answers come back together at its end (one
    round trip for the block instead of one per statement), or earlier when a
    :class:`Statement` reads rows (unless run with ``later``) or a statement goes
    through SQLAlchemy. What a :class:`Statement` returned inside the block (its
    ``rowcount``, the key an INSERT returns, and its rows when run with ``later``) is
    filled in when the block ends: code inside the block must not decide on them. A
    failure is raised when the block ends (as ``DBAPIError``), and the transaction then
    rolls back as with any failed statement. Elsewhere (SQLite) it does nothing: every
    statement has run when it returns.
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    driver = _driver(connection)
    found = libpq.session(driver)
    try:
        # Without libpq (a connection whose encoding it does not serve) the statements
        # run one by one: each answered at once, its rowcount known.
        with libpq.pipeline(driver, found) if found is not None else contextlib.nullcontext():
            yield
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, "(pipelined statements)", None, error) from error


SAVEPOINTS = "praxis_savepoints"
"""``connection.info`` key: the savepoints open in the connection's transaction."""


def current_savepoint(connection: Connection) -> Savepoint | None:
    """The innermost :class:`Savepoint` open on ``connection`` (``None``: none)."""
    open_ = connection.info.get(SAVEPOINTS)
    return open_[-1] if open_ else None


class Savepoint:
    """A SAVEPOINT around one command of a group commit.

    Raw statements on the transaction's own DBAPI connection (SQLAlchemy's nested
    transaction costs several times that per command): on SQLite through ``sqlite3``, on
    PostgreSQL through :mod:`libpq` (SAVEPOINT and RELEASE travel with the next
    statement, :func:`praxis.store.db.libpq.defer`), elsewhere
    ``Connection.begin_nested()``. SQLAlchemy does not see them:
    :func:`current_savepoint` says which is open (the events lock is scoped by it,
    :func:`praxis.store.db.locks.before_events`). Savepoints of a batch are sequential,
    never nested, so one name serves.
    """

    __slots__ = ("_connection", "_driver", "_nested")

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._driver: Any = None
        self._nested: Any = None
        if connection.dialect.name == "sqlite":
            self._driver = _driver(connection)
            self._driver.execute("SAVEPOINT praxis_command")
        elif not _libpq_command(connection, b"SAVEPOINT praxis_command", deferred=True):
            self._nested = connection.begin_nested()
        connection.info.setdefault(SAVEPOINTS, []).append(self)

    def commit(self) -> None:
        """Keeps the command's writes (in the enclosing transaction)."""
        self._close()
        if self._nested is not None:
            self._nested.commit()
        elif self._driver is not None:
            self._driver.execute("RELEASE SAVEPOINT praxis_command")
        else:
            _libpq_command(self._connection, b"RELEASE SAVEPOINT praxis_command", deferred=True)

    def rollback(self) -> None:
        """Undoes the command's writes; raises when the transaction itself is gone."""
        self._close()
        if self._nested is not None:
            self._nested.rollback()
        elif self._driver is not None:
            self._driver.execute("ROLLBACK TO SAVEPOINT praxis_command")
            self._driver.execute("RELEASE SAVEPOINT praxis_command")
        else:
            _libpq_command(self._connection, b"ROLLBACK TO SAVEPOINT praxis_command")
            _libpq_command(self._connection, b"RELEASE SAVEPOINT praxis_command", deferred=True)

    def _close(self) -> None:
        open_ = self._connection.info.get(SAVEPOINTS)
        if open_ and open_[-1] is self:
            open_.pop()


def ended(connection: Connection) -> None:
    """Forgets what the transaction of ``connection`` deferred and never sent (it has
    committed or rolled back)."""
    if connection.dialect.name == "postgresql":
        from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

        libpq.forget(_driver(connection))


def defer(connection: Connection, sql: bytes, values: Sequence[Any] = ()) -> bool:
    """Sends a statement whose answer nobody reads (PostgreSQL; ``$1``... for
    ``values``) with the transaction's next statement, in its round trip
    (:func:`praxis.store.db.libpq.defer`); ``False``: not possible on this connection,
    nothing was sent."""
    return _libpq_command(connection, sql, deferred=True, values=values)


def _libpq_command(
    connection: Connection, sql: bytes, deferred: bool = False, values: Sequence[Any] = ()
) -> bool:
    """Runs a statement through :mod:`libpq` (``deferred``: with the transaction's next
    statement, :func:`praxis.store.db.libpq.defer`); ``False``: not possible on this
    connection (its encoding, a value's type), nothing was sent."""
    from praxis.store.db import libpq  # psycopg: installed with PostgreSQL only

    driver = _driver(connection)
    found = libpq.session(driver)
    sent = libpq.arguments(values) if found is not None else None
    if found is None or sent is None:
        return False
    if deferred:
        libpq.defer(found, sql, sent or None)
        return True
    try:
        libpq.execute(driver, found, sql, sent, False)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, sql.decode(), None, error) from error
    return True
