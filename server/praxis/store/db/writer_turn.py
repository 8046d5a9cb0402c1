"""Whose turn it is to write, across the server processes of one SQLite file.

SQLite serializes writers itself: a ``BEGIN IMMEDIATE`` that finds the file locked by
another process sleeps in SQLite's busy handler (1, 2, 5, 10, 15, 20, 25 ms and on) and
tries again, so under cross-process contention a writer often sleeps well past the moment
the lock was released. Writers of ``praxis serve --processes N`` therefore first take an
exclusive ``flock`` on ``<db>.writer`` (one writer per process asks, after the process's
own FIFO lock): the kernel wakes the next one as soon as the previous releases it.

It only orders writers; SQLite's own locking still decides, so correctness never depends
on it (a process without it, or a file system without ``flock``, falls back to the busy
handler). The lock dies with its process, so a crashed writer never blocks the others.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

from praxis.observability import metrics

log = logging.getLogger("praxis.store")
SUFFIX = ".writer"


class WriterTurn:
    """An exclusive ``flock`` on ``<db>.writer``, held around one write transaction."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + SUFFIX)
        self._fd: int | None = None
        self._disabled = False
        self._unlocked = False  # no flock on the file's file system
        self._taken = self._waited = 0.0  # of the turn held now

    def _open(self) -> int | None:
        if self._fd is None and not self._disabled:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:  # a read-only directory: SQLite alone orders writers
                self._disabled = True
                log.warning("no writer turn file %s: %s", self.path, error)
        return self._fd

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Holds the turn for the block (the caller holds the process's write lock)."""
        self.take(blocking=True)
        try:
            yield
        finally:
            self.give_back()

    def take(self, blocking: bool) -> bool:
        """Takes the turn; ``blocking=False``: only when no other process holds it (else
        ``False``, and nothing is held). With no turn file, or no ``flock`` on its file
        system, there is nothing to take: SQLite alone orders writers."""
        fd = self._open()
        asked = time.perf_counter()
        if fd is not None and not self._unlocked:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            except OSError:  # no flock on this file system: SQLite alone orders writers
                self._unlocked = True
        self._taken = time.perf_counter()
        self._waited = self._taken - asked
        return True

    def give_back(self) -> None:
        """Gives the turn back (after :meth:`take`)."""
        if self._fd is not None and not self._unlocked:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        metrics.writer_turn(self._waited, time.perf_counter() - self._taken)

    def close(self) -> None:
        """Closes the file (releasing any turn)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
