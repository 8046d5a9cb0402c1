"""Rejections become gRPC statuses here and nowhere else (AIP-193).

Every failed RPC carries a canonical code and exactly one ``google.rpc.ErrorInfo``
(domain ``engine.aiws``, reason an ``ErrorReason`` name), plus a ``google.rpc.BadRequest``
when the rejection lists field violations.
"""

from __future__ import annotations

from typing import NoReturn, TypeVar

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from praxis.core.rejection import Code, Rejection

DOMAIN = "engine.aiws"
T = TypeVar("T")

_CODES = {code: getattr(code_pb2, code.value) for code in Code}

# The status travels in the trailers (grpc-message, grpc-status-details-bin, base64), and
# gRPC clients reject trailers past 8 KiB (a soft limit: randomly, from 8 KiB up). These
# bounds keep every status under about 6 KiB however many problems a rejection lists.
MAX_MESSAGE_CHARS = 1_024
MAX_METADATA_VALUE_CHARS = 512
MAX_VIOLATIONS_BYTES = 2_560


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 15] + "... (truncated)"


def _violations(rejection: Rejection) -> list[error_details_pb2.BadRequest.FieldViolation]:
    """The rejection's field violations, as many as fit :data:`MAX_VIOLATIONS_BYTES`; a
    last one says how many were left out."""
    kept: list[error_details_pb2.BadRequest.FieldViolation] = []
    spent = 0
    for index, violation in enumerate(rejection.violations):
        item = error_details_pb2.BadRequest.FieldViolation(
            field=_cut(violation.field, 256), description=_cut(violation.description, 512)
        )
        spent += item.ByteSize() + 3
        if spent > MAX_VIOLATIONS_BYTES:
            left = len(rejection.violations) - index
            kept.append(
                error_details_pb2.BadRequest.FieldViolation(
                    field="", description=f"... {left} more violations not listed"
                )
            )
            break
        kept.append(item)
    return kept


def code_number(code: Code) -> int:
    """The canonical ``google.rpc.Code`` number of a rejection's code (the one table)."""
    return int(_CODES[code])


def to_status(rejection: Rejection) -> status_pb2.Status:
    """The ``google.rpc.Status`` of a rejection, bounded to fit gRPC's trailers."""
    info = error_details_pb2.ErrorInfo(
        reason=rejection.reason,
        domain=DOMAIN,
        metadata={k: _cut(v, MAX_METADATA_VALUE_CHARS) for k, v in rejection.metadata},
    )
    details = [_pack(info)]
    if rejection.violations:
        details.append(_pack(error_details_pb2.BadRequest(field_violations=_violations(rejection))))
    return status_pb2.Status(
        code=_CODES[rejection.code],
        message=_cut(rejection.message, MAX_MESSAGE_CHARS),
        details=details,
    )


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]  # protobuf message
    return packed


class Aborted(Exception):  # control flow, not an error
    """Unwinds a synchronous handler whose status :func:`abort` has set."""


def abort(context: grpc.ServicerContext, rejection: Rejection) -> NoReturn:
    """Ends the RPC with the rejection's status.

    The asyncio server's context for synchronous handlers records the status and
    returns, so this raises :class:`Aborted` to unwind the handler (the interceptor
    ends the call quietly).
    """
    status = rpc_status.to_status(to_status(rejection))
    context.abort(status.code, status.details, status.trailing_metadata)
    raise Aborted()


def unwrap(context: grpc.ServicerContext, value: T | Rejection) -> T:
    """The value, or the RPC ends with the rejection."""
    if isinstance(value, Rejection):
        abort(context, value)
    return value
