"""Canonical decimal strings and epoch milliseconds, as every language sees them."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")
MAX_EPOCH_MS = 8_640_000_000_000_000


def parse_decimal(text: str) -> Decimal:
    """The exact value of a canonical decimal string.

    Raises:
        ValueError: ``text`` is not canonical (``"1.50"``, ``"01"``, ``"1e3"``, ``"-0"``...).
    """
    if _DECIMAL.fullmatch(text) is None or text == "-0":
        raise ValueError(f"{text!r} is not a canonical decimal string")
    return Decimal(text)


def canonical_decimal(value: Decimal | int) -> str:
    """The canonical string of an exact value (never pass a float)."""
    if isinstance(value, float):  # a guard for untyped callers
        raise TypeError("floats are not exact; pass a Decimal or an int")
    value = Decimal(value)
    if not value.is_finite():
        raise ValueError("not a finite decimal")
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("0", "-0") else text


def to_epoch_ms(moment: datetime) -> int:
    """UTC epoch milliseconds of an aware datetime."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: attach a timezone")
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400_000) + (delta.seconds * 1000) + (delta.microseconds // 1000)


def from_epoch_ms(value: int) -> datetime:
    """The aware UTC datetime of epoch milliseconds."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_EPOCH_MS:
        raise ValueError(f"{value!r} is not an epoch-millisecond integer in range")
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=value)
