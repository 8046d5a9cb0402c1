"""When a schedule's times fall: a cron expression in a time zone, or a fixed interval.

Cron expressions are read by ``croniter`` (a maintained library; no cron parser of our
own). It is pure computation over its arguments: no clock read, no I/O beyond the time
zone database of ``zoneinfo``. A wall-clock time that a daylight-saving change skips
falls at the first instant after the gap; one that it repeats falls at both instants
(croniter's behaviour, pinned by tests/unit/core/test_calendar.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import CroniterError, croniter

from praxis.core.rejection import Rejection, invalid

MIN_INTERVAL_MS = 1_000
MAX_INTERVAL_MS = 366 * 24 * 3600 * 1000
MAX_CRON_CHARS = 256
MAX_TIME_MS = 253_402_300_799_000  # 9999-12-31T23:59:59Z: datetime's range


@dataclass(frozen=True)
class Calendar:
    """A schedule's times: exactly one of ``cron`` and ``interval_ms``.

    Attributes:
        cron: A five-field cron expression read in ``time_zone`` ("" for an interval).
        interval_ms: The interval of ``start_ms + k * interval_ms`` (0 for cron).
        time_zone: An IANA time zone name ("" means UTC).
        start_ms: No time falls before it (the interval's phase).
        end_ms: No time falls at or after it (0: never).
    """

    cron: str
    interval_ms: int
    time_zone: str
    start_ms: int
    end_ms: int

    def document(self) -> dict[str, str | int]:
        """The calendar as a document (part of a schedule's reviewed material)."""
        return {
            "cron": self.cron,
            "interval_ms": self.interval_ms,
            "time_zone": self.time_zone or "UTC",
            "start_ms": self.start_ms,
            "end_ms": self.end_ms,
        }


def _bad(message: str, field: str = "calendar") -> Rejection:
    return invalid("CALENDAR_INVALID", field, message)


def check(calendar: Calendar, field: str = "spec.calendar") -> Rejection | None:
    """CALENDAR_INVALID unless the calendar is exactly one valid source in bounds."""
    if bool(calendar.cron) == bool(calendar.interval_ms):
        return _bad("give exactly one of cron and interval_ms", field)
    if not 0 <= calendar.start_ms < MAX_TIME_MS or not 0 <= calendar.end_ms < MAX_TIME_MS:
        return _bad("start_ms and end_ms must be UTC epoch ms in range", field)
    if calendar.end_ms and calendar.end_ms <= calendar.start_ms:
        return _bad("end_ms must be after start_ms", f"{field}.end_ms")
    if calendar.interval_ms and not MIN_INTERVAL_MS <= calendar.interval_ms <= MAX_INTERVAL_MS:
        return _bad(
            f"interval_ms must be in [{MIN_INTERVAL_MS}, {MAX_INTERVAL_MS}]",
            f"{field}.interval_ms",
        )
    if _zone(calendar.time_zone) is None:
        return _bad(f"unknown time zone {calendar.time_zone!r}", f"{field}.time_zone")
    if calendar.cron:
        text = calendar.cron
        if len(text) > MAX_CRON_CHARS or len(text.split()) != 5 or not text.isascii():
            return _bad("cron must be five fields, at most 256 characters", f"{field}.cron")
        try:
            croniter(text, datetime(2000, 1, 1, tzinfo=UTC))
        except (CroniterError, ValueError, KeyError):
            return _bad(f"not a cron expression: {text!r}", f"{field}.cron")
    return None


def _zone(name: str) -> ZoneInfo | None:
    if not name:
        return ZoneInfo("UTC")
    if len(name) > 64 or name.startswith(("/", ".")) or ".." in name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def first_at_or_after(calendar: Calendar, at_ms: int) -> int:
    """The calendar's first time at or after ``at_ms``; 0 when none is left.

    The calendar must have passed :func:`check`.
    """
    at_ms = max(at_ms, calendar.start_ms)
    if calendar.interval_ms:
        steps = -(-(at_ms - calendar.start_ms) // calendar.interval_ms)
        found = calendar.start_ms + steps * calendar.interval_ms
    else:
        zone = _zone(calendar.time_zone)
        assert zone is not None
        # Cron times are whole minutes: the first one after (at - 1 ms) is at or after at.
        base = datetime.fromtimestamp((at_ms - 1) / 1000, tz=zone)
        try:
            following = croniter(calendar.cron, base).get_next(datetime)
        except (CroniterError, ValueError, OverflowError):
            return 0  # no further time (e.g. February 30th)
        found = round(following.timestamp() * 1000)
    if found >= MAX_TIME_MS or (calendar.end_ms and found >= calendar.end_ms):
        return 0
    return found


def times(calendar: Calendar, start_ms: int, end_ms: int, limit: int) -> list[int]:
    """The calendar's times in ``[start_ms, end_ms)``, at most ``limit`` of them."""
    found: list[int] = []
    at = first_at_or_after(calendar, start_ms)
    while at and at < end_ms and len(found) < limit:
        found.append(at)
        at = first_at_or_after(calendar, at + 1)
    return found
