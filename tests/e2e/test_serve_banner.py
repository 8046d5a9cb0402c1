"""A start that shows the way (issue 38, item 5): ``praxis serve`` with its console prints,
once, the console's URL, a one-time sign-in link for the local human (never the token)
and the next three commands; a readable block on a terminal, one log line otherwise,
nothing under ``--log-level warning``; the JSON line on stdout stays as it was."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from praxis.serve import cli
from tests.support.server_process import track

SERVE = [sys.executable, "-m", "praxis.serve.cli", "serve"]
READY = re.compile(r'^\{"listening": "127\.0\.0\.1:\d+", "port": \d+, "processes": 1\}$')


def _start(data: Path, *extra: str, stderr: int | None = None) -> subprocess.Popen[str]:
    argv = [*SERVE, "--data-dir", str(data), "--listen", "127.0.0.1:0", "--processes", "1"]
    err = stderr if stderr is not None else subprocess.PIPE
    return track(subprocess.Popen([*argv, *extra], stdout=subprocess.PIPE, stderr=err, text=True))


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0


def _ready_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert READY.match(line), line  # byte for byte the line tools parse
    return line


def _read_until(fd: int, marker: str, timeout_s: float = 60) -> str:
    seen = b""
    deadline = time.monotonic() + timeout_s
    while marker.encode() not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            seen += os.read(fd, 65536)
    return seen.decode("utf-8", "replace")


def test_on_a_terminal_a_block_with_url_link_and_next_commands(tmp_path: Path) -> None:
    leader, follower = os.openpty()
    process = _start(tmp_path / "data", "--console", "127.0.0.1:0", stderr=follower)
    os.close(follower)
    try:
        ready = json.loads(_ready_line(process))
        shown = _read_until(leader, "praxis inbox").replace("\r\n", "\n")
        assert f"Praxis serves gRPC on {ready['listening']}." in shown, shown  # the real port
        tokens = json.loads((tmp_path / "data" / "credentials.json").read_text())
        for principal in tokens.values():
            assert principal["token"] not in shown  # never the token itself
        url = re.search(r"^  Console   (http://127\.0\.0\.1:\d+/)$", shown, re.M)
        link = re.search(r"^  Sign in   (http://127\.0\.0\.1:\d+/signin/once/\S+)$", shown, re.M)
        assert url and link, shown
        assert link.group(1).startswith(url.group(1))
        commands = re.findall(r"^  (praxis [^#]+?)\s+# ", shown, re.M)
        assert commands == [
            "praxis login --name local",
            "praxis runs start -f DEFINITION.json --watch",
            "praxis inbox",
        ], shown
        assert shown.count("Console   ") == 1  # once
        with urllib.request.urlopen(link.group(1), timeout=10) as page:  # the link works
            assert page.status == 200 and b"Continue" in page.read()
    finally:
        _stop(process)
        os.close(leader)


def test_without_a_terminal_one_log_line_with_the_url(tmp_path: Path) -> None:
    process = _start(tmp_path / "data", "--console", "127.0.0.1:0")
    try:
        _ready_line(process)
    finally:
        _stop(process)
    assert process.stderr is not None
    records = [json.loads(line) for line in process.stderr.read().splitlines()
               if line.startswith('{"ts_ms"')]  # fmt: skip
    consoles = [r for r in records if "console" in r]
    assert len(consoles) == 1 and consoles[0]["console"].startswith("http://127.0.0.1:")
    assert consoles[0]["console"] in consoles[0]["msg"]
    assert not any("signin/once" in json.dumps(r) for r in records)


def test_quiet_under_log_level_warning(tmp_path: Path) -> None:
    leader, follower = os.openpty()
    process = _start(tmp_path / "data", "--console", "127.0.0.1:0", "--log-level", "warning",
                     stderr=follower)  # fmt: skip
    os.close(follower)
    try:
        _ready_line(process)
        shown = _read_until(leader, '{"console"', timeout_s=60)
        shown += _read_until(leader, "never printed", timeout_s=3)
        assert "Console   " not in shown and "Next:" not in shown, shown
    finally:
        _stop(process)
        os.close(leader)


def test_serve_on_its_defaults_brings_the_console_and_a_named_listen_does_not() -> None:
    def chosen(*argv: str) -> object:
        args = cli._parser().parse_args(["serve", *argv])
        args.listen_default = args.listen is None
        args.listen = args.listen or cli.DEFAULT_LISTEN
        cli.console_module.choose(args)
        return args.console

    assert chosen() == "127.0.0.1:8080"  # make serve
    assert chosen("--no-console") is None
    assert chosen("--listen", "127.0.0.1:0") is None  # tests and tools: as before
    assert chosen("--listen", "127.0.0.1:0", "--console", "127.0.0.1:0") == "127.0.0.1:0"
    assert chosen("--tls-client-ca", "ca.pem") is None  # mutual TLS: a certificate needed
