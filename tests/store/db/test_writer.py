"""Issue 40, items 2 and 3: who writes SQLite's one write connection.

Threads queue their commands and wait; the writer thread runs them (each in its own
SAVEPOINT, batched under one COMMIT) and answers each once its batch is durable: no
caller thread writes or takes the write over from another. A failing command gets its
own error and the others of its batch commit. A command made on an event loop (the
server's, where the hot RPCs run on SQLite) is written on the loop's thread itself.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from praxis.store.controls import rows as controls
from praxis.store.db import loop_calls
from praxis.store.db.database import Database, Rollback
from praxis.store.db.metadata import meta
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000


def stored(path: Path) -> dict[str, str]:
    """What another connection (another process would) sees committed in ``meta``."""
    with sqlite3.connect(path) as other:
        return dict(other.execute("SELECT key, value FROM meta").fetchall())


def counted_batches(db: Database) -> list[int]:
    """The size of each batch ``db`` writes from now on (each one COMMIT), in order."""
    batches: list[int] = []
    write = db._write_batch

    def counted(batch: list[Any]) -> Callable[[], None]:
        batches.append(len(batch))
        return write(batch)

    db._write_batch = counted  # type: ignore[method-assign]
    return batches


def test_one_writer_thread_runs_every_callers_command(tmp_path: Path) -> None:
    """Twenty threads write at once: every body runs on one thread that is none of
    theirs, each caller goes on only once its write is durable (another connection sees
    it), and a duplicate key, a bug and a Rollback refuse only their own command."""
    path = tmp_path / "a.db"
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    db.transact(lambda connection: controls.put_meta(connection, "k0", "v"))
    callers: set[int] = set()
    writers: set[int] = set()
    answers: dict[str, object] = {}
    start = threading.Barrier(23)

    def put(key: str) -> None:
        def body(connection: Connection) -> str:
            writers.add(threading.get_ident())
            controls.put_meta(connection, key, "v")
            return key

        callers.add(threading.get_ident())
        start.wait(10)
        answers[key] = db.transact(body)
        answers[key + ".durable"] = stored(path).get(key) == "v"

    def failing(name: str, body: object) -> None:
        callers.add(threading.get_ident())
        start.wait(10)
        try:
            answers[name] = db.transact(body)  # type: ignore[arg-type]
        except Exception as error:
            answers[name] = error

    def duplicate(connection: Connection) -> str:
        connection.execute(meta.insert().values(key="k0", value="again"))
        return "inserted"

    def refused(connection: Connection) -> str:
        controls.put_meta(connection, "refused", "x")
        raise Rollback("refused")

    def broken(connection: Connection) -> str:
        controls.put_meta(connection, "broken", "x")
        raise ValueError("a bug")

    threads = [threading.Thread(target=put, args=(f"k{i}",)) for i in range(1, 21)]
    threads += [
        threading.Thread(target=failing, args=(name, body))
        for name, body in (("duplicate", duplicate), ("refused", refused), ("broken", broken))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert isinstance(answers["duplicate"], IntegrityError)
    assert answers["refused"] == "refused"
    assert isinstance(answers["broken"], ValueError)
    for i in range(1, 21):
        assert answers[f"k{i}"] == f"k{i}"
        assert answers[f"k{i}.durable"] is True
    [writer] = writers
    assert writer not in callers
    found = stored(path)
    assert {key for key in found if key.startswith("k")} == {f"k{i}" for i in range(21)}
    assert "refused" not in found and "broken" not in found
    db.close()


def test_a_write_made_on_an_event_loop_is_written_on_its_thread(tmp_path: Path) -> None:
    """On a thread that runs an event loop the command runs right there (no hand-off to
    the writer thread) and is durable when the call returns; a batch too. A write asked
    for from inside that write is refused rather than waiting for itself. A thread
    without a loop still queues for the writer thread."""
    path = tmp_path / "a.db"
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    seen: dict[str, object] = {}

    def put(key: str) -> Callable[[Connection], str]:
        def body(connection: Connection) -> str:
            seen.setdefault(key, threading.get_ident())
            controls.put_meta(connection, key, "v")
            return key

        return body

    def nested(connection: Connection) -> str:
        return db.transact(put("inner"))

    async def on_the_loop() -> None:
        seen["loop"] = threading.get_ident()
        seen["answer"] = db.transact(put("k1"))
        seen["durable"] = stored(path).get("k1") == "v"
        seen["batch"] = db.transact_many([put("k2"), put("k3")])
        try:
            db.transact(nested)
        except RuntimeError as error:
            seen["nested"] = str(error)

    asyncio.run(on_the_loop())
    assert seen["answer"] == "k1" and seen["durable"] is True
    assert seen["batch"] == ["k2", "k3"]
    assert seen["k1"] == seen["k2"] == seen["k3"] == seen["loop"]
    assert "its own write" in str(seen["nested"]) and "inner" not in stored(path)
    assert db.transact(put("k4")) == "k4"
    assert seen["k4"] not in (seen["loop"], threading.get_ident())  # the writer thread
    db.close()


def test_store_calls_on_the_loop_share_one_group_commit(tmp_path: Path) -> None:
    """Store calls on the loop (praxis.store.db.loop_calls) that write in the same turn
    of the loop share one COMMIT; each goes on with its own answer once it is durable,
    a failing one gets its own error, and the loop is not held up meanwhile. A call
    cancelled while it waits still has its write made."""
    path = tmp_path / "a.db"
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    batches = counted_batches(db)

    def put(key: str) -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, key, "v")
            return key

        answer = db.transact(body)
        assert stored(path).get(key) == "v"  # durable before the call goes on
        return answer

    def broken(connection: Connection) -> str:
        raise ValueError("a bug")

    async def main() -> dict[str, object]:
        ticks: list[int] = []

        async def ticking() -> None:
            for tick in range(3):
                ticks.append(tick)
                await asyncio.sleep(0)

        calls = [loop_calls.call(put, f"k{i}") for i in range(5)]
        failing = loop_calls.call(db.transact, broken)
        answers = await asyncio.gather(*calls, failing, ticking(), return_exceptions=True)
        cancelled = asyncio.ensure_future(loop_calls.call(put, "gone"))
        await asyncio.sleep(0)  # it queued its write and waits
        cancelled.cancel()
        try:
            await cancelled
        except asyncio.CancelledError:
            gone = "cancelled"
        return {"answers": answers, "ticks": ticks, "gone": gone}

    found = asyncio.run(main())
    answers = cast(list[object], found["answers"])
    assert answers[:5] == ["k0", "k1", "k2", "k3", "k4"]
    assert isinstance(answers[5], ValueError)
    assert found["ticks"] == [0, 1, 2] and found["gone"] == "cancelled"
    assert batches == [6, 1]  # one COMMIT for the six, one for the cancelled call's write
    assert stored(path).get("gone") == "v"
    db.close()


def test_the_loop_goes_on_while_another_process_holds_the_writers_turn(tmp_path: Path) -> None:
    """While another server process holds the writers' turn (its flock on
    ``<db>.writer``), a store call on the loop that writes waits for it off the loop: the
    loop goes on (here: ticks and a second call that queues its write into the same
    batch), and both writes are made, in one COMMIT, once the turn is given back."""
    path = tmp_path / "a.db"
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    batches = counted_batches(db)

    def put(key: str) -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, key, "v")
            return key

        return db.transact(body)

    other = os.open(path.with_name(path.name + ".writer"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(other, fcntl.LOCK_EX)  # another process's turn

    async def main() -> tuple[list[str], int]:
        first = asyncio.ensure_future(loop_calls.call(put, "k1"))
        ticks = 0
        for _ in range(20):  # the loop runs on while the turn is held elsewhere
            await asyncio.sleep(0.005)
            ticks += 1
        second = asyncio.ensure_future(loop_calls.call(put, "k2"))
        await asyncio.sleep(0.01)
        assert not first.done() and not second.done() and "k1" not in stored(path)
        fcntl.flock(other, fcntl.LOCK_UN)
        return list(await asyncio.gather(first, second)), ticks

    answers, ticks = asyncio.run(main())
    os.close(other)
    assert answers == ["k1", "k2"] and ticks == 20
    assert batches == [2]
    assert stored(path).get("k1") == stored(path).get("k2") == "v"
    db.close()
