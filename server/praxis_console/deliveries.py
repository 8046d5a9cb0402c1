"""The webhook outbox: deliveries by state (pending, failed, dead, delivered) and
redelivery, as NotificationService shows them to an operator."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import notification_pb2 as nb
from aiws.engine.v1 import notification_pb2_grpc
from praxis_client.conventions import enum_name
from praxis_console import web
from praxis_console.api import ApiError

PAGE = 100
STATES = ("PENDING", "FAILED", "DEAD", "DELIVERED")


async def deliveries_page(request: Request) -> Response:
    """Deliveries newest first, filtered by state, with the outbox's counts."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    notifications = engine.stub("notifications", notification_pb2_grpc.NotificationServiceStub)
    state = request.query_params.get("state", "")
    state = state if state in STATES else ""
    token = request.query_params.get("page_token", "")[:32]
    listed, problem = await engine.read(
        session.token,
        notifications.ListDeliveries,
        nb.ListDeliveriesRequest(
            state=f"DELIVERY_STATE_{state}" if state else "DELIVERY_STATE_UNSPECIFIED",
            page_size=PAGE,
            page_token=token,
        ),
    )
    return web.render(
        request,
        "deliveries.html",
        {
            "state": state,
            "states": STATES,
            "deliveries": [
                (d, enum_name(nb.DeliveryState.Name(d.state), "DELIVERY_STATE_"))
                for d in (listed.deliveries if listed else [])
            ],
            "counts": listed,
            "next_token": listed.next_page_token if listed else "",
            "first_page": not token,
            "problem": problem,
        },
    )


async def redeliver(request: Request) -> Response:
    """Makes one delivery due now (same id, same body), then shows the list again."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    notifications = engine.stub("notifications", notification_pb2_grpc.NotificationServiceStub)
    delivery_id = request.path_params["delivery_id"][:64]
    try:
        await engine.call(
            session.token,
            notifications.RedeliverDelivery,
            nb.RedeliverDeliveryRequest(delivery_id=delivery_id),
        )
    except ApiError as error:
        return web.error_page(request, error, ("/deliveries", "Back to the deliveries"))
    state = web.field_text(form, "state", 16)
    return web.redirect("/deliveries" + (f"?state={state}" if state in STATES else ""))


ROUTES = [
    Route("/deliveries", deliveries_page, methods=["GET"]),
    Route("/deliveries/{delivery_id}/redeliver", redeliver, methods=["POST"]),
]
