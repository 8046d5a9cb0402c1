"""Archive files: JSON lines, gzip-compressed, one file per UTC day of archiving.

``<archive dir>/runs-YYYY-MM-DD.jsonl.gz`` holds one line per archived run::

    {"run_id": ..., "work_order_id": ..., "status": ..., "finished_at_ms": ...,
     "archived_at_ms": ..., "digest": "sha256:...", "tables": {"runs": [{...}], ...}}

``tables`` holds every row the run had in each archived table, column by column;
``digest`` is :func:`praxis.core.retention.run_digest` of the run id and ``tables``, also
kept in the run's tombstone (``archived_runs``, which names no file: the file is the day
of its ``archived_at_ms``), so a line can be verified on its own and against the
database. Each archiving batch appends one gzip member (a valid gzip file
may hold several; ``gzip -dc`` reads them all) and fsyncs it before the rows are
deleted. A crash between the two leaves lines whose runs were not deleted: the next
batch archives them again; verification reports such lines as ``without_tombstone``.
"""

from __future__ import annotations

import gzip
import json
import os
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from praxis.core.retention import run_digest

PREFIX, SUFFIX = "runs-", ".jsonl.gz"


def period_name(now_ms: int) -> str:
    """The archive file of the UTC day of ``now_ms``."""
    return PREFIX + time.strftime("%Y-%m-%d", time.gmtime(now_ms / 1000)) + SUFFIX


def append(directory: Path, name: str, lines: list[dict[str, Any]]) -> None:
    """Appends one gzip member of ``lines`` to ``directory/name`` and makes it durable.

    Raises:
        OSError: It could not be written; nothing may be deleted.
    """
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    text = "".join(
        json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
        for line in lines
    )
    member = gzip.compress(text.encode("utf-8"), mtime=0)
    fd = os.open(directory / name, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        view = memoryview(member)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Iterator[dict[str, Any]]:
    """The lines of an archive file in order.

    Raises:
        ValueError: The file is damaged (a torn or corrupt member, a line that is not
            JSON); the lines before it were yielded.
    """
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    yield json.loads(raw)
                except ValueError as error:
                    raise ValueError(f"{path.name}: line {number} is not JSON") from error
    except (EOFError, OSError, zlib.error) as error:
        raise ValueError(f"{path.name}: damaged: {error}") from error


@dataclass(frozen=True)
class ArchiveFile:
    """One archive file, as listed."""

    name: str
    size_bytes: int
    lines: int
    first_archived_at_ms: int
    last_archived_at_ms: int
    problem: str = ""


def files(directory: Path) -> list[Path]:
    """The archive files of ``directory``, oldest first."""
    if not directory.is_dir():
        return []
    return sorted(
        p for p in directory.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX)
    )


def describe(path: Path) -> ArchiveFile:
    """What ``path`` holds (a damaged file is listed with its problem)."""
    count, first, last, problem = 0, 0, 0, ""
    try:
        for line in read(path):
            count += 1
            at = int(line.get("archived_at_ms", 0))
            first = at if not first else min(first, at)
            last = max(last, at)
    except ValueError as error:
        problem = str(error)
    return ArchiveFile(path.name, path.stat().st_size, count, first, last, problem)


@dataclass
class Verification:
    """The result of verifying one archive file."""

    name: str
    lines: int = 0
    verified: int = 0  # runs whose line's digest matches its rows and the run's tombstone
    # Lines whose digest matches their rows but that no tombstone names: a batch archived
    # again after a crash, or a tombstone expired (keep_archived_ms).
    without_tombstone: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No line failed."""
        return not self.problems


Tombstone = tuple[str, str]  # (archive file name, digest)


def verify(path: Path, tombstone_of: Callable[[str], Tombstone | None]) -> Verification:
    """Recomputes every line's digest and checks it against the line and against its run's
    tombstone in the database (``tombstone_of``)."""
    result = Verification(path.name)
    digests: dict[str, set[str]] = {}
    try:
        for line in read(path):
            result.lines += 1
            run_id = str(line.get("run_id", ""))
            stored = str(line.get("digest", ""))
            if run_digest(run_id, line.get("tables", {})) != stored:
                result.problems.append(f"{run_id}: its rows do not match its digest {stored}")
                continue
            digests.setdefault(run_id, set()).add(stored)
    except ValueError as error:
        result.problems.append(str(error))
    for run_id, found in digests.items():
        tombstone = tombstone_of(run_id)
        if tombstone is None or tombstone[0] != path.name:
            result.without_tombstone += len(found)
        elif tombstone[1] in found:
            result.verified += 1
            result.without_tombstone += len(found) - 1
        else:
            result.problems.append(f"{run_id}: no line has its tombstone's digest {tombstone[1]}")
    return result
