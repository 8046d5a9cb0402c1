"""Approvals: ``approvals show`` and ``approvals renew``, which settles an inbox item of
kind APPROVAL_EXPIRING.

Renewing approves the same material digest for the same purpose again, as the caller,
with a new expiry (ApprovalService.CreateApproval): the approval it renews stays as it
was (an approval cannot be changed), and leaves the inbox because the renewal outlives
its last hour. The same human approving the same material shares one proof, so using
either approval uses both: renewing never lets one decision be used twice. A consumed
approval is not renewed (its proof is used: the renewal would be born consumed).
"""

from __future__ import annotations

import argparse
from typing import Any

import grpc

from aiws.engine.v1 import approval_pb2 as pb
from praxis_cli.commands.common import existing_approval, group, leaf, parse_moment
from praxis_cli.errors import CONFLICT, CliError
from praxis_cli.output import local_time, to_dict
from praxis_client.conventions import RENEWAL_ROUNDS, enum_name, is_renewal, renewal_ids

DEFAULT_RENEWAL = "1d"
"""A renewal outlives the inbox's hour before expiry by default."""


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``approvals`` group."""
    approvals = group(commands, "approvals", "approvals: what they approve, and renewing them")
    show = leaf(approvals, common, "show", _show, "an approval: its material, purpose, expiry")
    show.add_argument("approval")
    renew = leaf(
        approvals,
        common,
        "renew",
        _renew,
        "approve an approval's material and purpose again with a new expiry (a human)",
    )
    renew.add_argument("approval", help="the approval to renew (e.g. from the inbox)")
    renew.add_argument(
        "--expires",
        default=DEFAULT_RENEWAL,
        metavar="WHEN",
        help=f"when the renewal expires (default {DEFAULT_RENEWAL}; at most 7d)",
    )
    renew.add_argument(
        "--approval-id", help="the renewal's id (default: derived from the approval and you)"
    )
    renew.add_argument(
        "--work-order",
        default="",
        help="the work order whose approval.create grant you approve under "
        "(default: an installation-wide grant; approvals do not record it)",
    )


def _get(ctx: Any, approval_id: str) -> pb.Approval:
    request = pb.GetApprovalRequest(approval_id=approval_id)
    return ctx.call(ctx.client.approvals.GetApproval, request).approval  # type: ignore[no-any-return]


def _show(ctx: Any, args: argparse.Namespace) -> int:
    found = _get(ctx, args.approval)
    if ctx.out.as_json:
        ctx.out.json(to_dict(found))
        return 0
    ctx.out.fields(_facts(found))
    return 0


def _facts(a: pb.Approval) -> list[tuple[str, str]]:
    used = (
        f"{local_time(a.consumed_at_ms)} by request {a.consumed_by_request_id}"
        if a.consumed_at_ms
        else "-"
    )
    return [
        ("approval", a.approval_id),
        ("state", enum_name(pb.ApprovalState.Name(a.state), "APPROVAL_STATE_")),
        ("material", a.material_digest),
        ("purpose", a.purpose or "-"),
        ("approver", a.approver_id),
        ("given", local_time(a.created_at_ms)),
        ("expires", local_time(a.expires_at_ms)),
        ("used", used),
    ]


def _renew(ctx: Any, args: argparse.Namespace) -> int:
    old = _get(ctx, args.approval)
    if old.state == pb.APPROVAL_STATE_CONSUMED:
        raise CliError(
            "APPROVAL_CONSUMED",
            f"approval {old.approval_id} was used by request {old.consumed_by_request_id} "
            f"at {local_time(old.consumed_at_ms)}: there is nothing left to renew",
            CONFLICT,
        )
    expires = parse_moment(args.expires, "--expires")
    renewal, replayed = _renewal(ctx, args, old, expires)
    if ctx.out.as_json:
        ctx.out.json({"renewed": to_dict(old), "approval": to_dict(renewal), "replayed": replayed})
        return 0
    ctx.out.line(f"renewing approval {old.approval_id}:")
    ctx.out.fields(_facts(old))
    again = " (already renewed: replayed)" if replayed else ""
    ctx.out.line(
        f"renewed as {renewal.approval_id} by {renewal.approver_id}, expires "
        f"{local_time(renewal.expires_at_ms)}{again}"
    )
    return 0


def _renewal(
    ctx: Any, args: argparse.Namespace, old: pb.Approval, expires_at_ms: int
) -> tuple[pb.Approval, bool]:
    """The renewal, and whether it existed already: a named id that already approves the
    same material is that renewal (a retry: its expiry, computed anew, would differ); a
    derived one is reused while it is an active approval of the same material, so a
    retried renewal does not mint a second one."""
    if args.approval_id:
        named = existing_approval(ctx, args.approval_id, old.material_digest)
        if named is not None:
            return named, True
        return _create(ctx, args, old, args.approval_id, expires_at_ms)
    for candidate in renewal_ids(old.approval_id, ctx.connection().token or ""):
        existing = _existing(ctx, candidate)
        if existing is None:
            return _create(ctx, args, old, candidate, expires_at_ms)
        if is_renewal(existing, old):
            return existing, True
    raise CliError(
        "APPROVAL_ALREADY_EXISTS",
        f"approval {old.approval_id} was renewed {RENEWAL_ROUNDS} times: name the renewal "
        "with --approval-id",
        CONFLICT,
    )


def _existing(ctx: Any, approval_id: str) -> pb.Approval | None:
    try:
        return _get(ctx, approval_id)
    except grpc.RpcError as error:
        if error.code() is not grpc.StatusCode.NOT_FOUND:
            raise
        return None


def _create(
    ctx: Any, args: argparse.Namespace, old: pb.Approval, approval_id: str, expires_at_ms: int
) -> tuple[pb.Approval, bool]:
    request = pb.CreateApprovalRequest(
        approval_id=approval_id,
        material_digest=old.material_digest,
        expires_at_ms=expires_at_ms,
        work_order_id=args.work_order,
        purpose=old.purpose,
    )
    response = ctx.call(ctx.client.approvals.CreateApproval, request)
    return response.approval, response.replayed
