"""Issue 40, item 3: one writer thread per process owns SQLite's write connection.

Callers queue their commands and wait; the writer runs them (each in its own SAVEPOINT,
batched under one COMMIT) and answers each once its batch is durable: no caller thread
writes or takes the write over from another. A failing command gets its own error and
the others of its batch commit.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from praxis.store.controls import rows as controls
from praxis.store.db.database import Database, Rollback
from praxis.store.db.metadata import meta
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000


def stored(path: Path) -> dict[str, str]:
    """What another connection (another process would) sees committed in ``meta``."""
    with sqlite3.connect(path) as other:
        return dict(other.execute("SELECT key, value FROM meta").fetchall())


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
