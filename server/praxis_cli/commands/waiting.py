"""The inbox, reconciliations and waits: ``inbox``, ``reconcile``, ``wait ...``."""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Sequence
from typing import Any

from aiws.engine.v1 import common_pb2, run_pb2, wait_pb2
from aiws.engine.v1 import inbox_pb2 as ib
from aiws.engine.v1 import reconciliation_pb2 as rc
from praxis_cli.commands.common import check_digest, create_approval, epochs_of, json_argument
from praxis_cli.errors import usage
from praxis_cli.output import Column, enum_name, free_text, ident, local_time, to_dict

INBOX_KINDS = {
    "proposal": ib.INBOX_ITEM_KIND_PROPOSAL,
    "reconciliation": ib.INBOX_ITEM_KIND_RECONCILIATION,
    "human-input": ib.INBOX_ITEM_KIND_HUMAN_INPUT,
    "authorization": ib.INBOX_ITEM_KIND_AUTHORIZATION,
    "hold": ib.INBOX_ITEM_KIND_HOLD,
    "stuck-run": ib.INBOX_ITEM_KIND_STUCK_RUN,
    "acceptance": ib.INBOX_ITEM_KIND_ACCEPTANCE,
    "verification": ib.INBOX_ITEM_KIND_VERIFICATION,
    "handoff": ib.INBOX_ITEM_KIND_HANDOFF,
    "approval-expiring": ib.INBOX_ITEM_KIND_APPROVAL_EXPIRING,
}
DECISIONS = {
    "applied": rc.RECONCILIATION_DECISION_APPLIED,
    "not-applied": rc.RECONCILIATION_DECISION_NOT_APPLIED,
}


# --- inbox -------------------------------------------------------------------------------


def inbox(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.inbox.ListInbox,
        ib.ListInboxRequest(
            kinds=[INBOX_KINDS[kind] for kind in args.kind],
            work_order_id=args.work_order,
            page_size=args.limit,
            page_token=args.page_token,
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    counts = ", ".join(
        f"{enum_name(ib.InboxItemKind.Name(c.kind), 'INBOX_ITEM_KIND_').lower()} {c.count}"
        for c in response.counts
        if c.count  # the kinds with something waiting
    )
    ctx.out.line(f"{response.total} waiting" + (f" ({counts})" if counts else ""))
    ctx.out.table(
        [
            Column("SINCE", optional=True),
            Column("KIND"),
            ident("WORK ORDER", optional=True),
            ident("RUN"),
            ident("ITEM"),
            free_text("SUMMARY"),
        ],
        [
            [
                local_time(i.since_ms),
                enum_name(ib.InboxItemKind.Name(i.kind), "INBOX_ITEM_KIND_"),
                i.work_order_id or "-",
                i.run_id or "-",
                _subject_id(i),
                i.summary,
            ]
            for i in response.items
        ],
    )
    stuck = [i.stuck_run for i in response.items if i.WhichOneof("subject") == "stuck_run"]
    for line in [*_stuck_actions(stuck), *_owed_actions(response.items)]:
        ctx.out.line(line)
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _stuck_actions(stuck: list[ib.StuckRun]) -> list[str]:
    """What a human can do about each stuck run: serve its model, or stop it."""
    if not stuck:
        return []
    lines = ["", "stuck runs: start a worker for the model (see docs/workers.md), or stop the run:"]
    for s in stuck:
        workers = "its workers are busy" if s.served else "no worker serves it"
        deadline = (
            f"; fails unclaimed at {local_time(s.schedule_to_start_deadline_ms)}"
            if s.schedule_to_start_deadline_ms
            else ""
        )
        needs = f"node {s.node_uid} needs model {s.model!r}"
        lines.append(f"  {s.run_id}: {needs} ({workers}{deadline})")
        lines.append(f"    praxis runs stop {s.run_id} --reason 'no worker for {s.model}'")
    return lines


def _owed_actions(items: Sequence[ib.InboxItem]) -> list[str]:
    """The command that settles each owed assessment, handoff and expiring approval."""
    lines = []
    for item in items:
        kind = item.WhichOneof("subject")
        if kind == "assessment_due":
            verb = "accept" if item.kind == ib.INBOX_ITEM_KIND_ACCEPTANCE else "verify"
            lines.append(
                f"  praxis assess show {item.run_id} && praxis assess {verb} {item.run_id}"
            )
        elif kind == "handoff":
            receiver = item.handoff.to_principal_id
            lines.append(f"  praxis handoffs ack {item.handoff.delivery_id}  (as {receiver})")
        elif kind == "approval":
            expires = local_time(item.approval.expires_at_ms)
            lines.append(
                f"  praxis approvals renew {item.approval.approval_id}  (or use it before "
                f"{expires})"
            )
    return ["", "to settle them:", *lines] if lines else []


def _subject_id(item: ib.InboxItem) -> str:
    kind = item.WhichOneof("subject")
    if kind == "proposal":
        return item.proposal.proposal_id
    if kind == "reconciliation":
        return item.reconciliation.attempt_id
    if kind == "wait":
        return item.wait.wait_id
    if kind == "stuck_run":
        return item.stuck_run.node_uid
    if kind == "handoff":
        return item.handoff.delivery_id
    if kind == "approval":
        return item.approval.approval_id
    if kind == "assessment_due":
        return enum_name(ib.InboxItemKind.Name(item.kind), "INBOX_ITEM_KIND_").lower()
    return item.item_id


# --- reconciliations and waits -----------------------------------------------------------


def reconcile(ctx: Any, args: argparse.Namespace) -> int:
    evidence = json_argument(args.evidence, args.evidence_file, "the evidence")
    if not evidence:
        raise usage("the evidence is required: --evidence JSON or --evidence-file FILE")
    run = ctx.call(ctx.client.runs.GetRun, run_pb2.GetRunRequest(run_id=args.run)).run
    work_order = run.ref.work_order_id
    epochs = epochs_of(ctx, work_order or "_")  # an ad hoc run: the installation, epochs 1 and 1
    if not work_order:
        epochs = common_pb2.Epochs(
            installation_id=epochs.installation_id, ownership_epoch=1, authority_epoch=1
        )
    decision = DECISIONS[args.decision]
    review = ctx.call(
        ctx.client.reconciliations.ReviewReconciliation,
        rc.ReviewReconciliationRequest(
            epochs=epochs,
            attempt_id=args.attempt,
            decision=decision,
            evidence_json=evidence,
            result_json=args.result or "",
        ),
    )
    if not args.digest:
        if ctx.out.as_json:
            ctx.out.json(
                {"material": to_dict(review.material), "material_digest": review.material_digest}
            )
            return 0
        m = review.material
        ctx.out.fields(
            [
                ("run", m.run_id),
                ("node", m.node_uid),
                ("attempt", m.attempt_id),
                ("operation", m.operation_id),
                (
                    "attempt outcome",
                    "completed with a result" if m.completed else "failed or ended unreported",
                ),
                ("decision", args.decision),
                ("evidence", evidence.strip()),
                ("evidence digest", m.evidence_digest),
                ("result digest", m.result_digest or "-"),
            ]
        )
        ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")
        return 0
    check_digest(args.digest, review.material_digest)
    approval = create_approval(ctx, args, review.material_digest, work_order)
    response = ctx.call(
        ctx.client.reconciliations.Reconcile,
        rc.ReconcileRequest(
            epochs=epochs,
            request_id=args.request_id or f"cli-reconcile-{review.material_digest[7:31]}",
            attempt_id=args.attempt,
            decision=decision,
            evidence_json=evidence,
            approval_id=approval.approval_id,
            result_json=args.result or "",
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(
            {"reconciliation": to_dict(response.reconciliation), "replayed": response.replayed}
        )
    else:
        ctx.out.line(
            f"reconciled attempt {args.attempt}: {args.decision}"
            + (" (replayed)" if response.replayed else "")
        )
    return 0


def _wait_row(w: wait_pb2.Wait) -> list[str]:
    return [
        w.wait_id,
        w.run_id,
        w.node_uid,
        enum_name(wait_pb2.WaitKind.Name(w.kind), "WAIT_KIND_"),
        enum_name(wait_pb2.WaitState.Name(w.state), "WAIT_STATE_"),
        local_time(w.expires_at_ms),
        w.satisfied_by or "-",
    ]


_WAIT_COLUMNS = [
    ident("WAIT"),
    ident("RUN"),
    ident("NODE"),
    Column("KIND"),
    Column("STATE"),
    Column("EXPIRES", optional=True),
    ident("SATISFIED BY", optional=True),
]


def satisfy(ctx: Any, args: argparse.Namespace) -> int:
    payload = json_argument(args.payload, args.file, "the payload")
    if not payload:
        raise usage("the payload is required: --payload JSON or -f FILE")
    approval_id = args.approval or ""
    if not approval_id:
        wait = ctx.call(
            ctx.client.waits.GetWait, wait_pb2.GetWaitRequest(wait_id=args.wait_id)
        ).wait
        if wait.kind == wait_pb2.WAIT_KIND_AUTHORIZATION:
            approval_id = _authorization(ctx, args, payload)
            if not approval_id:
                return 0  # the material was shown; nothing was approved or satisfied
        elif args.digest:
            raise usage("--digest applies to authorization waits only")
    elif args.digest:
        raise usage("give --digest (approve here) or --approval (approved before), not both")
    # Derived from the wait, the payload and the approval: a retry replays its receipt,
    # while another payload is answered on its own merits (say, the wait is already
    # satisfied) instead of REQUEST_ID_REUSED.
    named = f"\x00{approval_id}" if approval_id else ""
    digest = hashlib.sha256(f"{args.wait_id}\x00{payload}{named}".encode()).hexdigest()
    request_id = args.request_id or f"cli-satisfy-{digest[:32]}"
    response = ctx.call(
        ctx.client.waits.SatisfyWait,
        wait_pb2.SatisfyWaitRequest(
            request_id=request_id,
            wait_id=args.wait_id,
            payload_json=payload,
            approval_id=approval_id,
        ),
    )
    if ctx.out.as_json:
        ctx.out.json({"wait": to_dict(response.wait), "replayed": response.replayed})
    else:
        ctx.out.line(
            f"satisfied wait {args.wait_id}"
            + (f" with approval {approval_id}" if approval_id else "")
            + (" (replayed)" if response.replayed else "")
        )
    return 0


def _authorization(ctx: Any, args: argparse.Namespace, payload: str) -> str:
    """An authorization wait: without ``--digest``, shows the material of satisfying it
    with the payload (and returns ""); with it, approves that material, as reviewed, and
    returns the approval's id."""
    review = ctx.call(
        ctx.client.waits.ReviewWait,
        wait_pb2.ReviewWaitRequest(wait_id=args.wait_id, payload_json=payload),
    )
    m = review.material
    if not args.digest:
        if ctx.out.as_json:
            ctx.out.json(
                {"material": to_dict(review.material), "material_digest": review.material_digest}
            )
            return ""
        ctx.out.fields(
            [
                ("run", m.run_id),
                ("work order", m.work_order_id or "- (ad hoc run)"),
                ("wait", f"{m.wait_id} (node {m.node_uid})"),
                ("expires", local_time(m.expires_at_ms)),
                ("purpose", m.purpose or "-"),
                ("payload", payload.strip()),
                ("payload digest", m.payload_digest),
                (
                    "epochs",
                    f"installation {m.epochs.installation_id}, ownership "
                    f"{m.epochs.ownership_epoch}, authority {m.epochs.authority_epoch}",
                ),
            ]
        )
        ctx.out.line("authorises:")
        ctx.out.table(_ACTION_COLUMNS, [_action_row(a) for a in m.actions])
        ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")
        ctx.out.line(
            f"approve and satisfy with: praxis wait satisfy {args.wait_id} --payload "
            f"'{payload.strip()}' --digest {review.material_digest}"
        )
        return ""
    check_digest(args.digest, review.material_digest)
    approval = create_approval(ctx, args, review.material_digest, m.work_order_id, m.purpose)
    return str(approval.approval_id)


_ACTION_COLUMNS = [
    ident("NODE"),
    ident("MODEL"),
    ident("OPERATION"),
    ident("INPUT DIGEST"),
    ident("SPEC DIGEST", optional=True),
]


def _action_row(action: wait_pb2.AuthorizedAction) -> list[str]:
    return [
        action.node_uid,
        action.model,
        action.operation_id or ("- (fan-out: per item)" if action.fanout else "-"),
        action.input_digest or "- (not known yet)",
        action.spec_digest,
    ]


def wait_show(ctx: Any, args: argparse.Namespace) -> int:
    wait = ctx.call(ctx.client.waits.GetWait, wait_pb2.GetWaitRequest(wait_id=args.wait_id)).wait
    if ctx.out.as_json:
        ctx.out.json(to_dict(wait))
        return 0
    rows = list(zip((c.header for c in _WAIT_COLUMNS), _wait_row(wait), strict=True))
    ctx.out.fields([*rows, ("schema", wait.schema_json), ("payload", wait.payload_json or "-")])
    if wait.kind == wait_pb2.WAIT_KIND_AUTHORIZATION:
        ctx.out.fields(
            [
                ("purpose", wait.purpose or "-"),
                ("approval", wait.approval_id or "-"),
                ("material digest", wait.material_digest or "-"),
            ]
        )
        ctx.out.line("authorises:")
        ctx.out.table(_ACTION_COLUMNS, [_action_row(a) for a in wait.authorizes])
    return 0


def wait_list(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(ctx.client.waits.ListWaits, wait_pb2.ListWaitsRequest(run_id=args.run))
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(_WAIT_COLUMNS, [_wait_row(w) for w in response.waits])
    return 0
