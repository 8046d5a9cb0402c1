"""``praxis admin``: local administration of a data directory.

``praxis admin backup --to FILE`` snapshots the SQLite database of a data directory
while its server runs; ``praxis admin restore --from FILE`` puts a snapshot back into a
stopped data directory (:mod:`praxis.store.db.backup`; docs/operations.md, "Backup and
restore"). They read the files directly, so they run on the server's machine, as the
user that runs it. Output: one JSON document on stdout; a failure is one line
``error: <REASON>: <message>`` on stderr, exit 2 (cannot succeed as asked), 6
(SERVER_RUNNING: may succeed once the server is stopped) or 1 (an I/O error).
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import metadata
from pathlib import Path

from praxis.serve import config as config_module
from praxis.serve import startup
from praxis.store.db import backup, files
from praxis.store.schema import MIGRATIONS

_EXIT = {"SERVER_RUNNING": 6, "BACKUP_FAILED": 1, "RESTORE_FAILED": 1}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="praxis admin", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="action", required=True)
    for name, text in (
        ("backup", "snapshot the database while the server serves it"),
        ("restore", "restore a snapshot into a stopped data directory"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument(
            "--config", type=Path, help="config file (default: <data-dir>/config.json)"
        )
        sub.add_argument("--data-dir", type=Path, default=config_module.DEFAULT_DATA_DIR)
        sub.add_argument("--database-url", help="SQLAlchemy URL overriding the config's")
    commands.choices["backup"].add_argument(
        "--to", type=Path, required=True, metavar="FILE", help="the snapshot to write"
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
    return parser


def server_version() -> str:
    """The installed version of Praxis."""
    try:
        return metadata.version("praxis-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def _database(args: argparse.Namespace) -> Path:
    """The SQLite file of the data directory.

    Raises:
        backup.BackupError: CONFIG_INVALID, or NOT_SQLITE (PostgreSQL has its own tools).
    """
    url = args.database_url
    if url is None:
        path = args.config or args.data_dir / "config.json"
        try:
            url = config_module.load(path).database_url
        except (OSError, ValueError, KeyError) as error:
            raise backup.BackupError("CONFIG_INVALID", f"{path}: {error}") from error
    database = files.sqlite_path(url)
    if database is None:
        raise backup.BackupError(
            "NOT_SQLITE",
            f"{startup.without_password(url)} is not a SQLite file: back up and restore "
            "PostgreSQL with pg_dump or point-in-time recovery (docs/operations.md)",
        )
    return database


def main(argv: list[str]) -> int:
    """Runs ``praxis admin ...``; returns the exit code."""
    args = _parser().parse_args(argv)
    now_ms = int(time.time() * 1000)
    try:
        database = _database(args)
        if args.action == "backup":
            manifest = backup.backup(database, args.to, server_version(), now_ms)
            result = {"snapshot": str(args.to), "manifest": json.loads(manifest.to_json())}
        else:
            newest = MIGRATIONS[-1].version
            manifest, aside = backup.restore(
                args.source, database, newest, now_ms, args.allow_other_installation
            )
            result = {
                "restored": str(database),
                "previous": str(aside) if aside else None,
                "manifest": json.loads(manifest.to_json()),
            }
    except backup.BackupError as error:
        return startup.report(error.reason, str(error), _EXIT.get(error.reason, 2))
    print(json.dumps(result, sort_keys=True), flush=True)
    return 0
