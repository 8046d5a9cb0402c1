"""Reading the engine's error model out of a failed call.

Failed calls carry a ``google.rpc.Status`` with exactly one ``ErrorInfo`` (domain
``engine.aiws``) and, for invalid input, a ``BadRequest`` with field violations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


@dataclass(frozen=True)
class CallError:
    """The code, reason, field violations and ``ErrorInfo`` metadata of a failed call."""

    code: grpc.StatusCode
    reason: str
    domain: str
    message: str
    field_violations: tuple[tuple[str, str], ...]
    metadata: dict[str, str] = field(default_factory=dict)
    """``ErrorInfo.metadata``: for example ``run_id`` of REF_ALREADY_RUN."""


def error_details(error: grpc.RpcError) -> CallError:
    """Extracts :class:`CallError` from a failed call (reason is ``""`` if absent)."""
    reason = domain = ""
    violations: list[tuple[str, str]] = []
    metadata: dict[str, str] = {}
    status = rpc_status.from_call(error)
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason, domain = info.reason, info.domain
                metadata = dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations += [(v.field, v.description) for v in bad.field_violations]
    return CallError(
        error.code(), reason, domain, error.details() or "", tuple(violations), metadata
    )
