"""Honest storage: failures reported as such, and the database file watched.

- A storage failure (disk full, read-only file, I/O error, a deleted or replaced file)
  becomes a :class:`StorageFailure` carrying ``UNAVAILABLE``/``STORAGE_UNAVAILABLE`` or
  ``RESOURCE_EXHAUSTED``/``STORAGE_FULL``, never ``INTERNAL``.
- A SQLite file is pinned by device and inode once open: if it is deleted or replaced
  while the server runs, every read and write is refused instead of SQLite silently
  creating or serving another database.
- Beside the file, ``<db>.installation`` records the installation id the file holds. A
  restart that finds the marker but no database file, or a file of another installation,
  refuses to start instead of serving a fresh, empty install.
- The database, its WAL and shared-memory files and the marker are kept 0600.
- Every process that opens the file holds a shared ``flock`` on ``<db>.serving`` while
  it has it open (:class:`ServingLock`); ``praxis admin restore`` takes it exclusively,
  so it never replaces a file a server is using, and no server opens one being restored.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, OperationalError

from praxis.core.rejection import Code, Rejection

MARKER_SUFFIX = ".installation"
SERVING_SUFFIX = ".serving"
# SQLite primary result codes (https://sqlite.org/rescode.html).
SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL = 8, 10, 11, 13
SQLITE_CANTOPEN, SQLITE_NOTADB = 14, 26
_UNAVAILABLE_CODES = {SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_NOTADB}


class StorageError(Exception):
    """The database cannot be served at start-up (missing or replaced file)."""


class StorageFailure(Exception):
    """A storage failure during a request; ``rejection`` is what the caller receives."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.message)
        self.rejection = rejection


def unavailable(message: str) -> StorageFailure:
    """An UNAVAILABLE / STORAGE_UNAVAILABLE failure."""
    return StorageFailure(Rejection(Code.UNAVAILABLE, "STORAGE_UNAVAILABLE", message))


def classify(error: BaseException) -> StorageFailure | None:
    """The storage failure ``error`` stands for, or ``None`` when it is something else."""
    if isinstance(error, StorageFailure):
        return error
    original = error.orig if isinstance(error, DBAPIError) else error
    if isinstance(original, sqlite3.Error):
        code = getattr(original, "sqlite_errorcode", 0) & 0xFF
        if code == SQLITE_FULL:
            return StorageFailure(
                Rejection(
                    Code.RESOURCE_EXHAUSTED,
                    "STORAGE_FULL",
                    "the database is full (disk or size limit); nothing was stored",
                )
            )
        if code in _UNAVAILABLE_CODES:
            return unavailable(f"the database cannot be used: {original}; nothing was stored")
        return None
    sqlstate = str(getattr(original, "sqlstate", "") or "")
    if sqlstate == "53100":  # PostgreSQL disk_full
        return StorageFailure(
            Rejection(Code.RESOURCE_EXHAUSTED, "STORAGE_FULL", "the database disk is full")
        )
    if sqlstate.startswith(("08", "53", "57P", "58")):  # connection, resources, shutdown, I/O
        return unavailable("the database is unavailable; nothing was stored")
    if not sqlstate and isinstance(error, OperationalError):
        # No SQLSTATE: the server never answered (refused, closed, unreachable).
        return unavailable("the database cannot be reached; nothing was stored")
    return None


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or ``None`` (another database, or in memory)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.database.startswith("file:"):
        return None  # a URI filename: the operator chose its own open mode
    return Path(parsed.database).resolve()


class FileGuard:
    """Watches one SQLite database file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.marker = path.with_name(path.name + MARKER_SUFFIX)
        self._identity: tuple[int, int] | None = None
        if self.marker.exists() and not path.exists():
            raise StorageError(
                f"the database file {path} is missing but {self.marker} says it held "
                f"installation {self.marker.read_text().strip()!r}: restore the file, or "
                f"remove the marker to start a new, empty installation"
            )

    def pin(self, installation_id: str) -> None:
        """Records the open file's identity and checks (or writes) the installation marker.

        Raises:
            StorageError: The file holds another installation than the marker says.
        """
        if self.marker.exists():
            recorded = self.marker.read_text(encoding="utf-8").strip()
            if recorded != installation_id:
                raise StorageError(
                    f"the database file {self.path} holds installation {installation_id!r} "
                    f"but {self.marker} says {recorded!r}: the file was replaced or "
                    "recreated; restore it, or remove the marker to accept this one"
                )
        else:
            fd = os.open(self.marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(installation_id + "\n")
        stat = self.path.stat()
        self._identity = (stat.st_dev, stat.st_ino)
        self.restrict()

    def restrict(self) -> None:
        """Makes the database, its WAL, shared memory and marker readable by the owner only."""
        for suffix in ("", "-wal", "-shm", MARKER_SUFFIX):
            try:
                os.chmod(self.path.with_name(self.path.name + suffix), 0o600)
            except FileNotFoundError:
                continue

    def check(self, write: bool = False) -> None:
        """Raises :class:`StorageFailure` when the pinned file is gone or replaced, or
        (``write``) when its owner may no longer write it (``chmod a-w``): even a process
        that SQLite would let write (root) must not write a file made read-only."""
        if self._identity is None:
            return
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            raise unavailable(f"the database file {self.path} was deleted") from None
        except OSError as error:
            raise unavailable(f"the database file {self.path} cannot be read: {error}") from None
        if (stat.st_dev, stat.st_ino) != self._identity:
            raise unavailable(f"the database file {self.path} was replaced by another file")
        if write and not stat.st_mode & 0o200:
            raise unavailable(f"the database file {self.path} is read-only")


class ServingLock:
    """A ``flock`` on ``<db>.serving``: shared by the processes using the file, exclusive
    for a restore (see the module docstring). The lock dies with its process."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + SERVING_SUFFIX)
        self._fd: int | None = None

    def share(self) -> None:
        """Holds the lock shared until :meth:`release`.

        Raises:
            StorageError: A restore holds it: the file is being replaced.
        """
        self._take(fcntl.LOCK_SH, "a restore is replacing the database file {db}; start the "
                   "server once it has finished")  # fmt: skip

    def exclusive(self) -> None:
        """Holds the lock exclusively until :meth:`release`.

        Raises:
            StorageError: A process (a server) has the database open.
        """
        self._take(fcntl.LOCK_EX, "a server has the database file {db} open: stop every "
                   "server process of this data directory first")  # fmt: skip

    def _take(self, mode: int, refusal: str) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a read-only directory: no lock to take (nor a restore to run)
            return
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            db = self.path.with_name(self.path.name[: -len(SERVING_SUFFIX)])
            raise StorageError(refusal.format(db=db)) from None
        except OSError:  # no flock on this file system
            pass
        self._fd = fd

    def release(self) -> None:
        """Releases the lock (closing its descriptor)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def database_bytes(connection: Connection, url: str) -> int | None:
    """What the database takes on disk: PostgreSQL's ``pg_database_size`` (read on
    ``connection``), or the SQLite file's size plus its WAL (None without a file)."""
    if connection.dialect.name == "postgresql":
        return int(
            connection.execute(text("SELECT pg_database_size(current_database())")).scalar() or 0
        )
    path = sqlite_path(url)
    if path is None:
        return None
    total = 0
    for name in (str(path), f"{path}-wal"):
        try:
            total += os.stat(name).st_size
        except OSError:
            continue
    return total
