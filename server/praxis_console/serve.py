"""Serving the console: ``praxis console`` (a process of its own, also the console child
of ``praxis serve --console``), or on a thread (tests)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from praxis_console.app import Settings, create_app

TOKEN_ENV = "PRAXIS_TOKEN"


@dataclass(frozen=True)
class Listen:
    """Where the console listens, and its TLS certificate and key when it serves HTTPS."""

    host: str
    port: int
    tls_cert: Path | None = None
    tls_key: Path | None = None

    @classmethod
    def parse(cls, address: str, tls_cert: Path | None, tls_key: Path | None) -> Listen:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"--listen must be host:port, not {address!r}")
        return cls(host.strip("[]"), int(port), tls_cert, tls_key)

    @property
    def scheme(self) -> str:
        return "https" if self.tls_cert else "http"


def bind(listen: Listen) -> socket.socket:
    """A listening socket (port 0 picks a free port)."""
    family = socket.AF_INET6 if ":" in listen.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((listen.host, listen.port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


class _Server(uvicorn.Server):
    """uvicorn without its signal capture: the caller decides (uvicorn re-raises a caught
    SIGTERM on exit, which would end the process with -15 instead of a graceful 0).

    Its shutdown first ends the live views (:func:`praxis_console.web.until_closing`),
    waits (at most ``VIEWS_END_S``) until each has ended its gRPC streams, then calls
    ``views_ended`` before uvicorn's own graceful shutdown.
    """

    VIEWS_END_S = 1.0

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app
        self.views_ended: Callable[[], None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        console = getattr(self.app.state, "console", None)
        if console is not None:  # None: stopped before the lifespan started
            console.closing.set()
            deadline = time.monotonic() + self.VIEWS_END_S
            while console.live_streams and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        if self.views_ended is not None:
            self.views_ended()
        await super().shutdown(sockets)


def uvicorn_server(settings: Settings, listen: Listen) -> tuple[_Server, Starlette]:
    """A uvicorn server for the console app (cookies Secure when it serves TLS)."""
    if listen.tls_cert:
        settings = Settings(
            server_address=settings.server_address,
            root_certificates=settings.root_certificates,
            secure_cookies=True,
            session_limits=settings.session_limits,
            client_certificate=settings.client_certificate,
            client_key=settings.client_key,
        )
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        log_config=None,  # uvicorn's records go to the root logger: JSON lines on stderr
        access_log=False,
        ssl_certfile=str(listen.tls_cert) if listen.tls_cert else None,
        ssl_keyfile=str(listen.tls_key) if listen.tls_key else None,
        timeout_graceful_shutdown=5,
        limit_concurrency=1_000,
        server_header=False,
    )
    return _Server(config, app), app


def read_token(token_file: Path | None) -> str:
    """The token a one-time sign-in link stands for: a file's first line, or $PRAXIS_TOKEN."""
    if token_file is not None:
        return token_file.read_text(encoding="utf-8").strip().splitlines()[0].strip()
    return os.environ.get(TOKEN_ENV, "").strip()


def run(settings: Settings, listen: Listen, token: str, sock: socket.socket | None = None) -> int:
    """Serves until SIGTERM or SIGINT; prints where, and a one-time link when given a token.

    ``sock`` is a listening socket to serve instead of binding ``listen`` (``praxis serve
    --console`` binds it once, so a restarted console serves the same port).
    """
    server, app = uvicorn_server(settings, listen)
    sock = sock or bind(listen)
    port = sock.getsockname()[1]
    host = listen.host if ":" not in listen.host else f"[{listen.host}]"
    base = f"{listen.scheme}://{host}:{port}"
    line: dict[str, object] = {"console": f"{base}/", "port": port}
    if token:
        code = app.state.sessions.issue_code(token)
        line["signin_link"] = f"{base}/signin/once/{code}"
    print(json.dumps(line), flush=True)
    if token and sys.stdout.isatty():  # a person at a terminal; never stderr (service logs)
        print(f"praxis console: sign in at {line['signin_link']} (single use, 10 minutes)")

    def _stop(_signum: int, _frame: object) -> None:
        server.should_exit = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    server.views_ended = _close_stdout
    asyncio.run(server.serve(sockets=[sock]))
    return 0


def _close_stdout() -> None:
    """Closes stdout (its descriptor now reads /dev/null) once the live views have ended:
    the end of stdout tells ``praxis serve --console`` that it may stop the servers
    (their streams' end would otherwise reach the pages as an error first)."""
    sys.stdout.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


class ConsoleThread:
    """The console on a thread of this process, with its own event loop (tests, beside an
    in-process server; ``praxis serve --console`` runs ``praxis console`` as a child
    process instead: grpcio's asyncio support wants one event loop per process)."""

    def __init__(self, settings: Settings, listen: Listen) -> None:
        self.server, self.app = uvicorn_server(settings, listen)
        self.sock = bind(listen)
        self.port: int = self.sock.getsockname()[1]
        self._thread = threading.Thread(target=self._run, name="praxis-console", daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=10)
