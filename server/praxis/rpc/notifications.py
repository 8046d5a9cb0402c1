"""NotificationService: operators' view of the webhook outbox, and redelivery."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import notification_pb2 as pb
from aiws.engine.v1 import notification_pb2_grpc
from praxis.core.rejection import invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.notifications.rows import STATES, DeliveryRow
from praxis.store.notifications.store import DeliveryFilter, Notifications

_STATES = {state: getattr(pb, f"DELIVERY_STATE_{state}") for state in STATES}
_NAMES = {number: state for state, number in _STATES.items()}


def delivery_to_proto(row: DeliveryRow) -> pb.Delivery:
    """One delivery (never its body's secret-bearing headers: only what is stored)."""
    return pb.Delivery(
        delivery_id=row.delivery_id,
        run_id=row.run_id,
        destination=row.destination,
        event_type=row.event_type,
        state=_STATES[row.state],
        attempts=row.attempts,
        next_attempt_at_ms=row.next_at_ms,
        last_error=row.last_error,
        last_status=row.last_status,
        created_at_ms=row.created_at_ms,
        delivered_at_ms=row.delivered_at_ms,
    )


class NotificationServicer(notification_pb2_grpc.NotificationServiceServicer):
    """NotificationService over :class:`Notifications`."""

    def __init__(self, store: Notifications) -> None:
        self.store = store

    def ListDeliveries(  # gRPC method name
        self, request: pb.ListDeliveriesRequest, context: grpc.ServicerContext
    ) -> pb.ListDeliveriesResponse:
        state = ""
        if request.state != pb.DELIVERY_STATE_UNSPECIFIED:
            if request.state not in _NAMES:
                unwrap(context, invalid("ENUM_INVALID", "state", "unknown delivery state"))
            state = _NAMES[request.state]
        found = DeliveryFilter(
            state, request.run_id, request.destination, request.page_size, request.page_token
        )
        page = unwrap(context, self.store.page(principal(), found))
        return pb.ListDeliveriesResponse(
            deliveries=[delivery_to_proto(row) for row in page.deliveries],
            next_page_token=page.next_page_token,
            pending=page.counts["PENDING"],
            failed=page.counts["FAILED"],
            dead=page.counts["DEAD"],
        )

    def RedeliverDelivery(
        self, request: pb.RedeliverDeliveryRequest, context: grpc.ServicerContext
    ) -> pb.RedeliverDeliveryResponse:
        row = unwrap(context, self.store.redeliver(principal(), request.delivery_id))
        return pb.RedeliverDeliveryResponse(delivery=delivery_to_proto(row))
