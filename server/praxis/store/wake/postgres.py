"""Wake-ups between every server sharing a PostgreSQL database: LISTEN/NOTIFY.

A :class:`praxis.store.wake.hub.Broadcast` for replicas on several machines (and the
processes of one). Each server process holds two extra connections, whatever its load:

- a *listener* (``LISTEN praxis_wake``), read on the server's event loop with
  ``add_reader`` (no thread waits for it). Notifications carry the wake-ups of a
  commit and are handed to the hub; a server ignores its own. When the connection is
  lost it is reopened with backoff, and every waiter of the process is woken once
  (wake-ups may have been missed meanwhile; the waiters re-read the database);
- a *sender*, used by one thread that drains a queue: :meth:`PgBroadcast.send` only
  merges the wake-ups into the queue (it never blocks a committing thread), and the
  thread sends what accumulated as one ``pg_notify`` per round trip.

A payload is at most :data:`MAX_PAYLOAD` bytes (PostgreSQL allows 8,000); more topics
collapse to prefix wild cards (``run:*``), which wake more waiters, never fewer. The
waiters' periodic recheck (``serving.recheck_ms``) stays as the safety net for a
notification lost with a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

from praxis.store.wake import hub as signals
from praxis.store.wake.hub import Wakes

log = logging.getLogger("praxis.signals")

CHANNEL = "praxis_wake"
MAX_PAYLOAD = 7_000
MAX_QUEUED = 1_000  # topics waiting for the sender before they collapse to wild cards
RECONNECT_S = (0.1, 5.0)  # first and longest pause before reopening the listener


def conninfo(database_url: str) -> str:
    """The libpq URI of a SQLAlchemy PostgreSQL URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def encode(origin: str, wakes: Wakes) -> str:
    """``origin`` on the first line, then ``<count> <topic>`` lines, within the cap."""
    lines = [f"{count} {topic}" for topic, count in wakes.items()]
    text = "\n".join([origin, *lines])
    if len(text.encode()) <= MAX_PAYLOAD:
        return text
    collapsed = dict.fromkeys((_wild(topic) for topic in wakes), 0)
    return "\n".join([origin, *(f"0 {topic}" for topic in collapsed)])


def _wild(topic: str) -> str:
    """The prefix wild card covering ``topic`` (``run:x`` -> ``run:*``)."""
    return f"{topic.partition(':')[0]}:*" if ":" in topic else topic


def decode(payload: str) -> tuple[str, dict[str, int]]:
    """``(origin, wakes)`` of a notification (malformed lines are ignored)."""
    origin, _, rest = payload.partition("\n")
    return origin, signals.decode(rest.encode())


class PgBroadcast:
    """Wake-ups over PostgreSQL ``LISTEN``/``NOTIFY`` (see the module documentation)."""

    def __init__(self, database_url: str, connect: Callable[..., Any] | None = None) -> None:
        import psycopg

        self._conninfo = conninfo(database_url)
        self._connect = connect or psycopg.connect
        self.origin = uuid.uuid4().hex
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Callable[[Wakes], None] | None = None
        self._listener: Any = None
        self._closed = False
        self._pause = RECONNECT_S[0]
        self._queue: dict[str, int] = {}  # merged wake-ups not sent yet
        self._ready = threading.Condition()
        self._sender = threading.Thread(target=self._send_loop, name="praxis-notify", daemon=True)
        self._sender.start()

    # --- receiving, on the loop -------------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[Wakes], None]) -> None:
        """Opens the listener and reads it on ``loop``."""
        self._loop, self._deliver = loop, deliver
        self._listen(first=True)

    def _listen(self, first: bool = False) -> None:
        if self._closed or self._loop is None:
            return
        try:
            connection = self._connect(self._conninfo, autocommit=True)
            connection.execute(f"LISTEN {CHANNEL}")
        except Exception as error:
            if first:
                raise
            log.warning("LISTEN connection failed (%s); retrying in %.1f s", error, self._pause)
            self._loop.call_later(self._pause, self._listen)
            self._pause = min(self._pause * 2, RECONNECT_S[1])
            return
        self._listener = connection
        self._pause = RECONNECT_S[0]
        self._loop.add_reader(connection.pgconn.socket, self._readable)
        if not first and self._deliver is not None:
            self._deliver({signals.ALL: 0})  # wake-ups may have been missed meanwhile

    def _readable(self) -> None:
        connection = self._listener
        if connection is None:
            return
        pgconn = connection.pgconn
        try:
            pgconn.consume_input()
        except Exception as error:
            log.warning("LISTEN connection lost: %s", error)
            self._drop_listener()
            assert self._loop is not None
            self._loop.call_later(self._pause, self._listen)
            return
        while True:
            notify = pgconn.notifies()
            if notify is None:
                return
            origin, wakes = decode(notify.extra.decode(errors="replace"))
            if origin != self.origin and wakes and self._deliver is not None:
                self._deliver(wakes)

    def _drop_listener(self) -> None:
        connection, self._listener = self._listener, None
        if connection is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(connection.pgconn.socket)
        with contextlib.suppress(Exception):
            connection.close()

    # --- sending, from any thread -----------------------------------------------------

    def send(self, wakes: Wakes) -> None:
        """Queues a commit's wake-ups for the sender thread (never blocks on I/O)."""
        if not wakes or self._closed:
            return
        with self._ready:
            queue = signals.merged([self._queue, wakes])
            if len(queue) > MAX_QUEUED:  # bounded: wild cards wake more, never fewer
                queue = dict.fromkeys({_wild(topic) for topic in queue}, 0)
            self._queue = queue
            self._ready.notify()

    def _send_loop(self) -> None:
        connection: Any = None
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if self._closed:
                    break
                pending, self._queue = self._queue, {}
            payload = encode(self.origin, pending)
            try:
                if connection is None or connection.closed:
                    connection = self._connect(self._conninfo, autocommit=True)
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            except Exception as error:  # the waiters' recheck covers a lost wake-up
                log.warning("NOTIFY failed: %s", error)
                with contextlib.suppress(Exception):
                    if connection is not None:
                        connection.close()
                connection = None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()

    def close(self) -> None:
        """Stops receiving and sending."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        if self._loop is not None and not self._loop.is_closed():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is self._loop:
                self._drop_listener()
            else:
                with contextlib.suppress(RuntimeError):
                    asyncio.run_coroutine_threadsafe(self._close_on_loop(), self._loop).result(5)
        else:
            self._drop_listener()
        self._sender.join(timeout=5)

    async def _close_on_loop(self) -> None:
        self._drop_listener()
