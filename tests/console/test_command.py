"""``praxis console`` and ``praxis serve --console`` as a user runs them."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.console import Console
from tests.support.harness import token_of
from tests.support.server_process import ServerProcess, free_port, track, write_config


def test_praxis_console_prints_a_one_time_link(console: Console, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(token_of("alice") + "\n", encoding="utf-8")
    process = track(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "praxis.serve.cli",
                "console",
                "--listen",
                "127.0.0.1:0",
                "--server",
                console.harness.address,
                "--token-file",
                str(token_file),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    try:
        assert process.stdout is not None
        line = json.loads(process.stdout.readline())
        link = line["signin_link"]
        assert token_of("alice") not in link
        client = httpx.Client(timeout=10)
        confirm = client.get(link)
        assert confirm.status_code == 200
        code = link.rsplit("/", 1)[1]
        signed_in = client.post(line["console"] + "signin/once", data={"code": code})
        assert signed_in.status_code == 303
        assert 'id="principal">alice<' in client.get(line["console"] + "runs").text
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    assert process.stderr is not None
    # Issue 25: the link is a credential for ten minutes; stderr ends up in service logs.
    assert code not in process.stderr.read()


@pytest.mark.parametrize(
    ("flags", "side"),
    [
        (["--listen", "0.0.0.0:0"], "--listen 0.0.0.0:0"),
        (["--server", "192.0.2.1:50051"], "--server 192.0.2.1:50051"),
    ],
)
def test_praxis_console_refuses_plaintext_beyond_loopback(flags: list[str], side: str) -> None:
    """Issue 25 item 4: the gRPC port's rule, TLS or an explicit --insecure, also holds for
    the console's listening side and for its server side."""
    praxis = Path(sys.executable).parent / "praxis"
    done = subprocess.run(
        [str(praxis), "console", *flags], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: TLS_REQUIRED: console: {side}"), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_praxis_console_refuses_a_bad_listen_address() -> None:
    praxis = Path(sys.executable).parent / "praxis"  # the installed script routes it here
    done = subprocess.run(
        [str(praxis), "console", "--listen", "nowhere"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: USAGE: console: --listen must be host:port")


def test_praxis_serve_runs_the_console_alongside(tmp_path: Path) -> None:
    config = write_config(tmp_path / "data")
    port = free_port()
    server = ServerProcess(config, port, "--console", "127.0.0.1:0")
    server.start()
    try:
        assert server.process is not None and server.process.stderr is not None
        line = ""
        while '"console"' not in line:
            line = server.process.stderr.readline()
            assert line, "no console line"
        base = json.loads(line)["console"]
        client = httpx.Client(base_url=base, timeout=10)
        assert client.post("/signin", data={"token": token_of("alice")}).status_code == 303
        assert client.get("/runs").status_code == 200
    finally:
        assert server.terminate() == 0
