"""Online backup and restore of a SQLite database (``praxis admin backup|restore``).

A backup is two files: the snapshot ``FILE`` (a self-contained SQLite database, rollback
journal mode) and ``FILE.manifest.json`` (:class:`Manifest`: server and schema version,
installation id, time, the snapshot's size and SHA-256, row counts per table).

* :func:`backup` copies a serving database with SQLite's online backup API in one step:
  one read transaction, so the copy is the database as of one commit, and in WAL mode
  the server's writers go on meanwhile. The copy is checked (``integrity_check``, its
  schema version and installation id) before the manifest is written, and renamed
  into place only then: a failed backup leaves no file that looks like one.
* :func:`restore` verifies a snapshot against its manifest and refuses a schema newer
  than the server's (the server could not serve it) and, unless told, another
  installation's snapshot. It replaces the database only while no process has it open
  (:class:`~praxis.store.db.files.ServingLock`), moving the current file (and its WAL)
  aside as ``<db>.before-restore-<ms>``, never deleting it. A ``prepare`` step may write
  into the checked copy (``<db>.restoring``) before it is swapped in: the restore hold
  (:mod:`praxis.store.controls.restore_hold`) is there from the restored file's first
  moment.

Principals revoked or rotated after the snapshot stay so: the principal journal, kept
outside the snapshot, is re-applied at the next start
(:mod:`praxis.store.principals.journal`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sqlalchemy.engine import Connection

from praxis.store.db import dialect
from praxis.store.db.files import MARKER_SUFFIX, ServingLock, StorageError

FORMAT = 1
MANIFEST_SUFFIX = ".manifest.json"
_CHUNK = 1 << 20


class BackupError(Exception):
    """A backup or restore that cannot be done; ``reason`` is the CLI's error reason."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Manifest:
    """What a snapshot holds (``FILE.manifest.json``)."""

    server_version: str
    schema_version: int
    installation_id: str
    taken_at_ms: int
    size_bytes: int
    sha256: str
    counts: dict[str, int] = field(default_factory=dict)
    format: int = FORMAT

    def to_json(self) -> str:
        """The manifest's file text."""
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"


def manifest_path(snapshot: Path) -> Path:
    """Where the manifest of ``snapshot`` lives."""
    return snapshot.with_name(snapshot.name + MANIFEST_SUFFIX)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_file(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)


@dataclass(frozen=True)
class _Inspection:
    schema_version: int
    installation_id: str
    counts: dict[str, int]


def _inspect(path: Path) -> _Inspection:
    """Checks a database file (``integrity_check``) and reads what a manifest says of it.

    Raises:
        BackupError: SNAPSHOT_INVALID: not a sound Praxis database.
    """
    try:
        connection = sqlite3.connect(dialect.sqlite_uri(path, "ro"), uri=True)
    except sqlite3.Error as error:
        raise BackupError("SNAPSHOT_INVALID", f"{path} cannot be opened: {error}") from error
    try:
        problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupError(
                "SNAPSHOT_INVALID", f"{path} fails integrity_check: {'; '.join(problems[:5])}"
            )
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        if "schema_migrations" not in tables or "meta" not in tables:
            raise BackupError("SNAPSHOT_INVALID", f"{path} is not a Praxis database")
        version = connection.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
        found = connection.execute(
            "SELECT value FROM meta WHERE key = 'installation_id'"
        ).fetchone()
        counts = {
            name: int(connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0])
            for name in tables
        }
    except sqlite3.DatabaseError as error:
        raise BackupError("SNAPSHOT_INVALID", f"{path} is not a database: {error}") from error
    finally:
        connection.close()
    return _Inspection(int(version or 0), found[0] if found else "", counts)


def backup(source: Path, target: Path, server_version: str, now_ms: int) -> Manifest:
    """Takes a consistent snapshot of ``source`` (serving or not) into ``target``.

    Raises:
        BackupError: NO_DATABASE, TARGET_EXISTS, SNAPSHOT_INVALID (the copy failed its
            check), or BACKUP_FAILED (an I/O error).
    """
    if not source.is_file():
        raise BackupError("NO_DATABASE", f"there is no database file at {source}")
    if target.exists() or manifest_path(target).exists():
        raise BackupError("TARGET_EXISTS", f"{target} (or its manifest) exists; choose another")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        # The copy is the whole database: 0600 from its first byte, whatever the umask
        # (SQLite opens an existing empty file as an empty database, and makes its
        # journal with the file's mode).
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)  # exactly, under any umask
        finally:
            os.close(fd)
        # Never creates the source (it exists); reads only. One step: one read transaction.
        origin = sqlite3.connect(dialect.sqlite_uri(source, "rw"), uri=True, timeout=30)
        try:
            copy = sqlite3.connect(partial)
            try:
                origin.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                copy.close()
        finally:
            origin.close()
        _fsync(partial)
        found = _inspect(partial)
        manifest = Manifest(
            server_version=server_version,
            schema_version=found.schema_version,
            installation_id=found.installation_id,
            taken_at_ms=now_ms,
            size_bytes=partial.stat().st_size,
            sha256=_sha256(partial),
            counts=found.counts,
        )
        os.replace(partial, target)
        _write_file(manifest_path(target), manifest.to_json())
        _fsync(target.parent)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError("BACKUP_FAILED", f"cannot copy {source}: {error}") from error
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise BackupError("BACKUP_FAILED", f"cannot write {target}: {error}") from error
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    return manifest


def read_manifest(snapshot: Path) -> Manifest:
    """The manifest of ``snapshot``.

    Raises:
        BackupError: MANIFEST_INVALID: missing, unreadable or of an unknown format.
    """
    path = manifest_path(snapshot)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        manifest = Manifest(**data)
    except (OSError, ValueError, TypeError) as error:
        raise BackupError("MANIFEST_INVALID", f"{path}: {error}") from error
    if manifest.format != FORMAT:
        raise BackupError(
            "MANIFEST_INVALID", f"{path}: format {manifest.format} is not {FORMAT}: upgrade"
        )
    return manifest


def verify(snapshot: Path) -> Manifest:
    """Checks ``snapshot`` against its manifest: size, digest, integrity, schema version
    and installation id.

    Raises:
        BackupError: MANIFEST_INVALID or SNAPSHOT_INVALID.
    """
    manifest = read_manifest(snapshot)
    if not snapshot.is_file():
        raise BackupError("SNAPSHOT_INVALID", f"there is no snapshot file at {snapshot}")
    if snapshot.stat().st_size != manifest.size_bytes or _sha256(snapshot) != manifest.sha256:
        raise BackupError(
            "SNAPSHOT_INVALID", f"{snapshot} does not match its manifest's size and digest"
        )
    found = _inspect(snapshot)
    if (found.schema_version, found.installation_id) != (
        manifest.schema_version,
        manifest.installation_id,
    ):
        raise BackupError("SNAPSHOT_INVALID", f"{snapshot} is not what its manifest describes")
    return manifest


def _installation_of(database: Path) -> str | None:
    """The installation the data directory holds: its file's, else its marker's."""
    if database.is_file():
        try:
            return _inspect(database).installation_id
        except BackupError:
            pass  # a damaged file: the marker says which installation it was
    marker = database.with_name(database.name + MARKER_SUFFIX)
    if marker.is_file():
        return marker.read_text(encoding="utf-8").strip()
    return None


Prepare = Callable[[Path, Manifest], None]
"""Writes into a restore's checked copy (its path; the snapshot's manifest) before the
copy replaces the database; raises :class:`BackupError` or ``OSError`` to abandon it."""


def restore(
    snapshot: Path,
    database: Path,
    newest_schema: int,
    now_ms: int,
    allow_other_installation: bool = False,
    prepare: Prepare | None = None,
) -> tuple[Manifest, Path | None]:
    """Replaces ``database`` by ``snapshot``; returns the manifest and where the previous
    file was moved (``None`` when there was none). ``prepare``, if given, writes into the
    copy first (under the same exclusive lock); when it fails nothing is replaced.

    Raises:
        BackupError: MANIFEST_INVALID, SNAPSHOT_INVALID, SCHEMA_NEWER (the snapshot's
            schema is newer than ``newest_schema``), INSTALLATION_MISMATCH (another
            installation's, without ``allow_other_installation``), SERVER_RUNNING, or
            RESTORE_FAILED (an I/O error; the previous file is left in place).
    """
    manifest = verify(snapshot)
    if manifest.schema_version > newest_schema:
        raise BackupError(
            "SCHEMA_NEWER",
            f"the snapshot's schema is version {manifest.schema_version}, newer than this "
            f"server's ({newest_schema}): restore it with Praxis {manifest.server_version} "
            "or later",
        )
    current = _installation_of(database)
    if current and current != manifest.installation_id and not allow_other_installation:
        raise BackupError(
            "INSTALLATION_MISMATCH",
            f"the snapshot holds installation {manifest.installation_id!r} but {database} "
            f"holds {current!r}; pass --allow-other-installation to replace it anyway",
        )
    lock = ServingLock(database)
    try:
        lock.exclusive()
    except StorageError as error:
        raise BackupError("SERVER_RUNNING", str(error)) from error
    try:
        return manifest, _replace(snapshot, database, manifest, now_ms, prepare)
    except OSError as error:
        raise BackupError("RESTORE_FAILED", f"cannot restore into {database}: {error}") from error
    finally:
        lock.release()


def _discard(incoming: Path, with_copy: bool = True) -> None:
    """Removes a restore's copy and its journals. A restore that died while preparing its
    copy may have left the copy's journal: a hot journal beside a fresh copy would be
    rolled back into it."""
    for suffix in ("-journal", "-wal", "-shm", *(("",) if with_copy else ())):
        incoming.with_name(incoming.name + suffix).unlink(missing_ok=True)


def _replace(
    snapshot: Path, database: Path, manifest: Manifest, now_ms: int, prepare: Prepare | None
) -> Path | None:
    database.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    incoming = database.with_name(database.name + ".restoring")
    _discard(incoming, with_copy=False)
    fd = os.open(incoming, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out, snapshot.open("rb") as source:
        while chunk := source.read(_CHUNK):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    if _sha256(incoming) != manifest.sha256:
        incoming.unlink()
        raise OSError(f"the copy of {snapshot} does not match its manifest")
    if prepare is not None:
        try:
            prepare(incoming, manifest)
            _fsync(incoming)
        except BaseException:
            _discard(incoming)
            raise
    aside: Path | None = None
    # Every file of the current database moves aside (a WAL left behind would be replayed
    # into the restored file), the database first; a crash midway leaves no database
    # file, which the marker makes a refusal to start, and running restore again finishes.
    for suffix in ("", "-wal", "-shm"):
        current = database.with_name(database.name + suffix)
        if current.exists():
            aside = aside or database.with_name(f"{database.name}.before-restore-{now_ms}")
            os.replace(current, aside.with_name(aside.name + suffix))
    os.replace(incoming, database)
    _write_file(database.with_name(database.name + MARKER_SUFFIX), manifest.installation_id + "\n")
    _fsync(database.parent)
    return aside


@contextmanager
def offline_transaction(copy: Path) -> Iterator[Connection]:
    """One write transaction on a restore's copy ``copy`` (a SQLite file no server has
    open: :func:`praxis.store.db.dialect.offline_sqlite_engine`), committed when the
    block ends; the engine is disposed of either way."""
    engine = dialect.offline_sqlite_engine(copy)
    try:
        with engine.begin() as connection:
            yield connection
    finally:
        engine.dispose()
