"""Hot-path statements on PostgreSQL, sent straight through libpq (issue 26, item 4).

psycopg's cursor spends ~28 µs of Python on each statement here (query conversion,
parameter adaptation, its prepared-statement bookkeeping, its pipeline's generators);
the same prepared statement sent through the connection's ``pgconn`` costs ~10 µs, and
a command runs twenty to thirty. This module does only that, on the psycopg connection
of the caller's transaction (SQLAlchemy's BEGIN and COMMIT stay its own):

- each SQL text is prepared once per connection (``praxis_<n>``), in the same round
  trip as its first execution; parameters go as text (a list as an array literal), rows
  are loaded by psycopg's own loaders (the same Python values as through its cursor);
- a statement that finds no transaction open (the first of a write or a read) sends its
  ``BEGIN`` in the same round trip, where psycopg would send it alone first;
- :func:`defer`: a statement nobody waits for (a lock, a SAVEPOINT) travels with the
  transaction's next one;
- :func:`pipeline`: the block's statements are sent without waiting and answered
  together at its end (libpq's pipeline mode), or earlier when one of them reads rows.

A round trip that carried its transaction's ``BEGIN`` and found the connection gone
marks its error (:data:`NOTHING_RAN`): nothing of the transaction ran, and the caller may
begin again. Values of other types than ``str``, ``int``, ``bool``, ``None`` and lists of
text or integers (and a ``str`` holding a NUL, which libpq's text parameters cannot
carry) are not handled: :func:`arguments` says so and the caller runs that statement
through psycopg's cursor instead. Errors are psycopg's (with their SQLSTATE), raised as
its cursor would raise them.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from psycopg import errors, generators, pq
from psycopg.adapt import Transformer

Arguments = list[bytes | None]
Sink = Callable[[pq.abc.PGresult], None]

_IDLE = pq.TransactionStatus.IDLE
_FATAL = pq.ExecStatus.FATAL_ERROR
_SYNC = pq.ExecStatus.PIPELINE_SYNC
_PIPELINE_OFF = pq.PipelineStatus.OFF
_BAD = pq.ConnStatus.BAD

NOTHING_RAN = "praxis_nothing_ran"
"""Set (``True``) on the error of a round trip that carried its transaction's ``BEGIN``
and found the connection gone: nothing of the transaction ran, so it may begin again on
another connection (:class:`praxis.store.db.database.Database` does, once)."""
_BEGIN = b"BEGIN"


def arguments(values: Sequence[Any]) -> Arguments | None:
    """The text form of each value, or ``None`` when one is not handled here."""
    sent: Arguments = []
    for value in values:
        kind = type(value)
        if kind is str:
            if "\x00" in value:
                return None  # libpq would cut it there: psycopg refuses it clearly
            sent.append(value.encode())
        elif kind is int:
            sent.append(b"%d" % value)
        elif value is None:
            sent.append(None)
        elif kind is bool:
            sent.append(b"t" if value else b"f")
        elif kind is list or kind is tuple:
            literal = _array(value)
            if literal is None:
                return None
            sent.append(literal)
        else:
            return None
    return sent


def _array(values: Sequence[Any]) -> bytes | None:
    """A list of text or integers as a PostgreSQL array literal (``{"a","b\\"c"}``)."""
    items: list[str] = []
    for value in values:
        kind = type(value)
        if kind is str and "\x00" not in value:
            items.append('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
        elif kind is int:
            items.append(str(value))
        elif value is None:
            items.append("NULL")
        else:
            return None
    return ("{" + ",".join(items) + "}").encode()


class _Session:
    """What one psycopg connection has prepared, and its pipeline in progress."""

    __slots__ = (
        "__weakref__", "beginning", "made", "names", "owed", "piping", "prelude", "preparing",
        "transformer",
    )  # fmt: skip

    def __init__(self, driver: Any) -> None:
        self.names: dict[bytes, bytes] = {}
        self.preparing: dict[bytes, bytes] = {}  # sent in the pipeline, not yet answered
        self.made = 0  # names given so far: a name is never given twice
        # From the connection's adapters, not the connection: a session must not keep its
        # connection alive (sessions are weakly keyed by it).
        self.transformer = Transformer(driver.adapters)
        self.piping = False
        # Commands whose answers nobody waits for (locks, SAVEPOINT, RELEASE), with
        # their parameters: sent with the transaction's next statement, in its round trip.
        self.prelude: list[tuple[bytes, Arguments | None]] = []
        # The pipeline being answered carries its transaction's BEGIN: if the connection
        # turns out to be gone, nothing of the transaction had run (see NOTHING_RAN).
        self.beginning = False
        # In a pipeline: what each command sent and not yet answered was: the name a
        # PREPARE registers once it succeeded, a statement's sink, or None.
        self.owed: list[tuple[bytes, bytes] | Sink | None] = []


_sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()


def session(driver: Any) -> _Session | None:
    """The session of a psycopg connection; ``None`` when its client encoding is not
    UTF-8 (parameters are encoded here as UTF-8)."""
    found = _sessions.get(driver)
    if found is None:
        if driver.info.encoding != "utf-8":
            return None
        found = _sessions[driver] = _Session(driver)
    return found


def execute(
    driver: Any,
    found: _Session,
    sql: bytes,
    sent: Arguments,
    rows: bool,
    sink: Sink | None = None,
) -> pq.abc.PGresult | None:
    """Runs ``sql`` with ``sent``; returns its result, or ``None`` when it was queued in a
    :func:`pipeline`. Outside a pipeline every statement is answered at once; inside, one
    whose ``rows`` the caller reads is answered now, unless it gave a ``sink``: then it is
    queued too and ``sink`` gets its result once the pipeline is answered (if no
    statement of it failed)."""
    pgconn = driver.pgconn
    name = found.names.get(sql)
    begin = pgconn.transaction_status == _IDLE and not driver.autocommit
    if name is not None and not begin and not found.piping and not found.prelude:
        pgconn.send_query_prepared(name, sent)
        return _one(found, driver.wait(generators.execute(pgconn)))
    queued = found.piping and (not rows or sink is not None)
    with pipeline(driver, found):
        if begin:
            pgconn.send_query_params(_BEGIN, None)
            found.owed.append(None)
            found.beginning = True
        _send_prelude(pgconn, found)
        if name is None:
            name = found.preparing.get(sql)
        if name is None:
            name = found.preparing[sql] = b"praxis_%d" % found.made
            found.made += 1
            pgconn.send_prepare(name, sql)
            found.owed.append((sql, name))
        pgconn.send_query_prepared(name, sent)
        if queued:
            found.owed.append(sink)
            return None
        return _drain(driver, found, answer=True)
    raise AssertionError("unreachable")  # the block returns


@contextlib.contextmanager
def pipeline(driver: Any, found: _Session) -> Iterator[None]:
    """Sends the block's statements together; raises the first error at its end.

    A block inside a block joins it. :func:`interrupt` ends it early (before anything
    is sent on the connection another way)."""
    if found.piping:
        yield
        return
    pgconn = driver.pgconn
    pgconn.enter_pipeline_mode()
    found.piping = True
    try:
        yield
        if found.piping and found.owed:
            _drain(driver, found, answer=False)
    finally:
        _leave(driver, found)


def defer(found: _Session, command: bytes, sent: Arguments | None = None) -> None:
    """Sends ``command`` (with ``sent``, an answer nobody waits for) with the next
    statement of the transaction, in its round trip (after its ``BEGIN``); dropped if
    the transaction ends first (:func:`forget`: a lock, a SAVEPOINT or its RELEASE have
    nothing to keep or undo then). An error it meets is raised by that next statement."""
    found.prelude.append((command, sent))


def forget(driver: Any) -> None:
    """Drops what :func:`defer` holds for a transaction that has ended."""
    found = _sessions.get(driver)
    if found is not None:
        found.prelude.clear()


def _send_prelude(pgconn: Any, found: _Session) -> None:
    for command, sent in found.prelude:
        pgconn.send_query_params(command, sent)
        found.owed.append(None)
    found.prelude.clear()


def interrupt(driver: Any) -> None:
    """Sends what :func:`defer` holds, and answers and ends the pipeline in progress on
    ``driver``, if any (before a statement is sent through psycopg's cursor, which
    knows nothing of either)."""
    found = _sessions.get(driver)
    if found is None:
        return
    if found.prelude:
        pgconn = driver.pgconn
        with pipeline(driver, found):
            if pgconn.transaction_status == _IDLE and not driver.autocommit:
                pgconn.send_query_params(_BEGIN, None)  # psycopg would begin after it
                found.owed.append(None)
                found.beginning = True
            _send_prelude(pgconn, found)
    if not found.piping:
        return
    try:
        if found.owed:
            _drain(driver, found, answer=False)
    finally:
        _leave(driver, found)


def _leave(driver: Any, found: _Session) -> None:
    if not found.piping:
        return
    found.piping = False
    pgconn = driver.pgconn
    if pgconn.status == _BAD:  # gone: the error that found it is on its way up
        found.owed.clear()
        found.beginning = False
        return
    try:
        if found.owed:  # an error left answers unread: read them, keep nothing
            _drain(driver, found, answer=False, quiet=True)
        if pgconn.pipeline_status != _PIPELINE_OFF:
            pgconn.exit_pipeline_mode()
    except Exception:
        found.owed.clear()
        driver.close()  # never hand psycopg a connection in an unknown state
        raise


def _drain(
    driver: Any, found: _Session, answer: bool, quiet: bool = False
) -> pq.abc.PGresult | None:
    """Syncs the pipeline and reads every answer owed. ``answer``: the last command
    sent is the caller's, whose result is returned. Raises the first error (unless
    ``quiet``), once every answer is read."""
    pgconn = driver.pgconn
    owed, found.owed = found.owed, []
    beginning, found.beginning = found.beginning, False
    if answer:
        owed.append(None)
    try:
        return _answers(driver, found, owed, quiet)
    except Exception as error:
        if beginning and pgconn.status == _BAD:
            setattr(error, NOTHING_RAN, True)
        raise


def _answers(driver: Any, found: _Session, owed: list[Any], quiet: bool) -> pq.abc.PGresult | None:
    pgconn = driver.pgconn
    pgconn.pipeline_sync()
    driver.wait(generators.send(pgconn))
    first: Exception | None = None
    last: pq.abc.PGresult | None = None
    sinks: list[tuple[Sink, pq.abc.PGresult]] = []
    for entry in owed:
        results = driver.wait(generators.fetch_many(pgconn))
        last = results[-1] if results else None
        failed = next((r for r in results if r.status == _FATAL), None)
        if failed is not None and first is None:
            first = _error(found, failed)
        if callable(entry):
            if last is not None:
                sinks.append((entry, last))
            continue
        prepared = entry
        if prepared is not None:
            del found.preparing[prepared[0]]
            if failed is None and results:
                found.names[prepared[0]] = prepared[1]
            elif first is None:
                first = errors.InternalError("a statement could not be prepared")
    while True:  # up to the sync
        results = driver.wait(generators.fetch_many(pgconn))
        if results and results[0].status == _SYNC:
            break
    if first is not None:
        if quiet:
            return None
        raise first
    for sink, result in sinks:
        sink(result)
    return last


def _one(found: _Session, results: list[pq.abc.PGresult]) -> pq.abc.PGresult:
    for result in results:
        if result.status == _FATAL:
            raise _error(found, result)
    if len(results) != 1:
        raise errors.InternalError(f"{len(results)} results for one statement")
    return results[0]


def _error(found: _Session, result: pq.abc.PGresult) -> Exception:
    error = errors.error_from_result(result, encoding="utf-8")
    if isinstance(error, errors.InvalidSqlStatementName):  # deallocated behind our back
        found.names.clear()  # prepared again by the next transaction
    return error


def load(found: _Session, result: pq.abc.PGresult, make_row: Any) -> list[Any]:
    """The rows of ``result``, each built by ``make_row`` from a list of its values."""
    transformer = found.transformer
    transformer.set_pgresult(result)
    rows: list[Any] = transformer.load_rows(0, result.ntuples, make_row)
    transformer.set_pgresult(None)
    return rows


def columns(result: pq.abc.PGresult) -> list[str]:
    """The names of ``result``'s columns."""
    return [(result.fname(index) or b"").decode() for index in range(result.nfields)]
