"""The restore hold ``praxis admin restore`` places in the database it restores.

The hold is written into the restore's checked copy (``<db>.restoring``) before the copy
replaces the database (:func:`praxis.store.db.backup.restore`'s ``prepare`` step), so a
restored database never exists without it. It is installation-wide, names the snapshot
file and the time its manifest records, and is attributed to :data:`ACTOR`: the restore
runs offline, as no principal. The server then refuses what a restore hold refuses
(:func:`praxis.core.gates.check_holds`) until an admin clears it (``ClearHold``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from praxis.core import values
from praxis.core.records import Hold, HoldKind
from praxis.store.controls import rows
from praxis.store.db import backup
from praxis.store.db.backup import BackupError, Manifest

ACTOR = "praxis-admin-restore"
"""``placed_by`` of the hold a restore places (docs/operations.md, "Backup and restore")."""


def hold_for(snapshot: Path, manifest: Manifest, now_ms: int) -> Hold:
    """The installation-wide restore hold for a restore of ``snapshot`` at ``now_ms``."""
    taken = datetime.fromtimestamp(manifest.taken_at_ms / 1000, UTC)
    reason = (
        f"restored from the snapshot {snapshot} taken at "
        f"{taken.isoformat(timespec='milliseconds')} (taken_at_ms {manifest.taken_at_ms}): "
        "check the restored state, then clear this hold"
    )
    return Hold(HoldKind.RESTORE, "", values.truncate_text(reason), now_ms, ACTOR)


def place(database_file: Path, hold: Hold) -> Hold:
    """Places ``hold`` in the SQLite file ``database_file``, which no server has open; the
    hold placed (an installation-wide restore hold the file already has stays as it is).

    Raises:
        BackupError: RESTORE_FAILED: the file could not be written.
    """
    try:
        with backup.offline_transaction(database_file) as connection:
            return rows.place_hold(connection, hold)
    except SQLAlchemyError as error:
        raise BackupError(
            "RESTORE_FAILED", f"cannot place the restore hold in {database_file}: {error}"
        ) from error


@dataclass
class RestoreHold:
    """A restore's ``prepare`` step that places the restore hold in its copy and keeps
    the hold it placed (``placed``) for the restore's report."""

    snapshot: Path
    now_ms: int
    placed: Hold | None = None

    def __call__(self, copy: Path, manifest: Manifest) -> None:
        self.placed = place(copy, hold_for(self.snapshot, manifest, self.now_ms))
