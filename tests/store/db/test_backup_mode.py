"""``praxis admin backup`` never lets the snapshot be read by others, not even while it is
being copied (issue 37): the file is 0600 from its first byte, whatever the umask."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from praxis.store.db import backup
from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS


def test_the_snapshot_is_0600_while_it_is_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "praxis.db"
    db = Database(f"sqlite:///{source}")
    db.migrate(1_800_000_000_000, MIGRATIONS)
    db.close()
    target = tmp_path / "snapshot.db"
    partial = target.with_name(target.name + ".partial")
    modes: list[int] = []
    connect = sqlite3.connect

    class Watched(sqlite3.Connection):
        """The copy's connection: records the file's mode while data is in it."""

        def close(self) -> None:
            modes.append(stat.S_IMODE(os.stat(partial).st_mode))
            super().close()

    def watched(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if Path(str(database)) == partial:
            return connect(database, *args, factory=Watched, **kwargs)
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(backup.sqlite3, "connect", watched)
    previous = os.umask(0o022)  # a usual operator's umask: new files 0644
    try:
        backup.backup(source, target, "test", 0)
    finally:
        os.umask(previous)
    assert modes == [0o600]  # while the copy held every row
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert not partial.exists()
