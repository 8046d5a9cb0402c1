"""``praxis work-orders create|list|tree|close|propose|approve|decline``: work orders as
records and as a tree, and proposed children decided by a human (the controls,
``show|pause|resume|cancel``, are in :mod:`praxis_cli.commands.admin`)."""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import work_order_pb2 as pb
from praxis_cli.commands.common import leaf
from praxis_cli.commands.runs import parse_labels
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client.conventions import enum_name

_STATES: dict[str, Any] = {
    "open": pb.WORK_ORDER_STATE_OPEN,
    "paused": pb.WORK_ORDER_STATE_PAUSED,
    "cancelled": pb.WORK_ORDER_STATE_CANCELLED,
    "closed": pb.WORK_ORDER_STATE_CLOSED,
    "proposed": pb.WORK_ORDER_STATE_PROPOSED,
    "declined": pb.WORK_ORDER_STATE_DECLINED,
}
TREE_LEVELS = 8
"""``tree`` walks at most this many levels (the server's depth limit)."""


def add_commands(orders: Any, common: argparse.ArgumentParser) -> None:
    """Adds the record commands to the ``work-orders`` group."""
    create = leaf(
        orders, common, "create", _create, "create a work order: a root, or a child with --parent"
    )
    create.add_argument("work_order", help="the new work order's id")
    create.add_argument("--parent", default="", help="its parent (default: a root)")
    create.add_argument("--title", default="", help="its title")
    create.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                        help="a label (repeat for more)")  # fmt: skip
    create.add_argument("--budget", default="", metavar="MICROCREDITS",
                        help="its budget, carved from its parent's (exact decimal)")  # fmt: skip
    create.add_argument("--action", action="append", default=[], metavar="PATTERN",
                        help="an action permitted in it, e.g. run.* (repeat; default: "
                        "its parent's)")  # fmt: skip

    propose = leaf(
        orders,
        common,
        "propose",
        _propose,
        "propose a child work order (an agent's way): a human approves or declines it",
    )
    propose.add_argument("work_order", help="the proposed work order's id")
    propose.add_argument("--parent", required=True, help="its parent")
    propose.add_argument("--title", default="", help="its title: what the human decides on")
    propose.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                         help="a label (repeat for more)")  # fmt: skip
    propose.add_argument("--budget", default="", metavar="MICROCREDITS",
                         help="its budget, carved from its parent's (exact decimal)")  # fmt: skip
    propose.add_argument("--action", action="append", default=[], metavar="PATTERN",
                         help="an action permitted in it (repeat; default: "
                         "its parent's)")  # fmt: skip

    approve = leaf(orders, common, "approve", _approve, "approve a proposed work order: it opens")
    approve.add_argument("work_order")
    decline = leaf(orders, common, "decline", _decline, "decline a proposed work order, for good")
    decline.add_argument("work_order")
    decline.add_argument("--reason", required=True, help="why (the proposer reads it)")

    listing = leaf(orders, common, "list", _list, "list root work orders, or one's children")
    listing.add_argument("--parent", default="", help="list this work order's children")
    listing.add_argument(
        "--state",
        choices=sorted(_STATES),
        help="only work orders in it (proposed, without --parent: every proposal waiting "
        "for a decision)",
    )
    listing.add_argument("--limit", type=int, default=0, help="page size (default 100)")
    listing.add_argument("--page-token", default="", help="continue a listing")

    tree = leaf(
        orders, common, "tree", _tree, "show a work order's record, runs, spend and subtree"
    )
    tree.add_argument("work_order")

    close = leaf(orders, common, "close", _close, "close a work order whose work is done")
    close.add_argument("work_order")


def _state(record: pb.WorkOrderRecord) -> str:
    name = enum_name(pb.WorkOrderState.Name(record.state), "WORK_ORDER_STATE_").lower()
    if record.state_from and record.state_from != record.work_order_id:
        return f"{name} (by {record.state_from})"
    return name


def _spend(record: pb.WorkOrderRecord) -> str:
    if not record.remaining_microcredits:
        return record.spent_microcredits
    return f"{record.spent_microcredits} ({record.remaining_microcredits} left)"


def _record_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The fields a create and a proposal share, from the command line."""
    return {
        "work_order_id": args.work_order,
        "parent_id": args.parent,
        "title": args.title,
        "labels": parse_labels(args.label),
        "budget_microcredits": args.budget,
        "actions": args.action,
    }


def _create(ctx: Any, args: argparse.Namespace) -> int:
    request = pb.CreateWorkOrderRequest(**_record_fields(args))
    response = ctx.call(ctx.client.work_orders.CreateWorkOrder, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    record = response.work_order
    where = f" under {record.parent_id}" if record.parent_id else " (a root)"
    replayed = " (replayed)" if response.replayed else ""
    ctx.out.line(f"work order {record.work_order_id}{where} {_state(record)}{replayed}")
    return 0


def _propose(ctx: Any, args: argparse.Namespace) -> int:
    request = pb.ProposeWorkOrderRequest(**_record_fields(args))
    response = ctx.call(ctx.client.work_orders.ProposeWorkOrder, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    record = response.work_order
    replayed = " (replayed)" if response.replayed else ""
    ctx.out.line(
        f"work order {record.work_order_id} proposed under {record.parent_id}: "
        f"{_state(record)} until a human decides{replayed}"
    )
    return 0


def _decide(ctx: Any, work_order_id: str, decision: Any, reason: str) -> int:
    response = ctx.call(
        ctx.client.work_orders.DecideWorkOrderProposal,
        pb.DecideWorkOrderProposalRequest(
            work_order_id=work_order_id, decision=decision, reason=reason
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    record = response.work_order
    ctx.out.line(f"work order {record.work_order_id} {_state(record)}")
    return 0


def _approve(ctx: Any, args: argparse.Namespace) -> int:
    return _decide(ctx, args.work_order, pb.PROPOSAL_DECISION_APPROVE, "")


def _decline(ctx: Any, args: argparse.Namespace) -> int:
    return _decide(ctx, args.work_order, pb.PROPOSAL_DECISION_DECLINE, args.reason)


_PROPOSAL_COLUMNS = [
    ident("WORK ORDER"),
    ident("PARENT"),
    ident("BY"),
    Column("BUDGET"),
    Column("ACTIONS", optional=True),
    free_text("TITLE"),
]


def _proposal_row(record: pb.WorkOrderRecord) -> list[str]:
    return [
        record.work_order_id,
        record.parent_id,
        record.creator,
        record.budget_microcredits or "-",
        ", ".join(record.actions) or "its parent's",
        record.title or "-",
    ]


_COLUMNS = [
    ident("WORK ORDER"),
    Column("STATE"),
    Column("CHILDREN", optional=True),
    Column("SPENT"),
    Column("BUDGET", optional=True),
    free_text("TITLE"),
]


def _row(record: pb.WorkOrderRecord) -> list[str]:
    return [
        record.work_order_id,
        _state(record),
        str(record.child_count),
        _spend(record),
        record.budget_microcredits or "-",
        record.title or "-",
    ]


def _list(ctx: Any, args: argparse.Namespace) -> int:
    request = pb.ListWorkOrdersRequest(
        parent_id=args.parent,
        state=_STATES[args.state] if args.state else pb.WORK_ORDER_STATE_UNSPECIFIED,
        page_size=args.limit,
        page_token=args.page_token,
    )
    response = ctx.call(ctx.client.work_orders.ListWorkOrders, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    if args.state == "proposed":  # what a human decides: with parent, proposer, budget
        ctx.out.table(_PROPOSAL_COLUMNS, [_proposal_row(record) for record in response.work_orders])
    else:
        ctx.out.table(_COLUMNS, [_row(record) for record in response.work_orders])
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _tree(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.work_orders.GetWorkOrderRecord,
        pb.GetWorkOrderRecordRequest(work_order_id=args.work_order),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    record = response.work_order
    counts = ", ".join(f"{c.count} {c.state.lower()}" for c in response.run_counts)
    ctx.out.fields(
        [
            ("work order", record.work_order_id),
            ("title", record.title or "-"),
            ("state", _state(record)),
            ("parent", " > ".join(record.ancestors) or "- (a root)"),
            ("created by", record.creator or "- (named by runs or controls)"),
            ("created", local_time(record.created_at_ms)),
            ("labels", ", ".join(f"{k}={v}" for k, v in sorted(record.labels.items())) or "-"),
            ("actions", ", ".join(record.actions) or _inherited_actions(record)),
            ("budget", record.budget_microcredits or "-"),
            ("spent", _spend(record)),
            *(
                [("reserved", f"{record.reserved_microcredits} (by running attempts)")]
                if record.budget_microcredits
                else []
            ),
            ("runs", counts or "none"),
            ("closed", local_time(record.closed_at_ms)),
            *_decision(record),
        ]
    )
    ctx.out.line("")
    ctx.out.line(f"{record.work_order_id}  {_state(record)}")
    _subtree(ctx, record.work_order_id, list(response.children), record.child_count, 1)
    return 0


def _subtree(
    ctx: Any, parent: str, children: list[pb.WorkOrderRecord], count: int, level: int
) -> None:
    """Prints children indented, walking down (GetWorkOrderRecord of each child)."""
    for child in children:
        ctx.out.line(f"{'  ' * level}└ {child.work_order_id}  {_state(child)}  {_spend(child)}")
        if child.child_count and level < TREE_LEVELS:
            below = ctx.call(
                ctx.client.work_orders.GetWorkOrderRecord,
                pb.GetWorkOrderRecordRequest(work_order_id=child.work_order_id),
            )
            _subtree(ctx, child.work_order_id, list(below.children), child.child_count, level + 1)
    if count > len(children):
        more = count - len(children)
        ctx.out.line(f"{'  ' * level}… {more} more: praxis work-orders list --parent {parent}")


def _close(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.work_orders.CloseWorkOrder,
        pb.CloseWorkOrderRequest(work_order_id=args.work_order),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
    else:
        record = response.work_order
        ctx.out.line(f"work order {record.work_order_id} closed {local_time(record.closed_at_ms)}")
    return 0


def _decision(record: pb.WorkOrderRecord) -> list[tuple[str, str]]:
    """The decision fields of a proposed work order (none for one created directly)."""
    if not record.proposed:
        return []
    if not record.decided_by:
        return [("decision", "waiting for a human (praxis work-orders approve|decline)")]
    verb = "declined" if record.decline_reason else "approved"
    reason = f": {record.decline_reason}" if record.decline_reason else ""
    at = local_time(record.decided_at_ms)
    return [("decision", f"{verb} by {record.decided_by} at {at}{reason}")]


def _inherited_actions(record: pb.WorkOrderRecord) -> str:
    """What a work order that narrows no actions permits: its parent's, or for a root
    whatever its principals are granted."""
    return "its parent's" if record.parent_id else "any its principals are granted"
