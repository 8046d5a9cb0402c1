"""A wait's page. A human-input wait: its question and the form its answer's schema asks
for, answered with WaitService.SatisfyWait (:mod:`praxis_console.questions`). An
authorization wait: the exact action it authorises (node, model, operation, input digest
and the input itself once reviewed), reviewed, approved and satisfied in one place
(WaitService.ReviewWait, ApprovalService.CreateApproval, WaitService.SatisfyWait with the
approval)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import approval_pb2, wait_pb2
from praxis_client import answers
from praxis_client.conventions import enum_name
from praxis_console import approvals, questions, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

PAYLOAD_LIMIT = 256 * 1024


def wait_url(run_id: str, wait_id: str) -> str:
    """The page of one wait of a run."""
    return f"/runs/{quote(run_id, safe='')}/waits/{quote(wait_id, safe='')}"


def run_waits_url(run_id: str) -> str:
    """The waits section of a run's page."""
    return f"/runs/{quote(run_id, safe='')}#waits"


async def _wait(engine: Engine, session: Session, run_id: str, wait_id: str) -> Any:
    found = await engine.call(
        session.token, engine.waits.GetWait, wait_pb2.GetWaitRequest(wait_id=wait_id)
    )
    if found.wait.run_id != run_id:
        raise ApiError("NOT_FOUND", "WAIT_NOT_FOUND", f"run {run_id} has no wait {wait_id}")
    return found.wait


def action_rows(actions: Any) -> list[dict[str, Any]]:
    """The authorised actions as the pages show them."""
    return [
        {
            "node": a.node_uid,
            "model": a.model,
            "operation": a.operation_id or ("per item (fan-out)" if a.fanout else ""),
            "input_digest": a.input_digest,
            "spec_digest": a.spec_digest,
            "input": pretty(a.input_json),
        }
        for a in actions
    ]


def pretty(document: str) -> str:
    """A JSON document indented for reading (empty stays empty)."""
    if not document:
        return ""
    try:
        return json.dumps(json.loads(document), indent=2, ensure_ascii=False)
    except ValueError:
        return document


def _material(material: Any) -> dict[str, Any]:
    return {
        "work_order_id": material.work_order_id,
        "run_id": material.run_id,
        "wait_id": material.wait_id,
        "node_uid": material.node_uid,
        "expires_at_ms": material.expires_at_ms,
        "purpose": material.purpose,
        "payload_digest": material.payload_digest,
        # The input is shown beside each action; the material binds its digest.
        "actions": [
            {key: value for key, value in row.items() if key != "input"}
            for row in action_rows(material.actions)
        ],
        "epochs": {
            "installation_id": material.epochs.installation_id,
            "ownership_epoch": material.epochs.ownership_epoch,
            "authority_epoch": material.epochs.authority_epoch,
        },
    }


def _context(wait: Any, **extra: Any) -> dict[str, Any]:
    return {
        "wait": wait,
        "state": enum_name(wait_pb2.WaitState.Name(wait.state), "WAIT_STATE_"),
        "kind": enum_name(wait_pb2.WaitKind.Name(wait.kind), "WAIT_KIND_"),
        "authorization": wait.kind == wait_pb2.WAIT_KIND_AUTHORIZATION,
        "pending": wait.state == wait_pb2.WAIT_STATE_PENDING,
        "actions": action_rows(wait.authorizes),
        "review": None,
        "payload": wait.payload_json or "",
        "payload_shown": pretty(wait.payload_json),
        "request_id": web.new_request_id(),
        "answer_form": questions.form_of(wait),
        "refusal": None,
        "texts": {},
        **extra,
    }


async def wait_page(request: Request) -> Response:
    """A wait: what it authorises, and (for a pending authorization) a payload to review."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id, wait_id = request.path_params["run_id"], request.path_params["wait_id"]
    try:
        wait = await _wait(engine, session, run_id, wait_id)
    except ApiError as error:
        return web.error_page(request, error)
    return web.render(request, "wait.html", _context(wait))


async def review(request: Request) -> Response:
    """Shows the material of satisfying the wait with the payload (a read, posted because
    it carries the payload)."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id, wait_id = request.path_params["run_id"], request.path_params["wait_id"]
    payload = web.field_text(form, "payload_json", PAYLOAD_LIMIT)
    try:
        wait = await _wait(engine, session, run_id, wait_id)
        reviewed = await engine.call(
            session.token,
            engine.waits.ReviewWait,
            wait_pb2.ReviewWaitRequest(wait_id=wait_id, payload_json=payload),
        )
    except ApiError as error:
        return web.error_page(request, error, back=(wait_url(run_id, wait_id), "Back"))
    return web.render(
        request,
        "wait.html",
        _context(
            wait,
            review=reviewed,
            payload=payload,
            material=json.dumps(_material(reviewed.material), indent=2),
            reviewed_actions=action_rows(reviewed.material.actions),
        ),
    )


async def authorize(request: Request) -> Response:
    """Approves the reviewed material digest and satisfies the wait with that approval."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id, wait_id = request.path_params["run_id"], request.path_params["wait_id"]
    request_id = web.field_text(form, "request_id", 128)
    approval_id = f"{request_id}-approval"
    try:
        await approvals.create(
            engine,
            session,
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=web.field_text(form, "material_digest", 128),
                expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
                work_order_id=web.field_text(form, "work_order_id", 128),
                purpose=web.field_text(form, "purpose", 128),
            ),
        )
        await engine.call(
            session.token,
            engine.waits.SatisfyWait,
            wait_pb2.SatisfyWaitRequest(
                request_id=request_id,
                wait_id=wait_id,
                payload_json=web.field_text(form, "payload_json", PAYLOAD_LIMIT),
                approval_id=approval_id,
            ),
        )
    except ApiError as error:
        return web.error_page(request, error, back=(wait_url(run_id, wait_id), "Back"))
    return web.redirect(wait_url(run_id, wait_id))


async def answer(request: Request) -> Response:
    """Sends the answer the wait's form holds; when it is refused (before sending, or by
    the server) the wait's page shows the reasons beside the answer as typed, and nothing
    is stored."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id, wait_id = request.path_params["run_id"], request.path_params["wait_id"]
    texts = questions.texts_of(form)
    back = run_waits_url(run_id) if form.get("back") == "run" else wait_url(run_id, wait_id)
    try:
        wait = await _wait(engine, session, run_id, wait_id)
    except ApiError as error:
        return web.error_page(request, error, back=(back, "Back"))
    field = questions.form_of(wait)
    if field is None:
        refused = ApiError("FAILED_PRECONDITION", "WAIT_NOT_OPEN", "the wait takes no answer")
        return _refused(request, wait, refused, texts)
    try:
        payload = json.dumps(questions.value_from(field, texts), ensure_ascii=False)
    except answers.AnswerError as error:
        refused = ApiError(
            "INVALID_ARGUMENT",
            "WAIT_PAYLOAD_INVALID",
            "the answer was not sent",
            (("answer", str(error)),),
        )
        return _refused(request, wait, refused, texts)
    satisfy = wait_pb2.SatisfyWaitRequest(
        request_id=questions.request_id(wait_id, payload), wait_id=wait_id, payload_json=payload
    )
    try:
        await engine.call(session.token, engine.waits.SatisfyWait, satisfy)
    except ApiError as error:
        return _refused(request, wait, error, texts)
    return web.redirect(back)


def _refused(request: Request, wait: Any, error: ApiError, texts: Mapping[str, str]) -> Response:
    context = _context(wait, refusal=error, texts=texts)
    return web.render(request, "wait.html", context, web.HTTP_STATUS.get(error.code, 502))


ROUTES = [
    Route("/runs/{run_id}/waits/{wait_id}/answer", answer, methods=["POST"]),
    Route("/runs/{run_id}/waits/{wait_id}", wait_page, methods=["GET"]),
    Route("/runs/{run_id}/waits/{wait_id}/review", review, methods=["POST"]),
    Route("/runs/{run_id}/waits/{wait_id}/authorize", authorize, methods=["POST"]),
]
