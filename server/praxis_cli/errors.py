"""One-line errors and the documented exit codes."""

from __future__ import annotations

from dataclasses import dataclass, field

import grpc

from praxis_client import error_details

OK = 0
ERROR = 1
USAGE = 2
NOT_FOUND = 3
PERMISSION = 4
CONFLICT = 5
UNAVAILABLE = 6
LIMIT = 7
RUN_FAILED = 8
RUN_CANCELLED = 9

EXIT_CODES: tuple[tuple[int, str], ...] = (
    (OK, "success (for `runs watch`: the run completed)"),
    (ERROR, "an unexpected or internal error"),
    (USAGE, "usage: bad arguments, invalid input (INVALID_ARGUMENT), an unusable config"),
    (NOT_FOUND, "not found (NOT_FOUND)"),
    (PERMISSION, "not authenticated or not permitted (UNAUTHENTICATED, PERMISSION_DENIED)"),
    (
        CONFLICT,
        "conflict: stale or changed material, a state that forbids the command "
        "(ALREADY_EXISTS, ABORTED, FAILED_PRECONDITION)",
    ),
    (
        UNAVAILABLE,
        "the server cannot be reached or cannot serve (UNAVAILABLE, "
        "DEADLINE_EXCEEDED; `serve`: the address is in use)",
    ),
    (LIMIT, "a limit was exceeded (RESOURCE_EXHAUSTED)"),
    (RUN_FAILED, "`runs watch`: the run failed"),
    (RUN_CANCELLED, "`runs watch`: the run was cancelled"),
)

_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: USAGE,
    grpc.StatusCode.OUT_OF_RANGE: USAGE,
    grpc.StatusCode.NOT_FOUND: NOT_FOUND,
    grpc.StatusCode.UNAUTHENTICATED: PERMISSION,
    grpc.StatusCode.PERMISSION_DENIED: PERMISSION,
    grpc.StatusCode.ALREADY_EXISTS: CONFLICT,
    grpc.StatusCode.ABORTED: CONFLICT,
    grpc.StatusCode.FAILED_PRECONDITION: CONFLICT,
    grpc.StatusCode.UNAVAILABLE: UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED: UNAVAILABLE,
    grpc.StatusCode.RESOURCE_EXHAUSTED: LIMIT,
}


@dataclass
class CliError(Exception):
    """A failure reported as ``error: <REASON>: <message>`` and an exit code."""

    reason: str
    message: str
    exit_code: int = ERROR
    violations: list[tuple[str, str]] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"

    def lines(self) -> list[str]:
        """The error line, then one indented line per field violation."""
        first = " ".join(f"error: {self.reason}: {self.message}".split())
        return [first] + [f"  {name}: {' '.join(text.split())}" for name, text in self.violations]


CREDENTIALS_HINT = (
    "give the CLI a token: set PRAXIS_TOKEN, pass --token TOKEN, or store a profile once "
    "with 'praxis login' (a first 'praxis serve' writes local tokens to "
    "<data-dir>/credentials.json)"
)
_CREDENTIAL_MESSAGES = {
    "CREDENTIAL_MISSING": "no bearer token was sent",
    "CREDENTIAL_INVALID": "the server does not know this token (mistyped, or replaced by a "
    "rotation)",
}


def from_rpc(error: grpc.RpcError) -> CliError:
    """The CLI error of a failed call: its ErrorInfo reason, or the status code's name.

    A refused credential says, in the CLI's terms, how to give one (``PRAXIS_TOKEN``,
    ``--token``, ``praxis login``) instead of the wire's ``authorization`` header.
    """
    details = error_details(error)
    code = details.code if isinstance(details.code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN
    reason = details.reason or code.name
    message = details.message or code.name.lower().replace("_", " ")
    if code is grpc.StatusCode.UNAUTHENTICATED:
        message = f"{_CREDENTIAL_MESSAGES.get(reason, message)}: {CREDENTIALS_HINT}"
    if code is grpc.StatusCode.UNAVAILABLE and not details.reason:
        reason = "UNAVAILABLE"
    return CliError(reason, message, _BY_CODE.get(code, ERROR), list(details.field_violations))


def usage(message: str, reason: str = "USAGE") -> CliError:
    """A usage error (exit 2)."""
    return CliError(reason, message, USAGE)
