"""``praxis deliveries list|redeliver``: the webhook outbox, for operators."""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import notification_pb2 as nb
from praxis_cli.commands.common import group, leaf
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name

_STATES = {
    "pending": nb.DELIVERY_STATE_PENDING,
    "failed": nb.DELIVERY_STATE_FAILED,
    "delivered": nb.DELIVERY_STATE_DELIVERED,
    "dead": nb.DELIVERY_STATE_DEAD,
}
_COLUMNS = [
    ident("DELIVERY"),
    Column("STATE"),
    ident("RUN"),
    ident("DESTINATION", optional=True),
    Column("EVENT", optional=True),
    Column("TRIES"),
    Column("NEXT", optional=True),
    free_text("LAST ERROR"),
]


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``deliveries`` group."""
    deliveries = group(commands, "deliveries", "webhook deliveries of run outcomes")
    listing = leaf(deliveries, common, "list", _list, "list deliveries, newest first")
    listing.add_argument("--state", choices=sorted(_STATES), help="only deliveries in this state")
    listing.add_argument("--run", default="", help="only this run's deliveries")
    listing.add_argument("--destination", default="", help="only this destination's")
    listing.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    listing.add_argument("--page-token", default="", help="continue a previous listing")
    again = leaf(
        deliveries,
        common,
        "redeliver",
        _redeliver,
        "deliver again now (a dead one above all), with the same delivery id",
    )
    again.add_argument("delivery", nargs="+", help="delivery ids")


def _row(d: nb.Delivery) -> list[str]:
    return [
        d.delivery_id,
        enum_name(nb.DeliveryState.Name(d.state), "DELIVERY_STATE_"),
        d.run_id,
        d.destination,
        d.event_type,
        str(d.attempts),
        local_time(d.next_attempt_at_ms),
        d.last_error or "-",
    ]


def _list(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.notifications.ListDeliveries,
        nb.ListDeliveriesRequest(
            state=_STATES[args.state] if args.state else nb.DELIVERY_STATE_UNSPECIFIED,
            run_id=args.run,
            destination=args.destination,
            page_size=args.limit,
            page_token=args.page_token,
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.line(f"{response.pending} pending, {response.failed} failed, {response.dead} dead")
    ctx.out.table(_COLUMNS, [_row(d) for d in response.deliveries])
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _redeliver(ctx: Any, args: argparse.Namespace) -> int:
    done = []
    for delivery_id in args.delivery:
        response = ctx.call(
            ctx.client.notifications.RedeliverDelivery,
            nb.RedeliverDeliveryRequest(delivery_id=delivery_id),
        )
        done.append(response.delivery)
        if not ctx.out.as_json:
            ctx.out.line(f"redelivering {delivery_id} (to {response.delivery.destination})")
    if ctx.out.as_json:
        ctx.out.json({"deliveries": [to_dict(d) for d in done]})
    return 0
