"""WorkOrderService servicer: work orders as records and as a tree."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import work_order_pb2, work_order_pb2_grpc
from praxis.core import money
from praxis.core import work_orders as core
from praxis.core.rejection import invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.controls.orders import WorkOrderStore
from praxis.store.controls.records import Record

_STATE = {
    core.State.OPEN: work_order_pb2.WORK_ORDER_STATE_OPEN,
    core.State.PAUSED: work_order_pb2.WORK_ORDER_STATE_PAUSED,
    core.State.CANCELLED: work_order_pb2.WORK_ORDER_STATE_CANCELLED,
    core.State.CLOSED: work_order_pb2.WORK_ORDER_STATE_CLOSED,
    core.State.PROPOSED: work_order_pb2.WORK_ORDER_STATE_PROPOSED,
    core.State.DECLINED: work_order_pb2.WORK_ORDER_STATE_DECLINED,
}
_DECISIONS = {
    work_order_pb2.PROPOSAL_DECISION_APPROVE: True,
    work_order_pb2.PROPOSAL_DECISION_DECLINE: False,
}
_STATE_IN = {value: key for key, value in _STATE.items()}


def record_to_proto(record: Record) -> work_order_pb2.WorkOrderRecord:
    """The wire record."""
    node = record.node
    remaining = record.remaining
    return work_order_pb2.WorkOrderRecord(
        work_order_id=node.work_order_id,
        title=node.title,
        labels=dict(node.labels),
        creator=node.creator,
        parent_id=node.parent_id,
        ancestors=list(node.ancestors),
        state=_STATE[node.state],
        state_from=record.state_from,
        budget_microcredits="" if node.budget is None else money.text(node.budget),
        spent_microcredits=money.text(node.spent),
        remaining_microcredits="" if remaining is None else money.text(remaining),
        actions=list(node.actions),
        created_at_ms=node.created_at_ms,
        closed_at_ms=node.closed_at_ms,
        child_count=record.child_count,
        proposed=node.proposal is not core.Proposal.NONE,
        decided_by=node.decided_by,
        decided_at_ms=node.decided_at_ms,
        decline_reason=node.decline_reason,
        reserved_microcredits=money.text(record.reserved),
    )


class WorkOrderServicer(work_order_pb2_grpc.WorkOrderServiceServicer):
    """WorkOrderService over a :class:`WorkOrderStore`."""

    def __init__(self, store: WorkOrderStore) -> None:
        self.store = store

    def CreateWorkOrder(  # gRPC method name
        self, request: work_order_pb2.CreateWorkOrderRequest, context: grpc.ServicerContext
    ) -> work_order_pb2.CreateWorkOrderResponse:
        record, replayed = unwrap(
            context,
            self.store.create(
                principal(),
                request.work_order_id,
                request.parent_id,
                request.title,
                dict(request.labels),
                request.budget_microcredits,
                list(request.actions),
            ),
        )
        return work_order_pb2.CreateWorkOrderResponse(
            work_order=record_to_proto(record), replayed=replayed
        )

    def GetWorkOrderRecord(
        self, request: work_order_pb2.GetWorkOrderRecordRequest, context: grpc.ServicerContext
    ) -> work_order_pb2.GetWorkOrderRecordResponse:
        record = unwrap(context, self.store.get(principal(), request.work_order_id))
        return work_order_pb2.GetWorkOrderRecordResponse(
            work_order=record_to_proto(record),
            run_counts=[
                work_order_pb2.RunStateCount(state=state, count=count)
                for state, count in record.run_counts
            ],
            children=[record_to_proto(child) for child in record.children],
        )

    def ListWorkOrders(
        self, request: work_order_pb2.ListWorkOrdersRequest, context: grpc.ServicerContext
    ) -> work_order_pb2.ListWorkOrdersResponse:
        state = None
        if request.state != work_order_pb2.WORK_ORDER_STATE_UNSPECIFIED:
            state = _STATE_IN.get(request.state)
            if state is None:
                unwrap(context, core.unknown_state())
        records, token = unwrap(
            context,
            self.store.list(
                principal(),
                request.parent_id,
                state,
                request.page_size,
                request.page_token,
                request.action,
            ),
        )
        return work_order_pb2.ListWorkOrdersResponse(
            work_orders=[record_to_proto(record) for record in records], next_page_token=token
        )

    def CloseWorkOrder(
        self, request: work_order_pb2.CloseWorkOrderRequest, context: grpc.ServicerContext
    ) -> work_order_pb2.CloseWorkOrderResponse:
        record = unwrap(context, self.store.close(principal(), request.work_order_id))
        return work_order_pb2.CloseWorkOrderResponse(work_order=record_to_proto(record))

    def ProposeWorkOrder(
        self, request: work_order_pb2.ProposeWorkOrderRequest, context: grpc.ServicerContext
    ) -> work_order_pb2.ProposeWorkOrderResponse:
        record, replayed = unwrap(
            context,
            self.store.propose(
                principal(),
                request.work_order_id,
                request.parent_id,
                request.title,
                dict(request.labels),
                request.budget_microcredits,
                list(request.actions),
            ),
        )
        return work_order_pb2.ProposeWorkOrderResponse(
            work_order=record_to_proto(record), replayed=replayed
        )

    def DecideWorkOrderProposal(
        self,
        request: work_order_pb2.DecideWorkOrderProposalRequest,
        context: grpc.ServicerContext,
    ) -> work_order_pb2.DecideWorkOrderProposalResponse:
        approve = _DECISIONS.get(request.decision)
        if approve is None:
            unwrap(context, invalid("ENUM_INVALID", "decision", "decision is APPROVE or DECLINE"))
        record = unwrap(
            context,
            self.store.decide(principal(), request.work_order_id, bool(approve), request.reason),
        )
        return work_order_pb2.DecideWorkOrderProposalResponse(work_order=record_to_proto(record))
