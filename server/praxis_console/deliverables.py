"""What a finished run is owed, acted on from the inbox: its verification and acceptance
(AssessmentService, bound to the subject digest the page showed) and the acknowledgement
of a handoff (HandoffService). An approval about to expire: :mod:`praxis_console.approvals`."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import (
    assessment_pb2,
    assessment_pb2_grpc,
    handoff_pb2,
    handoff_pb2_grpc,
)
from praxis_client.conventions import assessment_request_id, enum_name
from praxis_console import web
from praxis_console.api import ApiError, Engine

FINDINGS_LIMIT = 64 * 1024
_KINDS = {"verification": assessment_pb2.ASSESSMENT_KIND_VERIFICATION,
          "acceptance": assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE}  # fmt: skip
_VERDICTS = {"pass": assessment_pb2.ASSESSMENT_VERDICT_PASS,
             "fail": assessment_pb2.ASSESSMENT_VERDICT_FAIL}  # fmt: skip


def _assessments(engine: Engine) -> Any:
    return engine.stub("assessments", assessment_pb2_grpc.AssessmentServiceStub)


def _handoffs(engine: Engine) -> Any:
    return engine.stub("handoffs", handoff_pb2_grpc.HandoffServiceStub)


def assessment_url(run_id: str) -> str:
    """The page where a completed run is verified and accepted."""
    return f"/runs/{quote(run_id, safe='')}/assessment"


def handoff_url(delivery_id: str) -> str:
    """The page of one handoff."""
    return f"/handoffs/{quote(delivery_id, safe='')}"


async def assessment_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    stub = _assessments(engine)
    try:
        acceptance = await engine.call(
            session.token, stub.GetAcceptance, assessment_pb2.GetAcceptanceRequest(run_id=run_id)
        )
        listed = await engine.call(
            session.token,
            stub.ListAssessments,
            assessment_pb2.ListAssessmentsRequest(run_id=run_id),
        )
    except ApiError as error:
        return web.error_page(request, error, back=(f"/runs/{quote(run_id, safe='')}", "The run"))
    rows = [
        {
            "kind": enum_name(assessment_pb2.AssessmentKind.Name(a.kind), "ASSESSMENT_KIND_"),
            "verdict": enum_name(
                assessment_pb2.AssessmentVerdict.Name(a.verdict), "ASSESSMENT_VERDICT_"
            ),
            "by": a.assessed_by,
            "at": web.format_ms(a.assessed_at_ms),
            "current": a.current,
            "findings": a.findings_json,
        }
        for a in listed.assessments
    ]
    context = {
        "run_id": run_id,
        "subject": acceptance.subject_digest,
        "accepted": acceptance.accepted,
        "assessments": rows,
        "recorded": request.query_params.get("recorded", "")[:32],
    }
    return web.render(request, "assessment.html", context)


async def record_assessment(request: Request) -> Response:
    """Records the verification or acceptance of the subject the page showed: a subject
    changed since is refused (SUBJECT_CHANGED), never assessed unseen."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    back = (assessment_url(run_id), "Back to the assessment")
    kind = _KINDS.get(web.field_text(form, "kind", 16))
    verdict = _VERDICTS.get(web.field_text(form, "verdict", 8))
    if kind is None or verdict is None:
        error = ApiError("INVALID_ARGUMENT", "ENUM_INVALID", "choose what to record")
        return web.error_page(request, error, back=back)
    subject = web.field_text(form, "subject_digest", 80)
    findings = web.field_text(form, "findings_json", FINDINGS_LIMIT) or "null"
    record = assessment_pb2.RecordAssessmentRequest(
        request_id=assessment_request_id(run_id, kind, verdict, subject, findings),
        run_id=run_id,
        kind=kind,
        verdict=verdict,
        subject_digest=subject,
        findings_json=findings,
    )
    try:
        await engine.call(session.token, _assessments(engine).RecordAssessment, record)
    except ApiError as error:
        return web.error_page(request, error, back=back)
    said = assessment_pb2.AssessmentKind.Name(kind).removeprefix("ASSESSMENT_KIND_").lower()
    return web.redirect(f"{assessment_url(run_id)}?recorded={said}")


async def handoff_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    delivery_id = request.path_params["delivery_id"]
    try:
        found = await engine.call(
            session.token,
            _handoffs(engine).GetHandoff,
            handoff_pb2.GetHandoffRequest(delivery_id=delivery_id),
        )
    except ApiError as error:
        return web.error_page(request, error, back=("/inbox", "The inbox"))
    h = found.handoff
    context = {
        "handoff": h,
        "state": enum_name(handoff_pb2.HandoffState.Name(h.state), "HANDOFF_STATE_"),
        "offered": h.state == handoff_pb2.HANDOFF_STATE_OFFERED,
        "for_me": h.to_principal_id == session.principal_id,
    }
    return web.render(request, "handoff.html", context)


async def acknowledge_handoff(request: Request) -> Response:
    session, _form = await web.checked_form(request)
    engine = web.console_of(request).engine
    delivery_id = request.path_params["delivery_id"]
    acknowledge = handoff_pb2.AcknowledgeHandoffRequest(delivery_id=delivery_id)
    try:
        await engine.call(session.token, _handoffs(engine).AcknowledgeHandoff, acknowledge)
    except ApiError as error:
        return web.error_page(request, error, back=(handoff_url(delivery_id), "The handoff"))
    return web.redirect(handoff_url(delivery_id))


ROUTES = [
    Route("/runs/{run_id}/assessment", assessment_page, methods=["GET"]),
    Route("/runs/{run_id}/assessment", record_assessment, methods=["POST"]),
    Route("/handoffs/{delivery_id}", handoff_page, methods=["GET"]),
    Route("/handoffs/{delivery_id}/acknowledge", acknowledge_handoff, methods=["POST"]),
]
