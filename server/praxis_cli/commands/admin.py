"""``praxis events tail``, ``holds``, ``epochs``, ``work-orders`` and ``admin reload|config``."""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import admin_pb2, config_pb2, event_pb2, registry_pb2
from praxis_cli.commands import work_orders
from praxis_cli.commands.common import group, leaf
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name

_HOLD_KINDS = {
    "restore": admin_pb2.HOLD_KIND_RESTORE,
    "clock-uncertainty": admin_pb2.HOLD_KIND_CLOCK_UNCERTAINTY,
}
_EPOCH_KINDS = {
    "ownership": admin_pb2.EPOCH_KIND_OWNERSHIP,
    "authority": admin_pb2.EPOCH_KIND_AUTHORITY,
}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds ``events``, ``holds``, ``epochs``, ``work-orders`` and ``admin``."""
    admin = group(
        commands,
        "admin",
        "the server's configuration, reloaded without a restart (backup, restore and "
        "archives run on the server's machine: see 'praxis admin --help')",
    )
    reload = leaf(
        admin,
        common,
        "reload",
        _reload,
        "re-read the server's config.json, validate all of it and apply it live on every "
        "server process (a human's decision)",
    )
    reload.add_argument(
        "--wait-ms",
        type=int,
        default=0,
        help="how long to wait for the other processes (default 2000, at most 10000)",
    )
    status = leaf(
        admin, common, "config", _config, "the config version each process serves; reloads"
    )
    status.add_argument("--limit", type=int, default=0, help="latest reloads (default 20)")
    events = group(commands, "events", "the durable log of run events")
    tail = leaf(events, common, "tail", _tail, "print events after a cursor; --follow streams")
    tail.add_argument("--after", type=int, default=0, help="events after this seq")
    tail.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    tail.add_argument("--run", default="", help="only this run's events")
    tail.add_argument("--subscriber", default="", help="only runs started with this subscriber")
    tail.add_argument("--follow", action="store_true", help="keep streaming new events")

    holds = group(commands, "holds", "restore and clock-uncertainty holds")
    leaf(holds, common, "list", _holds_list, "list the holds placed")
    place = leaf(holds, common, "place", _place, "place a restore hold")
    place.add_argument("--work-order", default="", help="the work order (default: installation)")
    place.add_argument("--reason", required=True, help="why (recorded)")
    clear = leaf(holds, common, "clear", _clear, "clear a hold")
    clear.add_argument("--work-order", default="", help="the work order (default: installation)")
    clear.add_argument("--kind", choices=sorted(_HOLD_KINDS), default="restore")

    epochs = group(commands, "epochs", "a work order's ownership and authority epochs")
    show = leaf(epochs, common, "show", _epochs_show, "show a work order's epochs")
    show.add_argument("work_order")
    advance = leaf(
        epochs,
        common,
        "advance",
        _advance,
        "advance an epoch, invalidating approvals bound to the old one",
    )
    advance.add_argument("work_order")
    advance.add_argument("--kind", required=True, choices=sorted(_EPOCH_KINDS))
    advance.add_argument(
        "--expected", type=int, help="the epoch as last read (default: read it now)"
    )

    orders = group(
        commands, "work-orders", "work orders: a tree of records, their controls and spend"
    )
    # The name before issue 42's: still accepted, never listed (help, docs, completion).
    commands.choices["workorders"] = commands.choices["work-orders"]
    work_orders.add_commands(orders, common)
    for name, handler, text in (
        ("show", _wo_show, "show a work order's controls, epochs and holds"),
        ("pause", _pause, "pause a work order: commands and dispatch wait"),
        ("resume", _resume, "resume a paused work order"),
        ("cancel", _cancel, "cancel a work order for good, stopping its live runs"),
    ):
        parser = leaf(orders, common, name, handler, text)
        parser.add_argument("work_order")
        if name in ("pause", "cancel"):
            parser.add_argument(
                "--reason", default="", required=name == "cancel", help="why (recorded)"
            )


def _event_row(e: event_pb2.Event) -> list[str]:
    return [
        str(e.seq),
        local_time(e.at_ms),
        enum_name(event_pb2.EventKind.Name(e.kind), "EVENT_KIND_"),
        e.run_id,
        e.node_uid or "-",
        e.payload_json or "-",
    ]


_EVENT_COLUMNS = [
    Column("SEQ"),
    Column("AT", optional=True),
    Column("EVENT"),
    ident("RUN"),
    ident("NODE"),
    free_text("PAYLOAD"),
]


def _tail(ctx: Any, args: argparse.Namespace) -> int:
    if not args.follow:
        response = ctx.call(
            ctx.client.events.ListEvents,
            event_pb2.ListEventsRequest(
                after=args.after, limit=args.limit, run_id=args.run, subscriber=args.subscriber
            ),
        )
        if ctx.out.as_json:
            ctx.out.json(to_dict(response))
        else:
            ctx.out.table(_EVENT_COLUMNS, [_event_row(e) for e in response.events])
        return 0
    request = event_pb2.StreamEventsRequest(
        after=args.after, subscriber=args.subscriber, run_id=args.run
    )
    for message in ctx.stream(ctx.client.events.StreamEvents, request):
        if ctx.out.as_json:
            ctx.out.json_line(to_dict(message.event))
        else:
            ctx.out.line("  ".join(_event_row(message.event)))
    return 0


def _hold_rows(holds: Any) -> list[list[str]]:
    return [
        [
            enum_name(admin_pb2.HoldKind.Name(h.kind), "HOLD_KIND_"),
            h.work_order_id or "(installation)",
            local_time(h.placed_at_ms),
            h.placed_by,
            h.reason,
        ]
        for h in holds
    ]


_HOLD_COLUMNS = [
    Column("KIND"),
    ident("WORK ORDER"),
    Column("PLACED", optional=True),
    ident("BY"),
    free_text("REASON"),
]


def _holds_list(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(ctx.client.admin.ListHolds, admin_pb2.ListHoldsRequest())
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
    else:
        ctx.out.table(_HOLD_COLUMNS, _hold_rows(response.holds))
    return 0


def _place(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.PlaceHoldRequest(
        kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id=args.work_order, reason=args.reason
    )
    hold = ctx.call(ctx.client.admin.PlaceHold, request).hold
    if ctx.out.as_json:
        ctx.out.json(to_dict(hold))
    else:
        ctx.out.line(f"placed a restore hold on {args.work_order or 'the installation'}")
    return 0


def _clear(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.ClearHoldRequest(kind=_HOLD_KINDS[args.kind], work_order_id=args.work_order)
    hold = ctx.call(ctx.client.admin.ClearHold, request).hold
    if ctx.out.as_json:
        ctx.out.json(to_dict(hold))
    else:
        ctx.out.line(f"cleared the {args.kind} hold on {args.work_order or 'the installation'}")
    return 0


def _print_epochs(ctx: Any, work_order: str, epochs: Any) -> None:
    if ctx.out.as_json:
        ctx.out.json({"work_order_id": work_order, **to_dict(epochs)})
        return
    ctx.out.fields(
        [
            ("work order", work_order),
            ("installation", epochs.installation_id),
            ("ownership epoch", str(epochs.ownership_epoch)),
            ("authority epoch", str(epochs.authority_epoch)),
        ]
    )


def _epochs_show(ctx: Any, args: argparse.Namespace) -> int:
    request = registry_pb2.GetEpochsRequest(work_order_id=args.work_order)
    _print_epochs(ctx, args.work_order, ctx.call(ctx.client.registry.GetEpochs, request).epochs)
    return 0


def _advance(ctx: Any, args: argparse.Namespace) -> int:
    expected = args.expected
    if expected is None:
        current = ctx.call(
            ctx.client.registry.GetEpochs,
            registry_pb2.GetEpochsRequest(work_order_id=args.work_order),
        ).epochs
        ownership = args.kind == "ownership"
        expected = current.ownership_epoch if ownership else current.authority_epoch
    request = admin_pb2.AdvanceEpochRequest(
        work_order_id=args.work_order, kind=_EPOCH_KINDS[args.kind], expected_epoch=expected
    )
    _print_epochs(ctx, args.work_order, ctx.call(ctx.client.admin.AdvanceEpoch, request).epochs)
    return 0


def _print_work_order(ctx: Any, work_order: admin_pb2.WorkOrder) -> None:
    if ctx.out.as_json:
        ctx.out.json(to_dict(work_order))
        return
    state = enum_name(admin_pb2.ControlState.Name(work_order.control_state), "CONTROL_STATE_")
    ctx.out.fields(
        [
            ("work order", work_order.work_order_id),
            ("control", state),
            ("ownership epoch", str(work_order.epochs.ownership_epoch)),
            ("authority epoch", str(work_order.epochs.authority_epoch)),
            ("holds", str(len(work_order.holds))),
        ]
    )
    if work_order.holds:
        ctx.out.table(_HOLD_COLUMNS, _hold_rows(work_order.holds))


def _wo_show(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.GetWorkOrderRequest(work_order_id=args.work_order)
    _print_work_order(ctx, ctx.call(ctx.client.admin.GetWorkOrder, request).work_order)
    return 0


def _pause(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.PauseWorkOrderRequest(work_order_id=args.work_order, reason=args.reason)
    _print_work_order(ctx, ctx.call(ctx.client.admin.PauseWorkOrder, request).work_order)
    return 0


def _resume(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.ResumeWorkOrderRequest(work_order_id=args.work_order)
    _print_work_order(ctx, ctx.call(ctx.client.admin.ResumeWorkOrder, request).work_order)
    return 0


def _cancel(ctx: Any, args: argparse.Namespace) -> int:
    request = admin_pb2.CancelWorkOrderRequest(work_order_id=args.work_order, reason=args.reason)
    _print_work_order(ctx, ctx.call(ctx.client.admin.CancelWorkOrder, request).work_order)
    return 0


def _short(version: str) -> str:
    """A version as people compare it: ``sha256:`` and 12 hex digits (``--json``: whole)."""
    return version[:19] if version else "-"


_PROCESS_COLUMNS = [ident("PROCESS"), Column("VERSION"), Column("APPLIED", optional=True)]


def _process_rows(processes: Any) -> list[list[str]]:
    return [
        [
            p.process_id + (" *" if p.answering else ""),
            _short(p.version),
            local_time(p.applied_at_ms),
        ]
        for p in processes
    ]


def _reload(ctx: Any, args: argparse.Namespace) -> int:
    request = config_pb2.ReloadConfigRequest(wait_ms=args.wait_ms)
    response = ctx.call(ctx.client.admin.ReloadConfig, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.fields(
        [
            ("version", _short(response.version)),
            ("previous", _short(response.previous_version)),
            ("changed", ", ".join(response.changed) or "(nothing)"),
            ("needs a restart", ", ".join(response.restart_required) or "(nothing)"),
            ("converged", "yes" if response.converged else "NO: see the processes below"),
        ]
    )
    ctx.out.table(_PROCESS_COLUMNS, _process_rows(response.processes))
    return 0


_RELOAD_COLUMNS = [
    Column("SEQ"),
    Column("AT", optional=True),
    ident("BY"),
    Column("VERSION"),
    free_text("CHANGED"),
    free_text("RESTART", optional=True),
]


def _config(ctx: Any, args: argparse.Namespace) -> int:
    request = config_pb2.GetConfigStatusRequest(reload_limit=args.limit)
    response = ctx.call(ctx.client.admin.GetConfigStatus, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.fields(
        [("version", _short(response.version) if response.version else "(never reloaded)")]
    )
    ctx.out.table(_PROCESS_COLUMNS, _process_rows(response.processes))
    ctx.out.table(
        _RELOAD_COLUMNS,
        [
            [
                str(r.seq),
                local_time(r.reloaded_at_ms),
                r.reloaded_by,
                _short(r.version),
                ", ".join(r.changed) or "-",
                ", ".join(r.restart_required) or "-",
            ]
            for r in response.reloads
        ],
    )
    return 0
