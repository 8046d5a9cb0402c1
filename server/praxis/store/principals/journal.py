"""The principal journal: revocations and rotations kept outside the database.

A restored backup brings back the ``principals`` table as it was when the snapshot was
taken. A principal revoked, or a token rotated, after that moment would be served again:
the old token would work. To keep such changes in force, every revocation and rotation
is also appended to a journal file that lives beside the database and outside any
snapshot (``principal_journal`` in the config, ``docs/operations.md#backup-and-restore``).
At every start the server re-applies the journal (:func:`replay`): an entry whose
principal is at an older version in the database is applied again, before anything is
served.

* An entry is appended (and fsynced) inside the change's transaction, before its
  commit: a crash between the two leaves an entry for a change that did not commit,
  and re-applying it errs on the side of refusing a credential (a rotation whose new
  token nobody received: rotate again), never of serving one.
* An entry names the principal's creation time, so a principal created after a restore
  under the id of one the snapshot never held is not touched by the old entries.
* Of several entries for one principal and version (a retried change), the last wins.
* Bound: one line (about 300 bytes) per revocation or rotation; it grows only with
  administrative changes. Lines older than the oldest backup kept may be removed.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from praxis.store.db.files import StorageError

log = logging.getLogger("praxis.store")

REVOKED, ROTATED = "REVOKED", "ROTATED"


@dataclass(frozen=True)
class Entry:
    """One revocation or rotation, as committed (or about to be) in the database."""

    principal_id: str
    kind: str  # REVOKED or ROTATED
    version: int  # the principal's version after the change
    created_at_ms: int  # the principal's creation time: which principal of that id
    token_sha256: str  # the token hash after the change (a rotation's new one)
    at_ms: int
    actor: str
    reason: str


class Journal:
    """An append-only JSON-lines file of :class:`Entry`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, entry: Entry) -> None:
        """Appends one entry and makes it durable (O_APPEND: one write per line).

        Raises:
            OSError: The journal cannot be written; the caller's change must not commit.
        """
        line = (json.dumps(asdict(entry), separators=(",", ":"), sort_keys=True) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if os.write(fd, line) != len(line):  # O_APPEND: a short write is an error here
                raise OSError(f"a short write to {self.path}")
            os.fsync(fd)
        finally:
            os.close(fd)

    def entries(self) -> list[Entry]:
        """Every entry in order; a torn last line (a crash mid-append) is skipped.

        Raises:
            StorageError: A line other than the last is not a journal entry (the server
                refuses to start, STORAGE_MISMATCH: a damaged journal is never ignored).
        """
        try:
            lines = self.path.read_bytes().splitlines()
        except FileNotFoundError:
            return []
        found: list[Entry] = []
        for number, raw in enumerate(lines, 1):
            try:
                data = json.loads(raw)
                entry = Entry(**data)
                if entry.kind not in (REVOKED, ROTATED):
                    raise ValueError(f"unknown kind {entry.kind!r}")
            except (ValueError, TypeError) as error:
                if number == len(lines):
                    log.warning("principal journal: torn last line skipped", extra={"line": number})
                    break
                raise StorageError(
                    f"{self.path}: line {number} is not a principal journal entry: {error}"
                ) from error
            found.append(entry)
        return found


def pending(entries: list[Entry]) -> list[Entry]:
    """The entries to consider in order: of several for one (principal, creation,
    version), only the last."""
    last: dict[tuple[str, int, int], int] = {}
    for index, entry in enumerate(entries):
        last[(entry.principal_id, entry.created_at_ms, entry.version)] = index
    return [entries[index] for index in sorted(last.values())]
