"""Store calls on the event loop over PostgreSQL park instead of blocking the loop.

A store call on the loop (:func:`praxis.store.db.loop_calls.call`) that waits for
PostgreSQL, for a statement's answer or for a pooled connection, steps back to the loop
(:mod:`praxis.store.db.loop_pg`): the loop keeps running meanwhile (here: a ticker
every 10 ms), and the call goes on once the database answers or a connection is back.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from praxis.store.db import dialect, loop_calls, loop_pg
from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS
from tests.support.postgres import Cluster

HOLD_S = 0.6


@pytest.fixture
def url(postgres_cluster: Cluster) -> str:
    return postgres_cluster.create_database()


@pytest.fixture
def db(url: str) -> Iterator[Database]:
    database = Database(url, pool_size=2)
    database.migrate(0, MIGRATIONS)
    try:
        yield database
    finally:
        database.close()


async def _while_ticking(work: asyncio.Future[Any]) -> tuple[object, int]:
    """``work``'s value, and how many times a 10 ms ticker ran on the loop meanwhile."""
    ticks = 0
    while not work.done():
        await asyncio.sleep(0.01)
        ticks += 1
    return work.result(), ticks


def test_a_statement_waiting_for_a_lock_parks_the_call(
    db: Database, url: str, postgres_cluster: Cluster
) -> None:
    """A read whose statement waits for an advisory lock another session holds: the
    loop ticks on until the lock is released, then the call has its answer."""
    holder = psycopg.connect(postgres_cluster.dsn(url.rpartition("/")[2]), autocommit=True)
    holder.execute("SELECT pg_advisory_lock(4040)")
    releasing = threading.Timer(HOLD_S, lambda: holder.execute("SELECT pg_advisory_unlock(4040)"))

    def locked_read() -> object:
        with db.read() as connection:
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock_shared(4040)")
            return connection.exec_driver_sql("SELECT 40").scalar()

    async def main() -> tuple[object, int]:
        releasing.start()
        return await _while_ticking(asyncio.ensure_future(loop_calls.call(locked_read)))

    try:
        began = time.monotonic()
        value, ticks = asyncio.run(main())
    finally:
        releasing.join()
        holder.close()
    assert value == 40
    assert time.monotonic() - began >= HOLD_S
    assert ticks >= HOLD_S / 0.01 / 3  # the loop ran all along (a loaded machine is slower)


def test_a_checkout_from_an_empty_pool_parks_the_call(db: Database) -> None:
    """Two threads hold both connections of the pool; a read on the loop waits for one
    without blocking the loop, and has it once a thread gives its connection back."""
    holding = threading.Barrier(3)

    def hold() -> None:
        with db.read() as connection:
            connection.exec_driver_sql("SELECT 1")
            holding.wait(timeout=30)
            time.sleep(HOLD_S)

    def read() -> object:
        with db.read() as connection:
            return connection.exec_driver_sql("SELECT 41").scalar()

    holders = [threading.Thread(target=hold) for _ in range(2)]
    for thread in holders:
        thread.start()
    holding.wait(timeout=30)  # both connections are out

    async def main() -> tuple[object, int]:
        return await _while_ticking(asyncio.ensure_future(loop_calls.call(read)))

    try:
        began = time.monotonic()
        value, ticks = asyncio.run(main())
    finally:
        for thread in holders:
            thread.join()
    assert value == 41
    assert time.monotonic() - began >= HOLD_S * 0.8
    assert ticks >= HOLD_S / 0.01 / 3


def test_calls_needing_two_connections_each_share_a_small_pool(db: Database) -> None:
    """Four calls on the loop, each holding its read and then opening a nested one, on a
    pool of two: they take turns (one call at a time holds connections) and all answer,
    where four calls holding one connection each could wait for a second forever."""

    def nested(index: int) -> object:
        with db.read() as outer:
            outer.exec_driver_sql("SELECT pg_sleep(0.05)")
            with db.read() as inner:
                return inner.exec_driver_sql(f"SELECT {index}").scalar()

    async def main() -> tuple[object, int]:
        calls = asyncio.gather(*(loop_calls.call(nested, index) for index in range(4)))
        return await asyncio.wait_for(_while_ticking(calls), 30)

    values, ticks = asyncio.run(main())
    assert values == [0, 1, 2, 3]
    assert ticks >= 4 * 0.05 / 0.01 / 3  # the loop ran while they slept in PostgreSQL


def test_a_write_whose_pooled_connection_died_begins_again_on_the_loop(
    db: Database, url: str, postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write on the loop whose pooled connection's backend was terminated begins again
    once on a new connection (opened off the loop), as from a thread; its second attempt
    waits for a lock without holding up the loop."""
    monkeypatch.setattr(dialect, "IDLE_PING_S", 3600.0)  # no ping: the retry must do it

    def backend(connection: Connection) -> int:
        return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())

    async def first() -> int:
        return await loop_calls.call(db.transact, backend, scoped=True)

    db.engine.dispose()  # one connection from here on: the one terminated
    dead = asyncio.run(first())
    admin = psycopg.connect(postgres_cluster.dsn(url.rpartition("/")[2]), autocommit=True)
    admin.execute("SELECT pg_terminate_backend(%s)", (dead,))
    while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (dead,)).fetchone():
        time.sleep(0.01)
    admin.execute("SELECT pg_advisory_lock(4041)")
    releasing = threading.Timer(HOLD_S, lambda: admin.execute("SELECT pg_advisory_unlock(4041)"))
    attempts: list[int] = []

    def locked(connection: Connection) -> int:
        attempts.append(1)
        connection.execute(text("SELECT pg_advisory_xact_lock_shared(4041)"))
        return backend(connection)

    async def main() -> tuple[object, int]:
        releasing.start()
        call = loop_calls.call(db.transact, locked, scoped=True)
        return await _while_ticking(asyncio.ensure_future(call))

    try:
        again, ticks = asyncio.run(main())
    finally:
        releasing.join()
        admin.close()
    assert again != dead  # a new connection
    assert attempts == [1, 1]  # the first found the connection dead: nothing of it ran
    assert ticks >= HOLD_S / 0.01 / 3


def test_a_call_skips_the_loop_only_when_its_socket_is_the_loop_s_only_event() -> None:
    """A call whose socket is ready goes on without a turn of the loop only when nothing
    else waits on the loop: no ready callback, no other ready socket, no due timer."""
    ours, theirs = socket.socketpair()
    other, other_peer = socket.socketpair()

    async def main() -> list[bool]:
        loop = asyncio.get_running_loop()
        loop.add_reader(ours.fileno(), lambda: None)  # watched, as a call's connection is
        loop.add_reader(other.fileno(), lambda: None)
        seen = []
        theirs.send(b"x")
        seen.append(loop_pg._only_this_ready(loop, ours.fileno()))  # alone: goes on
        handle = loop.call_soon(lambda: None)
        seen.append(loop_pg._only_this_ready(loop, ours.fileno()))  # a callback is ready
        handle.cancel()
        await asyncio.sleep(0)  # the cancelled callback leaves the ready queue
        other_peer.send(b"y")
        seen.append(loop_pg._only_this_ready(loop, ours.fileno()))  # another socket too
        other.recv(1)
        ours.recv(1)
        loop.call_later(0.05, lambda: None)
        began = time.monotonic()
        seen.append(loop_pg._only_this_ready(loop, ours.fileno()))  # a timer comes first
        seen.append(time.monotonic() - began < 1.0)
        loop.remove_reader(ours.fileno())
        loop.remove_reader(other.fileno())
        return seen

    try:
        assert asyncio.run(main()) == [True, False, False, False, True]
    finally:
        for end in (ours, theirs, other, other_peer):
            end.close()


class _Watcher:
    """What :meth:`loop_pg.LoopConnection._watch` uses of its connection."""

    _watching: asyncio.AbstractEventLoop | None = None
    _watched = -1

    def __init__(self) -> None:
        self.readable = asyncio.Event()

    def unwatch(self) -> None:
        loop, self._watching = self._watching, None
        if loop is not None:
            loop.remove_reader(self._watched)

    def _readable(self) -> None:
        self.readable.set()


def test_a_socket_given_a_closed_sockets_number_is_watched_afresh() -> None:
    """A connection lost and closed off the loop leaves its socket's number in the loop's
    selector. A new connection's socket given that number must still be reported:
    asyncio alone would only update the stale key, and the kernel would never report
    the new socket (the call waited for ever: a StartRun after a PostgreSQL restart)."""
    gone, _gone_peer = socket.socketpair()
    ours, theirs = socket.socketpair()

    async def main() -> bool:
        loop = asyncio.get_running_loop()
        number = gone.fileno()
        loop.add_reader(number, lambda: None)  # the lost connection's watch, never ended
        gone.close()  # the kernel drops it from epoll; asyncio keeps its key
        os.dup2(ours.fileno(), number)  # the new connection's socket gets the number
        watcher = _Watcher()
        loop_pg.LoopConnection._watch(watcher, loop, number)  # type: ignore[arg-type]
        theirs.send(b"x")
        try:
            await asyncio.wait_for(watcher.readable.wait(), 2.0)
            return True
        except TimeoutError:
            return False
        finally:
            loop.remove_reader(number)
            os.close(number)

    try:
        assert asyncio.run(main())
    finally:
        for end in (ours, theirs, _gone_peer):
            end.close()
