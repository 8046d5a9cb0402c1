"""``praxis serve --processes N``: several server processes on one port.

The parent runs the migrations and the once-per-start recovery, reserves the port (port
0 picks one), starts N children that each serve it with ``SO_REUSEPORT`` (the kernel
spreads new connections across them), prints the bound port once, and supervises:
SIGTERM or SIGINT drains every child and exits 0; a child that dies stops the others
and the parent exits 1, so a service manager restarts the whole group. Children die
with the parent (``PR_SET_PDEATHSIG``), so killing the parent never leaves orphans.

A child that hangs instead of dying is found by its heartbeat: every
``HEARTBEAT_INTERVAL_S`` its event loop (where health checks, streams and long polls
run) writes a byte to a pipe the parent reads (:class:`Heartbeat`). A child silent for
``LIVENESS_TIMEOUT_S`` is killed (SIGKILL: its connections are reset, so its clients
reconnect to the others) and replaced by a new child with the same index, with a
warning naming both; the listening line is not printed again.

Only child 0 runs the sweeper (one per installation). Commits wake the long polls and
streams of every child through :class:`praxis.store.wake.hub.UnixBroadcast`.

A :class:`Sidecar` (the web console of ``--console``) is one more child that is no
server: it starts once the servers serve, is restarted when it exits (the servers keep
serving), and is stopped first, before the servers drain.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from praxis.observability import logs
from praxis.observability.metrics import MULTIPROC_ENV

log = logging.getLogger("praxis")

_PR_SET_PDEATHSIG = 1
STOP_TIMEOUT_S = 30.0
HEARTBEAT_INTERVAL_S = 1.0
"""How often a child's event loop writes its heartbeat."""
LIVENESS_TIMEOUT_S = 10.0
"""A child whose heartbeat is this late is hung: it is killed and replaced."""
START_TIMEOUT_S = 120.0
"""How long a child may take to print its listening line."""
BEAT, DRAINING = b".", b"x"


class StopRequest:
    """Set by a SIGTERM/SIGINT handler, polled by the main thread every ``wait``.

    A signal handler must not call ``threading.Event.set()``: Python runs the handler on
    the main thread between two bytecodes, possibly inside that thread's own
    ``Event.wait()`` while it holds the event's (non-reentrant) lock, and ``set()`` then
    waits for that lock forever (seen: about 1 SIGTERM in 6 sent right after start-up
    hung ``praxis serve --processes 2``). A plain attribute cannot deadlock.
    """

    def __init__(self) -> None:
        self.requested = False

    def set(self) -> None:
        """Asks to stop (safe in a signal handler)."""
        self.requested = True

    def is_set(self) -> bool:
        """Whether a stop was asked for."""
        return self.requested

    def wait(self, seconds: float) -> bool:
        """Sleeps ``seconds`` unless a stop was asked for; then whether one was."""
        if not self.requested:
            time.sleep(seconds)
        return self.requested


def default_processes() -> int:
    """One process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def split_listen(listen: str) -> tuple[str, int]:
    """``host:port`` (IPv6 hosts in brackets) as host and port."""
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--listen {listen!r}: expected host:port")
    return host, int(port)


def reserve_port(host: str, port: int) -> socket.socket:
    """A bound (not listening) ``SO_REUSEPORT`` socket holding the port for the children."""
    bare = host.strip("[]")
    family, kind, _proto, _name, address = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM)[
        0
    ]
    probe = socket.socket(family, kind)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    probe.bind(address)
    return probe


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: children outlive a killed parent
        pass


class Heartbeat:
    """A child's side of the liveness check: beats written by its event loop.

    The main thread only schedules each beat; the event loop writes it, so beats stop
    when the loop stops running callbacks (a deadlock, a blocking call on the loop, a
    stopped process), which is when health checks on that child stop being answered.
    """

    def __init__(self, fd: int, loop: asyncio.AbstractEventLoop) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.loop = loop
        self._due = 0.0

    def tick(self) -> None:
        """Schedules a beat on the loop when one is due (called every wait of the main
        thread)."""
        now = time.monotonic()
        if now < self._due:
            return
        self._due = now + HEARTBEAT_INTERVAL_S
        with contextlib.suppress(RuntimeError):  # a closed loop: the server is stopping
            self.loop.call_soon_threadsafe(self._beat)

    def _beat(self) -> None:
        # A full pipe (the parent is behind) or a parent gone (we die with it): no beat.
        with contextlib.suppress(BlockingIOError, BrokenPipeError):
            os.write(self.fd, BEAT)

    def draining(self) -> None:
        """Tells the parent the child drains after a stop signal: beats end, and the
        parent waits for its exit instead of taking it for hung."""
        with contextlib.suppress(BlockingIOError, BrokenPipeError):
            os.write(self.fd, DRAINING)


ChildArgv = Callable[[int, str, int], list[str]]
"""The command line of child ``index`` serving ``host:port``, writing heartbeats to an fd."""


@dataclass
class _Child:
    """One child process, the read end of its heartbeat pipe, and its last beat."""

    index: int
    process: subprocess.Popen[str]
    beats: int
    last_beat: float
    draining: bool = False

    def read_beats(self, now: float) -> None:
        """Drains the heartbeat pipe; any byte counts as a beat now."""
        while True:
            try:
                data = os.read(self.beats, 4096)
            except (BlockingIOError, OSError):  # nothing yet, or already closed
                return
            if not data:  # every writer closed: the child exited (poll() says so)
                return
            self.last_beat = now
            self.draining = self.draining or DRAINING in data

    def hung(self, now: float) -> bool:
        """Whether the child missed its heartbeats for LIVENESS_TIMEOUT_S (a child
        draining after its own stop signal is not hung: its exit is awaited)."""
        return not self.draining and now - self.last_beat > LIVENESS_TIMEOUT_S

    def close(self) -> None:
        """Closes the parent's ends of the child's pipes (after the child exited)."""
        if self.beats >= 0:
            os.close(self.beats)
            self.beats = -1
        if self.process.stdout is not None:
            self.process.stdout.close()


def _spawn(child_argv: ChildArgv, index: int, address: str) -> _Child:
    """Starts child ``index`` with a fresh heartbeat pipe."""
    read_fd, write_fd = os.pipe()
    try:
        process = subprocess.Popen(
            child_argv(index, address, write_fd),
            stdout=subprocess.PIPE,
            stderr=logs.console(),  # the real stderr: children route their own lines
            text=True,
            pass_fds=(write_fd,),
            preexec_fn=_die_with_parent,  # only prctl, no threads yet
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)  # the child's copy is the only writer
    os.set_blocking(read_fd, False)
    return _Child(index, process, read_fd, time.monotonic())


def supervise(
    child_argv: ChildArgv,
    processes: int,
    listen: str,
    announce: dict[str, object] | None = None,
    sidecar: Sidecar | None = None,
) -> int:
    """Starts ``processes`` children serving ``listen`` and waits for a stop signal,
    replacing a child that stops beating (see the module docstring).

    Args:
        child_argv: The command line of child ``index`` serving ``host:port`` and
            writing heartbeats to file descriptor ``fd``.
        processes: How many children.
        listen: ``host:port``; port 0 picks a free port, printed once.
        announce: More keys of the printed ``listening`` line (the metrics port).
        sidecar: One more child beside the servers (the console), if any.

    Returns:
        The exit status: 0 after a drained stop, 1 when a child died (or a replacement
        failed to start), 2 when one failed to start.
    """
    host, port = split_listen(listen)
    probe = reserve_port(host, port)
    port = int(probe.getsockname()[1])
    address = f"{host}:{port}"
    children: list[_Child] = []
    stopping = StopRequest()

    def _stop(signum: int, _frame: object) -> None:
        log.info("shutting down", extra={"signal": signal.Signals(signum).name})
        stopping.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    reloading = StopRequest()  # SIGHUP: the first child reloads, the others follow it
    signal.signal(signal.SIGHUP, lambda _signum, _frame: reloading.set())
    try:
        for index in range(processes):
            children.append(_spawn(child_argv, index, address))
        for child in children:
            if not _wait_ready(child, stopping):
                _stop_all(children)
                return 0 if stopping.is_set() else 2
        if sidecar is not None and not sidecar.start(address, stopping):
            _stop_all(children)
            return 0 if stopping.is_set() else 2
    finally:
        probe.close()
    ready = {"listening": address, "port": port, "processes": processes, **(announce or {})}
    print(json.dumps(ready), flush=True)
    log.info("serving", extra={"port": port, "processes": processes})
    status = _watch(
        children, stopping, lambda index: _spawn(child_argv, index, address), sidecar, reloading
    )
    if sidecar is not None and status == 0:  # first: its live views end before the servers'
        sidecar.end()
    _stop_all(children)
    _stop_sidecar(sidecar)
    if status == 0:
        log.info("stopped")
    return status


def _watch(
    children: list[_Child],
    stopping: StopRequest,
    respawn: Callable[[int], _Child],
    sidecar: Sidecar | None = None,
    reloading: StopRequest | None = None,
) -> int:
    """Watches the children until a stop signal (0) or a death (1); replaces hung ones,
    keeps the sidecar (the console) running, and passes a SIGHUP to the first child
    (which reloads the config and wakes the others to read it too)."""
    while not stopping.wait(0.2):
        if reloading is not None and reloading.is_set():
            reloading.requested = False
            children[0].process.send_signal(signal.SIGHUP)
        dead = [child.process for child in children if child.process.poll() is not None]
        if dead:
            log.error("a server process exited; stopping the others",
                      extra={"pid": dead[0].pid, "status": dead[0].returncode})  # fmt: skip
            return 1
        now = time.monotonic()
        for position, child in enumerate(children):
            child.read_beats(now)
            if not child.hung(now) or stopping.is_set():
                continue
            replacement = _replace(child, now, respawn, stopping)
            if replacement is None:
                return 0 if stopping.is_set() else 1
            children[position] = replacement
        if sidecar is not None:
            sidecar.keep_alive(stopping)
    return 0


def _replace(
    hung: _Child, now: float, respawn: Callable[[int], _Child], stopping: StopRequest
) -> _Child | None:
    """Kills a child that stopped beating and starts its replacement (``None`` when the
    replacement did not start)."""
    silent_s = round(now - hung.last_beat, 1)
    log.warning(
        "a server process stopped answering (no heartbeat); killing and replacing it",
        extra={"child": hung.index, "pid": hung.process.pid, "silent_s": silent_s},
    )
    hung.process.kill()  # SIGKILL works on a stopped process too
    hung.process.wait()
    hung.close()
    replacement = respawn(hung.index)
    if not _wait_ready(replacement, stopping):
        log.error("the replacement server process did not start",
                  extra={"child": hung.index, "pid": replacement.process.pid})  # fmt: skip
        _stop_all([replacement])
        return None
    replacement.last_beat = time.monotonic()
    log.info("replaced a hung server process",
             extra={"child": hung.index, "pid": replacement.process.pid,
                    "replaced_pid": hung.process.pid})  # fmt: skip
    return replacement


def _wait_ready(child: _Child, stopping: StopRequest) -> bool:
    """Reads the child's ``listening`` line (it prints one once it serves)."""
    stdout = child.process.stdout
    assert stdout is not None
    readable, _, _ = select.select([stdout], [], [], START_TIMEOUT_S)
    if not readable:
        return False
    line = stdout.readline()
    if not line or stopping.is_set():
        return False
    try:
        json.loads(line)
    except ValueError:
        return False
    child.last_beat = time.monotonic()
    return True


def _stop_all(children: list[_Child]) -> None:
    """SIGTERM to every child, then waits for them (SIGKILL after a timeout)."""
    for child in children:
        if child.process.poll() is None:
            child.process.send_signal(signal.SIGTERM)
            child.process.send_signal(signal.SIGCONT)  # a stopped child handles it too
    deadline = time.monotonic() + STOP_TIMEOUT_S
    for child in children:
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()
        child.close()


def child_command(argv: list[str]) -> list[str]:
    """The interpreter command running ``praxis`` with ``argv``."""
    return [sys.executable, "-m", "praxis.serve.cli", *argv]


def wake_dir_for(database_url: str, data_dir: Path) -> Path | None:
    """Where non-SQLite installations' processes meet (SQLite ones: beside the file)."""
    return None if database_url.startswith("sqlite") else data_dir / "wake"


class Sidecar:
    """One child beside the server processes that is no server (the web console).

    It starts once the servers serve, and its ready line (one JSON object on stdout) is
    handed to ``on_ready``. When it exits, the servers keep serving and it is started
    again after 1 s, the delay doubling up to ``MAX_RESTART_DELAY_S`` while it keeps
    exiting within ``STABLE_S`` of its start. It is stopped first: SIGTERM, then the
    servers are stopped once it has closed its stdout (it no longer needs them) or
    exited; then its exit is awaited.

    Args:
        name: What the logs call it (``console``).
        argv: Its command line, given the servers' ``host:port``.
        on_ready: Called with its first ready line.
        pass_fds: Descriptors it inherits (a listening socket the parent holds, so that
            every incarnation serves the same port).
        env: More environment variables of its own (never on its command line, which
            any local user can read).
    """

    START_TIMEOUT_S = 60.0
    END_TIMEOUT_S = 5.0
    MAX_RESTART_DELAY_S = 60.0
    STABLE_S = 60.0

    def __init__(
        self,
        name: str,
        argv: Callable[[str], list[str]],
        on_ready: Callable[[dict[str, object]], None],
        pass_fds: tuple[int, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.argv = argv
        self.on_ready = on_ready
        self.pass_fds = pass_fds
        self.env = env or {}
        self.process: subprocess.Popen[str] | None = None
        self._address = ""
        self._started = 0.0
        self._delay = 1.0
        self._restart_at: float | None = None

    @property
    def address(self) -> str:
        """The servers' ``host:port`` it was started with ('' before)."""
        return self._address

    def _spawn(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != MULTIPROC_ENV}  # no server metrics
        env.update(self.env)
        self._started = time.monotonic()
        self.process = subprocess.Popen(
            self.argv(self._address),
            stdout=subprocess.PIPE,
            stderr=logs.console(),  # the real stderr: it writes JSON lines of its own
            text=True,
            pass_fds=self.pass_fds,
            env=env,
            preexec_fn=_die_with_parent,  # only prctl, no threads yet
        )

    def start(self, address: str, stopping: StopRequest) -> bool:
        """Starts it and waits for its ready line; False (and stopped) when it did not
        start, or a stop signal came first."""
        self._address = address
        self._spawn()
        assert self.process is not None and self.process.stdout is not None
        readable, _, _ = select.select([self.process.stdout], [], [], self.START_TIMEOUT_S)
        line = self.process.stdout.readline() if readable else ""
        try:
            ready = json.loads(line) if line and not stopping.is_set() else None
        except ValueError:
            ready = None
        if not isinstance(ready, dict):
            self.stop()
            return False
        self.on_ready(ready)
        return True

    def keep_alive(self, stopping: StopRequest) -> None:
        """Starts it again once it has exited (called at every wait of the parent)."""
        if self.process is None or stopping.is_set():
            return
        now = time.monotonic()
        if self._restart_at is None:
            status = self.process.poll()
            if status is None:
                return
            ran_s = now - self._started
            if ran_s >= self.STABLE_S:
                self._delay = 1.0
            self._restart_at = now + self._delay
            log.warning("the %s process exited; restarting it", self.name,
                        extra={"pid": self.process.pid, "status": status,
                               "ran_s": round(ran_s, 1), "restart_in_s": self._delay})  # fmt: skip
            self._delay = min(self._delay * 2, self.MAX_RESTART_DELAY_S)
            _close_stdout(self.process)
        if now < self._restart_at:
            return
        self._restart_at = None
        self._spawn()
        log.info("restarted the %s process", self.name, extra={"pid": self.process.pid})

    def end(self) -> None:
        """SIGTERM, then waits (at most ``END_TIMEOUT_S``) for the end of its stdout."""
        if self.process is None or self.process.stdout is None or self.process.stdout.closed:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.END_TIMEOUT_S
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.process.stdout], [], [], left)
            if readable and not self.process.stdout.readline():  # earlier lines: ignored
                break
        _close_stdout(self.process)

    def stop(self) -> None:
        """:meth:`end`, then waits for its exit (SIGKILL after ``STOP_TIMEOUT_S``)."""
        if self.process is None:
            return
        self.end()
        try:
            self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        _close_stdout(self.process)


def _stop_sidecar(sidecar: Sidecar | None) -> None:
    if sidecar is not None:
        sidecar.stop()


def _close_stdout(process: subprocess.Popen[str]) -> None:
    if process.stdout is not None:
        process.stdout.close()
