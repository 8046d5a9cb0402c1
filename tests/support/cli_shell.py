"""Running the real ``praxis`` command against a real server subprocess."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node

PRAXIS = str(Path(sys.executable).parent / "praxis")
if not os.path.exists(PRAXIS):  # pragma: no cover - a venv always has the console script
    PRAXIS = shutil.which("praxis") or PRAXIS


@dataclass
class Result:
    """A finished command."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    def error_line(self) -> str:
        """The one error line (asserting there is exactly one, and no traceback)."""
        lines = self.err.strip().splitlines()
        assert "Traceback" not in self.err, self.err
        assert lines and lines[0].startswith("error: "), self.err
        assert all(line.startswith("  ") for line in lines[1:]), self.err  # field violations
        return lines[0]


class Shell:
    """Runs ``praxis`` with a principal's token and an isolated config file."""

    def __init__(self, address: str, home: Path) -> None:
        self.address = address
        self.home = home

    def env(self, principal: str | None, token: str | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PRAXIS_")}
        env.update(PRAXIS_ADDRESS=self.address, PRAXIS_CONFIG=str(self.home / "cli.json"))
        chosen = token or (token_of(principal) if principal else None)
        if chosen:
            env["PRAXIS_TOKEN"] = chosen
        return env

    def run(
        self,
        *args: str,
        who: str | None = "alice",
        token: str | None = None,
        timeout: float = 60,
        stdin: str | None = None,
    ) -> Result:
        done = subprocess.run(
            [PRAXIS, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env(who, token),
            cwd=self.home,
            input=stdin,
        )
        return Result(done.returncode, done.stdout, done.stderr)

    def ok(self, *args: str, **kwargs: Any) -> Result:
        result = self.run(*args, **kwargs)
        assert result.code == 0, (args, result)
        assert "Traceback" not in result.err
        return result


POLICY = "safety=sha256:" + "a" * 64  # a registration's policy digest
V1 = definition("a", a=node(output=json_out()))
V2 = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))


def digest_of(output: str) -> str:
    """The material digest a ``praxis`` review printed."""
    match = re.search(r"material digest: (sha256:[0-9a-f]{64})", output)
    assert match, output
    return match.group(1)


COLUMNS = 80
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def in_terminal(
    shell: Shell, *args: str, who: str | None = "alice", colour: bool = True
) -> list[str]:
    """``praxis ARGS`` with its stdout on a real pseudo-terminal 80 columns wide; the lines
    as the terminal receives them (escape sequences removed)."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, COLUMNS, 0, 0))
    env = shell.env(who) | {"COLUMNS": str(COLUMNS), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    if not colour:
        env["NO_COLOR"] = "1"  # plain aligned columns, still fitted to the terminal
    process = subprocess.Popen(
        [PRAXIS, *args], stdout=follower, stderr=subprocess.PIPE, env=env, cwd=shell.home
    )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError as error:  # EIO: the command closed its terminal
                assert error.errno == errno.EIO
                break
            if not chunk:
                break
            chunks.append(chunk)
        elif process.poll() is not None:
            break
    os.close(leader)
    assert process.wait(timeout=30) == 0, process.stderr.read() if process.stderr else ""
    text = _ANSI.sub("", b"".join(chunks).decode("utf-8"))
    return text.replace("\r\n", "\n").rstrip("\n").split("\n")
