"""A command run in a real pseudo-terminal (the stdlib ``pty``) of a given size: what a
person at a terminal sees and types, for the commands that ask (``praxis wait answer``)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A process whose stdin, stdout and stderr are one pseudo-terminal of ``columns``
    columns; :meth:`expect` reads until a text appears (escape sequences removed)."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        columns: int = 80,
        rows: int = 24,
    ) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, "TERM": "xterm-256color"},
            cwd=cwd,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.seen = ""
        self._read_to = 0

    def expect(self, text: str, timeout_s: float = 30) -> str:
        """Waits until ``text`` shows after what earlier calls matched; returns what showed
        up to and including it."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = self.seen.find(text, self._read_to)
            if found >= 0:
                shown = self.seen[self._read_to : found + len(text)]
                self._read_to = found + len(text)
                return shown
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never showed; the terminal shows:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the process ended and closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{text!r} never showed before the end:\n{self.seen}")
                self.seen += _ESCAPES.sub("", chunk.decode("utf-8", "replace"))

    def type(self, line: str) -> None:
        """Types a line and Enter."""
        os.write(self.master, line.encode() + b"\r")

    def wait(self, timeout_s: float = 30) -> int:
        """The exit code, reading the rest of the output meanwhile."""
        deadline = time.monotonic() + timeout_s
        while self.process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                self.seen += _ESCAPES.sub("", chunk.decode("utf-8", "replace"))
        code = self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        os.close(self.master)
        return code
