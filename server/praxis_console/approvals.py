"""An approval's page, reached from the inbox when it is about to expire, and its renewal:
the same material digest and purpose approved again by the signed-in human with a new
expiry (ApprovalService.CreateApproval), after which the page shows the new approval.

The approval renewed stays as it was; it leaves the inbox because its renewal outlives
its last hour. The same human approving the same material shares one proof, so using
either approval uses both. A consumed approval is not renewed (nothing is left to use).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import approval_pb2 as pb
from praxis_client.conventions import RENEWAL_ROUNDS, enum_name, is_renewal, renewal_ids
from praxis_console import web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

TTL_MS = 60 * 60 * 1000  # an approval the console creates to act at once expires in an hour

HOUR_MS = 3_600_000
TERMS = {"4h": 4 * HOUR_MS, "1d": 24 * HOUR_MS, "3d": 72 * HOUR_MS, "6d": 144 * HOUR_MS}
"""The renewal's lifetimes offered (the server allows at most 7 days)."""
DEFAULT_TERM = "1d"


def approval_url(approval_id: str) -> str:
    """The page of one approval."""
    return f"/approvals/{quote(approval_id, safe='')}"


async def _get(engine: Engine, session: Session, approval_id: str) -> Any:
    request = pb.GetApprovalRequest(approval_id=approval_id[:128])
    return (await engine.call(session.token, engine.approvals.GetApproval, request)).approval


async def approval_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    try:
        a = await _get(engine, session, request.path_params["approval_id"])
    except ApiError as error:
        return web.error_page(request, error, back=("/inbox", "The inbox"))
    context = {
        "approval": a,
        "state": enum_name(pb.ApprovalState.Name(a.state), "APPROVAL_STATE_"),
        "renewable": a.state != pb.APPROVAL_STATE_CONSUMED,
        "terms": list(TERMS),
        "default_term": DEFAULT_TERM,
        "renewed_from": request.query_params.get("renewed_from", "")[:128],
    }
    return web.render(request, "approval.html", context)


async def renew(request: Request) -> Response:
    """Approves the approval's material and purpose again (the ones read now, never ones
    sent by the form) for the term chosen, under the id the CLI derives too
    (:func:`praxis_client.conventions.renewal_ids`): a resubmitted form, or a renewal
    already made with ``praxis approvals renew``, is shown, not made twice."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    old_id = request.path_params["approval_id"]
    back = (approval_url(old_id), "The approval")
    term = TERMS.get(web.field_text(form, "term", 8))
    if term is None:
        error = ApiError("INVALID_ARGUMENT", "ENUM_INVALID", "choose how long the renewal lasts")
        return web.error_page(request, error, back=back)
    try:
        old = await _get(engine, session, old_id)
        if old.state == pb.APPROVAL_STATE_CONSUMED:
            raise ApiError(
                "FAILED_PRECONDITION",
                "APPROVAL_CONSUMED",
                f"approval {old.approval_id} was used by request {old.consumed_by_request_id}: "
                "there is nothing left to renew",
            )
        found = await _renewal(engine, session, old)
        if found is None:
            raise ApiError(
                "ALREADY_EXISTS",
                "APPROVAL_ALREADY_EXISTS",
                f"approval {old.approval_id} was renewed {RENEWAL_ROUNDS} times: "
                "renew it with praxis approvals renew --approval-id",
            )
        renewal_id, made = found
        if not made:
            renewal = pb.CreateApprovalRequest(
                approval_id=renewal_id,
                material_digest=old.material_digest,
                expires_at_ms=int(time.time() * 1000) + term,
                work_order_id=web.field_text(form, "work_order_id", 128),
                purpose=old.purpose,
            )
            await create(engine, session, renewal)
    except ApiError as error:
        return web.error_page(request, error, back=back)
    return web.redirect(f"{approval_url(renewal_id)}?renewed_from={quote(old_id, safe='')}")


async def _renewal(engine: Engine, session: Session, old: Any) -> tuple[str, bool] | None:
    """The renewal's id and whether it was made already: the first derived id that is
    free (to make it under) or an active renewal of the same material (to show it);
    ``None`` when every derived id is taken."""
    for candidate in renewal_ids(old.approval_id, session.token):
        try:
            existing = await _get(engine, session, candidate)
        except ApiError as error:
            if error.code != "NOT_FOUND":
                raise
            return candidate, False
        if is_renewal(existing, old):
            return candidate, True
    return None


async def create(engine: Engine, session: Session, request: pb.CreateApprovalRequest) -> None:
    """Records the signed-in human's approval; a form sent twice finds the approval its
    first sending created (same id, material and approver) and takes it as done."""
    try:
        await engine.call(session.token, engine.approvals.CreateApproval, request)
    except ApiError as error:
        if error.reason != "APPROVAL_ALREADY_EXISTS":
            raise
        existing = await _get(engine, session, request.approval_id)
        if existing.material_digest != request.material_digest:
            raise
        if existing.approver_id != session.principal_id:
            raise


ROUTES = [
    Route("/approvals/{approval_id}", approval_page, methods=["GET"]),
    Route("/approvals/{approval_id}/renew", renew, methods=["POST"]),
]
