"""Connections and transactions.

Every command is one write transaction: load, apply, save, append event, write receipt.
Writers inside one process queue on a lock before ``BEGIN IMMEDIATE``, so they wait in
FIFO order instead of in SQLite's sleeping busy handler; other processes on the same file
are serialized by SQLite itself (or by an advisory lock on PostgreSQL).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from praxis.store import dialect, migrations


class Database:
    """An engine plus the write discipline of the project."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = url
        self.engine: Engine = dialect.make_engine(url, synchronous)
        self._write_lock = threading.Lock()

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
            finally:
                connection.close()

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
