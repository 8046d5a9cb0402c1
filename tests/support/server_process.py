"""A real ``praxis serve`` subprocess on a real SQLite file."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.harness import write_principals


def free_port() -> int:
    """A loopback port that is free right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def write_config(directory: Path, **extra: object) -> Path:
    """A config with the test principals and a database in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    write_principals(directory / "principals.json")
    config = {"database_url": "sqlite:///praxis.db", "principals_path": "principals.json", **extra}
    path = directory / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


_STARTED: list[subprocess.Popen[str]] = []


def track(process: subprocess.Popen[str]) -> subprocess.Popen[str]:
    """Registers a server process started by hand, so a failed test cannot leak it."""
    _STARTED.append(process)
    return process


def kill_leftovers() -> None:
    """Kills every server process a test started and did not stop (a failed test)."""
    while _STARTED:
        process = _STARTED.pop()
        if process.poll() is None:
            process.kill()
            process.wait()


def tree_path(tree: Path) -> dict[str, str]:
    """``PYTHONPATH`` naming a checkout's own packages first: a checkout without a
    virtualenv of its own (an exported commit, with ``.venv`` linked to another
    checkout's) still runs its own code."""
    paths = [tree / "server", tree / "clients" / "python", tree / "clients" / "python" / "gen"]
    return {"PYTHONPATH": os.pathsep.join(str(path) for path in paths)}


class ServerProcess:
    """Starts, kills and restarts a server subprocess on a fixed port (one server process
    unless ``--processes`` is among the extra arguments). ``tree``: another checkout
    whose server runs (its ``.venv``'s interpreter, its code; benchmarks comparing two
    checkouts); by default this one's."""

    def __init__(self, config: Path, port: int, *extra_args: str, tree: Path | None = None) -> None:
        self.config = config
        self.port = port
        self.extra_args = extra_args
        self.tree = tree
        self.process: subprocess.Popen[str] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 20.0) -> None:
        tree = self.tree
        self.process = subprocess.Popen(
            [
                sys.executable if tree is None else str(tree / ".venv" / "bin" / "python"),
                "-m",
                "praxis.serve.cli",
                "serve",
                "--config",
                str(self.config),
                "--listen",
                self.address,
                "--log-level",
                "WARNING",
                *self.extra_args,
                *([] if "--processes" in self.extra_args else ["--processes", "1"]),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tree,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(tree_path(tree) if tree else {})},
        )
        track(self.process)
        self.wait_healthy(timeout_s)

    def wait_healthy(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.process.stderr.read()}")  # type: ignore[union-attr]
            if self._serving():
                return
            time.sleep(0.05)
        raise TimeoutError("server did not become healthy")

    def _serving(self) -> bool:
        """One health check on a channel of its own: a channel whose first connection was
        refused (the server not listening yet) waits out gRPC's reconnect backoff (about
        5 s here) before it tries again, however soon the server is up."""
        options = [("grpc.use_local_subchannel_pool", 1)]
        with grpc.insecure_channel(self.address, options=options) as channel:
            try:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=0.5
                )
            except grpc.RpcError:
                return False
        return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)
