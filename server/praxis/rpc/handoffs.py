"""HandoffService: offer, acknowledge and read handoffs."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import handoff_pb2 as pb
from aiws.engine.v1 import handoff_pb2_grpc
from praxis.core import handoff as core
from praxis.core import run as runs
from praxis.core.rejection import invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.execution.handoffs import HandoffStore

_STATES = {
    core.State.OFFERED: pb.HANDOFF_STATE_OFFERED,
    core.State.ACKNOWLEDGED: pb.HANDOFF_STATE_ACKNOWLEDGED,
}

_STATE_OF = {number: state for state, number in _STATES.items()}


def handoff_to_proto(handoff: core.Handoff) -> pb.Handoff:
    """One handoff."""
    message = pb.Handoff(
        delivery_id=handoff.delivery_id,
        run_id=handoff.run_id,
        node_uid=handoff.node_uid,
        operation_id=runs.operation_id(handoff.run_id, handoff.node_uid),
        from_principal_id=handoff.from_principal_id,
        to_principal_id=handoff.to_principal_id,
        outputs_digest=handoff.outputs_digest,
        note=handoff.note,
        state=_STATES[handoff.state],
        created_at_ms=handoff.created_at_ms,
        acknowledged_at_ms=handoff.acknowledged_at_ms,
    )
    work = handoff.work
    if work is not None:
        if work.ref is not None:
            message.ref.work_order_id = work.ref.work_order_id
            message.ref.run_id = work.ref.run_id
        message.revision = work.revision
        message.definition_digest = work.definition_digest
    return message


class HandoffServicer(handoff_pb2_grpc.HandoffServiceServicer):
    """HandoffService over a :class:`HandoffStore`."""

    def __init__(self, store: HandoffStore) -> None:
        self.store = store

    def CreateHandoff(  # gRPC method name
        self, request: pb.CreateHandoffRequest, context: grpc.ServicerContext
    ) -> pb.CreateHandoffResponse:
        handoff, replayed = unwrap(
            context,
            self.store.create(
                principal(),
                request.request_id,
                request.run_id,
                request.node_uid,
                request.to_principal_id,
                request.note,
            ),
        )
        return pb.CreateHandoffResponse(handoff=handoff_to_proto(handoff), replayed=replayed)

    def AcknowledgeHandoff(
        self, request: pb.AcknowledgeHandoffRequest, context: grpc.ServicerContext
    ) -> pb.AcknowledgeHandoffResponse:
        handoff = unwrap(context, self.store.acknowledge(principal(), request.delivery_id))
        return pb.AcknowledgeHandoffResponse(handoff=handoff_to_proto(handoff))

    def GetHandoff(
        self, request: pb.GetHandoffRequest, context: grpc.ServicerContext
    ) -> pb.GetHandoffResponse:
        handoff = unwrap(context, self.store.get(principal(), request.delivery_id))
        return pb.GetHandoffResponse(handoff=handoff_to_proto(handoff))

    def ListHandoffs(
        self, request: pb.ListHandoffsRequest, context: grpc.ServicerContext
    ) -> pb.ListHandoffsResponse:
        state = _STATE_OF.get(request.state)
        if state is None and request.state != pb.HANDOFF_STATE_UNSPECIFIED:
            unwrap(context, invalid("ENUM_INVALID", "state", "unknown handoff state"))
        listed, token = unwrap(
            context,
            self.store.list_addressed(principal(), state, request.page_size, request.page_token),
        )
        return pb.ListHandoffsResponse(
            handoffs=[handoff_to_proto(handoff) for handoff in listed], next_page_token=token
        )
