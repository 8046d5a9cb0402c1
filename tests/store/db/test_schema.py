"""Storage honesty: incomplete or future schemas are refused, never repaired."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from praxis.store.db.database import Database
from praxis.store.db.migrations import SchemaError
from praxis.store.schema import MIGRATIONS

NOW = 1_800_000_000_000


def migrated(path: Path) -> Path:
    db = Database(f"sqlite:///{path}")
    db.migrate(NOW, MIGRATIONS)
    db.close()
    return path


def test_fresh_database_gets_every_migration_recorded(tmp_path: Path) -> None:
    path = migrated(tmp_path / "a.db")
    rows = sqlite3.connect(path).execute("SELECT version FROM schema_migrations").fetchall()
    assert [row[0] for row in rows] == [m.version for m in MIGRATIONS]
    db = Database(f"sqlite:///{path}")
    assert db.migrate(NOW, MIGRATIONS) == []  # idempotent
    db.close()


def test_sqlite_pragmas(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'a.db'}")
    with db.read() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
        assert connection.exec_driver_sql("PRAGMA temp_store").scalar() == 2  # MEMORY
    db.close()


def _refuses(path: Path, fragment: str) -> None:
    db = Database(f"sqlite:///{path}")
    with pytest.raises(SchemaError, match=fragment):
        db.migrate(NOW, MIGRATIONS)
    db.close()


def test_future_schema_is_refused(tmp_path: Path) -> None:
    path = migrated(tmp_path / "a.db")
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
    _refuses(path, "newer than this server")


def test_missing_table_is_refused(tmp_path: Path) -> None:
    path = migrated(tmp_path / "a.db")
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE receipts")
    _refuses(path, "receipts")


def test_gap_in_migrations_is_refused(tmp_path: Path) -> None:
    path = migrated(tmp_path / "a.db")
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM schema_migrations WHERE version = 1")
    _refuses(path, "not a prefix|not recorded")


def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE something (x)")
    _refuses(path, "no schema_migrations")
