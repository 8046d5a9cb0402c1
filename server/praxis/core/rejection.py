"""Expected failures as values.

A command that breaks a rule yields a :class:`Rejection`, never an exception. The RPC
layer turns it into a gRPC status with one ``google.rpc.ErrorInfo`` (and a
``google.rpc.BadRequest`` when field violations are present).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Code(enum.Enum):
    """The canonical status codes the core uses (a subset of gRPC's)."""

    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    NOT_FOUND = "NOT_FOUND"
    ALREADY_EXISTS = "ALREADY_EXISTS"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    ABORTED = "ABORTED"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    INTERNAL = "INTERNAL"
    UNAVAILABLE = "UNAVAILABLE"


@dataclass(frozen=True)
class FieldViolation:
    """One invalid field: its path in the request and what is wrong with it."""

    field: str
    description: str


@dataclass(frozen=True)
class Rejection:
    """A refused request.

    Attributes:
        code: The status code.
        reason: The ``ErrorReason`` enum value name (e.g. ``"EPOCH_MISMATCH"``).
        message: A human-readable explanation; clients never branch on it.
        violations: Field violations for INVALID_ARGUMENT.
        metadata: Extra ``ErrorInfo.metadata`` entries.
    """

    code: Code
    reason: str
    message: str
    violations: tuple[FieldViolation, ...] = ()
    metadata: tuple[tuple[str, str], ...] = field(default=())


class Rejected(Exception):
    """Carries a :class:`Rejection` out of deeply nested validation helpers.

    Only the parsing helpers raise it, and their public entry points catch it and return
    the rejection as a value; it never crosses a module boundary uncaught by design.
    """

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.message)
        self.rejection = rejection


def invalid(reason: str, field_path: str, message: str) -> Rejection:
    """An INVALID_ARGUMENT rejection with one field violation."""
    return Rejection(Code.INVALID_ARGUMENT, reason, message, (FieldViolation(field_path, message),))


def precondition(reason: str, message: str) -> Rejection:
    """A FAILED_PRECONDITION rejection."""
    return Rejection(Code.FAILED_PRECONDITION, reason, message)


def not_found(reason: str, message: str) -> Rejection:
    """A NOT_FOUND rejection."""
    return Rejection(Code.NOT_FOUND, reason, message)
