"""``praxis admin``: local administration of a data directory.

``praxis admin backup --to FILE`` snapshots the SQLite database of a data directory
while its server runs; ``praxis admin restore --from FILE`` puts a snapshot back into a
stopped data directory and places an installation-wide restore hold in it, unless
``--no-hold`` (:mod:`praxis.store.db.backup`, :mod:`praxis.store.controls.restore_hold`;
docs/operations.md, "Backup and restore"). ``praxis admin archive list|verify`` lists
the archive files of the retention policy and verifies every archived run against its
digest and its tombstone (:mod:`praxis.store.retention`). They read the files
directly, so they run on the server's machine, as the user that runs it. Output: one
JSON document on stdout; a failure is one line ``error: <REASON>: <message>`` on stderr,
exit 2 (cannot succeed as asked), 6 (SERVER_RUNNING: may succeed once the server is
stopped) or 1 (an I/O error, or ARCHIVE_INVALID: an archive that fails verification).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

from praxis.clock import SystemClock
from praxis.core.records import Hold
from praxis.serve import config as config_module
from praxis.serve import startup
from praxis.store.controls.restore_hold import RestoreHold
from praxis.store.db import backup, files
from praxis.store.db.database import Database
from praxis.store.retention import archive
from praxis.store.retention.store import ArchiveStore
from praxis.store.schema import MIGRATIONS

_EXIT = {"SERVER_RUNNING": 6, "BACKUP_FAILED": 1, "RESTORE_FAILED": 1, "ARCHIVE_INVALID": 1}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="praxis admin",
        description=__doc__.splitlines()[0],
        epilog="Remote, over AdminService (docs/cli.md): 'praxis admin reload' re-reads the "
        "server's config.json and applies it live on every process; 'praxis admin config' "
        "shows the version each process serves and the latest reloads.",
    )
    commands = parser.add_subparsers(dest="action", required=True)
    archives = commands.add_parser(
        "archive", help="list or verify the archive files of the retention policy"
    ).add_subparsers(dest="archive_action", required=True)
    for name, text in (
        ("backup", "snapshot the database while the server serves it"),
        ("restore", "restore a snapshot into a stopped data directory"),
        ("list", "list the archive files: name, size, runs, first and last archiving"),
        ("verify", "verify archived runs against their digests and tombstones"),
    ):
        where = archives if name in ("list", "verify") else commands
        sub = where.add_parser(name, help=text, description=text)
        sub.add_argument(
            "--config", type=Path, help="config file (default: <data-dir>/config.json)"
        )
        sub.add_argument("--data-dir", type=Path, default=config_module.DEFAULT_DATA_DIR)
        sub.add_argument("--database-url", help="SQLAlchemy URL overriding the config's")
    commands.choices["backup"].add_argument(
        "--to", type=Path, required=True, metavar="FILE", help="the snapshot to write"
    )
    archives.choices["verify"].add_argument(
        "names", nargs="*", metavar="FILE", help="archive file names (default: every one)"
    )
    restore = commands.choices["restore"]
    restore.add_argument(
        "--from", dest="source", type=Path, required=True, metavar="FILE", help="the snapshot"
    )
    restore.add_argument(
        "--allow-other-installation",
        action="store_true",
        help="restore a snapshot of another installation over this one",
    )
    restore.add_argument(
        "--no-hold",
        action="store_true",
        help="place no restore hold (by default the restored database holds one, placed "
        "by praxis-admin-restore, until an admin clears it)",
    )
    return parser


def server_version() -> str:
    """The installed version of Praxis."""
    try:
        return metadata.version("praxis-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def _config(args: argparse.Namespace) -> config_module.Config:
    path = args.config or args.data_dir / "config.json"
    try:
        return config_module.load(path)
    except (OSError, ValueError, KeyError) as error:
        raise backup.BackupError("CONFIG_INVALID", f"{path}: {error}") from error


def _archive(args: argparse.Namespace) -> tuple[dict[str, Any], bool]:
    """``archive list`` or ``archive verify``: the JSON result and whether it is sound."""
    config = _config(args)
    url = args.database_url or config.database_url
    directory = config.archive_dir or Path(config.retention.archive_dir)
    paths = archive.files(directory)
    if args.archive_action == "list":
        described = [asdict(archive.describe(path)) for path in paths]
        return {"archive_dir": str(directory), "files": described}, True
    if args.names:
        paths = [directory / name for name in args.names]
        missing = [str(path) for path in paths if not path.is_file()]
        if missing:
            raise backup.BackupError("ARCHIVE_NOT_FOUND", f"no archive file {missing[0]}")
    sqlite = files.sqlite_path(url)
    if sqlite is not None and not sqlite.is_file():
        raise backup.BackupError("NO_DATABASE", f"there is no database file at {sqlite}")
    db = Database(url, pool_size=2)
    try:
        store = ArchiveStore(db, SystemClock(), config.retention, directory)
        checked = [archive.verify(path, store.tombstone) for path in paths]
    finally:
        db.close()
    sound = all(result.ok for result in checked)
    return {
        "archive_dir": str(directory),
        "ok": sound,
        "files": [{**asdict(result), "ok": result.ok} for result in checked],
    }, sound


def _database(args: argparse.Namespace) -> Path:
    """The SQLite file of the data directory.

    Raises:
        backup.BackupError: CONFIG_INVALID, or NOT_SQLITE (PostgreSQL has its own tools).
    """
    url = args.database_url or _config(args).database_url
    database = files.sqlite_path(url)
    if database is None:
        raise backup.BackupError(
            "NOT_SQLITE",
            f"{startup.without_password(url)} is not a SQLite file: back up and restore "
            "PostgreSQL with pg_dump or point-in-time recovery (docs/operations.md)",
        )
    return database


def _hold_json(hold: Hold | None) -> dict[str, Any] | None:
    if hold is None:
        return None
    return {
        "kind": hold.kind.value,
        "work_order_id": hold.work_order_id,
        "reason": hold.reason,
        "placed_at_ms": hold.placed_at_ms,
        "placed_by": hold.placed_by,
    }


def _restore(args: argparse.Namespace, database: Path, now_ms: int) -> dict[str, Any]:
    """``restore``: the snapshot in place, with its restore hold unless ``--no-hold``."""
    hold = None if args.no_hold else RestoreHold(args.source.resolve(), now_ms)
    manifest, aside = backup.restore(
        args.source,
        database,
        MIGRATIONS[-1].version,
        now_ms,
        args.allow_other_installation,
        prepare=hold,
    )
    return {
        "restored": str(database),
        "previous": str(aside) if aside else None,
        "manifest": json.loads(manifest.to_json()),
        "hold": _hold_json(hold.placed if hold else None),
    }


def main(argv: list[str]) -> int:
    """Runs ``praxis admin ...``; returns the exit code."""
    args = _parser().parse_args(argv)
    now_ms = int(time.time() * 1000)
    try:
        if args.action == "archive":
            result, sound = _archive(args)
            print(json.dumps(result, sort_keys=True), flush=True)
            if not sound:
                return startup.report(
                    "ARCHIVE_INVALID", "an archive failed verification (see its problems)", 1
                )
            return 0
        database = _database(args)
        if args.action == "backup":
            manifest = backup.backup(database, args.to, server_version(), now_ms)
            result = {"snapshot": str(args.to), "manifest": json.loads(manifest.to_json())}
        else:
            result = _restore(args, database, now_ms)
    except backup.BackupError as error:
        return startup.report(error.reason, str(error), _EXIT.get(error.reason, 2))
    print(json.dumps(result, sort_keys=True), flush=True)
    return 0
