"""Schedules: which of a schedule's times start a run, and the material a human approves
for a schedule of a ref.

A schedule keeps a cursor, ``next_ms``: its first time not yet handled. The sweeper at
``now`` takes the times in ``[next_ms, now]`` one :func:`step` at a time: those fallen
longer ago than the catch-up window are missed (counted, never started), the others are
taken in order, and the overlap policy (:func:`overlap`) decides for each whether it
starts a run, given whether the run the schedule started last is still running.

Every start's request id is :func:`request_id` of the schedule and the time, so a time
handled twice (two processes, a crash between the start and the cursor's advance) starts
one run.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from praxis.core import calendar as calendars
from praxis.core import values
from praxis.core.records import Epochs, Ref

DEFAULT_CATCHUP_WINDOW_MS = 60_000
MAX_CATCHUP_WINDOW_MS = 366 * 24 * 3600 * 1000
MAX_STEPS_PER_PASS = 100
"""At most this many steps of one schedule are taken by one sweep (the rest: the next)."""
MAX_MISSED_COUNTED = 10_000
"""Missed times are counted one by one up to this many per pass; past it the cursor jumps
to the catch-up window and the count says at least this many."""
MAX_BACKFILL_TIMES = 100


class Overlap(enum.Enum):
    """What a time does while the schedule's last run is still running."""

    SKIP = 1
    BUFFER_ONE = 2
    ALLOW_ALL = 3
    CANCEL_OTHER = 4


class State(enum.Enum):
    """A schedule's lifecycle."""

    ACTIVE = 1
    PAUSED = 2
    DELETED = 3


class Action(enum.Enum):
    """What one time does."""

    START = "start"
    SKIP = "skip"
    BUFFER = "buffer"
    CANCEL_AND_START = "cancel_and_start"


def overlap(policy: Overlap, running: bool, buffered_ms: int) -> Action:
    """The action of a time that falls while the last run is ``running`` (or not)."""
    if not running or policy is Overlap.ALLOW_ALL:
        return Action.START
    if policy is Overlap.CANCEL_OTHER:
        return Action.CANCEL_AND_START
    if policy is Overlap.BUFFER_ONE and not buffered_ms:
        return Action.BUFFER
    return Action.SKIP


@dataclass(frozen=True)
class Step:
    """What one step of a schedule does (:func:`step`).

    Attributes:
        scheduled_ms: The time it handles (0: none, only missed times were passed).
        action: What that time does (None with ``scheduled_ms`` 0).
        missed: Times passed beyond the catch-up window before it.
        next_ms: The cursor after the step (0: no time is left).
        buffered_ms: The time kept after the step (0: none).
        from_buffer: The time handled is the buffered one.
    """

    scheduled_ms: int
    action: Action | None
    missed: int
    next_ms: int
    buffered_ms: int
    from_buffer: bool = False


def step(spec: Spec, next_ms: int, buffered_ms: int, now: int, running: bool) -> Step | None:
    """The next step of a schedule at ``now``, or None when nothing is due.

    A buffered time starts first, once the last run has ended. Then the cursor's time:
    fallen longer ago than the catch-up window, it is missed (and so are the next ones
    until one is within the window); within it, the overlap policy decides.
    """
    if buffered_ms and not running:
        return Step(buffered_ms, Action.START, 0, next_ms, 0, from_buffer=True)
    calendar, oldest = spec.calendar, now - spec.window_ms
    missed, at = 0, next_ms
    while at and at < oldest:
        missed += 1
        if missed >= MAX_MISSED_COUNTED:
            at = calendars.first_at_or_after(calendar, oldest)
            break
        at = calendars.first_at_or_after(calendar, at + 1)
    if not at or at > now:
        return Step(0, None, missed, at, buffered_ms) if missed else None
    action = overlap(spec.overlap, running, buffered_ms)
    kept = at if action is Action.BUFFER else buffered_ms
    return Step(at, action, missed, calendars.first_at_or_after(calendar, at + 1), kept)


def request_id(schedule_id: str, scheduled_ms: int) -> str:
    """The StartRun request id of a schedule's time: one run per time, wherever started."""
    return f"schedule:{schedule_id}:{scheduled_ms}"


@dataclass(frozen=True)
class Spec:
    """What a schedule starts and when (the wire's ScheduleSpec, decoded)."""

    schedule_id: str
    calendar: calendars.Calendar
    overlap: Overlap
    catchup_window_ms: int
    definition_json: str = ""
    ref: Ref | None = None
    input_json: str = ""
    work_order_id: str = ""
    run_timeout_ms: int = 0

    @property
    def window_ms(self) -> int:
        """The catch-up window in force (0 means the default)."""
        return self.catchup_window_ms or DEFAULT_CATCHUP_WINDOW_MS

    def digest(self) -> str:
        """What a repeated CreateSchedule of the same schedule id must repeat."""
        return values.digest(
            {
                "schedule_id": self.schedule_id,
                "calendar": dict(self.calendar.document()),
                "overlap": self.overlap.name,
                "catchup_window_ms": self.window_ms,
                "definition": self.definition_json,
                "ref": [self.ref.work_order_id, self.ref.run_id] if self.ref else ["", ""],
                "input": self.input_json,
                "work_order_id": self.work_order_id,
                "run_timeout_ms": self.run_timeout_ms,
            }
        )


@dataclass(frozen=True)
class Material:
    """The exact subject of a human's approval of a schedule of a ref."""

    epochs: Epochs
    spec: Spec
    work_order_id: str
    revision: int
    definition_digest: str
    input_digest: str

    def document(self) -> dict[str, values.JsonValue]:
        """The material as a document (what the digest covers)."""
        spec = self.spec
        assert spec.ref is not None
        return {
            "action": "CREATE_SCHEDULE",
            "installation_id": self.epochs.installation_id,
            "ownership_epoch": self.epochs.ownership_epoch,
            "authority_epoch": self.epochs.authority_epoch,
            "work_order_id": self.work_order_id,
            "schedule_id": spec.schedule_id,
            "ref": [spec.ref.work_order_id, spec.ref.run_id],
            "revision": self.revision,
            "definition_digest": self.definition_digest,
            "input_digest": self.input_digest,
            "calendar": dict(spec.calendar.document()),
            "overlap": spec.overlap.name,
            "catchup_window_ms": spec.window_ms,
            "run_timeout_ms": spec.run_timeout_ms,
        }

    def digest(self) -> str:
        """What CreateApproval approves."""
        return values.digest(self.document())
