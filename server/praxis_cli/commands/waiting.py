"""The inbox, reconciliations and waits: ``inbox``, ``reconcile``, ``wait ...``."""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from aiws.engine.v1 import common_pb2, run_pb2, wait_pb2
from aiws.engine.v1 import inbox_pb2 as ib
from aiws.engine.v1 import reconciliation_pb2 as rc
from praxis_cli.commands.common import (
    check_digest,
    create_approval,
    epochs_of,
    json_argument,
    pretty_json,
)
from praxis_cli.errors import CONFLICT, CliError, usage
from praxis_cli.output import Column, free_text, ident, local_time, to_dict
from praxis_client import answers
from praxis_client.conventions import enum_name

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
    "work-order-proposal": ib.INBOX_ITEM_KIND_WORK_ORDER_PROPOSAL,
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
    """The command that settles each owed assessment, handoff, expiring approval and
    proposed work order."""
    lines = []
    for item in items:
        kind = item.WhichOneof("subject")
        if kind == "assessment_due":
            verb = "accept" if item.kind == ib.INBOX_ITEM_KIND_ACCEPTANCE else "verify"
            lines.append(
                f"  praxis assess show {item.run_id} && praxis assess {verb} {item.run_id}"
            )
        elif kind == "wait" and item.kind == ib.INBOX_ITEM_KIND_HUMAN_INPUT:
            lines.append(f"  praxis wait answer {item.wait.wait_id}")
        elif kind == "handoff":
            receiver = item.handoff.to_principal_id
            lines.append(f"  praxis handoffs ack {item.handoff.delivery_id}  (as {receiver})")
        elif kind == "work_order_proposal":
            proposed = item.work_order_proposal.work_order_id
            lines.append(f"  praxis work-orders approve {proposed}")
            lines.append(f"    (or: praxis work-orders decline {proposed} --reason WHY)")
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
    if kind == "work_order_proposal":
        return item.work_order_proposal.work_order_id
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


def _question(ctx: Any, wait: wait_pb2.Wait, choices: bool = True) -> None:
    """The wait's question, as the person reads it, and (``choices``) its choices."""
    if not wait.question and not (choices and wait.choices):
        return
    ctx.out.line("question:", "bold")
    # Wrapped at words to the terminal's width (the standard library's idea of it); a
    # word longer than a line is never broken.
    width = max(20, shutil.get_terminal_size().columns - 2)
    for line in (wait.question or "-").splitlines() or [""]:
        wrapped = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
        for part in wrapped or [""]:
            ctx.out.line(f"  {part}")
    if choices and wait.choices:
        ctx.out.line("choices: " + ", ".join(wait.choices))
    ctx.out.line()


def _request_id(args: argparse.Namespace, payload: str, approval_id: str) -> str:
    # Derived from the wait, the payload and the approval: a retry replays its receipt,
    # while another payload is answered on its own merits (say, the wait is already
    # satisfied) instead of REQUEST_ID_REUSED.
    named = f"\x00{approval_id}" if approval_id else ""
    digest = hashlib.sha256(f"{args.wait_id}\x00{payload}{named}".encode()).hexdigest()
    return str(args.request_id or f"cli-satisfy-{digest[:32]}")


def answer(ctx: Any, args: argparse.Namespace) -> int:
    """Answers a human_input wait: from --json or --value, or asked field by field in a
    terminal by the form its schema asks for."""
    if args.value is not None and args.payload is not None:
        raise usage("give --value or --payload, not both")
    wait = ctx.call(ctx.client.waits.GetWait, wait_pb2.GetWaitRequest(wait_id=args.wait_id)).wait
    if wait.kind != wait_pb2.WAIT_KIND_HUMAN_INPUT:
        raise usage(
            f"wait {args.wait_id} is not a human-input wait: satisfy it with "
            f"`praxis wait satisfy {args.wait_id}`"
        )
    closed = _CLOSED.get(wait.state)
    if closed:
        state = enum_name(wait_pb2.WaitState.Name(wait.state), "WAIT_STATE_")
        raise CliError(closed, f"wait {args.wait_id} is {state}: it takes no answer", CONFLICT)
    field = answers.form(wait.schema_json, wait.choices)
    if args.payload is not None:
        payload = json_argument(args.payload, None, "the answer")
    elif args.value is not None:
        payload = json.dumps(_given(field, args.value), ensure_ascii=False)
    else:
        if not sys.stdin.isatty():
            raise usage(
                "no terminal to ask on: give the answer with --value TEXT or --payload JSON"
            )
        _question(ctx, wait, choices=False)  # the form lists them
        payload = json.dumps(_asked(ctx, field), ensure_ascii=False)
    response = ctx.call(
        ctx.client.waits.SatisfyWait,
        wait_pb2.SatisfyWaitRequest(
            request_id=_request_id(args, payload, ""), wait_id=args.wait_id, payload_json=payload
        ),
    )
    if ctx.out.as_json:
        ctx.out.json({"wait": to_dict(response.wait), "replayed": response.replayed})
    else:
        replayed = " (replayed)" if response.replayed else ""
        ctx.out.line(f"answered wait {args.wait_id}: {payload}{replayed}")
    return 0


_CLOSED = {
    wait_pb2.WAIT_STATE_NOT_OPEN: "WAIT_NOT_OPEN",
    wait_pb2.WAIT_STATE_SATISFIED: "WAIT_ALREADY_SATISFIED",
    wait_pb2.WAIT_STATE_EXPIRED: "WAIT_EXPIRED",
    wait_pb2.WAIT_STATE_DEFAULTED: "WAIT_EXPIRED",
    wait_pb2.WAIT_STATE_CANCELLED: "RUN_TERMINAL",
}
"""A wait that takes no answer, and the reason SatisfyWait would refuse it with: said
before asking anything (the server decides again when an answer is sent)."""


def _given(field: answers.Field, text: str) -> Any:
    if field.kind == "object":
        raise usage("this answer is an object: give it with --payload, or answer in a terminal")
    try:
        return answers.value_of(field, text)
    except answers.AnswerError as error:
        raise usage(f"--value: {error}", "WAIT_PAYLOAD_INVALID") from None


_KIND_HINTS = {
    "text": "text",
    "boolean": "yes or no",
    "integer": "a whole number",
    "json": "JSON",
}


def _asked(ctx: Any, field: answers.Field) -> Any:
    """The answer asked for in the terminal, a field at a time; a text that is not a
    value of its field's kind is asked again with the reason."""
    if field.kind != "object":
        return _ask_one(ctx, field, "answer")
    texts: dict[str, str] = {}
    for child in field.fields:
        optional = "" if child.required else ", optional: Enter to leave out"
        if child.kind == "choice" or child.help:
            ctx.out.line(f"{child.name}:{' ' + child.help if child.help else ''}")
        if child.kind == "choice":
            _list_choices(ctx, child)
        while True:
            hint = _hint(child)
            text = _read(f"{child.name} ({hint}{optional}): ")
            if not text.strip() and not child.required:
                break
            try:
                answers.value_of(child, text)
            except answers.AnswerError as error:
                ctx.out.line(f"  {error}", "red")
                continue
            texts[child.name] = text
            break
    return answers.object_value(field, texts)


def _ask_one(ctx: Any, field: answers.Field, name: str) -> Any:
    if field.kind == "choice":
        _list_choices(ctx, field)
    while True:
        text = _read(f"{name} ({_hint(field)}): ")
        try:
            return answers.value_of(field, text)
        except answers.AnswerError as error:
            ctx.out.line(f"  {error}", "red")


def _hint(field: answers.Field) -> str:
    if field.kind == "choice":
        return "a number from the list" + (", or another answer" if field.other else "")
    return _KIND_HINTS.get(field.kind, "JSON")


def _list_choices(ctx: Any, field: answers.Field) -> None:
    for index, label in enumerate(field.choice_labels(), 1):
        ctx.out.line(f"  {index}) {label}")
    if field.other:
        ctx.out.line("  or type another answer")


def _read(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise usage("no answer given: nothing was sent") from None


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
    request_id = _request_id(args, payload, approval_id)
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
        _action_inputs(ctx, m.actions)
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


def _action_inputs(ctx: Any, actions: Sequence[wait_pb2.AuthorizedAction]) -> None:
    """The input each reviewed action will carry, indented for reading (its digest is in
    the table and the material)."""
    for action in actions:
        if action.input_json:
            ctx.out.line(f"input of {action.node_uid}:")
            for line in pretty_json(action.input_json).splitlines():
                ctx.out.line(f"  {line}")


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
    _question(ctx, wait)
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
