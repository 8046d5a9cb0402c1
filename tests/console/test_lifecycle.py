"""The console's processes (issue 25 items 8 and 9): ``praxis serve --console`` runs it as
a child process of its own beside the server processes (any ``--processes``, mutual TLS),
and a console stops at once, cleanly, with live views open."""

from __future__ import annotations

import json
import queue
import signal
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.certificates import make_ca, make_certificate
from tests.support.console import Console
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node, start
from tests.support.server_process import kill_leftovers, track, write_config

PRAXIS = [sys.executable, "-m", "praxis.serve.cli"]
STOP_BOUND_S = 1.5


@pytest.fixture(autouse=True)
def _no_leftovers() -> Iterator[None]:
    """A failed test leaves no process behind (they outlive it otherwise)."""
    yield
    kill_leftovers()


class Stderr:
    """Every line a process writes on stderr, read by a thread (a full pipe would block
    the process)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        self.lines: list[str] = []
        self._fresh: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(process.stderr,), daemon=True)
        self._thread.start()

    def _read(self, stream: Iterator[str]) -> None:
        for line in stream:
            self.lines.append(line)
            self._fresh.put(line)
        self._fresh.put(None)

    def wait_for(self, needle: str, timeout_s: float = 30.0) -> str:
        """The next line holding ``needle``."""
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._fresh.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            if needle in line:
                return line
        raise AssertionError(f"no {needle!r} line on stderr: {''.join(self.lines)[-4000:]}")

    def text(self) -> str:
        """Everything read, once the process has exited and its stderr closed."""
        self._thread.join(timeout=10)
        return "".join(self.lines)


def _problems(stderr: str) -> list[str]:
    """The lines that report an error: tracebacks, ``ERROR:`` lines, error-level records."""
    found = []
    for line in stderr.splitlines():
        if "Traceback" in line or "BlockingIOError" in line or "ERROR" in line:
            found.append(line)
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("level") in ("error", "critical"):
            found.append(line)
    return found


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(part) for part in path.read_text().split()] if path.exists() else []


def _argv(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_text().split("\0")


def _listening_inodes(port: int) -> set[str]:
    """The socket inodes listening on TCP ``port`` (IPv4 or IPv6)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if int(fields[1].rpartition(":")[2], 16) == port and fields[3] == "0A":
                inodes.add(fields[9])
    return inodes


def _holds(pid: int, inodes: set[str]) -> bool:
    """Whether process ``pid`` has one of the socket ``inodes`` open."""
    held = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            held.add(fd.readlink().name)
        except OSError:  # closed meanwhile
            continue
    return any(f"socket:[{inode}]" in held for inode in inodes)


def _serve(config: Path, *args: str) -> tuple[subprocess.Popen[str], Stderr]:
    process = track(
        subprocess.Popen(
            [*PRAXIS, "serve", "--config", str(config), "--listen", "127.0.0.1:0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    return process, Stderr(process)


def _signed_in(base: str, roots: Path | None = None) -> httpx.Client:
    """Signed in as alice; ``roots`` verify an HTTPS console (its server's certificate)."""
    verify: ssl.SSLContext | bool = True
    if roots is not None:
        verify = ssl.create_default_context(cafile=str(roots))
    client = httpx.Client(base_url=base, timeout=20, verify=verify)
    assert client.post("/signin", data={"token": token_of("alice")}).status_code == 303
    return client


def _use(client: httpx.Client) -> None:
    """What a person does: pages, and a live view for a moment."""
    for path in ("/inbox", "/runs", "/registry", "/contracts", "/inbox", "/runs"):
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:500])
    with client.stream("GET", "/inbox/live") as live:
        assert next(live.iter_text()).startswith("event: inbox")


def _stop_with_live_view(process: subprocess.Popen[str], client: httpx.Client, path: str) -> float:
    """Opens the live view ``path``, waits for its first event, sends SIGTERM; the
    seconds until the process exited (0) and the view ended without an error."""
    with client.stream("GET", path) as live:
        assert live.status_code == 200
        chunks = live.iter_text()
        assert next(chunks).startswith("event: ")
        began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        for _chunk in chunks:  # the stream ends (a complete response) once the console stops
            pass
        assert process.wait(timeout=30) == 0
        return time.monotonic() - began


# --- item 8: the console is a process of its own -------------------------------------------


def test_serve_console_is_its_own_process_beside_two_server_processes(tmp_path: Path) -> None:
    process, stderr = _serve(write_config(tmp_path), "--processes", "2", "--console", "127.0.0.1:0")
    assert process.stdout is not None
    listening = json.loads(process.stdout.readline())
    assert listening["processes"] == 2
    base = json.loads(stderr.wait_for('"console"'))["console"]
    client = _signed_in(base)
    _use(client)
    assert 'id="principal">alice<' in client.get("/runs").text
    children = _children(process.pid)
    consoles = [pid for pid in children if "console" in _argv(pid)]
    servers = [pid for pid in children if "serve" in _argv(pid)]
    assert len(consoles) == 1 and len(servers) == 2 and len(children) == 3
    assert consoles[0] not in servers
    console_socket = _listening_inodes(int(base.rstrip("/").rpartition(":")[2]))
    assert console_socket and _holds(consoles[0], console_socket)
    assert not any(_holds(pid, console_socket) for pid in servers)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert _problems(stderr.text()) == []


def test_serve_restarts_a_console_that_died(tmp_path: Path) -> None:
    process, stderr = _serve(write_config(tmp_path), "--processes", "1", "--console", "127.0.0.1:0")
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    base = json.loads(stderr.wait_for('"console"'))["console"]
    (first,) = [pid for pid in _children(process.pid) if "console" in _argv(pid)]
    servers = [pid for pid in _children(process.pid) if pid != first]
    subprocess.run(["kill", "-KILL", str(first)], check=True)
    stderr.wait_for("restart")
    deadline = time.monotonic() + 30
    while True:
        consoles = [pid for pid in _children(process.pid) if "console" in _argv(pid)]
        if consoles and consoles[0] != first:
            break
        assert time.monotonic() < deadline, "the console was not restarted"
        time.sleep(0.1)
    client = _signed_in(base)  # the same address, served by the new console
    _use(client)
    assert [pid for pid in _children(process.pid) if pid != consoles[0]] == servers
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0


def test_serve_console_under_mutual_tls(tmp_path: Path) -> None:
    ca = make_ca(tmp_path)
    server_pem, server_key = make_certificate(tmp_path, "server", ca, server=True)
    console_pem, console_key = make_certificate(tmp_path, "console", ca, server=False)
    tls = ["--tls-cert", str(server_pem), "--tls-key", str(server_key)]
    tls += ["--tls-client-ca", str(ca[0]), "--console", "127.0.0.1:0"]
    config = write_config(tmp_path / "srv")
    refused = subprocess.run(
        [*PRAXIS, "serve", "--config", str(config), "--listen", "127.0.0.1:0", *tls],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: USAGE: --console under mutual TLS"), refused.stderr
    assert len(refused.stderr.splitlines()) == 1
    process, stderr = _serve(
        config,
        *tls,
        "--console-client-cert",
        str(console_pem),
        "--console-client-key",
        str(console_key),
    )
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    base = json.loads(stderr.wait_for('"console"'))["console"]
    assert base.startswith("https://")  # beside a TLS server, the console serves HTTPS
    _use(_signed_in(base, ca[0]))
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert _problems(stderr.text()) == []


# --- item 9: live views end at once on shutdown --------------------------------------------


@pytest.fixture
def run_id(console: Console) -> str:
    one = definition("a", a=node(output=json_out()))
    return str(start(console.harness, one, {}, principal="alice").run.run_id)


@pytest.mark.serial  # a stop within STOP_BOUND_S of wall time: the machine to itself
@pytest.mark.parametrize("view", ["inbox", "run"])
def test_praxis_console_stops_at_once_with_a_live_view_open(
    console: Console, run_id: str, view: str
) -> None:
    process = track(
        subprocess.Popen(
            [*PRAXIS, "console", "--listen", "127.0.0.1:0", "--server", console.harness.address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    stderr = Stderr(process)
    assert process.stdout is not None
    base = json.loads(process.stdout.readline())["console"]
    client = _signed_in(base)
    path = "/inbox/live" if view == "inbox" else f"/runs/{run_id}/live"
    took = _stop_with_live_view(process, client, path)
    assert took < STOP_BOUND_S, took
    assert _problems(stderr.text()) == []


@pytest.mark.serial  # a stop within STOP_BOUND_S of wall time: the machine to itself
def test_praxis_serve_console_stops_at_once_with_a_live_view_open(tmp_path: Path) -> None:
    process, stderr = _serve(write_config(tmp_path), "--processes", "1", "--console", "127.0.0.1:0")
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    client = _signed_in(json.loads(stderr.wait_for('"console"'))["console"])
    took = _stop_with_live_view(process, client, "/inbox/live")
    assert took < STOP_BOUND_S, took
    assert _problems(stderr.text()) == []
