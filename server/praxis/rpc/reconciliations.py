"""ReconciliationService: review and decide uncertain effects."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import reconciliation_pb2 as pb
from aiws.engine.v1 import reconciliation_pb2_grpc
from praxis.core import effects
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.rpc.registry import epochs_from_proto, epochs_to_proto
from praxis.store.execution.reconciliations import Decision, ReconciliationStore, ReconciliationView

_DECISIONS = {
    pb.RECONCILIATION_DECISION_APPLIED: effects.Decision.APPLIED,
    pb.RECONCILIATION_DECISION_NOT_APPLIED: effects.Decision.NOT_APPLIED,
}
_DECISION_OF = {value.value: key for key, value in _DECISIONS.items()}
_STATES = {
    effects.ReconciliationState.PENDING: pb.RECONCILIATION_STATE_PENDING,
    effects.ReconciliationState.RESOLVED: pb.RECONCILIATION_STATE_RESOLVED,
}


def reconciliation_to_proto(view: ReconciliationView) -> pb.Reconciliation:
    """One reconciliation."""
    return pb.Reconciliation(
        attempt_id=view.attempt_id,
        run_id=view.run_id,
        node_uid=view.node_uid,
        operation_id=view.operation_id,
        completed=view.completed,
        state=_STATES[view.state],
        decision=_DECISION_OF.get(view.decision, pb.RECONCILIATION_DECISION_UNSPECIFIED),
        evidence_json=view.evidence_json,
        approval_id=view.approval_id,
        decided_by=view.decided_by,
        opened_at_ms=view.opened_at_ms,
        decided_at_ms=view.decided_at_ms,
        error=view.error,
    )


def material_to_proto(material: effects.Material) -> pb.ReconciliationMaterial:
    """The review material."""
    return pb.ReconciliationMaterial(
        epochs=epochs_to_proto(material.epochs),
        work_order_id=material.work_order_id,
        run_id=material.pending.run_id,
        node_uid=material.pending.node_uid,
        operation_id=material.operation_id,
        attempt_id=material.pending.attempt_id,
        completed=material.pending.completed,
        decision=_DECISION_OF[material.decision.value],
        evidence_digest=material.evidence_digest,
        result_digest=material.pending.result_digest,
    )


class ReconciliationServicer(reconciliation_pb2_grpc.ReconciliationServiceServicer):
    """ReconciliationService over a :class:`ReconciliationStore`."""

    def __init__(self, store: ReconciliationStore) -> None:
        self.store = store

    def ListReconciliations(  # gRPC method name
        self, request: pb.ListReconciliationsRequest, context: grpc.ServicerContext
    ) -> pb.ListReconciliationsResponse:
        views = unwrap(context, self.store.list(principal(), request.run_id))
        return pb.ListReconciliationsResponse(
            reconciliations=[reconciliation_to_proto(view) for view in views]
        )

    def ReviewReconciliation(
        self, request: pb.ReviewReconciliationRequest, context: grpc.ServicerContext
    ) -> pb.ReviewReconciliationResponse:
        decision = Decision(
            epochs_from_proto(request.epochs),
            request.attempt_id,
            _DECISIONS.get(request.decision),
            request.evidence_json,
            result_json=request.result_json,
        )
        material, digest = unwrap(context, self.store.review(principal(), decision))
        return pb.ReviewReconciliationResponse(
            material=material_to_proto(material), material_digest=digest
        )

    def Reconcile(
        self, request: pb.ReconcileRequest, context: grpc.ServicerContext
    ) -> pb.ReconcileResponse:
        decision = Decision(
            epochs_from_proto(request.epochs),
            request.attempt_id,
            _DECISIONS.get(request.decision),
            request.evidence_json,
            request.request_id,
            request.approval_id,
            request.result_json,
        )
        view, replayed = unwrap(context, self.store.reconcile(principal(), decision))
        return pb.ReconcileResponse(reconciliation=reconciliation_to_proto(view), replayed=replayed)
