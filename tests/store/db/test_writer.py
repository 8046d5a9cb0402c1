"""Issue 40, item 3: one writer thread per process owns SQLite's write connection.

Coroutines await their commands (:meth:`Database.call`); a function run on the writer
runs its transactions inline, in the batch it is part of, is answered once that batch's
COMMIT is durable, and a failing one gets its own error while the others of the batch
commit. What it defers with :meth:`Database.after_durable` runs after the COMMIT.
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


def test_calls_run_on_one_writer_thread_and_fail_alone(tmp_path: Path) -> None:
    """Calls queued together run on the writer thread (not the loop's, not a pool's), in
    order, share its batches, and answer each on its own: a duplicate key, a bug and a
    Rollback refuse only their own command."""
    path = tmp_path / "a.db"
    db = database(path)
    threads: list[int] = []

    def put(key: str, value: str) -> str:
        threads.append(threading.get_ident())

        def body(connection: Connection) -> str:
            controls.put_meta(connection, key, value)
            return key

        return db.transact(body)

    def duplicate() -> str:
        def body(connection: Connection) -> str:
            connection.execute(meta.insert().values(key="k0", value="again"))
            return "inserted"

        return db.transact(body)

    def refused() -> str:
        def body(connection: Connection) -> str:
            controls.put_meta(connection, "refused", "x")
            raise Rollback("refused")

        return db.transact(body)

    def broken() -> str:
        raise ValueError("a bug")

    async def main() -> list[object]:
        loop_thread = threading.get_ident()
        calls = [db.call(lambda i=i: put(f"k{i}", f"v{i}")) for i in range(20)]
        calls[5:5] = [db.call(duplicate), db.call(refused), db.call(broken)]
        answers = await asyncio.gather(*calls, return_exceptions=True)
        assert loop_thread not in threads
        return answers

    answers = asyncio.run(main())
    assert isinstance(answers[5], IntegrityError)
    assert answers[6] == "refused"
    assert isinstance(answers[7], ValueError)
    assert answers[:5] + answers[8:] == [f"k{i}" for i in range(20)]
    assert len(set(threads)) == 1
    found = stored(path)
    assert {k: found[k] for k in found if k.startswith("k")} == {
        f"k{i}": f"v{i}" for i in range(20)
    }
    assert "refused" not in found
    db.close()


def test_after_durable_runs_once_the_batch_committed(tmp_path: Path) -> None:
    """Inside a call, what is deferred with ``after_durable`` runs after the COMMIT (a
    second connection sees the write), and a read sees the batch's own writes."""
    path = tmp_path / "a.db"
    db = database(path)
    seen: list[object] = []

    def command() -> str:
        db.transact(lambda connection: controls.put_meta(connection, "k", "v"))
        with db.read() as connection:  # the batch's connection: its writes so far
            seen.append(connection.execute(select(meta.c.value)).scalar())
        seen.append(stored(path).get("k"))  # not committed yet
        db.after_durable(lambda: seen.append(stored(path).get("k")))
        assert seen[-1] is None  # deferred
        return "done"

    assert asyncio.run(db.call(command)) == "done"
    assert seen == ["v", None, "v"]
    db.after_durable(lambda: seen.append("now"))  # outside a call: at once
    assert seen[-1] == "now"
    db.close()


def test_reads_may_not_write_and_threads_still_transact(tmp_path: Path) -> None:
    """A read queued with ``call(read=True)`` runs on the reader thread, on committed
    data, and may not write; a thread's ``transact`` is answered by the writer too."""
    db = database(tmp_path / "a.db")

    def writes() -> None:
        db.transact(lambda connection: controls.put_meta(connection, "k", "v"))

    with pytest.raises(RuntimeError):
        asyncio.run(db.call(writes, read=True))
    done: list[str] = []
    worker = threading.Thread(
        target=lambda: done.append(db.transact(lambda c: controls.put_meta(c, "t", "x") or "t"))
    )
    worker.start()
    worker.join(10)
    assert done == ["t"]

    def reads() -> str | None:
        with db.read() as connection:
            found: str | None = connection.execute(
                select(meta.c.value).where(meta.c.key == "t")
            ).scalar()
            return found

    assert asyncio.run(db.call(reads, read=True)) == "x"
    db.close()
