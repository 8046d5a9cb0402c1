"""WaitService: read and satisfy the waits of runs."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import wait_pb2 as pb
from aiws.engine.v1 import wait_pb2_grpc
from praxis.core import values
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.execution.waits import WaitState, WaitStore, WaitView, schema_json

_KINDS = {
    "human_input": pb.WAIT_KIND_HUMAN_INPUT,
    "timer": pb.WAIT_KIND_TIMER,
    "authorization": pb.WAIT_KIND_AUTHORIZATION,
}
_STATES = {state: getattr(pb, f"WAIT_STATE_{state.value}") for state in WaitState}


def wait_to_proto(view: WaitView) -> pb.Wait:
    """One wait."""
    wait = view.spec.wait
    assert wait is not None
    default = wait.on_expiry == "default"
    return pb.Wait(
        wait_id=view.wait_id,
        run_id=view.run_id,
        node_uid=view.node_uid,
        kind=_KINDS[view.spec.kind],
        state=_STATES[view.state],
        opened_at_ms=view.opened_at_ms,
        expires_at_ms=view.expires_at_ms,
        schema_json=schema_json(view.spec),
        on_expiry=pb.WAIT_EXPIRY_DEFAULT if default else pb.WAIT_EXPIRY_FAIL,
        default_json=values.canonical_json(wait.default) if default else "",
        payload_json=view.payload_json,
        satisfied_by=view.satisfied_by,
        satisfied_at_ms=view.satisfied_at_ms,
    )


class WaitServicer(wait_pb2_grpc.WaitServiceServicer):
    """WaitService over a :class:`WaitStore`."""

    def __init__(self, store: WaitStore) -> None:
        self.store = store

    def GetWait(  # gRPC method name
        self, request: pb.GetWaitRequest, context: grpc.ServicerContext
    ) -> pb.GetWaitResponse:
        return pb.GetWaitResponse(
            wait=wait_to_proto(unwrap(context, self.store.get(principal(), request.wait_id)))
        )

    def ListWaits(
        self, request: pb.ListWaitsRequest, context: grpc.ServicerContext
    ) -> pb.ListWaitsResponse:
        views = unwrap(context, self.store.list(principal(), request.run_id))
        return pb.ListWaitsResponse(waits=[wait_to_proto(view) for view in views])

    def SatisfyWait(
        self, request: pb.SatisfyWaitRequest, context: grpc.ServicerContext
    ) -> pb.SatisfyWaitResponse:
        view, replayed = unwrap(
            context,
            self.store.satisfy(
                principal(), request.request_id, request.wait_id, request.payload_json
            ),
        )
        return pb.SatisfyWaitResponse(wait=wait_to_proto(view), replayed=replayed)
