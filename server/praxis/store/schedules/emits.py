"""The events the schedules emit, that others react to (``praxis.app.reactions``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Observed:
    """What the sweeper did with one due time of a schedule, published after the commit
    that recorded it (once per time missed too): ``outcome`` (``started``, ``skipped``,
    ``buffered``, ``missed``, ``failed``) and how late it was."""

    outcome: str
    late_ms: int = 0
