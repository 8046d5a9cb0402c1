"""Segments: a run's continuation boundaries.

A run begins in segment 1. Recovery after a restart or crash, and a change of owner
(the work order's ownership epoch advancing), each start a new segment.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass


class Reason(enum.Enum):
    """Why a segment began."""

    START = "START"
    RECOVERY = "RECOVERY"
    OWNER_CHANGE = "OWNER_CHANGE"


@dataclass(frozen=True)
class Segment:
    """One continuation of a run."""

    number: int
    reason: Reason
    started_at_ms: int
    ownership_epoch: int
    incarnation: str = ""


def begin(
    segments: Sequence[Segment], reason: Reason, now_ms: int, epoch: int, incarnation: str
) -> Segment | None:
    """The next segment, or ``None`` when this incarnation and epoch already have one."""
    if segments:
        last = segments[-1]
        if reason is Reason.RECOVERY and last.incarnation == incarnation:
            return None
        if reason is Reason.OWNER_CHANGE and last.ownership_epoch >= epoch:
            return None
    return Segment(len(segments) + 1, reason, now_ms, epoch, incarnation)
