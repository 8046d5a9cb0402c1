"""Connections and transactions.

Every command is one write transaction: load, apply, save, append event, write receipt.
Writers inside one process queue on a lock before ``BEGIN IMMEDIATE``, so they wait in
FIFO order instead of in SQLite's sleeping busy handler; other processes on the same file
are serialized by SQLite itself (or by an advisory lock on PostgreSQL).

:meth:`Database.transact` adds group commit: commands that arrive while another batch is
being written are run together by the next writer, each inside its own SAVEPOINT, and
made durable by one COMMIT (one fsync). Each command still sees the effects of the ones
before it and still commits or rolls back on its own; a failed COMMIT fails every
command of the batch, and none of them was acknowledged.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from praxis.store import dialect, migrations

log = logging.getLogger("praxis.store")
T = TypeVar("T")
MAX_BATCH = 128  # a full SettleTasks batch (100) plus its claim fits one COMMIT
_AFTER_COMMIT = "praxis_after_commit"


def _run(callbacks: list[Callable[[], None]]) -> None:
    """Runs after-commit callbacks; one that fails is logged and does not undo anything."""
    for callback in callbacks:
        try:
            callback()
        except Exception:
            log.exception("after-commit callback failed")


class _Pending(Generic[T]):
    """One command waiting for a group commit."""

    def __init__(self, body: Callable[[Connection], T]) -> None:
        self.body = body
        self.done = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None


class Database:
    """An engine plus the write discipline of the project."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.engine: Engine = dialect.make_engine(url, synchronous)
        self._write_lock = threading.Lock()
        self._pending: deque[_Pending[object]] = deque()

    def migrate(self, now_ms: int) -> list[int]:
        """Checks the schema and applies missing migrations (see :mod:`migrations`)."""
        return migrations.migrate(self.engine, now_ms)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A serialized write transaction; commits on success, rolls back on error."""
        with self._write_lock:
            connection = self.engine.connect().execution_options(**{dialect.WRITE_OPTION: True})
            try:
                with connection.begin():
                    dialect.lock_for_write(connection)
                    yield connection
                callbacks = connection.info.pop(_AFTER_COMMIT, [])
            finally:
                connection.info.pop(_AFTER_COMMIT, None)
                connection.close()
            _run(callbacks)

    def transact(self, body: Callable[[Connection], T]) -> T:
        """Runs ``body`` in a write transaction, group-committed with concurrent callers.

        ``body`` may raise :class:`Rollback` to undo its own writes and return a value.
        """
        item: _Pending[T] = _Pending(body)
        self._pending.append(item)  # type: ignore[arg-type]  # deque of any _Pending
        with self._write_lock:
            if not item.done.is_set():
                self._write_batch()
        if item.error is not None:
            raise item.error
        return item.value  # type: ignore[return-value]  # set by _write_batch

    def transact_many(self, bodies: list[Callable[[Connection], T]]) -> list[T | BaseException]:
        """Runs several bodies as commands of one group commit, each answered on its own.

        Each body runs in its own SAVEPOINT, exactly as with :meth:`transact`; the list
        holds each body's value, or the exception it raised (a failed COMMIT gives every
        body that error). Up to ``MAX_BATCH`` bodies share one COMMIT.
        """
        items: list[_Pending[T]] = [_Pending(body) for body in bodies]
        self._pending.extend(items)  # type: ignore[arg-type]  # deque of any _Pending
        for item in items:
            if not item.done.is_set():
                with self._write_lock:
                    if not item.done.is_set():
                        self._write_batch()
        return [item.error if item.error is not None else item.value for item in items]  # type: ignore[misc]

    @staticmethod
    def after_commit(connection: Connection, callback: Callable[[], None]) -> None:
        """Runs ``callback`` once the write transaction of ``connection`` has committed.

        Hooks that run inside another store's transaction (registry activations, admin
        cancellations) use it to wake waiters only when what they wait for is visible.
        Callbacks of a command that rolls back are dropped with it.
        """
        connection.info.setdefault(_AFTER_COMMIT, []).append(callback)

    def _write_batch(self) -> None:
        batch: list[_Pending[object]] = []
        while self._pending and len(batch) < MAX_BATCH:
            batch.append(self._pending.popleft())
        connection = self.engine.connect().execution_options(**{dialect.WRITE_OPTION: True})
        try:
            with connection.begin():
                dialect.lock_for_write(connection)
                callbacks = connection.info.setdefault(_AFTER_COMMIT, [])
                for item in batch:
                    savepoint = connection.begin_nested()
                    registered = len(callbacks)
                    try:
                        item.value = item.body(connection)
                        savepoint.commit()
                    except Rollback as rollback:
                        savepoint.rollback()
                        item.value = rollback.value
                        del callbacks[registered:]
                    except Exception as error:  # handed to its caller
                        savepoint.rollback()
                        item.error = error
                        del callbacks[registered:]
            callbacks = connection.info.pop(_AFTER_COMMIT, [])
        except Exception as error:  # the COMMIT failed: nothing of the batch is durable
            callbacks = []
            for item in batch:
                item.error = item.error or error
        finally:
            connection.info.pop(_AFTER_COMMIT, None)
            connection.close()
        _run(callbacks)
        for item in batch:
            item.done.set()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction over one consistent snapshot."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    def close(self) -> None:
        """Releases every pooled connection."""
        self.engine.dispose()


class Rollback(Exception):  # control flow, not an error
    """Raised inside a write transaction to roll it back and return ``value`` instead."""

    def __init__(self, value: object) -> None:
        super().__init__("rollback")
        self.value = value
