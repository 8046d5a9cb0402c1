"""WaitService: read and satisfy the waits of runs."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import wait_pb2 as pb
from aiws.engine.v1 import wait_pb2_grpc
from praxis.core import authorization as authz
from praxis.core import values
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.rpc.registry import epochs_to_proto
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
        purpose=view.purpose,
        authorizes=[action_to_proto(action) for action in view.actions],
        approval_id=view.approval_id,
        material_digest=view.material_digest,
        question=wait.question,
        choices=wait.choices,
    )


def action_to_proto(action: authz.Action) -> pb.AuthorizedAction:
    """One authorised action."""
    return pb.AuthorizedAction(
        node_uid=action.node_uid,
        model=action.model,
        operation_id=action.operation_id,
        spec_digest=action.spec_digest,
        input_digest=action.input_digest,
        fanout=action.fanout,
        input_json=action.input_json,
    )


def material_to_proto(material: authz.Material) -> pb.WaitMaterial:
    """The material of an authorization wait's satisfaction."""
    return pb.WaitMaterial(
        epochs=epochs_to_proto(material.epochs),
        work_order_id=material.work_order_id,
        run_id=material.run_id,
        wait_id=material.wait_id,
        node_uid=material.node_uid,
        expires_at_ms=material.expires_at_ms,
        purpose=material.purpose,
        payload_digest=material.payload_digest,
        actions=[action_to_proto(action) for action in material.actions],
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

    def ReviewWait(
        self, request: pb.ReviewWaitRequest, context: grpc.ServicerContext
    ) -> pb.ReviewWaitResponse:
        material, digest = unwrap(
            context, self.store.review(principal(), request.wait_id, request.payload_json)
        )
        return pb.ReviewWaitResponse(material=material_to_proto(material), material_digest=digest)

    def SatisfyWait(
        self, request: pb.SatisfyWaitRequest, context: grpc.ServicerContext
    ) -> pb.SatisfyWaitResponse:
        view, replayed = unwrap(
            context,
            self.store.satisfy(
                principal(),
                request.request_id,
                request.wait_id,
                request.payload_json,
                request.approval_id,
            ),
        )
        return pb.SatisfyWaitResponse(wait=wait_to_proto(view), replayed=replayed)
