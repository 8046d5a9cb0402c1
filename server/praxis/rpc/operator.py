"""Registers the operator services (principals and inbox) on a gRPC server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiws.engine.v1 import inbox_pb2, inbox_pb2_grpc, principal_pb2, principal_pb2_grpc
from praxis.rpc.inbox import InboxServicer
from praxis.rpc.principals import PrincipalServicer
from praxis.rpc.serving import Blocking

if TYPE_CHECKING:
    from praxis.app import Engine


def add_operator_services(
    server: Any, engine: Engine, blocking: Blocking | None = None
) -> list[str]:
    """Adds PrincipalService and InboxService to ``server``; returns their full names."""
    principal_pb2_grpc.add_PrincipalServiceServicer_to_server(
        PrincipalServicer(engine.principals), server
    )
    inbox_pb2_grpc.add_InboxServiceServicer_to_server(
        InboxServicer(engine.inbox, engine.signals, blocking), server
    )
    return [
        principal_pb2.DESCRIPTOR.services_by_name["PrincipalService"].full_name,
        inbox_pb2.DESCRIPTOR.services_by_name["InboxService"].full_name,
    ]
