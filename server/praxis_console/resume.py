"""Resume a failed or stopped run from its page (``RunService.ResumeRun``), like
``praxis runs resume``.

An ad hoc run resumes at once, with the reason typed on its page. A governed run (one of
a registry ref) first shows its review (``ReviewResume``: which nodes run again, under
which revision, the material digest and epochs); *Approve and resume* then approves that
digest as the signed-in human and resumes with the approval, under the epochs the page
showed, so material that changed meanwhile is refused by the server, never resumed
unseen.

The review also shows what a human approves beyond the run (issue 37): the actions it
would run again that already took effect or were authorised (each node, why, its
operation and the digest of its input), which any run, ad hoc too, resumes only with
that approval (an ad hoc run's resume refused REAPPROVAL_REQUIRED goes to its review);
and, for a resume onto the ref's head (agent replacement, ``to_head``), the head's
revision and each node it replaces side by side in both revisions.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote, urlencode

from google.protobuf import json_format
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import approval_pb2, common_pb2, run_pb2
from praxis_client.conventions import enum_name
from praxis_console import approvals, diff, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

RESUMABLE = ("RUN_STATE_FAILED", "RUN_STATE_CANCELLED")


def _url(run_id: str) -> str:
    return f"/runs/{quote(run_id, safe='')}"


async def _run(engine: Engine, session: Session, run_id: str) -> run_pb2.Run:
    got = await engine.call(session.token, engine.runs.GetRun, run_pb2.GetRunRequest(run_id=run_id))
    run: run_pb2.Run = got.run
    return run


async def review_page(request: Request) -> Response:
    """The governed resume's review: the exact material a human approves."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    reason = request.query_params.get("reason", "").strip()[:1024]
    to_head = request.query_params.get("to_head") == "1"
    back = (_url(run_id), "Back to the run")
    if not reason:
        return web.error_page(
            request, ApiError("INVALID_ARGUMENT", "", "give the reason for resuming"), back
        )
    try:
        run = await _run(engine, session, run_id)
        review = await engine.call(
            session.token,
            engine.runs.ReviewResume,
            run_pb2.ReviewResumeRequest(run_id=run_id, reason=reason, to_head=to_head),
        )
    except ApiError as error:
        return web.error_page(request, error, back)
    material = json_format.MessageToDict(review.material, preserving_proto_field_name=True)
    return web.render(
        request,
        "resume.html",
        {
            "run": run,
            "reason": reason,
            "review": review,
            "material": json.dumps(material, indent=2, sort_keys=True),
            "request_id": web.new_request_id(),
            "to_head": to_head,
            **_approve_again(review.material),
        },
    )


def _why(node: Any) -> str:
    flags = (
        ("its effect was applied", node.effect_applied),
        ("an authorization approved its action", node.authorized),
    )
    return " and ".join(text for text, flag in flags if flag)


def _approve_again(m: run_pb2.ResumeMaterial) -> dict[str, Any]:
    """The actions approved again and, onto the head, each replaced node's diff."""
    return {
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
                "state": enum_name(run_pb2.NodeState.Name(c.state), "NODE_STATE_"),
                "diff": diff.side_by_side(c.old_node_json, c.new_node_json),
            }
            for c in m.changes
        ],
    }


def _epochs(form: Any) -> common_pb2.Epochs:
    return common_pb2.Epochs(
        installation_id=web.field_text(form, "installation_id", 128),
        ownership_epoch=web.field_int(form, "ownership_epoch"),
        authority_epoch=web.field_int(form, "authority_epoch"),
    )


async def resume_run(request: Request) -> Response:
    """Resumes an ad hoc run; a governed one without a reviewed digest goes to its review,
    with one it is approved (that digest) and resumed under the epochs shown."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id = request.path_params["run_id"]
    reason = web.field_text(form, "reason", 1024)
    digest = web.field_text(form, "material_digest", 128)
    to_head = web.field_text(form, "to_head", 1) == "1"
    resume = run_pb2.ResumeRunRequest(
        run_id=run_id,
        request_id=web.field_text(form, "request_id", 128) or web.new_request_id(),
        reason=reason,
        to_head=to_head,
    )
    back = (_url(run_id), "Back to the run")
    query = urlencode({"reason": reason, **({"to_head": "1"} if to_head else {})})
    try:
        run = await _run(engine, session, run_id)
        if (run.ref.work_order_id or to_head) and not digest:
            return web.redirect(f"{_url(run_id)}/resume?{query}")
        if digest:  # a governed run's, or an ad hoc run's that runs an action again
            approval_id = f"{resume.request_id}-approval"
            await approvals.create(
                engine,
                session,
                approval_pb2.CreateApprovalRequest(
                    approval_id=approval_id,
                    material_digest=digest,
                    expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
                    work_order_id=run.ref.work_order_id or run.work_order_id,
                ),
            )
            resume.epochs.CopyFrom(_epochs(form))
            resume.approval_id = approval_id
        await engine.call(session.token, engine.runs.ResumeRun, resume)
    except ApiError as error:
        if error.reason == "REAPPROVAL_REQUIRED" and not digest:  # show what to approve
            return web.redirect(f"{_url(run_id)}/resume?{query}")
        return web.error_page(request, error, back)
    return web.redirect(f"{_url(run_id)}?resumed=1")


ROUTES = [
    Route("/runs/{run_id}/resume", review_page, methods=["GET"]),
    Route("/runs/{run_id}/resume", resume_run, methods=["POST"]),
]
