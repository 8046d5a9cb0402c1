"""The review of a resume (RunService.ReviewResume) and the resume itself (ResumeRun).

A failed or cancelled run's resume page asks why, and whether to resume onto its ref's
head (agent replacement); its review shows what the resume runs again, the actions a
human must approve again (a node whose effect was applied, or whose action an
authorization covered: its operation and input digest), and, onto the head, each
replaced node's definition side by side. Approving creates the signed-in human's
approval of the material digest and resumes with it in one form. A resume that needs no
approval (an ad hoc run with nothing to approve again) resumes without one.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import approval_pb2, common_pb2, run_pb2
from praxis_console import approvals, diff, web
from praxis_console.api import ApiError

REASON_LIMIT = 4096


def resume_url(run_id: str) -> str:
    """The resume page of a run."""
    return f"/runs/{quote(run_id, safe='')}/resume"


def _why(node: Any) -> str:
    reasons = [
        text
        for text, flag in (
            ("its effect was applied", node.effect_applied),
            ("an authorization approved its action", node.authorized),
        )
        if flag
    ]
    return " and ".join(reasons)


def _state(value: int) -> str:
    return web.enum_name("NODE_STATE_", run_pb2.NodeState.Name(value))


def _context(review: Any) -> dict[str, Any]:
    m = review.material
    return {
        "material": m,
        "digest": review.material_digest,
        "again": [
            {"node": n.node_uid, "operation": n.operation_id, "new": n.new_operation}
            for n in m.nodes
        ],
        "reapprove": [
            {
                "node": n.node_uid,
                "why": _why(n),
                "operation": n.operation_id,
                "input_digest": n.input_digest,
            }
            for n in m.reapprove
        ],
        "changes": [
            {
                "node": c.node_id,
                "state": _state(c.state),
                "old_digest": c.old_spec_digest,
                "new_digest": c.new_spec_digest,
                "diff": diff.side_by_side(c.old_node_json, c.new_node_json),
            }
            for c in m.changes
        ],
        "needs_approval": bool(m.ref_run_id or m.to_revision or m.reapprove_count),
        "epochs": epochs_json(m),
        "request_id": web.new_request_id(),
    }


async def resume_page(request: Request) -> Response:
    """Without a reason: the form. With one (``?reason=...&to_head=1``): the review."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    reason = request.query_params.get("reason", "")[:REASON_LIMIT]
    to_head = request.query_params.get("to_head") == "1"
    back = (f"/runs/{quote(run_id, safe='')}", "Back to the run")
    try:
        found = await engine.call(
            session.token, engine.runs.GetRun, run_pb2.GetRunRequest(run_id=run_id)
        )
        context: dict[str, Any] = {"run": found.run, "reason": reason, "to_head": to_head}
        if reason:
            reviewed = await engine.call(
                session.token,
                engine.runs.ReviewResume,
                run_pb2.ReviewResumeRequest(run_id=run_id, reason=reason, to_head=to_head),
            )
            context.update(_context(reviewed), review=True)
    except ApiError as error:
        return web.error_page(request, error, back=back)
    return web.render(request, "resume.html", context)


async def resume(request: Request) -> Response:
    """Approves the reviewed material (when it needs a human's approval) and resumes."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    reason = web.field_text(form, "reason", REASON_LIMIT)
    to_head = web.field_text(form, "to_head", 1) == "1"
    request_id = web.field_text(form, "request_id", 128)
    back = (f"{resume_url(run_id)}?reason={quote(reason)}{'&to_head=1' if to_head else ''}", "Back")
    resume_request = run_pb2.ResumeRunRequest(
        run_id=run_id, request_id=request_id, reason=reason, to_head=to_head
    )
    try:
        if web.field_text(form, "needs_approval", 1) == "1":
            approval_id = f"{request_id}-approval"
            await approvals.create(
                engine,
                session,
                approval_pb2.CreateApprovalRequest(
                    approval_id=approval_id,
                    material_digest=web.field_text(form, "material_digest", 128),
                    expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
                    work_order_id=web.field_text(form, "work_order_id", 128),
                ),
            )
            resume_request.approval_id = approval_id
            resume_request.epochs.CopyFrom(
                common_pb2.Epochs(**json.loads(web.field_text(form, "epochs", 1024)))
            )
        await engine.call(session.token, engine.runs.ResumeRun, resume_request)
    except (ApiError, ValueError, TypeError) as error:
        if not isinstance(error, ApiError):
            error = ApiError("INVALID_ARGUMENT", "REQUEST_MALFORMED", "the form is malformed")
        return web.error_page(request, error, back=back)
    return web.redirect(f"/runs/{quote(run_id, safe='')}")


def epochs_json(material: Any) -> str:
    """The material's epochs as the form carries them back."""
    e = material.epochs
    return json.dumps(
        {
            "installation_id": e.installation_id,
            "ownership_epoch": e.ownership_epoch,
            "authority_epoch": e.authority_epoch,
        }
    )


ROUTES = [
    Route("/runs/{run_id}/resume", resume_page, methods=["GET"]),
    Route("/runs/{run_id}/resume", resume, methods=["POST"]),
]
