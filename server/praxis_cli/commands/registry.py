"""``praxis registry refs|head|history|proposal`` and ``praxis contracts list``."""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import contract_pb2, registry_pb2
from praxis_cli.commands.common import group, leaf, parse_ref, pretty_json, ref_text
from praxis_cli.output import Column, ident, local_time, to_dict
from praxis_client.conventions import enum_name


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``registry`` group."""
    registry = group(commands, "registry", "read the governed registry")
    refs = leaf(registry, common, "refs", _refs, "list registered refs and their heads")
    refs.add_argument("--work-order", default="", help="only refs of this work order")
    refs.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    refs.add_argument("--page-token", default="", help="continue a previous listing")
    head = leaf(registry, common, "head", _head, "show a ref's current head")
    head.add_argument("ref", metavar="WORK_ORDER/RUN")
    head.add_argument("--definition", action="store_true", help="also print the definition")
    history = leaf(registry, common, "history", _history, "list a ref's history, oldest first")
    history.add_argument("ref", metavar="WORK_ORDER/RUN")
    history.add_argument("--after", type=int, default=0, help="events after this seq")
    history.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    proposal = leaf(registry, common, "proposal", _proposal, "show one proposal")
    proposal.add_argument("ref", metavar="WORK_ORDER/RUN")
    proposal.add_argument("proposal")

    contracts = group(commands, "contracts", "contracts: budgets, spend and deadlines")
    listing = leaf(contracts, common, "list", _contracts, "list contracts with their spend")
    listing.add_argument("--work-order", default="", help="only contracts of this work order")
    listing.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    listing.add_argument("--page-token", default="", help="continue a previous listing")


def _refs(ctx: Any, args: argparse.Namespace) -> int:
    request = registry_pb2.ListRefsRequest(
        work_order_id=args.work_order, page_size=args.limit, page_token=args.page_token
    )
    response = ctx.call(ctx.client.registry.ListRefs, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(
        [
            ident("REF"),
            Column("REVISION"),
            ident("BOUND RUN"),
            Column("UPDATED", optional=True),
            ident("DIGEST", optional=True),
        ],
        [
            [
                ref_text(h.ref),
                str(h.revision),
                h.bound_run_id or "-",
                local_time(h.updated_at_ms),
                h.definition_digest,
            ]
            for h in response.heads
        ],
    )
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _contracts(ctx: Any, args: argparse.Namespace) -> int:
    request = contract_pb2.ListContractsRequest(
        work_order_id=args.work_order, page_size=args.limit, page_token=args.page_token
    )
    response = ctx.call(ctx.client.contracts.ListContracts, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(
        ["CONTRACT", "WORK ORDER", "BUDGET", "SPENT", "RESERVED", "REMAINING", "DEADLINE"],
        [
            [
                c.contract_id,
                c.work_order_id,
                c.budget_microcredits,
                c.spent_microcredits,
                c.reserved_microcredits,
                c.remaining_microcredits,
                local_time(c.deadline_ms),
            ]
            for c in response.contracts
        ],
    )
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _head(ctx: Any, args: argparse.Namespace) -> int:
    request = registry_pb2.GetHeadRequest(ref=parse_ref(args.ref))
    head = ctx.call(ctx.client.registry.GetHead, request).head
    if ctx.out.as_json:
        ctx.out.json(to_dict(head))
        return 0
    binding = enum_name(
        registry_pb2.ExecutionBinding.Name(head.execution_binding), "EXECUTION_BINDING_"
    )
    ctx.out.fields(
        [
            ("ref", ref_text(head.ref)),
            ("revision", str(head.revision)),
            ("digest", head.definition_digest),
            ("binding", binding + (f" (run {head.bound_run_id})" if head.bound_run_id else "")),
            ("policies", ", ".join(f"{k}={v}" for k, v in sorted(head.policy_digests.items()))),
            ("updated", local_time(head.updated_at_ms)),
        ]
    )
    if args.definition:
        ctx.out.line(pretty_json(head.definition_json))
    return 0


def _history(ctx: Any, args: argparse.Namespace) -> int:
    request = registry_pb2.ListHistoryRequest(
        ref=parse_ref(args.ref), after=args.after, limit=args.limit
    )
    response = ctx.call(ctx.client.registry.ListHistory, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(
        ["SEQ", "EVENT", "REVISION", "PROPOSAL", "BY", "APPROVAL", "AT", "REASON"],
        [
            [
                str(e.seq),
                enum_name(registry_pb2.HistoryEventKind.Name(e.kind), "HISTORY_EVENT_KIND_"),
                str(e.revision),
                e.proposal_id or "-",
                e.principal_id,
                e.approval_id or "-",
                local_time(e.at_ms),
                e.reason,
            ]
            for e in response.events
        ],
    )
    if response.has_more:
        ctx.out.line(f"more: --after {response.next_after}")
    return 0


def _proposal(ctx: Any, args: argparse.Namespace) -> int:
    request = registry_pb2.GetProposalRequest(ref=parse_ref(args.ref), proposal_id=args.proposal)
    proposal = ctx.call(ctx.client.registry.GetProposal, request).proposal
    if ctx.out.as_json:
        ctx.out.json(to_dict(proposal))
        return 0
    ctx.out.fields(
        [
            ("ref", ref_text(proposal.ref)),
            ("proposal", proposal.proposal_id),
            (
                "state",
                enum_name(registry_pb2.ProposalState.Name(proposal.state), "PROPOSAL_STATE_"),
            ),
            ("base", f"revision {proposal.base_revision}"),
            ("candidate", proposal.candidate_digest),
            ("proposed", f"{local_time(proposal.created_at_ms)} by {proposal.proposed_by}"),
            ("summary", proposal.summary or "-"),
            (
                "decided",
                f"{local_time(proposal.decided_at_ms)} by {proposal.decided_by}"
                if proposal.decided_at_ms
                else "-",
            ),
            ("rejection", proposal.rejection_reason or "-"),
        ]
    )
    return 0
