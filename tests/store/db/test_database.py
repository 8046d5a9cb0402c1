"""Write transactions: group commit, savepoints and after-commit callbacks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.store.controls import rows as controls
from praxis.store.db.database import Database, Rollback
from praxis.store.db.metadata import meta
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000


def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'a.db'}")
    db.migrate(NOW, MIGRATIONS)
    return db


def test_after_commit_runs_once_committed_and_is_dropped_on_rollback(tmp_path: Path) -> None:
    db = database(tmp_path)
    seen: list[str | None] = []

    def committed(connection: Connection) -> str:
        controls.put_meta(connection, "k", "v")

        def check() -> None:  # runs after COMMIT: a fresh reader sees the write
            with db.read() as reader:
                seen.append(reader.execute(select(meta.c.value)).scalar())

        db.after_commit(connection, check)
        assert seen == []  # not yet
        return "done"

    def rolled_back(connection: Connection) -> str:
        controls.put_meta(connection, "k", "other")
        db.after_commit(connection, lambda: seen.append("must not run"))
        raise Rollback("refused")

    assert db.transact(committed) == "done"
    assert seen == ["v"]
    assert db.transact(rolled_back) == "refused"
    assert seen == ["v"]
    with db.read() as reader:
        assert reader.execute(select(meta.c.value)).scalar() == "v"
    db.close()


def test_group_commit_keeps_each_command_separate(tmp_path: Path) -> None:
    db = database(tmp_path)
    results: list[object] = []

    def command(index: int) -> None:
        def body(connection: Connection) -> int:
            controls.put_meta(connection, f"key-{index}", str(index))
            if index % 3 == 0:
                raise Rollback(-index)
            return index

        results.append(db.transact(body))

    threads = [threading.Thread(target=command, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=abs) == [-i if i % 3 == 0 else i for i in range(30)]
    with db.read() as reader:
        keys = set(reader.execute(select(meta.c.key)).scalars())
    assert keys == {f"key-{i}" for i in range(30) if i % 3}
    db.close()


def test_a_callback_added_once_runs_once_per_group_commit(tmp_path: Path) -> None:
    """``after_commit(once=True)``: the commands of one batch share a pending callback;
    a callback whose command rolled back does not stand in for a later command's."""
    db = database(tmp_path)
    woken: list[str] = []

    def wake() -> None:
        woken.append("woken")

    def kept(connection: Connection) -> str:
        db.after_commit(connection, wake, once=True)
        return "kept"

    def refused(connection: Connection) -> str:
        db.after_commit(connection, wake, once=True)
        raise Rollback("refused")

    assert db.transact_many([kept, kept, refused, kept]) == ["kept", "kept", "refused", "kept"]
    assert woken == ["woken"]  # one batch, one wake-up (without once: three)
    woken.clear()
    # The first command registered it and rolled back: the second must still wake.
    assert db.transact_many([refused, kept]) == ["refused", "kept"]
    assert woken == ["woken"]
    woken.clear()
    assert db.transact_many([refused, refused]) == ["refused", "refused"]
    assert woken == []
    db.close()


def test_a_before_commit_hook_runs_once_before_the_commit_and_learns_its_outcome(
    tmp_path: Path,
) -> None:
    db = database(tmp_path)

    def tables(connection: Connection) -> None:
        connection.exec_driver_sql("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        connection.exec_driver_sql(
            "CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )

    db.transact(tables)
    ended: list[tuple[tuple[object, ...], bool]] = []

    def hook(connection: Connection, items: list[object]) -> Callable[[bool], None]:
        controls.put_meta(connection, "hooked", ",".join(str(item) for item in items))
        return lambda committed: ended.append((tuple(items), committed))

    def command(item: str, orphan: bool = False) -> Callable[[Connection], str]:
        def body(connection: Connection) -> str:
            if orphan:  # a deferred foreign key: the COMMIT itself fails
                connection.exec_driver_sql("INSERT INTO child (pid) VALUES (99)")
            db.before_commit(connection, hook, item)
            return item

        return body

    assert db.transact_many([command("a"), command("b")]) == ["a", "b"]
    assert ended == [(("a", "b"), True)]  # once, with both commands' items
    [failed] = db.transact_many([command("c", orphan=True)])
    assert isinstance(failed, Exception) and "FOREIGN KEY" in str(failed)
    assert ended[-1] == (("c",), False)
    with db.read() as reader:
        assert reader.execute(select(meta.c.value).where(meta.c.key == "hooked")).scalar() == "a,b"
    db.close()
