"""Issue 40, item 3: one writer thread per process owns SQLite's write connection.

A coroutine's command (:meth:`Database.run_command`) runs on the event loop and awaits
each of its transactions on the writer thread: the loop serves other calls meanwhile,
the command goes on only once its batch's COMMIT is durable, and a failing command gets
its own error while the others of the batch commit. Reads queued with
:meth:`Database.run_read` run on one reader thread and may not write.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from praxis.store.controls import rows as controls
from praxis.store.db.database import Database, Rollback
from praxis.store.db.metadata import meta
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000


def database(path: Path) -> Database:
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    return db


def stored(path: Path) -> dict[str, str]:
    """What another connection (another process would) sees committed in ``meta``."""
    with sqlite3.connect(path) as other:
        return dict(other.execute("SELECT key, value FROM meta").fetchall())


def test_commands_run_on_the_loop_and_write_on_one_writer_thread(tmp_path: Path) -> None:
    """Commands of many coroutines run on the loop's thread; their bodies run on one
    other thread (the writer); each goes on only once its write is durable (another
    connection sees it); a duplicate key, a bug and a Rollback refuse only their own."""
    path = tmp_path / "a.db"
    db = database(path)
    command_threads: set[int] = set()
    body_threads: set[int] = set()
    durable: list[bool] = []

    def put(key: str) -> str:
        command_threads.add(threading.get_ident())

        def body(connection: Connection) -> str:
            body_threads.add(threading.get_ident())
            controls.put_meta(connection, key, "v")
            return key

        answer: str = db.transact(body)
        durable.append(stored(path).get(key) == "v")  # committed before it returned
        return answer

    def duplicate() -> str:
        def body(connection: Connection) -> str:
            connection.execute(meta.insert().values(key="k0", value="again"))
            return "inserted"

        answer: str = db.transact(body)
        return answer

    def refused() -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, "refused", "x")
            raise Rollback("refused")

        answer: str = db.transact(body)
        return answer

    def broken() -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, "broken", "x")
            raise ValueError("a bug")

        answer: str = db.transact(body)
        return answer

    async def main() -> tuple[int, list[object]]:
        first = await db.run_command(lambda: put("k0"))
        assert first == "k0"
        calls = [db.run_command(lambda i=i: put(f"k{i}")) for i in range(1, 20)]  # type: ignore[misc]
        calls[5:5] = [db.run_command(f) for f in (duplicate, refused, broken)]
        return threading.get_ident(), await asyncio.gather(*calls, return_exceptions=True)

    loop_thread, answers = asyncio.run(main())
    assert isinstance(answers[5], IntegrityError)
    assert answers[6] == "refused"
    assert isinstance(answers[7], ValueError)
    assert answers[:5] + answers[8:] == [f"k{i}" for i in range(1, 20)]
    assert command_threads == {loop_thread}
    [writer] = body_threads
    assert writer != loop_thread
    assert durable == [True] * 20
    found = stored(path)
    assert {k for k in found if k.startswith("k")} == {f"k{i}" for i in range(20)}
    assert "refused" not in found and "broken" not in found
    db.close()


def test_the_loop_serves_others_while_a_command_waits_for_its_commit(tmp_path: Path) -> None:
    """While the writer holds a command's batch, the loop runs other coroutines."""
    db = database(tmp_path / "a.db")
    in_body, release = threading.Event(), threading.Event()
    ticks: list[int] = []

    def slow() -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, "slow", "x")
            in_body.set()
            release.wait(10)
            return "slow"

        answer: str = db.transact(body)
        return answer

    async def ticker() -> None:
        while not in_body.is_set():
            await asyncio.sleep(0.001)
        for tick in range(5):  # the loop is free while the body waits in the writer
            ticks.append(tick)
            await asyncio.sleep(0.001)
        release.set()

    async def main() -> object:
        answer, _ = await asyncio.gather(db.run_command(slow), ticker())
        return answer

    assert asyncio.run(main()) == "slow"
    assert ticks == [0, 1, 2, 3, 4]
    db.close()


def test_reads_run_on_the_reader_thread_and_may_not_write(tmp_path: Path) -> None:
    """A read queued with ``run_read`` runs on another thread, on committed data, and
    may not write; a thread's ``transact`` is answered by the writer as before."""
    db = database(tmp_path / "a.db")
    done: list[str] = []

    def put_from_thread() -> None:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, "t", "x")
            return "t"

        done.append(db.transact(body))

    worker = threading.Thread(target=put_from_thread)
    worker.start()
    worker.join(10)
    assert done == ["t"]

    def reads() -> tuple[int, str | None]:
        with db.read() as connection:
            found: str | None = connection.execute(
                select(meta.c.value).where(meta.c.key == "t")
            ).scalar()
        return threading.get_ident(), found

    def writes() -> None:
        db.transact(lambda connection: controls.put_meta(connection, "w", "x"))

    async def main() -> tuple[int, tuple[int, str | None]]:
        with pytest.raises(RuntimeError):
            await db.run_read(writes)
        return threading.get_ident(), await db.run_read(reads)

    loop_thread, (reader_thread, found) = asyncio.run(main())
    assert found == "x"
    assert reader_thread != loop_thread
    db.close()
