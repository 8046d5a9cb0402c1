"""Base against candidate as two aligned columns of indented JSON."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

MAX_LINES = 5_000


@dataclass(frozen=True)
class Row:
    """One aligned row: a line on each side (None when absent) and how it changed.

    ``kind`` is ``same``, ``changed``, ``added`` (only on the right) or ``removed``.
    """

    kind: str
    left_number: int | None
    left: str | None
    right_number: int | None
    right: str | None


@dataclass(frozen=True)
class Diff:
    """The aligned rows, and whether either side was cut at :data:`MAX_LINES`."""

    rows: tuple[Row, ...]
    truncated: bool
    additions: int
    removals: int


def pretty(document_json: str) -> str:
    """A JSON document indented with sorted keys (the text itself when it is not JSON)."""
    if not document_json:
        return ""
    try:
        return json.dumps(json.loads(document_json), indent=2, sort_keys=True, ensure_ascii=False)
    except ValueError:
        return document_json


def side_by_side(base_json: str, candidate_json: str) -> Diff:
    """Aligns the indented base and candidate line by line."""
    left = pretty(base_json).splitlines() if base_json else []
    right = pretty(candidate_json).splitlines() if candidate_json else []
    truncated = len(left) > MAX_LINES or len(right) > MAX_LINES
    left, right = left[:MAX_LINES], right[:MAX_LINES]
    rows: list[Row] = []
    additions = removals = 0
    matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [
                Row("same", i + 1, left[i], j + 1, right[j])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        removals += i2 - i1
        additions += j2 - j1
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            has_left, has_right = i < i2, j < j2
            kind = "changed" if has_left and has_right else ("removed" if has_left else "added")
            rows.append(
                Row(
                    kind,
                    i + 1 if has_left else None,
                    left[i] if has_left else None,
                    j + 1 if has_right else None,
                    right[j] if has_right else None,
                )
            )
    return Diff(tuple(rows), truncated, additions, removals)
