"""The restore hold written into a restore's copy before the copy replaces the database."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from praxis.core.records import HoldKind
from praxis.store.controls import rows as controls
from praxis.store.controls.restore_hold import ACTOR, RestoreHold, hold_for
from praxis.store.db import backup
from praxis.store.db.backup import BackupError, Manifest
from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000
NEWEST = MIGRATIONS[-1].version


def snapshot(tmp_path: Path) -> tuple[Path, Path]:
    """A data directory's database and a snapshot of it."""
    database = tmp_path / "data" / "praxis.db"
    database.parent.mkdir()
    db = Database(f"sqlite:///{database}")
    db.migrate(NOW, MIGRATIONS)
    db.close()
    backup.backup(database, tmp_path / "snap.db", "test", NOW)
    return database, tmp_path / "snap.db"


_DIES_MID_TRANSACTION = """
import os, sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("CREATE TABLE t (x)")
connection.execute("PRAGMA cache_size=1")
connection.execute("BEGIN")
connection.execute("INSERT INTO t SELECT randomblob(4000) FROM (SELECT 1 UNION SELECT 2)")
connection.execute("INSERT INTO t SELECT randomblob(4000) FROM t, t AS u, t AS v")
os._exit(0)
"""


def hot_journal(path: Path) -> None:
    """Leaves ``path`` with the hot journal of a process killed mid-transaction."""
    subprocess.run([sys.executable, "-c", _DIES_MID_TRANSACTION, str(path)], check=True)
    assert Path(f"{path}-journal").stat().st_size > 0


def active(database: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(database) as connection:
        return list(
            connection.execute(
                "SELECT kind, work_order_id, placed_by FROM holds WHERE cleared_at_ms IS NULL"
            )
        )


def test_the_hold_is_in_the_restored_file_which_stays_in_rollback_journal_mode(
    tmp_path: Path,
) -> None:
    database, snap = snapshot(tmp_path)
    # A restore that died while preparing its copy left a hot journal (here, of another
    # file): replayed into the fresh copy it would turn it back into that file.
    hot_journal(tmp_path / "other.db")
    (tmp_path / "other.db-journal").rename(database.parent / "praxis.db.restoring-journal")
    hold = RestoreHold(snap, NOW + 5)
    backup.restore(snap, database, NEWEST, NOW + 5, prepare=hold)
    assert hold.placed is not None
    assert (hold.placed.kind, hold.placed.placed_by, hold.placed.placed_at_ms) == (
        HoldKind.RESTORE, ACTOR, NOW + 5,
    )  # fmt: skip
    assert str(snap) in hold.placed.reason and str(NOW) in hold.placed.reason
    assert active(database) == [("RESTORE", "", ACTOR)]
    assert not list(database.parent.glob("praxis.db.restoring*"))
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_snapshot_that_already_holds_a_restore_hold_keeps_it(tmp_path: Path) -> None:
    database, _ = snapshot(tmp_path)
    db = Database(f"sqlite:///{database}")
    manifest = backup.read_manifest(tmp_path / "snap.db")
    with db.write() as connection:
        controls.place_hold(connection, hold_for(Path("earlier.db"), manifest, NOW))
    db.close()
    backup.backup(database, tmp_path / "held.db", "test", NOW + 1)
    hold = RestoreHold(tmp_path / "held.db", NOW + 5)
    backup.restore(tmp_path / "held.db", database, NEWEST, NOW + 5, prepare=hold)
    assert hold.placed is not None and hold.placed.placed_at_ms == NOW  # the one it held
    assert "earlier.db" in hold.placed.reason
    assert active(database) == [("RESTORE", "", ACTOR)]


def test_a_failed_prepare_replaces_nothing(tmp_path: Path) -> None:
    database, snap = snapshot(tmp_path)
    before = database.read_bytes()

    def failing(copy: Path, _manifest: Manifest) -> None:
        with sqlite3.connect(copy) as connection:  # the hold has nowhere to go
            connection.execute("DROP TABLE holds")
        connection.close()
        RestoreHold(snap, NOW)(copy, _manifest)

    with pytest.raises(BackupError) as refused:
        backup.restore(snap, database, NEWEST, NOW + 5, prepare=failing)
    assert refused.value.reason == "RESTORE_FAILED"
    assert database.read_bytes() == before
    assert not list(database.parent.glob("praxis.db.restoring*"))
    assert not list(database.parent.glob("praxis.db.before-restore-*"))
