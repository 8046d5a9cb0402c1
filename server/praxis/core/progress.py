"""Progress a worker reports while it works: checked here, kept by the store.

A worker sends a :class:`Report` with a heartbeat (``HeartbeatRequest.progress``): a
short text, a small JSON value, or both. The store keeps only the latest report of each
attempt (:mod:`praxis.store.runtime.rows.progress`), so reports never grow the run's logs;
this module holds their bounds and the one check a report passes before it is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from praxis.core import values
from praxis.core.rejection import Rejection

MAX_TEXT_BYTES = 512
"""The cap on a report's text, in UTF-8 bytes (TEXT_TOO_LONG past it)."""
MAX_DATA_BYTES = 1024
"""The cap on a report's ``data_json``, in bytes (DOCUMENT_TOO_LARGE past it)."""
DATA_PROFILE = values.DocumentProfile(max_bytes=MAX_DATA_BYTES, max_depth=16)


@dataclass(frozen=True)
class Report:
    """One checked progress report: its text and its data as canonical JSON."""

    text: str
    data_json: str


@dataclass(frozen=True)
class Progress:
    """The latest report of an attempt, as stored.

    Attributes:
        attempt_id: The attempt that reported it.
        text: The report's text ("" when none).
        data_json: Its data as canonical JSON ("" when none).
        reported_at_ms: When the server recorded it.
        reports: How many reports the attempt made so far.
    """

    attempt_id: str
    text: str
    data_json: str
    reported_at_ms: int
    reports: int


def check(text: str, data_json: str, field_path: str = "progress") -> Report | Rejection:
    """The report of ``text`` and ``data_json``, or why it is refused.

    Args:
        text: The report's text: at most :data:`MAX_TEXT_BYTES` UTF-8 bytes.
        data_json: One JSON value under the bounded profile, at most
            :data:`MAX_DATA_BYTES` bytes; "" for none. Kept in canonical form.
        field_path: The request field holding the report, for violations.
    """
    problem = values.check_text(text, f"{field_path}.text", MAX_TEXT_BYTES)
    if problem:
        return problem
    if not data_json:
        return Report(text, "")
    data = values.parse_document(data_json, f"{field_path}.data_json", DATA_PROFILE)
    if isinstance(data, Rejection):
        return data
    return Report(text, values.canonical_json(data))
