"""Exact amounts in one accounting unit (microcredits), with no floating point.

Amounts travel as canonical decimal strings (SPEC section 3) and are computed with
:class:`decimal.Decimal` under a context that traps any rounding, so a sum is either
exact or an error, never an approximation.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

from praxis.core import values
from praxis.core.rejection import Rejection, invalid

MAX_AMOUNT = Decimal(10) ** 18
"""Costs and budgets above this are absurd and refused (COST_INVALID)."""

MAX_TEXT = 64
_EXACT = decimal.Context(
    prec=200,
    traps=[decimal.Inexact, decimal.Rounded, decimal.Overflow, decimal.InvalidOperation],
)
ZERO = Decimal(0)


def parse_amount(text: str, field_path: str, reason: str = "COST_INVALID") -> Decimal | Rejection:
    """Parses a non-negative canonical decimal amount of at most :data:`MAX_AMOUNT`.

    Args:
        text: The wire value.
        field_path: The request field, for the violation.
        reason: The reason for a negative or absurd amount.

    Returns:
        The exact amount, or DECIMAL_NOT_CANONICAL, or ``reason`` when it is negative,
        too long or above the maximum.
    """
    if len(text) > MAX_TEXT:
        return invalid(reason, field_path, f"{field_path} has more than {MAX_TEXT} characters")
    value = values.parse_decimal(text, field_path)
    if isinstance(value, Rejection):
        return value
    if value < 0:
        return invalid(reason, field_path, f"{field_path} must not be negative")
    if value > MAX_AMOUNT:
        return invalid(reason, field_path, f"{field_path} exceeds the maximum of 10^18")
    return value


def add(left: Decimal, right: Decimal) -> Decimal:
    """``left + right``, exactly."""
    return _EXACT.add(left, right)


def subtract(left: Decimal, right: Decimal) -> Decimal:
    """``left - right``, exactly."""
    return _EXACT.subtract(left, right)


def text(value: Decimal) -> str:
    """The canonical decimal text of an exact amount."""
    return values.format_decimal(value)


def total(amounts: list[str]) -> Decimal:
    """The exact sum of canonical amounts."""
    result = ZERO
    for amount in amounts:
        result = add(result, Decimal(amount))
    return result
