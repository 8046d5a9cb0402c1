"""Wake-ups: long polls and streams await these instead of sleeping or polling.

A waiter holds no thread. It subscribes (on the server's event loop) to the topics it
cares about, reads the database, and awaits its :class:`Subscription` until a commit
publishes one of those topics, or until a slow safety-net timeout (``recheck_ms``,
60 s by default: only wake-ups that cannot arrive need it, such as commits made by
servers on another machine sharing a PostgreSQL database). Committing code runs on
the event loop or on other threads and publishes with :meth:`Hub.publish`, which is
thread-safe: it hands the wake-ups to the loop (:func:`call_soon`) and to the other
server processes of the installation through a :class:`Broadcast`.

Topics:

- ``run:<run_id>``: the run changed (WatchRun, run-filtered StreamEvents);
- ``events``: any event was appended; ``sub:<subscriber>``: an event of a run with that
  subscriber was appended;
- ``work:<model>``: attempts of the model became ready. These are *counted*: a commit
  that readied ``n`` attempts wakes at most ``n`` waiting claimers, oldest first, so a
  thousand idle workers do not all rush for one task. A claimer that took a full batch,
  or leaves with a wake-up it did not use, passes one on (:meth:`Subscription.pass_on`);
- ``inbox``: something a human may have to decide changed (a run, a proposal or a
  hold): WatchInbox reads the inbox again;
- ``principal:<principal_id>``: the principal was revoked or its token rotated: its
  open streams and waiting long polls check their credential again (and every process
  forgets the principals it cached first, see :meth:`Hub.on_delivered`);
- ``config``: a process reloaded ``config.json`` (ReloadConfig, SIGHUP): every other
  process reads its own file again (praxis.app.Server.follow_config);
- ``*``: everything (the test clock moved, the server is stopping).

A topic ending in ``*`` (``run:*``) wakes every topic with that prefix. The order
"subscribe, then read, then wait" loses no wake-up: a commit after the subscription
sets it, and one before it is visible to the read.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import re
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Protocol

log = logging.getLogger("praxis.signals")

ALL = "*"
EVENTS = "events"
INBOX = "inbox"
CONFIG = "config"  # a process reloaded the configuration: the others read theirs again

Wakes = Mapping[str, int]  # topic -> how many waiters to wake (0: all of them)


def run_topic(run_id: str) -> str:
    """The topic of one run's changes."""
    return f"run:{run_id}"


def subscriber_topic(subscriber: str) -> str:
    """The topic of events of runs started with ``subscriber``."""
    return f"sub:{subscriber}"


def work_topic(model: str) -> str:
    """The topic of ready attempts of ``model`` (counted wake-ups)."""
    return f"work:{model}"


PRINCIPAL = "principal:"
WORK_ORDER = "workorder:"
"""The prefix of the topic a CreateWorkOrder publishes: caches of what work orders
without a record impose are forgotten."""


def principal_topic(principal_id: str) -> str:
    """The topic of a principal's revocation or token rotation."""
    return f"{PRINCIPAL}{principal_id}"


def call_soon(
    loop: asyncio.AbstractEventLoop, callback: Callable[..., object], *args: object
) -> None:
    """Schedules ``callback(*args)`` on ``loop``, from any thread. On the loop's own
    thread (a write made on the loop, :mod:`praxis.rpc.serving`) it is queued directly;
    from another thread through the loop's self-pipe, which costs a write and a wake-up."""
    if asyncio._get_running_loop() is loop:
        loop.call_soon(callback, *args)
    else:
        loop.call_soon_threadsafe(callback, *args)


def merged(parts: Iterable[Wakes]) -> dict[str, int]:
    """One announcement for several transactions' wake-ups (counts add up; 0 is all)."""
    wakes: dict[str, int] = {}
    for part in parts:
        for topic, count in part.items():
            known = wakes.get(topic)
            wakes[topic] = count if known is None else (0 if 0 in (known, count) else known + count)
    return wakes


def without_taken(wakes: dict[str, int], models: Iterable[str]) -> dict[str, int]:
    """``wakes`` less one ``work:<model>`` wake-up per attempt of ``models`` that the same
    commit made ready and leased (a settle-and-claim taking the node it made ready): no
    waiter is woken to find it gone. A count of 0 (wake all) is left as it is."""
    for model in models:
        topic = work_topic(model)
        count = wakes.get(topic)
        if count == 1:
            del wakes[topic]
        elif count:
            wakes[topic] = count - 1
    return wakes


class Broadcast(Protocol):
    """Carries wake-ups to the other server processes of the installation.

    :class:`UnixBroadcast` does it on one machine; a PostgreSQL LISTEN/NOTIFY carrier
    can take its place for servers on several machines.
    """

    def send(self, wakes: Wakes) -> None:
        """Announces a commit's wake-ups to the other processes (never blocks)."""

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[Wakes], None]) -> None:
        """Starts receiving: ``deliver`` runs on ``loop`` for each announcement."""

    def close(self) -> None:
        """Stops receiving and sending."""


class Subscription:
    """One waiter's interest in some topics; lives on the event loop."""

    def __init__(self, hub: Hub, topics: Iterable[str]) -> None:
        self._hub = hub
        self.topics = tuple(dict.fromkeys(topics))
        self._set = False
        self._counted: set[str] = set()
        self._future: asyncio.Future[None] | None = None

    def __enter__(self) -> Subscription:
        self._hub._add(self)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._hub._remove(self)
        if self._set and self._counted:
            self.pass_on()  # a counted wake-up this waiter will not use goes to another

    def clear(self) -> None:
        """Forgets earlier wake-ups; call it just before reading the database."""
        self._set = False
        self._counted.clear()

    @property
    def is_set(self) -> bool:
        """Whether a wake-up arrived since :meth:`clear`."""
        return self._set

    async def wait(self, timeout_s: float) -> bool:
        """Waits for a wake-up (``True``) or ``timeout_s`` (``False``); holds no thread."""
        if self._set or timeout_s <= 0 or self._hub.closing:
            return self._set
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._future = future
        timer = loop.call_later(timeout_s, _settle, future)
        try:
            await future
        finally:
            timer.cancel()
            self._future = None
        return self._set

    def nudge(self) -> None:
        """Wakes this waiter for a reason of its own (not a topic's); on the event loop."""
        self._wake(False, "")

    def pass_on(self) -> None:
        """Hands one counted wake-up of each of this waiter's work topics to another."""
        self._counted.clear()
        self._hub._deliver({topic: 1 for topic in self.topics if topic.startswith("work:")})

    def _wake(self, counted: bool, topic: str) -> None:
        self._set = True
        if counted:
            self._counted.add(topic)
        if self._future is not None:
            _settle(self._future)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class Hub:
    """Topics, their waiters, and the thread-safe way to wake them."""

    def __init__(self, broadcast: Broadcast | None = None) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._topics: dict[str, dict[Subscription, None]] = {}
        self._any_listeners: list[threading.Event] = []
        self._delivered: list[tuple[str, Callable[[], None]]] = []
        self.broadcast = broadcast
        self.closing = False  # the server is stopping: waiters end instead of waiting
        self.recheck_ms = 60_000  # the safety net: how long a waiter trusts no wake-up came

    def recheck_s(self) -> float:
        """A waiter's safety-net timeout, spread over 80-100% so rechecks do not bunch."""
        return self.recheck_ms / 1000 * random.uniform(0.8, 1.0)  # not crypto

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Binds the hub to the server's event loop (and starts the broadcast receiver)."""
        self._loop = loop
        if self.broadcast is not None:
            self.broadcast.start(loop, self._deliver)

    def close(self) -> None:
        """Stops the broadcast."""
        if self.broadcast is not None:
            self.broadcast.close()

    def subscribe(self, topics: Iterable[str]) -> Subscription:
        """A subscription to use as ``with hub.subscribe([...]) as waiter`` on the loop."""
        return Subscription(self, topics)

    def on_any(self, event: threading.Event) -> None:
        """Sets ``event`` (a thread's wake-up, e.g. the sweeper's) on an ``*`` wake-up."""
        self._any_listeners.append(event)

    def on_delivered(self, prefix: str, callback: Callable[[], None]) -> None:
        """Runs ``callback`` on the loop, before any waiter wakes, each time a topic
        starting with ``prefix`` (or ``*``) arrives from this process or another one:
        a cache can forget what the commit behind it changed."""
        self._delivered.append((prefix, callback))

    def publish(self, wakes: Wakes, remote: bool = True) -> None:
        """Wakes waiters of this process and, when ``remote``, of the other processes.

        Safe from any thread: the store calls it after a commit.
        """
        if not wakes:
            return
        if ALL in wakes:
            for event in self._any_listeners:
                event.set()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # a closed loop has nobody waiting
                call_soon(loop, self._deliver, dict(wakes))
        if remote and self.broadcast is not None:
            self.broadcast.send(wakes)

    def shut(self) -> None:
        """On the loop: marks the hub closing and wakes every waiter to end."""
        self.closing = True
        self._deliver({ALL: 0})

    def everything(self) -> None:
        """Wakes every waiter of this process (clock moved, shutting down)."""
        self.publish({ALL: 0}, remote=False)

    # --- on the loop ------------------------------------------------------------------

    def _add(self, subscription: Subscription) -> None:
        for topic in subscription.topics:
            self._topics.setdefault(topic, {})[subscription] = None

    def _remove(self, subscription: Subscription) -> None:
        for topic in subscription.topics:
            waiters = self._topics.get(topic)
            if waiters is not None:
                waiters.pop(subscription, None)
                if not waiters:
                    del self._topics[topic]

    def _deliver(self, wakes: Wakes) -> None:
        for prefix, callback in self._delivered:
            if any(topic == ALL or topic.startswith(prefix) for topic in wakes):
                callback()
        for topic, count in wakes.items():
            if topic == ALL:
                for event in self._any_listeners:
                    event.set()
                self._wake_matching(lambda _name: True)
            elif topic.endswith("*"):
                prefix = topic[:-1]
                self._wake_matching(lambda name, prefix=prefix: name.startswith(prefix))  # type: ignore[misc]
            else:
                self._wake(topic, count)

    def _wake_matching(self, matches: Callable[[str], bool]) -> None:
        for name in [name for name in self._topics if matches(name)]:
            self._wake(name, 0)

    def _wake(self, topic: str, count: int) -> None:
        waiters = self._topics.get(topic)
        if not waiters:
            return
        if count <= 0:
            for subscription in list(waiters):
                subscription._wake(False, topic)
            return
        woken = 0
        for subscription in list(waiters):
            if subscription.is_set:
                continue  # already awake: it will read the database anyway
            subscription._wake(True, topic)
            waiters.pop(subscription)  # to the back of the queue: fair turns
            waiters[subscription] = None
            woken += 1
            if woken >= count:
                return


# --- across processes ----------------------------------------------------------------

MAX_DATAGRAM = 32_000
_MARKER = re.compile(r"[0-9]+\.[0-9]+")
_instances = itertools.count()


def encode(wakes: Wakes) -> bytes:
    """A datagram; too many topics collapse to prefix wild cards (more waiters wake)."""
    data = "\n".join(f"{count} {topic}" for topic, count in wakes.items()).encode()
    if len(data) <= MAX_DATAGRAM:
        return data
    collapsed: dict[str, int] = {}
    for topic in wakes:
        kind = topic.partition(":")[0]
        collapsed[f"{kind}:*" if ":" in topic else topic] = 0
    return "\n".join(f"{count} {topic}" for topic, count in collapsed.items()).encode()


def decode(data: bytes) -> dict[str, int]:
    """The wake-ups of a datagram (malformed lines are ignored)."""
    wakes: dict[str, int] = {}
    for line in data.decode(errors="replace").splitlines():
        count, _, topic = line.partition(" ")
        if topic and count.isdigit():
            wakes[topic] = int(count)
    return wakes


class UnixBroadcast:
    """Wake-ups between the server processes on one machine, over unix datagrams.

    Each server registers a file named ``<pid>.<n>`` in ``directory`` (kept next to
    the SQLite file, so every process of one installation finds the others) and
    receives on a unix datagram socket. On Linux the socket lives in the abstract
    namespace (no path-length limit, nothing to clean up); elsewhere it is the
    registration file itself. Announcing a commit sends one datagram to each other
    process: a send that would block is dropped (the waiters' safety-net recheck covers
    it); a process that is gone is unregistered.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self._abstract = sys.platform.startswith("linux")
        self._key = f"{os.stat(directory).st_dev}-{os.stat(directory).st_ino}"
        self._pid = os.getpid()
        self._name = f"{self._pid}.{next(_instances)}"  # several servers may share a process
        self._receiver: socket.socket | None = None
        self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sender.setblocking(False)
        self._peers: list[tuple[str, str]] = []
        self._listed_ns = -1
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _address(self, name: str) -> str:
        if self._abstract:
            return f"\0praxis-wake-{self._key}-{name}"
        return str(self.directory / name)

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[Wakes], None]) -> None:
        """Binds this process's socket and registers it."""
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        receiver.setblocking(False)
        marker = self.directory / self._name
        if not self._abstract:
            marker.unlink(missing_ok=True)
        receiver.bind(self._address(self._name))
        receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        if self._abstract:
            marker.touch()
        self._receiver = receiver
        self._loop = loop

        def readable() -> None:
            while True:
                try:
                    data = receiver.recv(MAX_DATAGRAM + 1024)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    return
                wakes = decode(data)
                if wakes:
                    deliver(wakes)

        loop.add_reader(receiver.fileno(), readable)

    def _current_peers(self) -> list[tuple[str, str]]:
        try:
            listed = os.stat(self.directory).st_mtime_ns
        except OSError:
            return []
        with self._lock:
            if listed != self._listed_ns:
                peers = []
                for name in os.listdir(self.directory):
                    if _MARKER.fullmatch(name) and name != self._name:
                        peers.append((name, self._address(name)))
                self._peers, self._listed_ns = peers, listed
            return self._peers

    def send(self, wakes: Wakes) -> None:
        """Sends the wake-ups to every other registered process."""
        peers = self._current_peers()
        if not peers:
            return
        data = encode(wakes)
        for name, address in peers:
            try:
                self._sender.sendto(data, address)
            except (BlockingIOError, InterruptedError):
                log.debug("wake-up to server %s dropped: its queue is full", name)
            except (ConnectionRefusedError, FileNotFoundError):
                self._forget(name)
            except OSError as error:
                log.debug("wake-up to server %s failed: %s", name, error)

    def _forget(self, name: str) -> None:
        """Unregisters a server that no longer receives (its process exited or crashed)."""
        try:
            os.kill(int(name.partition(".")[0]), 0)
            return  # the process lives: the server may be starting or stopping; keep it
        except ProcessLookupError:
            pass
        except PermissionError:
            return
        (self.directory / name).unlink(missing_ok=True)

    def close(self) -> None:
        """Unregisters this process and closes its sockets."""
        receiver, self._receiver = self._receiver, None
        if receiver is not None:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(receiver.fileno())
            receiver.close()
            (self.directory / self._name).unlink(missing_ok=True)
        self._sender.close()
