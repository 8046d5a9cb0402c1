"""``praxis login`` as a user runs it: where the token comes from, and the folders and file
it creates (no server: login only stores a profile)."""

from __future__ import annotations

import fcntl
import json
import os
import select
import stat
import subprocess
import termios
import time
from pathlib import Path
from typing import Any

from tests.support.cli_shell import PRAXIS

ADDRESS = "127.0.0.1:50999"


def _env(home: Path, **extra: str) -> dict[str, str]:
    """No ``PRAXIS_*`` from the caller, and a config under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRAXIS_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "xdg"), **extra)
    return env


def _profile(home: Path, name: str = "default") -> dict[str, Any]:
    document = json.loads((home / "xdg" / "praxis" / "config.json").read_text())
    return dict(document["profiles"][name])


def _login(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PRAXIS, "login", "--address", ADDRESS, *args],
        capture_output=True, text=True, env=_env(home), input=stdin, timeout=60, cwd=home,
    )  # fmt: skip


def test_login_reads_the_token_from_a_file_or_from_stdin(tmp_path: Path) -> None:
    (tmp_path / "token.txt").write_text("prx_from_a_file\n")
    from_file = _login(tmp_path, "--name", "file", "--token-file", "token.txt")
    assert from_file.returncode == 0, from_file.stderr
    assert _profile(tmp_path, "file") == {"address": ADDRESS, "token": "prx_from_a_file"}
    piped = _login(tmp_path, "--name", "piped", "--token-file", "-", stdin="prx_piped\n")
    assert piped.returncode == 0, piped.stderr
    assert _profile(tmp_path, "piped")["token"] == "prx_piped"
    assert "prx_" not in from_file.stdout + piped.stdout + from_file.stderr + piped.stderr

    both = _login(tmp_path, "--token", "x", "--token-file", "token.txt")
    assert both.returncode == 2 and both.stderr.startswith("error: USAGE: "), both.stderr
    (tmp_path / "empty.txt").write_text("\n")
    empty = _login(tmp_path, "--token-file", "empty.txt")
    assert empty.returncode == 2 and "empty" in empty.stderr, empty.stderr
    missing = _login(tmp_path, "--token-file", "nope.txt")
    assert missing.returncode == 2 and missing.stderr.startswith("error: FILE_UNREADABLE: ")


def _read_until(master: int, wanted: bytes, timeout_s: float = 30) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout_s
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {wanted!r} on the terminal; saw {seen!r}"
        ready, _, _ = select.select([master], [], [], left)
        if ready:
            try:
                seen += os.read(master, 1024)
            except OSError:  # the terminal closed
                break
    return seen


def _controlling_terminal() -> None:
    """In the child: a new session whose controlling terminal is stdin (the pty)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def test_login_on_a_terminal_prompts_for_the_token_without_echo(tmp_path: Path) -> None:
    master, slave = os.openpty()
    process = subprocess.Popen(
        [PRAXIS, "login", "--address", ADDRESS, "--json"],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(tmp_path),
        preexec_fn=_controlling_terminal,
    )  # fmt: skip
    os.close(slave)
    try:
        prompt = _read_until(master, b": ")
        assert b"token" in prompt.lower(), prompt
        os.write(master, b"prx_typed_secret\n")
        out, err = process.communicate(timeout=60)
        echoed = _read_until(master, b"\n", timeout_s=5) if process.returncode == 0 else b""
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert process.returncode == 0, err
    assert b"prx_typed_secret" not in echoed + out + err  # no echo, not printed
    assert _profile(tmp_path) == {"address": ADDRESS, "token": "prx_typed_secret"}


def test_login_creates_private_folders_whatever_the_umask(tmp_path: Path) -> None:
    result = subprocess.run(
        [PRAXIS, "login", "--address", ADDRESS],
        capture_output=True, text=True, env=_env(tmp_path, PRAXIS_TOKEN="prx_t"), timeout=60,
        preexec_fn=lambda: os.umask(0),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    config = tmp_path / "xdg" / "praxis" / "config.json"
    for folder in (tmp_path / "xdg", config.parent):  # both created by login
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert not list(config.parent.glob("*.tmp"))
