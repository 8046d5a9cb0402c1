"""PostgreSQL under the store calls on the event loop: a wait on the server parks the call.

The server runs its hot calls on the event loop, each in a greenlet of its own
(:mod:`praxis.store.db.loop_calls`, :mod:`praxis.rpc.serving`). On PostgreSQL every
statement is a round trip to another process, so here, when such a call waits for its
connection's socket, the call steps back to the loop (which watches the socket with
``add_reader``/``add_writer``) and goes on once the socket is ready; the loop serves the
other calls meanwhile (and when the call's socket is the loop's only event, the call
goes on without a turn of the loop: :func:`_only_this_ready`). Every wait of a
connection goes through its ``wait`` method
(psycopg's cursor, COMMIT and ROLLBACK, and :mod:`praxis.store.db.libpq`'s own
statements): :class:`LoopConnection` parks there from a call on the loop and blocks as
psycopg does everywhere else (the pool's threads, the sweeper, start-up).

Connections: each call on the loop takes its own from the engine's pool
(:class:`LoopPool`), and a checkout from the loop never blocks it: when every connection
is out the call parks until one comes back (from a call or from a thread), and a new
connection is opened on a thread of the loop's executor while the call parks
(:func:`open_off_the_loop`). Calls on the loop hold connections at most half the pool at a
time (each may hold two at once, its transaction and a nested read, as a pool thread may;
see :func:`praxis.store.db.dialect.pool_size_floor`): a call past that parks before it
takes any, so the calls and the threads can never all hold one connection while each
waits for its second.

psycopg is installed with PostgreSQL only: :mod:`praxis.store.db.dialect` imports this
module when it makes a PostgreSQL engine.
"""

from __future__ import annotations

import asyncio
import functools
import select
import selectors
import threading
from collections import deque
from typing import Any

import psycopg
from greenlet import getcurrent
from psycopg import errors
from psycopg.abc import RV, PQGen
from sqlalchemy import Engine, event
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool
from sqlalchemy.util import queue as sqla_queue

from praxis.store.db import loop_calls

_READ = 1  # psycopg's Wait.R / Ready.R (selectors.EVENT_READ)
_WRITE = 2  # psycopg's Wait.W / Ready.W (selectors.EVENT_WRITE)
_SELECTOR_LOOP = asyncio.selector_events.BaseSelectorEventLoop
_EPOLL = getattr(selectors, "EpollSelector", ())
_EPOLLIN = getattr(select, "EPOLLIN", 0)


class LoopConnection(psycopg.Connection[Any]):
    """A psycopg connection whose waits park the store call on the loop that waits.

    While a call on the loop holds the connection, the loop keeps watching its socket
    for reading between the call's round trips (one registration per checkout, not two
    system calls per round trip): a readiness nobody waits for (a notice between two
    statements) stops the watch, and the next wait starts it again. The watch ends when
    the connection goes back to the pool (:class:`LoopPool`) or is closed.
    """

    _watching: asyncio.AbstractEventLoop | None = None  # the loop watching the socket
    _watched = -1  # the socket it watches
    _waiter: Any = None  # the call parked until the socket is readable

    def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
        if timeout is None and loop_calls.inside():
            return self._park(gen)
        return super().wait(gen, interval, timeout)

    def _park(self, gen: PQGen[RV]) -> RV:
        """Runs psycopg's generator ``gen`` from a store call on the loop: each time it
        would block, the call steps back to the loop, which goes on with it straight
        from the socket's callback once the socket is ready for what ``gen`` asked
        (reading, writing or both)."""
        loop = asyncio.get_running_loop()
        fileno = self.pgconn.socket
        call = loop_calls.current()
        try:
            wanted = next(gen)
            while True:
                if wanted & _READ:
                    self._watch(loop, fileno)  # before the wait below: it sees the socket
                    if wanted == _READ and _only_this_ready(loop, fileno):
                        wanted = gen.send(_READ)  # the loop had nothing else to do meanwhile
                        continue
                    self._waiter = call
                if wanted & _WRITE:
                    loop.add_writer(fileno, loop_calls.resume, call, _WRITE)
                try:
                    ready = loop_calls.park()
                finally:
                    self._waiter = None
                    if wanted & _WRITE:
                        loop.remove_writer(fileno)
                wanted = gen.send(ready)
        except StopIteration as end:
            done: RV = end.value
            return done
        except OSError as error:  # the socket was closed under us: as psycopg says it
            raise errors.OperationalError("connection socket closed") from error

    def _watch(self, loop: asyncio.AbstractEventLoop, fileno: int) -> None:
        if self._watching is loop and self._watched == fileno:
            return
        self.unwatch()
        # The number may still be in the loop's selector for a socket closed since (a
        # connection lost and closed off the loop, where its watch could not end): asyncio
        # would then only update that key, and the kernel would never report this socket
        # (the call would wait for ever). So the socket is registered afresh.
        loop.remove_reader(fileno)
        loop.add_reader(fileno, self._readable)
        self._watching, self._watched = loop, fileno

    def _readable(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is None:  # nobody waits: stop watching until somebody does
            self.unwatch()
            return
        loop_calls.resume(waiter, _READ)

    def unwatch(self) -> None:
        """Stops the loop watching the socket (on the loop's thread; elsewhere the watch
        was never started: only calls on the loop start one, and they end it)."""
        loop, self._watching = self._watching, None
        if loop is not None and asyncio._get_running_loop() is loop:
            loop.remove_reader(self._watched)

    def close(self) -> None:
        self.unwatch()
        super().close()


def _only_this_ready(loop: asyncio.AbstractEventLoop, fileno: int) -> bool:
    """Waits, as the loop itself would, for the first of its events; ``True`` when that is
    the socket ``fileno`` (the connection's, watched by the loop) alone becoming readable.

    When the loop has nothing ready to run, its next turn would sleep in its selector
    until a socket it watches is ready or its next timer is due; stepping back to it
    would only add that turn's Python (about a tenth of a round trip's CPU) before the
    call goes on. So the call waits in the loop's own ``epoll`` instead, with the loop's
    own timeout, and goes on at once when its socket alone is ready; when anything else
    is (another socket, a call handed over from a thread, a timer), it steps back to the
    loop, which then finds the same events (level-triggered) and serves them first.
    Only for asyncio's epoll loop (its private fields: ``_ready``, ``_scheduled``,
    ``_selector``); any other loop always steps back.
    """
    if loop._ready or not isinstance(loop, _SELECTOR_LOOP):  # type: ignore[attr-defined]
        return False
    selector = loop._selector  # type: ignore[attr-defined]
    if not isinstance(selector, _EPOLL):
        return False
    scheduled = loop._scheduled  # type: ignore[attr-defined]
    timeout = -1.0
    if scheduled:
        timeout = max(0.0, scheduled[0].when() - loop.time())
    try:
        events = selector._selector.poll(timeout, 2)
    except InterruptedError:
        return False
    return len(events) == 1 and events[0][0] == fileno and bool(events[0][1] & _EPOLLIN)


def open_off_the_loop(engine: Engine) -> None:
    """Opens ``engine``'s connections as :class:`LoopConnection`; one opened for a store
    call on the loop (a checkout, a reconnect after a dead connection) is opened on a
    thread of the loop's executor while the call parks."""

    @event.listens_for(engine, "do_connect")
    def _connect(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        opening = functools.partial(LoopConnection.connect, *cargs, **cparams)
        if not loop_calls.inside():
            return opening()
        opened = asyncio.get_running_loop().run_in_executor(None, opening)
        loop_calls.wait(opened)
        return opened.result()


class LoopPool(QueuePool):
    """SQLAlchemy's queue pool, whose checkouts from a store call on the loop park the
    call instead of blocking the loop (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The calls on the loop waiting for a connection to come back (any thread may
        # give one back: each is woken on its loop's thread).
        self._parked: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._parked_lock = threading.Lock()
        # Which call on the loop (and its loop) holds each connection it took, and how
        # many each holds (changed on the loop's thread only).
        self._holders: dict[ConnectionPoolEntry, tuple[Any, asyncio.AbstractEventLoop]] = {}
        self._held: dict[Any, int] = {}
        # The calls on the loop holding connections (at most _most), and those waiting to.
        self._most = max(1, (self.size() + max(self._max_overflow, 0)) // 2)
        self._admitted = 0
        self._admitting: deque[asyncio.Future[None]] = deque()

    def _do_get(self) -> ConnectionPoolEntry:
        if not loop_calls.inside():
            return super()._do_get()
        call = getcurrent()
        if call not in self._held:
            self._admit()
            self._held[call] = 0
        try:
            record = self._take()
        except BaseException:
            if not self._held[call]:
                del self._held[call]
                self._leave()
            raise
        self._held[call] += 1
        self._holders[record] = (call, asyncio.get_running_loop())
        return record

    def _admit(self) -> None:
        """Takes one of the calls' places (parks until one is free)."""
        if self._admitted < self._most:
            self._admitted += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._admitting.append(turn)
        loop_calls.wait(turn)  # the place is handed over by _leave

    def _leave(self) -> None:
        """Gives a call's place back: to the first call waiting for one, if any (on the
        loop's thread)."""
        while self._admitting:
            turn = self._admitting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._admitted -= 1

    def _take(self) -> ConnectionPoolEntry:
        """A pooled connection, or a new one; parks while every connection is out."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                return self._pool.get(False)
            except sqla_queue.Empty:
                pass
            if self._inc_overflow():
                try:
                    return self._create_connection()
                except BaseException:
                    self._dec_overflow()
                    raise
            back: asyncio.Future[None] = loop.create_future()
            with self._parked_lock:
                self._parked.append((loop, back))
            try:  # one came back between the first look and parking
                return self._pool.get(False)
            except sqla_queue.Empty:
                pass
            loop_calls.wait(back)

    def _do_return_conn(self, record: ConnectionPoolEntry) -> None:
        connection = record.dbapi_connection
        if isinstance(connection, LoopConnection):
            connection.unwatch()
        super()._do_return_conn(record)
        holder = self._holders.pop(record, None)
        if holder is not None:
            call, loop = holder
            if asyncio._get_running_loop() is loop:
                self._release(call)
            else:  # given back elsewhere (collected on another thread)
                loop.call_soon_threadsafe(self._release, call)
        if self._parked:
            with self._parked_lock:
                parked, self._parked = self._parked, []
            for loop, back in parked:
                if asyncio._get_running_loop() is loop:
                    _done(back)
                else:
                    loop.call_soon_threadsafe(_done, back)

    def _release(self, call: Any) -> None:
        """A call on the loop gave a connection back: once it holds none, its place too."""
        self._held[call] -= 1
        if not self._held[call]:
            del self._held[call]
            self._leave()


def _done(back: asyncio.Future[None]) -> None:
    if not back.done():
        back.set_result(None)
