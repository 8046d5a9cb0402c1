"""Registry decisions: ``review``, ``approve``, ``activate``, ``reject``, ``register`` and
``propose``. It also registers the parsers of :mod:`praxis_cli.commands.waiting`
(``inbox``, ``reconcile``, ``wait``), keeping one order in the reference."""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

import grpc

from aiws.engine.v1 import approval_pb2, common_pb2, registry_pb2
from praxis_cli.commands import waiting
from praxis_cli.commands.common import (
    approval_args,
    check_digest,
    create_approval,
    default_approval_id,
    epochs_of,
    existing_approval,
    group,
    json_argument,
    leaf,
    parse_ref,
    ref_text,
    show_warnings,
)
from praxis_cli.commands.material import show_material
from praxis_cli.errors import CONFLICT, CliError, from_rpc, usage
from praxis_cli.output import local_time, to_dict
from praxis_client.conventions import enum_name

# Review checks a command's shape, which names an approval; the material never includes it.
REVIEW_APPROVAL = "pending-review"


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the decision commands."""
    inbox = leaf(
        commands, common, "inbox", waiting.inbox, "list what waits for a human, oldest first"
    )
    inbox.add_argument(
        "--kind",
        action="append",
        choices=sorted(waiting.INBOX_KINDS),
        default=[],
        help="only items of this kind (repeatable)",
    )
    inbox.add_argument("--work-order", default="", help="only items of this work order")
    inbox.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    inbox.add_argument("--page-token", default="", help="continue a previous listing")

    review = leaf(
        commands,
        common,
        "review",
        _review,
        "show a proposal's exact review material, its diff against the base and its digest",
    )
    _proposal_args(review)
    review.add_argument(
        "--reject",
        metavar="REASON",
        help="review the rejection with this reason instead of the activation",
    )

    approve = leaf(
        commands,
        common,
        "approve",
        _approve,
        "approve the reviewed material of a proposal (bound to its digest)",
    )
    _proposal_args(approve)
    approve.add_argument("--digest", required=True, help="the material digest 'review' printed")
    approve.add_argument(
        "--reject", metavar="REASON", help="approve the rejection with this reason instead"
    )
    approval_args(approve)

    activate = leaf(commands, common, "activate", _activate, "make an approved proposal the head")
    _proposal_args(activate)
    activate.add_argument("--approval", required=True, help="the approval id 'approve' printed")
    activate.add_argument("--dry-run", action="store_true", help=DRY_RUN_HELP)
    activate.add_argument(
        "--request-id",
        help="idempotency key (default: derived from the decision; a retry replays the receipt)",
    )

    reject = leaf(commands, common, "reject", _reject, "reject an approved proposal")
    _proposal_args(reject)
    reject.add_argument("--reason", required=True, help="why (part of the approved material)")
    reject.add_argument("--approval", required=True, help="the approval id of the rejection")
    reject.add_argument("--dry-run", action="store_true", help=DRY_RUN_HELP)
    reject.add_argument(
        "--request-id",
        help="idempotency key (default: derived from the decision; a retry replays the receipt)",
    )

    reg = leaf(
        commands,
        common,
        "register",
        _register,
        "register revision 1 of a ref: without --digest, show the material; with it, "
        "approve and register",
    )
    reg.add_argument("ref", metavar="WORK_ORDER/RUN")
    reg.add_argument("-f", "--file", required=True, help="the definition (JSON; - for stdin)")
    reg.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME=DIGEST",
        help="a protected policy digest (repeatable)",
    )
    reg.add_argument("--digest", help="approve this material digest and register")
    reg.add_argument("--request-id", help="idempotency key (default: derived)")
    approval_args(reg)

    propose = leaf(
        commands,
        common,
        "propose",
        _propose,
        "propose a candidate definition against the head (agents do this)",
    )
    _proposal_args(propose)
    propose.add_argument("-f", "--file", required=True, help="the candidate (JSON; - for stdin)")
    propose.add_argument("--base", type=int, help="the base revision (default: the head's)")
    propose.add_argument("--summary", default="", help="why the change is proposed")
    propose.add_argument("--dry-run", action="store_true", help=DRY_RUN_HELP)
    propose.add_argument(
        "--request-id",
        help="idempotency key (default: derived from the candidate; a retry replays the receipt)",
    )

    rec = leaf(
        commands,
        common,
        "reconcile",
        waiting.reconcile,
        "decide an uncertain effect: without --digest, show the material; with it, "
        "approve and record the decision",
    )
    rec.add_argument("run", help="the run")
    rec.add_argument("attempt", help="the attempt whose effect is uncertain")
    rec.add_argument("--decision", required=True, choices=sorted(waiting.DECISIONS))
    rec.add_argument("--evidence", help="the evidence, a JSON document")
    rec.add_argument("--evidence-file", help="the evidence as a JSON file")
    rec.add_argument(
        "--result",
        help="applied, for an attempt that reported no result: the result the node "
        "completes with (JSON, under its output contract)",
    )
    rec.add_argument("--digest", help="approve this material digest and record the decision")
    rec.add_argument("--request-id", help="idempotency key (default: derived)")
    approval_args(rec)

    waits = group(commands, "wait", "human-input, timer and authorization waits of runs")
    satisfy = leaf(
        waits,
        common,
        "satisfy",
        waiting.satisfy,
        "satisfy a pending wait with a payload. An authorization wait: without --digest, "
        "show the exact action it authorises with this payload and its material digest; "
        "with it, approve that material and satisfy the wait (or name an earlier "
        "approval with --approval)",
    )
    satisfy.add_argument("wait_id")
    satisfy.add_argument("--payload", help="the payload, a JSON document")
    satisfy.add_argument("-f", "--file", help="the payload as a JSON file")
    satisfy.add_argument(
        "--digest", help="authorization waits: approve this material digest and satisfy"
    )
    satisfy.add_argument(
        "--approval", help="authorization waits: satisfy with this existing approval"
    )
    satisfy.add_argument("--request-id", help="idempotency key (default: derived)")
    approval_args(satisfy)
    answering = leaf(
        waits,
        common,
        "answer",
        waiting.answer,
        "answer a human-input wait: shows its question and asks for the answer by the "
        "form its schema asks for (text, a choice, yes or no, a whole number, one field "
        "per property, or JSON), or takes it from --value or --payload; the server refuses "
        "an answer that breaks the schema, with the reasons, and stores nothing",
    )
    answering.add_argument("wait_id")
    answering.add_argument(
        "--value", help="the answer as typed: a text, a choice, yes/no or a whole number"
    )
    answering.add_argument(
        "--payload",
        help="the answer as a JSON document (--json is the output flag: print the wait as JSON)",
    )
    answering.add_argument("--request-id", help="idempotency key (default: derived)")
    show = leaf(waits, common, "show", waiting.wait_show, "show one wait")
    show.add_argument("wait_id")
    listing = leaf(waits, common, "list", waiting.wait_list, "list a run's waits")
    listing.add_argument("run")


def _proposal_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ref", metavar="WORK_ORDER/RUN", help="the ref")
    parser.add_argument("proposal", help="the proposal id")


# --- registry decisions ----------------------------------------------------------------


def _decision(
    ctx: Any,
    args: argparse.Namespace,
    reject_reason: str | None,
    approval_id: str = REVIEW_APPROVAL,
) -> tuple[registry_pb2.Proposal, common_pb2.Epochs, registry_pb2.RegistryCommand]:
    ref = parse_ref(args.ref)
    proposal = ctx.call(
        ctx.client.registry.GetProposal,
        registry_pb2.GetProposalRequest(ref=ref, proposal_id=args.proposal),
    ).proposal
    if reject_reason is not None:
        command = registry_pb2.RegistryCommand(
            reject=registry_pb2.RejectCommand(
                ref=ref, proposal_id=args.proposal, reason=reject_reason, approval_id=approval_id
            )
        )
    else:
        command = registry_pb2.RegistryCommand(
            activate=registry_pb2.ActivateCommand(
                ref=ref,
                proposal_id=args.proposal,
                base_revision=proposal.base_revision,
                next_revision=proposal.base_revision + 1,
                approval_id=approval_id,
            )
        )
    return proposal, epochs_of(ctx, ref.work_order_id), command


def _material(
    ctx: Any, epochs: common_pb2.Epochs, command: registry_pb2.RegistryCommand
) -> registry_pb2.ReviewResponse:
    request = registry_pb2.ReviewRequest(epochs=epochs, command=command)
    return ctx.call(ctx.client.registry.Review, request)  # type: ignore[no-any-return]


def _review(ctx: Any, args: argparse.Namespace) -> int:
    proposal, epochs, command = _decision(ctx, args, args.reject)
    review = _material(ctx, epochs, command)
    show_warnings(ctx, review.warnings)
    show_material(ctx, review, {"summary": proposal.summary} if proposal.summary else {})
    if not ctx.out.as_json:
        flag = f" --reject {json.dumps(args.reject)}" if args.reject is not None else ""
        ctx.out.line(
            f"approve with: praxis approve {args.ref} {args.proposal} "
            f"--digest {review.material_digest}{flag}"
        )
    return 0


def _approve(ctx: Any, args: argparse.Namespace) -> int:
    _, epochs, command = _decision(ctx, args, args.reject)
    review = _material(ctx, epochs, command)
    check_digest(args.digest, review.material_digest)
    approval = create_approval(ctx, args, review.material_digest, parse_ref(args.ref).work_order_id)
    if ctx.out.as_json:
        ctx.out.json(to_dict(approval))
        return 0
    verb = "reject" if args.reject is not None else "activate"
    ctx.out.line(
        f"approval {approval.approval_id} of {review.material_digest}, expires "
        f"{local_time(approval.expires_at_ms)}"
    )
    extra = f" --reason {json.dumps(args.reject)}" if args.reject is not None else ""
    ctx.out.line(
        f"{verb} with: praxis {verb} {args.ref} {args.proposal}{extra} "
        f"--approval {approval.approval_id}"
    )
    return 0


DRY_RUN_HELP = "check it and show the receipt it would get; store nothing"


def request_id_of(verb: str, command: registry_pb2.RegistryCommand) -> str:
    """The request id of a decision when the caller names none: derived from the whole
    command (ref, proposal, revisions, reason, approval), so that a retry of the same
    decision replays its receipt while another decision, say the same proposal id in
    another ref or another reason under an approval, can never collide with it."""
    digest = hashlib.sha256(command.SerializeToString(deterministic=True)).hexdigest()
    return f"cli-{verb}-{digest[:32]}"


def _execute(
    ctx: Any,
    epochs: common_pb2.Epochs,
    request_id: str,
    command: registry_pb2.RegistryCommand,
    chosen: bool,
    dry_run: bool = False,
) -> int:
    """Executes ``command``; ``chosen`` when the caller gave the request id; ``dry_run``:
    checks it and shows the receipt it would get, storing nothing."""
    request = registry_pb2.ExecuteRequest(
        epochs=epochs, request_id=request_id, command=command, dry_run=dry_run
    )
    try:
        response = ctx.call(ctx.client.registry.Execute, request)
    except grpc.RpcError as error:
        if from_rpc(error).reason != "REQUEST_ID_REUSED":
            raise
        raise _reused(request_id, chosen) from error
    receipt = response.receipt
    show_warnings(ctx, response.warnings)
    if ctx.out.as_json:
        warnings = [to_dict(w) for w in response.warnings]
        found = {"receipt": to_dict(receipt), "replayed": response.replayed, "warnings": warnings}
        ctx.out.json(found | ({"dry_run": True} if response.dry_run else {}))
        return 0
    action = enum_name(registry_pb2.RegistryAction.Name(receipt.action), "REGISTRY_ACTION_")
    said = "dry run: would commit" if response.dry_run else "committed"
    ctx.out.fields(
        [
            (said, f"{action} of {ref_text(receipt.ref)}"),
            ("head", f"revision {receipt.head_revision} {receipt.head_digest}"),
            ("proposal", receipt.proposal_id or "-"),
            ("approval", receipt.approval_id or "-"),
            ("request id", receipt.request_id),
            ("at", local_time(receipt.committed_at_ms)),
            (
                "replayed",
                "yes: the original receipt; nothing changed" if response.replayed else "no",
            ),
        ]
    )
    return 0


def _reused(request_id: str, chosen: bool) -> CliError:
    """REQUEST_ID_REUSED said in the CLI's terms: what the id was, and what to do."""
    if chosen:
        what = f"--request-id {request_id!r} was already used by you for a different command"
    else:
        what = (
            f"the request id derived from this decision, {request_id!r}, was already used "
            "by you for a different command"
        )
    return CliError(
        "REQUEST_ID_REUSED",
        f"{what} (a request id names one command per caller): to see that command's "
        "receipt, repeat it exactly; for this one, pass a new --request-id",
        CONFLICT,
    )


def _activate(ctx: Any, args: argparse.Namespace) -> int:
    return _decide(ctx, args, None)


def _reject(ctx: Any, args: argparse.Namespace) -> int:
    return _decide(ctx, args, args.reason)


def _decide(ctx: Any, args: argparse.Namespace, reject_reason: str | None) -> int:
    verb = "activate" if reject_reason is None else "reject"
    _, epochs, command = _decision(ctx, args, reject_reason, args.approval)
    request_id = args.request_id or request_id_of(verb, command)
    try:
        return _execute(ctx, epochs, request_id, command, bool(args.request_id), args.dry_run)
    except grpc.RpcError as error:
        problem = from_rpc(error)
        if problem.reason not in ("APPROVAL_CONSUMED", "APPROVAL_MISMATCH"):
            raise
        raise _approval_problem(ctx, args, reject_reason, problem) from error


def _approval_problem(
    ctx: Any, args: argparse.Namespace, reject_reason: str | None, problem: CliError
) -> CliError:
    """An approval that cannot decide this: what it was used for, or what it approves,
    and how to approve this decision instead."""
    try:
        approval = ctx.call(
            ctx.client.approvals.GetApproval,
            approval_pb2.GetApprovalRequest(approval_id=args.approval),
        ).approval
    except grpc.RpcError:
        return problem
    flag = f" --reject {json.dumps(reject_reason)}" if reject_reason is not None else ""
    again = f"review and approve this decision: praxis review {args.ref} {args.proposal}{flag}"
    if problem.reason == "APPROVAL_CONSUMED":
        what = (
            f"approval {args.approval} was already used, by request "
            f"{approval.consumed_by_request_id} at {local_time(approval.consumed_at_ms)}; "
            "an approval decides once"
        )
    else:
        decision = f"of {args.proposal} in {args.ref}"
        decision = (
            f"the activation {decision}"
            if reject_reason is None
            else f"the rejection {decision} with this reason"
        )
        what = (
            f"approval {args.approval} approves other material ({approval.material_digest}), "
            f"not {decision}"
        )
    return CliError(problem.reason, f"{what}: {again}", problem.exit_code)


def _policies(specs: list[str]) -> dict[str, str]:
    policies: dict[str, str] = {}
    for spec in specs:
        name, equals, digest = spec.partition("=")
        if not equals or not name:
            raise usage(f"--policy {spec!r}: write NAME=sha256:<hex>")
        policies[name] = digest
    return policies


def _register(ctx: Any, args: argparse.Namespace) -> int:
    ref = parse_ref(args.ref)
    definition = json_argument(None, args.file, "the definition")
    command = registry_pb2.RegistryCommand(
        register=registry_pb2.RegisterCommand(
            ref=ref,
            definition_json=definition,
            policy_digests=_policies(args.policy),
            approval_id=REVIEW_APPROVAL,
        )
    )
    epochs = epochs_of(ctx, ref.work_order_id)
    try:
        review = _material(ctx, epochs, command)
    except grpc.RpcError as error:
        retry = _registered_retry(ctx, args, error)
        if retry is None:
            raise
        command.register.approval_id = retry
        return _execute(
            ctx,
            epochs,
            args.request_id or f"cli-register-{args.digest[7:31]}",
            command,
            bool(args.request_id),
        )
    if not args.digest:
        show_warnings(ctx, review.warnings)
        show_material(ctx, review, {})
        if not ctx.out.as_json:
            ctx.out.line(
                f"register with: praxis register {args.ref} -f {args.file} "
                + "".join(f"--policy {p} " for p in args.policy)
                + f"--digest {review.material_digest}"
            )
        return 0
    check_digest(args.digest, review.material_digest)
    approval = create_approval(ctx, args, review.material_digest, ref.work_order_id)
    command.register.approval_id = approval.approval_id
    request_id = args.request_id or f"cli-register-{review.material_digest[7:31]}"
    return _execute(ctx, epochs, request_id, command, bool(args.request_id))


def _registered_retry(ctx: Any, args: argparse.Namespace, error: grpc.RpcError) -> str | None:
    """The approval of an earlier ``register --digest`` by this caller, when this is its
    retry: the ref is registered now, so the material can no longer be reviewed, and the
    command is sent again as it was so that the server replays its receipt."""
    if not args.digest or args.approval_id or from_rpc(error).reason != "REF_ALREADY_REGISTERED":
        return None
    approval_id = default_approval_id(ctx, args.digest)
    existing = existing_approval(ctx, approval_id, args.digest)
    return approval_id if existing is not None else None


def _propose(ctx: Any, args: argparse.Namespace) -> int:
    ref = parse_ref(args.ref)
    definition = json_argument(None, args.file, "the candidate")
    head = ctx.call(ctx.client.registry.GetHead, registry_pb2.GetHeadRequest(ref=ref)).head
    command = registry_pb2.RegistryCommand(
        propose=registry_pb2.ProposeCommand(
            ref=ref,
            proposal_id=args.proposal,
            base_revision=args.base if args.base is not None else head.revision,
            definition_json=definition,
            policy_digests=dict(head.policy_digests),
            summary=args.summary,
        )
    )
    request_id = args.request_id or request_id_of("propose", command)
    epochs = epochs_of(ctx, ref.work_order_id)
    return _execute(ctx, epochs, request_id, command, bool(args.request_id), args.dry_run)
