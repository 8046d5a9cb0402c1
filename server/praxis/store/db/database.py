"""Connections and transactions.

Every command is one write transaction: load, apply, save, append event, write receipt.

SQLite: one write connection per process, used under the write lock by one of two
writers. A command made on a thread that runs an event loop (the server's loop, where
the hot RPCs run on SQLite, :mod:`praxis.rpc.serving`) is written by the loop itself, no
thread hand-off: from a store call on the loop it joins the loop's group commit
(:mod:`praxis.store.db.loop_calls`: the calls of one turn of the loop share one COMMIT,
each call waiting without holding up the loop), and from plain code on the loop it is
written at once, one COMMIT (its fsync about 0.2 ms) before the loop goes on. A command from any
other thread (the pool's RPCs, the sweeper, schedules, deliveries) queues for the writer
thread (:meth:`Database.transact`, :meth:`Database.transact_many`; the calling thread
waits on an event), which drains the queue in FIFO order, runs each command of a batch in
its own SAVEPOINT, makes the batch durable with one COMMIT (one fsync: group commit),
then answers each command in order. Either way each command sees the effects of the
ones before it and commits or rolls back on its own; a failed COMMIT fails every command
of its batch, and none of them was acknowledged. A write asked for from inside a write
(a body, a before-commit hook's ending, an after-commit callback) is refused: it would
wait for itself. Other processes on the same file are serialized by SQLite itself,
ordered by :mod:`praxis.store.db.writer_turn`.

PostgreSQL runs one transaction per command and no in-process write lock: commands of
different runs and work orders proceed in parallel, each locking what it touches
(:mod:`praxis.store.db.locks`). A transaction that loses a race on a unique key, or that
PostgreSQL picks as a deadlock or serialization victim, is retried (up to
``PG_RETRIES`` times); the retry sees the winner's row and answers as a replay. A command
of a store call on the event loop runs there, on a connection of its own, and each of
its waits for the database parks the call (:mod:`praxis.store.db.loop_pg`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Generic, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection, RootTransaction
from sqlalchemy.exc import DBAPIError

from praxis.observability import metrics
from praxis.store.db import dialect, files, loop_calls, migrations, statements
from praxis.store.db.writer_turn import WriterTurn

log = logging.getLogger("praxis.store")
T = TypeVar("T")
MAX_BATCH = 128  # a full SettleTasks batch (100) plus its claim fits one COMMIT
_AFTER_COMMIT = "praxis_after_commit"
_BEFORE_COMMIT = "praxis_before_commit"
_MEMO = "praxis_memo"
PG_RETRIES = 5
_RETRY_STATES = frozenset({"23505", "40001", "40P01"})  # unique, serialization, deadlock


def _retryable(error: BaseException) -> bool:
    """Whether PostgreSQL refused a transaction for a race that a retry resolves."""
    return isinstance(error, DBAPIError) and getattr(error.orig, "sqlstate", "") in _RETRY_STATES


def _nothing_ran(error: BaseException) -> bool:
    """Whether a transaction failed in the round trip that carried its ``BEGIN``, on a
    connection found dead: nothing of it ran (:data:`praxis.store.db.libpq.NOTHING_RAN`)."""
    found = error.orig if isinstance(error, DBAPIError) else error  # raw: from an event
    return bool(getattr(found, "praxis_nothing_ran", False))


def _roll_back(transaction: RootTransaction, error: BaseException) -> None:
    """Rolls back a transaction that failed with ``error``; when ``error`` found its
    connection dead before anything ran, the rollback's own failure is not news."""
    if not transaction.is_active:
        return
    try:
        transaction.rollback()
    except Exception:
        if not _nothing_ran(error):
            raise


def _run(callbacks: list[Callable[[], None]]) -> None:
    """Runs after-commit callbacks; one that fails is logged and does not undo anything."""
    for callback in callbacks:
        try:
            callback()
        except Exception:
            log.exception("after-commit callback failed")


Ending = Callable[[bool], None]
"""What a before-commit hook returns: called with whether the COMMIT succeeded."""


def _before_commit(connection: Connection) -> list[Ending]:
    """Runs the transaction's before-commit hooks (:meth:`Database.before_commit`)."""
    hooks: dict[Callable[..., Ending], list[object]] = connection.info.pop(_BEFORE_COMMIT, {})
    return [hook(connection, items) for hook, items in hooks.items()]


def _end(endings: list[Ending], committed: bool) -> None:
    """Tells the before-commit hooks whether their transaction committed."""
    for ending in endings:
        try:
            ending(committed)
        except Exception:
            log.exception("a before-commit hook's ending failed")


def memo(connection: Connection) -> dict[object, object]:
    """What the write transaction of ``connection`` has computed so far, for its later
    commands (:func:`praxis.store.runtime.rows.saving.save` keeps the run states it wrote, so a
    claim after a settlement of the same run in one group commit does not read it
    again). Forgotten when any command's SAVEPOINT rolls back and when the transaction
    ends, so it only ever holds what the transaction's own rows say."""
    found: dict[object, object] | None = connection.info.get(_MEMO)
    if found is None:
        found = connection.info[_MEMO] = {}
    return found


def recalled(connection: Connection, key: object) -> object:
    """What :func:`memo` holds under ``key`` for this transaction (``None``: nothing)."""
    found = connection.info.get(_MEMO)
    return None if found is None else found.get(key)


def _forget(connection: Connection) -> None:
    """Drops what a transaction left on its (pooled, reused) DBAPI connection's info.
    An invalidated connection's is dropped with it (reading it would reconnect)."""
    if connection.closed or connection.invalidated:
        return
    connection.info.pop(_AFTER_COMMIT, None)
    connection.info.pop(_BEFORE_COMMIT, None)
    connection.info.pop(_MEMO, None)
    connection.info.pop(statements.SAVEPOINTS, None)
    statements.ended(connection)


def _in_savepoint(
    connection: Connection, body: Callable[[Connection], T], callbacks: list[Callable[[], None]]
) -> tuple[T | None, BaseException | None]:
    """Runs one command of a shared transaction in its own SAVEPOINT: ``(value, None)``,
    or ``(None, error)`` with the command's writes and after-commit callbacks undone (a
    :class:`Rollback` is a value). Raises the command's error when the savepoint cannot be
    rolled back because the database ended the whole transaction (a full disk, an I/O
    error, a lost connection): the transaction fails with that cause."""
    savepoint = statements.Savepoint(connection)
    registered = len(callbacks)
    try:
        value = body(connection)
        savepoint.commit()
        return value, None
    except Rollback as rollback:
        savepoint.rollback()
        connection.info.pop(_MEMO, None)
        del callbacks[registered:]
        return rollback.value, None  # type: ignore[return-value]  # the body's answer
    except Exception as error:  # handed to its caller
        try:  # a connection lost meanwhile fails both: the transaction ends with error
            connection.info.pop(_MEMO, None)
            savepoint.rollback()
        except Exception:
            raise error from None
        del callbacks[registered:]
        return None, error


class _Pending(Generic[T]):
    """One command waiting for the writer thread; its caller waits on ``done``."""

    __slots__ = ("body", "done", "error", "value")

    def __init__(self, body: Callable[[Connection], T]) -> None:
        self.body = body
        self.done = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None


class Database:
    """An engine plus the write discipline of the project."""

    def __init__(self, url: str, synchronous: str = "FULL", pool_size: int | None = None) -> None:
        self.url = url
        path = files.sqlite_path(url)
        self.guard = files.FileGuard(path) if path is not None else None
        # Held while the file is open here: a restore never replaces it under us.
        self._serving = files.ServingLock(path) if path is not None else None
        if self._serving is not None:
            self._serving.share()
        # Orders the writers of several processes on one SQLite file (see writer_turn).
        self._turn = WriterTurn(Path(path)) if path is not None else None
        # pool_size: PostgreSQL connections at most (db_pool_size); SQLite keeps its own.
        self.engine: Engine = dialect.make_engine(url, synchronous, pg_pool_size=pool_size)
        self.postgres = not url.startswith("sqlite")
        # One writer at a time (SQLite): this process's commands queue for its writer
        # thread, which commits them in groups; PostgreSQL runs them side by side.
        self.single_writer = not self.postgres
        # Held by the writer around each batch, and by :meth:`write` (SQLite).
        self._write_lock = threading.Lock()
        # SQLite: the loop thread writing on its own, while it does (else 0).
        self._writing_here = 0
        # SQLite: the writes of the store calls on the loop waiting for its next group
        # commit (praxis.store.db.loop_calls), each batch with what its call awaits.
        self._loop_queue: list[tuple[list[_Pending[object]], asyncio.Future[None]]] = []
        # SQLite: the writer thread, draining the queue of commands.
        self._writes = _Lane("praxis-writer", self._write_next)
        # SQLite: the group commit's connection, kept between batches (used under the
        # write lock) with the pool it came from; dropped after a batch that failed, so
        # a broken one is not reused, and when the engine is disposed (a new pool).
        self._writer: tuple[Connection, object] | None = None
        # SQLite: each thread's read connection, kept the same way between its reads
        # (by thread id; close() closes them all).
        self._readers: dict[int, tuple[Connection, object]] = {}
        self._readers_lock = threading.Lock()
        self.writable = True
        # Called with False when a write fails for a storage reason, True when one succeeds.
        self.storage_listeners: list[Callable[[bool], None]] = []

    def pin(self, installation_id: str) -> None:
        """Pins the SQLite file and its installation marker (see :mod:`files`)."""
        if self.guard is not None:
            self.guard.pin(installation_id)
            dialect.open_existing_only(self.engine, self.guard.path)

    def _storage(self, ok: bool) -> None:
        if ok == self.writable:
            return
        self.writable = ok
        if not ok:
            log.error("storage failure: writes are refused until one succeeds")
        else:
            log.info("storage recovered: writes succeed again")
        for listener in self.storage_listeners:
            listener(ok)

    def _failed(self, error: BaseException) -> BaseException:
        """The error a caller receives: a :class:`files.StorageFailure` when it is one."""
        failure = files.classify(error)
        if failure is None:
            return error
        self._storage(False)
        return failure

    def migrate(self, now_ms: int, known: Sequence[migrations.Migration]) -> list[int]:
        """Checks the schema against ``known`` (:data:`praxis.store.schema.MIGRATIONS`)
        and applies the missing migrations (see :mod:`praxis.store.db.migrations`)."""
        return migrations.migrate(self.engine, now_ms, known)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A serialized write transaction; commits on success, rolls back on error."""
        with self._local_lock(), self._turn_held():
            started = time.perf_counter()
            try:
                self._check(write=True)
                connection, transaction = self._begin_write(scoped=False)
            except Exception as error:
                raise self._failed(error) from error
            try:
                with transaction:
                    yield connection
                callbacks = connection.info.pop(_AFTER_COMMIT, [])
            except Exception as error:
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
            finally:
                _forget(connection)
                connection.close()
                metrics.transaction(1, started)
            self._storage(True)
            _run(callbacks)

    def _local_lock(self) -> AbstractContextManager[object]:
        """The in-process writers' queue (SQLite); PostgreSQL writers do not queue here."""
        return nullcontext() if self.postgres else self._write_lock

    def transact(self, body: Callable[[Connection], T], scoped: bool = False) -> T:
        """Runs ``body`` in a write transaction, group-committed with concurrent callers.

        ``body`` may raise :class:`Rollback` to undo its own writes and return a value.
        ``scoped``: ``body`` takes the locks of what it touches (:mod:`locks`); on
        PostgreSQL it then runs beside other scoped commands instead of alone.
        SQLite: the writer thread runs it; this thread waits for its durable commit.
        """
        if self.postgres:
            return self._transact_alone(body, scoped)
        self._not_on_writer()
        item: _Pending[T] = _Pending(body)
        if _on_a_loop():
            self._write_on_loop([item])  # type: ignore[list-item]  # a list of any _Pending
        else:
            self._writes.put([item])  # type: ignore[list-item]  # a list of any _Pending
        item.done.wait()
        if item.error is not None:
            failure = self._failed(item.error)
            if failure is item.error:
                raise item.error
            raise failure from item.error
        return item.value  # type: ignore[return-value]  # set by _write_batch

    def _not_on_writer(self) -> None:
        """Refuses a write asked for from inside a write (a body, a before-commit hook's
        ending, an after-commit callback), on the writer thread or on a loop writing: it
        would wait for itself."""
        if threading.get_ident() in (self._writes.ident, self._writing_here):
            raise RuntimeError("a writer cannot wait for its own write")

    def transact_many(
        self,
        bodies: list[Callable[[Connection], T]],
        scoped: bool = False,
        keys: list[str] | None = None,
    ) -> list[T | BaseException]:
        """Runs several bodies as commands of one group commit, each answered on its own.

        Each body runs in its own SAVEPOINT, exactly as with :meth:`transact`; the list
        holds each body's value, or the exception it raised (a failed COMMIT gives every
        body that error). Up to ``MAX_BATCH`` bodies share one COMMIT.

        On PostgreSQL, bodies with the same non-empty ``keys`` entry (what they lock, for
        example their run) share one transaction, in order; every other body is a
        transaction of its own. Grouping by what is locked adds no lock order that a
        transaction of one body would not take, so it adds no deadlock.
        """
        if self.postgres:
            return self._transact_groups(bodies, scoped, keys or [""] * len(bodies))
        self._not_on_writer()
        items: list[_Pending[T]] = [_Pending(body) for body in bodies]
        if _on_a_loop():
            self._write_on_loop(items)  # type: ignore[arg-type]  # a list of any _Pending
        else:
            self._writes.put(items)  # type: ignore[arg-type]  # a list of any _Pending
        for item in items:
            item.done.wait()
        return [item.error if item.error is not None else item.value for item in items]  # type: ignore[misc]

    # --- the writers (SQLite) -------------------------------------------------------------

    def _write_on_loop(self, items: list[_Pending[object]]) -> None:
        """A write asked for on an event loop: from a store call on the loop
        (:mod:`praxis.store.db.loop_calls`) it joins the loop's next group commit and the
        call steps back to the loop until that COMMIT; otherwise it is written at once."""
        if not loop_calls.inside():
            self._write_here(items)
            return
        loop = asyncio.get_running_loop()
        answered = loop.create_future()
        self._loop_queue.append((items, answered))
        if len(self._loop_queue) == 1:
            loop.call_soon(self._write_loop_queue)
        loop_calls.wait(answered)

    def _write_loop_queue(self) -> None:
        """The loop's group commit: every write its calls queued since the last one.

        When the write lock or the writers' turn is taken (the writer thread's batch,
        another server process's), a thread of the loop's executor waits for them and
        the loop goes on meanwhile: its calls decide and queue their writes, which join
        this batch."""
        if self._take_turn(blocking=False):
            self._write_loop_queue_held()
            return
        loop = asyncio.get_running_loop()
        waited = loop.run_in_executor(None, self._take_turn, True)
        waited.add_done_callback(lambda _taken: self._write_loop_queue_held())

    def _write_loop_queue_held(self) -> None:
        """:meth:`_write_loop_queue` once the write lock and the turn are held: writes
        the queue (the first ``MAX_BATCH`` under the turn held, any rest each in a turn of
        its own), answers it, and gives both back."""
        queued, self._loop_queue = self._loop_queue, []
        items = [item for batch, _answered in queued for item in batch]
        self._writing_here = threading.get_ident()
        try:
            try:
                finish = self._write_batch(items[:MAX_BATCH])
            finally:
                self._give_turn()
            finish()
            for start in range(MAX_BATCH, len(items), MAX_BATCH):
                with self._write_lock:
                    self._commit_pending(items[start : start + MAX_BATCH])
        finally:
            self._writing_here = 0
            for _batch, answered in queued:
                answered.set_result(None)

    def _take_turn(self, blocking: bool) -> bool:
        """Takes the process's write lock and the writers' turn (both or neither)."""
        if not self._write_lock.acquire(blocking=blocking):
            return False
        if self._turn is None or self._turn.take(blocking):
            return True
        self._write_lock.release()
        return False

    def _give_turn(self) -> None:
        """Gives back what :meth:`_take_turn` took."""
        if self._turn is not None:
            self._turn.give_back()
        self._write_lock.release()

    def _write_here(self, items: list[_Pending[object]]) -> None:
        """Writes ``items`` on this thread, an event loop's (see the module's docstring),
        in batches of at most ``MAX_BATCH``, each one group commit."""
        with self._write_lock:
            self._writing_here = threading.get_ident()
            try:
                for start in range(0, len(items), MAX_BATCH):
                    self._commit_pending(items[start : start + MAX_BATCH])
            finally:
                self._writing_here = 0

    def _write_next(self, pending: deque[_Pending[object]]) -> None:
        """The writer: takes up to ``MAX_BATCH`` queued commands and writes them as one
        batch."""
        batch = [pending.popleft() for _ in range(min(len(pending), MAX_BATCH))]
        with self._write_lock:
            self._commit_pending(batch)

    def _transact_alone(self, body: Callable[[Connection], T], scoped: bool) -> T:
        """One command in one PostgreSQL transaction, retried when it lost a race (and
        once when its first round trip found its pooled connection dead)."""
        fresh = True
        for attempt in range(PG_RETRIES + 1):
            try:
                return self._attempt(body, scoped)
            except Exception as error:
                if attempt < PG_RETRIES and _retryable(error):
                    log.debug("retrying a transaction that lost a race: %s", error)
                    continue
                if fresh and _nothing_ran(error):
                    log.info("a pooled connection was gone; beginning again: %s", error)
                    fresh = False
                    continue
                failure = self._failed(error)
                if failure is error:
                    raise
                raise failure from error
        raise AssertionError("unreachable")

    def _transact_groups(
        self, bodies: list[Callable[[Connection], T]], scoped: bool, keys: list[str]
    ) -> list[T | BaseException]:
        """PostgreSQL's :meth:`transact_many`: one transaction per key, then per body."""
        groups: dict[str, list[int]] = {}
        for index, key in enumerate(keys):
            groups.setdefault(key or f"\x00{index}", []).append(index)
        answers: list[T | BaseException] = [AssertionError("not run")] * len(bodies)
        for indexes in groups.values():
            if len(indexes) > 1:
                self._transact_group(bodies, indexes, scoped, answers)
                continue
            try:
                answers[indexes[0]] = self._transact_alone(bodies[indexes[0]], scoped)
            except Exception as error:
                answers[indexes[0]] = error
        return answers

    def _transact_group(
        self,
        bodies: list[Callable[[Connection], T]],
        indexes: list[int],
        scoped: bool,
        answers: list[T | BaseException],
        fresh: bool = True,
    ) -> None:
        """Runs ``bodies[i]`` for ``i`` in ``indexes`` in one PostgreSQL transaction, each in
        its own SAVEPOINT. A body that lost a race is rolled back to its savepoint and run
        again alone after the COMMIT (its retry then sees the winner's row); a failed
        COMMIT, or a connection lost mid-way, gives every body of the group that error,
        unless the transaction's first round trip found the connection dead (``fresh``:
        the group then begins again once)."""
        started = time.perf_counter()
        again: list[int] = []
        retry = False
        try:
            connection, transaction = self._begin_write(scoped, deferred=True)
        except Exception as error:
            failure = self._failed(error)
            for index in indexes:
                answers[index] = failure
            return
        endings: list[Ending] = []
        try:
            callbacks = connection.info.setdefault(_AFTER_COMMIT, [])
            for index in indexes:
                value, problem = _in_savepoint(connection, bodies[index], callbacks)
                if problem is None:
                    answers[index] = value  # type: ignore[assignment]  # the body's T
                elif _retryable(problem):
                    again.append(index)
                else:
                    answers[index] = problem
            endings = _before_commit(connection)
            transaction.commit()
            callbacks = connection.info.pop(_AFTER_COMMIT, [])
        except Exception as error:
            _roll_back(transaction, error)
            _end(endings, False)
            retry = fresh and _nothing_ran(error)
            if not retry:
                failure = self._failed(error)
                for index in indexes:
                    answers[index] = failure
                return
            log.info("a pooled connection was gone; beginning again: %s", error)
        finally:
            _forget(connection)
            connection.close()
            metrics.transaction(len(indexes), started)
        if retry:
            self._transact_group(bodies, indexes, scoped, answers, fresh=False)
            return
        self._storage(True)
        _run(callbacks)
        _end(endings, True)
        for index in again:
            try:
                answers[index] = self._transact_alone(bodies[index], scoped)
            except Exception as error:
                answers[index] = error

    def _begin_write(
        self, scoped: bool, deferred: bool = False
    ) -> tuple[Connection, RootTransaction]:
        """A write connection in its transaction, holding the installation's lock.

        On PostgreSQL the lock is the transaction's first statement, the first use of a
        pooled connection: when that connection turns out to be dead (the server
        restarted, its backend was terminated), nothing of the command has run, so it
        begins again once on a fresh connection (the pool replaced the dead ones).
        ``deferred``: the lock travels with the command's first statement instead, in
        its round trip; the command's caller then begins again when that round trip
        finds the connection dead (:func:`_nothing_ran`).
        """
        for attempt in (1, 2):
            connection = self.engine.connect().execution_options(**{dialect.WRITE_OPTION: True})
            try:
                transaction = connection.begin()
                dialect.lock_for_write(connection, scoped, deferred)
                return connection, transaction
            except DBAPIError as error:
                connection.close()
                if attempt == 1 and self.postgres and error.connection_invalidated:
                    log.info("a pooled connection was gone; beginning again: %s", error.orig)
                    continue
                raise
            except BaseException:
                connection.close()
                raise
        raise AssertionError("unreachable")

    def _attempt(self, body: Callable[[Connection], T], scoped: bool) -> T:
        started = time.perf_counter()
        connection, transaction = self._begin_write(scoped, deferred=True)
        endings: list[Ending] = []
        try:
            try:
                value = body(connection)
                endings = _before_commit(connection)
                transaction.commit()
            except Rollback as rollback:
                transaction.rollback()
                return rollback.value  # type: ignore[return-value]  # the body's answer
            except BaseException as error:
                _roll_back(transaction, error)
                _end(endings, False)
                raise
            callbacks = connection.info.pop(_AFTER_COMMIT, [])
        finally:
            _forget(connection)
            connection.close()
            metrics.transaction(1, started)
        self._storage(True)
        _run(callbacks)
        _end(endings, True)
        return value

    @staticmethod
    def before_commit(
        connection: Connection, hook: Callable[[Connection, list[object]], Ending], item: object
    ) -> None:
        """Runs ``hook`` once in the write transaction of ``connection``, after its last
        command and before its COMMIT, with every ``item`` registered for it there.

        A command registers at its end (the ready-work hand-off,
        :mod:`praxis.store.runtime.matching`, passes the effects of each command that
        readied an attempt). The hook returns what is called once the COMMIT succeeded
        (``True``) or failed (``False``), after the after-commit callbacks. A hook that
        writes does so in a SAVEPOINT of its own and undoes it rather than raise: an error
        it raises fails the whole transaction, as a failed COMMIT would.
        """
        hooks: dict[object, list[object]] = connection.info.setdefault(_BEFORE_COMMIT, {})
        hooks.setdefault(hook, []).append(item)

    @staticmethod
    def after_commit(
        connection: Connection, callback: Callable[[], None], once: bool = False
    ) -> None:
        """Runs ``callback`` once the write transaction of ``connection`` has committed.

        Hooks that run inside another store's transaction (registry activations, admin
        cancellations) use it to wake waiters only when what they wait for is visible.
        Callbacks of a command that rolls back are dropped with it. ``once``: not added
        when the same callback is already pending, so the commands of a group commit
        share it (the commands of a batch run one after another, so a pending callback
        is one of a command that kept its writes).
        """
        callbacks = connection.info.setdefault(_AFTER_COMMIT, [])
        if not (once and callback in callbacks):
            callbacks.append(callback)

    def _commit_pending(self, batch: list[_Pending[object]]) -> None:
        """Commits a batch of commands (the writer thread, holding the write lock); their
        after-commit callbacks run once the other processes may write again."""
        with self._turn_held():
            finish = self._write_batch(batch)
        finish()

    def _write_batch(self, batch: list[_Pending[object]]) -> Callable[[], None]:
        """Runs and commits a batch; returns what completes it (the storage state, the
        after-commit callbacks, answering its callers), to run after the writers' turn."""
        started = time.perf_counter()
        try:
            self._check(write=True)
            connection = self._take_writer()
        except Exception as error:  # nothing of the batch ran
            for item in batch:
                item.error = error
            return lambda: _answer(batch)
        committed = False
        endings: list[Ending] = []
        try:
            with connection.begin():
                dialect.lock_for_write(connection)
                callbacks = connection.info.setdefault(_AFTER_COMMIT, [])
                for item in batch:
                    item.value, item.error = _in_savepoint(connection, item.body, callbacks)
                endings = _before_commit(connection)
            callbacks = connection.info.pop(_AFTER_COMMIT, [])
            committed = True
        except Exception as error:  # the COMMIT failed: nothing of the batch is durable
            callbacks = []
            for item in batch:
                item.error = item.error or error
        finally:
            _forget(connection)
            if committed:
                self._writer = (connection, self.engine.pool)
            else:
                connection.close()
            metrics.transaction(len(batch), started)

        def finish() -> None:
            if committed and not any(files.classify(i.error) for i in batch if i.error):
                self._storage(True)
            _run(callbacks)
            _end(endings, committed)
            _answer(batch)

        return finish

    def _take_writer(self) -> Connection:
        """The kept group-commit connection, or a new one (the caller holds the write
        lock and gives it back to ``_writer`` once its batch has committed)."""
        kept, self._writer = self._writer, None
        return self._reused(kept) or self.engine.connect().execution_options(
            **{dialect.WRITE_OPTION: True}
        )

    def _reused(self, kept: tuple[Connection, object] | None) -> Connection | None:
        """A kept connection, unless the engine was disposed since (a new pool): then it
        is closed, since a dispose() renews every connection."""
        if kept is None or kept[1] is self.engine.pool:
            return kept[0] if kept is not None else None
        kept[0].close()
        return None

    def _take_reader(self) -> Connection:
        """This thread's kept read connection (SQLite), or a new one; a nested read while
        the kept one is in use gets a new one."""
        with self._readers_lock:
            kept = self._readers.pop(threading.get_ident(), None)
        return self._reused(kept) or self.engine.connect()

    def _keep_reader(self, connection: Connection) -> bool:
        """Keeps ``connection`` (SQLite, after its read committed) as this thread's,
        unless the thread already keeps one (it was a nested read)."""
        if self.postgres:
            return False
        with self._readers_lock:
            return (
                self._readers.setdefault(threading.get_ident(), (connection, self.engine.pool))[0]
                is connection
            )

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction over one consistent snapshot."""
        try:
            self._check(write=False)
            connection = self._take_reader()
            connection.begin()
        except Exception as error:
            raise self._failed(error) from error
        kept = False
        try:
            yield connection
            connection.commit()
            kept = self._keep_reader(connection)
        except Exception as error:
            failure = files.classify(error)
            if failure is None:
                raise
            raise failure from error
        finally:
            if not kept:
                connection.close()

    def _check(self, write: bool) -> None:
        if self.guard is not None:
            self.guard.check(write)

    def _turn_held(self) -> contextlib.AbstractContextManager[None]:
        return self._turn.held() if self._turn is not None else contextlib.nullcontext()

    def close(self) -> None:
        """Answers what is queued, stops the writer thread, releases every connection."""
        self._writes.stop()
        with self._write_lock:
            if self._writer is not None:
                self._writer[0].close()
                self._writer = None
        with self._readers_lock:
            readers, self._readers = list(self._readers.values()), {}
        for connection, _pool in readers:
            connection.close()
        self.engine.dispose()
        if self._turn is not None:
            self._turn.close()
        if self._serving is not None:
            self._serving.release()


class _Lane:
    """One thread draining one queue: started on first use, in the process that uses it
    (again in a forked child, where the parent's thread does not exist), stopped once
    what was queued is answered."""

    def __init__(self, name: str, drain: Callable[[deque[_Pending[object]]], None]) -> None:
        self.name = name
        self.ident = 0  # the thread's, once it runs
        self._drain = drain  # takes and answers some of the queue
        self._pending: deque[_Pending[object]] = deque()
        self._work = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._starting = threading.Lock()
        self._stopping = False

    def put(self, items: list[_Pending[object]]) -> None:
        """Queues ``items`` and wakes the thread."""
        if self._pid != os.getpid():
            self._start()
        self._pending.extend(items)
        self._work.set()

    def _start(self) -> None:
        with self._starting:
            if self._pid == os.getpid():
                return
            self._pending.clear()  # a forked child's copy of the parent's queue
            self._stopping = False
            thread = threading.Thread(target=self._main, name=self.name, daemon=True)
            thread.start()
            self._thread, self._pid = thread, os.getpid()

    def _main(self) -> None:
        self.ident = threading.get_ident()
        while True:
            self._work.wait()
            self._work.clear()
            while self._pending:
                self._drain(self._pending)
            if self._stopping and not self._pending:
                return

    def stop(self) -> None:
        """Answers what is queued, then ends the thread (a later ``put`` starts another)."""
        thread = self._thread
        if thread is None or self._pid != os.getpid():
            return
        self._stopping = True
        self._work.set()
        if thread is not threading.current_thread():
            thread.join()
        self._thread, self._pid = None, 0


def _on_a_loop() -> bool:
    """Whether this thread runs an event loop: its writes are made on it."""
    return asyncio._get_running_loop() is not None


def _answer(items: list[_Pending[object]]) -> None:
    """Wakes each command's waiting thread, in order."""
    for item in items:
        item.done.set()


class Rollback(Exception):  # control flow, not an error
    """Raised inside a write transaction to roll it back and return ``value`` instead."""

    def __init__(self, value: object) -> None:
        super().__init__("rollback")
        self.value = value
