"""What a human owes a finished run: ``assess show|accept|verify`` and
``handoffs list|show|ack``.

Assessments are bound to the run's subject digest: ``accept`` and ``verify`` read the
current one (GetAcceptance) unless ``--subject`` names the one the human looked at, in
which case a changed subject is refused (SUBJECT_CHANGED) rather than assessed unseen.
Their request id is derived from what they record, so a repeated command replays.
"""

from __future__ import annotations

import argparse
from typing import Any

from aiws.engine.v1 import assessment_pb2 as pb
from aiws.engine.v1 import handoff_pb2
from praxis_cli.commands.common import group, json_argument, leaf
from praxis_cli.output import local_time, to_dict
from praxis_client.conventions import assessment_request_id, enum_name

_SAID = {
    (pb.ASSESSMENT_KIND_ACCEPTANCE, pb.ASSESSMENT_VERDICT_PASS): "accepted",
    (pb.ASSESSMENT_KIND_ACCEPTANCE, pb.ASSESSMENT_VERDICT_FAIL): "rejected",
    (pb.ASSESSMENT_KIND_VERIFICATION, pb.ASSESSMENT_VERDICT_PASS): "verified",
    (pb.ASSESSMENT_KIND_VERIFICATION, pb.ASSESSMENT_VERDICT_FAIL): "failed the verification of",
}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``assess`` and ``handoffs`` groups."""
    assess = group(commands, "assess", "verify and accept the deliverables of completed runs")
    show = leaf(assess, common, "show", _show, "a run's subject, acceptance and assessments")
    show.add_argument("run")
    for name, help_text, negative in (
        ("accept", "accept a completed run's deliverable (a verified human)", "--reject"),
        ("verify", "record a check of a completed run's deliverable against its criteria",
         "--fail"),
    ):  # fmt: skip
        command = leaf(assess, common, name, _record, help_text)
        command.add_argument("run")
        command.add_argument(negative, dest="negative", action="store_true",
                             help="record a failing verdict")  # fmt: skip
        command.add_argument("--findings", help="findings as a JSON document (e.g. per criterion)")
        command.add_argument("--findings-file", help="the findings as a JSON file")
        command.add_argument(
            "--subject",
            default="",
            help="the subject digest assessed (from 'assess show'); default: the current one",
        )
        command.add_argument("--request-id", help="idempotency key (default: derived)")
        command.set_defaults(kind=pb.ASSESSMENT_KIND_ACCEPTANCE if name == "accept"
                             else pb.ASSESSMENT_KIND_VERIFICATION)  # fmt: skip

    handoffs = group(commands, "handoffs", "handoffs of a node's outputs and responsibility")
    listing = leaf(
        handoffs, common, "list", _list_handoffs, "list the handoffs addressed to you, oldest first"
    )
    listing.add_argument(
        "--state",
        choices=sorted(_HANDOFF_STATES),
        default="offered",
        help="only handoffs in this state (default offered: still to acknowledge)",
    )
    listing.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    listing.add_argument("--page-token", default="", help="continue a previous listing")
    get = leaf(handoffs, common, "show", _show_handoff, "show a handoff")
    get.add_argument("delivery")
    ack = leaf(handoffs, common, "ack", _acknowledge, "acknowledge a handoff addressed to you")
    ack.add_argument("delivery")


def _show(ctx: Any, args: argparse.Namespace) -> int:
    acceptance = ctx.call(
        ctx.client.assessments.GetAcceptance, pb.GetAcceptanceRequest(run_id=args.run)
    )
    listed = ctx.call(
        ctx.client.assessments.ListAssessments, pb.ListAssessmentsRequest(run_id=args.run)
    )
    if ctx.out.as_json:
        ctx.out.json({"acceptance": to_dict(acceptance), "assessments": to_dict(listed)})
        return 0
    ctx.out.fields(
        [
            ("run", args.run),
            ("subject", acceptance.subject_digest or "- (the run has not completed)"),
            ("accepted", "yes" if acceptance.accepted else "no"),
        ]
    )
    ctx.out.table(
        ["WHEN", "KIND", "VERDICT", "BY", "CURRENT", "ID"],
        [
            [
                local_time(a.assessed_at_ms),
                enum_name(pb.AssessmentKind.Name(a.kind), "ASSESSMENT_KIND_"),
                enum_name(pb.AssessmentVerdict.Name(a.verdict), "ASSESSMENT_VERDICT_"),
                a.assessed_by,
                "yes" if a.current else "no",
                a.assessment_id,
            ]
            for a in listed.assessments
        ],
    )
    return 0


def _record(ctx: Any, args: argparse.Namespace) -> int:
    findings = json_argument(args.findings, args.findings_file, "the findings", "null")
    subject = args.subject or (
        ctx.call(
            ctx.client.assessments.GetAcceptance, pb.GetAcceptanceRequest(run_id=args.run)
        ).subject_digest
    )
    verdict = pb.ASSESSMENT_VERDICT_FAIL if args.negative else pb.ASSESSMENT_VERDICT_PASS
    request = pb.RecordAssessmentRequest(
        request_id=args.request_id
        or assessment_request_id(args.run, args.kind, verdict, subject, findings),
        run_id=args.run,
        kind=args.kind,
        verdict=verdict,
        subject_digest=subject,
        findings_json=findings,
    )
    response = ctx.call(ctx.client.assessments.RecordAssessment, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    a = response.assessment
    said = _SAID[(a.kind, a.verdict)]
    replayed = " (replayed)" if response.replayed else ""
    ctx.out.line(f"{said} run {a.run_id}: {a.assessment_id}{replayed}")
    return 0


_HANDOFF_STATES = {
    "any": handoff_pb2.HANDOFF_STATE_UNSPECIFIED,
    "offered": handoff_pb2.HANDOFF_STATE_OFFERED,
    "acknowledged": handoff_pb2.HANDOFF_STATE_ACKNOWLEDGED,
}


def _list_handoffs(ctx: Any, args: argparse.Namespace) -> int:
    request = handoff_pb2.ListHandoffsRequest(
        state=_HANDOFF_STATES[args.state], page_size=args.limit, page_token=args.page_token
    )
    response = ctx.call(ctx.client.handoffs.ListHandoffs, request)
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    for h in response.handoffs:  # three short lines each: ids are long and never broken
        state = enum_name(handoff_pb2.HandoffState.Name(h.state), "HANDOFF_STATE_")
        ctx.out.line(f"{h.delivery_id}  {state}  from {h.from_principal_id}")
        ctx.out.line(f"  run {h.run_id}, node {h.node_uid}")
        ctx.out.line(f"  work {_work(h)}, offered {local_time(h.created_at_ms)}")
    if not response.handoffs:
        ctx.out.line("no handoffs")
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _show_handoff(ctx: Any, args: argparse.Namespace) -> int:
    found = ctx.call(
        ctx.client.handoffs.GetHandoff, handoff_pb2.GetHandoffRequest(delivery_id=args.delivery)
    ).handoff
    return _print_handoff(ctx, found)


def _acknowledge(ctx: Any, args: argparse.Namespace) -> int:
    request = handoff_pb2.AcknowledgeHandoffRequest(delivery_id=args.delivery)
    found = ctx.call(ctx.client.handoffs.AcknowledgeHandoff, request).handoff
    return _print_handoff(ctx, found)


def _work(found: handoff_pb2.Handoff) -> str:
    """The revision of the work handed off: ``WO/RUN@REVISION``, or ``ad hoc run``."""
    if found.HasField("ref"):
        return f"{found.ref.work_order_id}/{found.ref.run_id}@{found.revision}"
    return "ad hoc run" if found.definition_digest else "-"


def _print_handoff(ctx: Any, found: handoff_pb2.Handoff) -> int:
    if ctx.out.as_json:
        ctx.out.json(to_dict(found))
        return 0
    ctx.out.fields(
        [
            ("delivery", found.delivery_id),
            ("run", found.run_id),
            ("node", found.node_uid),
            ("work", _work(found)),
            ("definition", found.definition_digest or "-"),
            ("from", found.from_principal_id),
            ("to", found.to_principal_id),
            ("outputs", found.outputs_digest),
            ("note", found.note or "-"),
            ("state", enum_name(handoff_pb2.HandoffState.Name(found.state), "HANDOFF_STATE_")),
            ("offered", local_time(found.created_at_ms)),
            ("acknowledged", local_time(found.acknowledged_at_ms)
             if found.acknowledged_at_ms else "-"),
        ]
    )  # fmt: skip
    return 0
