"""The inbox: everything waiting for a human, oldest first, with counts per kind, kept
live without polling: InboxService.WatchInbox tells when the inbox changed, and only then
is the first page read again (ListInbox) and pushed to the page as a server-sent event."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncGenerator
from typing import Any, cast
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from aiws.engine.v1 import inbox_pb2
from praxis_client.conventions import enum_name
from praxis_console import approvals, authorizations, deliverables, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

PAGE_SIZE = 100
HEARTBEAT_S = 15.0
KINDS = (
    "PROPOSAL", "RECONCILIATION", "HUMAN_INPUT", "AUTHORIZATION", "HOLD", "STUCK_RUN",
    "ACCEPTANCE", "VERIFICATION", "HANDOFF", "APPROVAL_EXPIRING", "WORK_ORDER_PROPOSAL",
)  # fmt: skip
LABELS = {
    "PROPOSAL": "Proposals",
    "RECONCILIATION": "Reconciliations",
    "HUMAN_INPUT": "Human input",
    "AUTHORIZATION": "Authorizations",
    "HOLD": "Holds",
    "STUCK_RUN": "Stuck runs",
    "ACCEPTANCE": "Acceptance",
    "VERIFICATION": "Verification",
    "HANDOFF": "Handoffs",
    "APPROVAL_EXPIRING": "Expiring approvals",
    "WORK_ORDER_PROPOSAL": "Proposed work orders",
}
SINGULAR = {
    "PROPOSAL": "Proposal",
    "RECONCILIATION": "Reconciliation",
    "HUMAN_INPUT": "Human input",
    "AUTHORIZATION": "Authorization",
    "HOLD": "Hold",
    "STUCK_RUN": "Stuck run",
    "ACCEPTANCE": "Acceptance",
    "VERIFICATION": "Verification",
    "HANDOFF": "Handoff",
    "APPROVAL_EXPIRING": "Expiring approval",
    "WORK_ORDER_PROPOSAL": "Proposed work order",
}


async def read_inbox(engine: Engine, session: Session, kind: str, token: str) -> Any:
    """One page of the inbox, optionally of one kind."""
    stub = engine.inbox
    kinds = [f"INBOX_ITEM_KIND_{kind}"] if kind else []
    request = inbox_pb2.ListInboxRequest(
        kinds=cast(Any, kinds), page_size=PAGE_SIZE, page_token=token[:512]
    )
    return await engine.call(session.token, stub.ListInbox, request)


def item_row(item: inbox_pb2.InboxItem) -> dict[str, Any]:
    """An item as the page (and its live updates) shows it, with where to act on it."""
    kind = enum_name(inbox_pb2.InboxItemKind.Name(item.kind), "INBOX_ITEM_KIND_")
    return {
        "id": item.item_id,
        "kind": kind,
        "label": SINGULAR.get(kind, kind),
        "since": web.format_ms(item.since_ms),
        "work_order_id": item.work_order_id,
        "run_id": item.run_id,
        "summary": item.summary,
        "href": _href(item, kind),
    }


def _href(item: inbox_pb2.InboxItem, kind: str) -> str:
    if kind == "PROPOSAL":
        p = item.proposal
        return "/registry/{}/{}/proposals/{}".format(
            quote(p.ref.work_order_id, safe=""),
            quote(p.ref.run_id, safe=""),
            quote(p.proposal_id, safe=""),
        )
    if kind == "RECONCILIATION":
        r = item.reconciliation
        return f"/runs/{quote(r.run_id, safe='')}/reconciliations/{quote(r.attempt_id, safe='')}"
    if kind in ("AUTHORIZATION", "HUMAN_INPUT"):  # the question or action, and its form
        return authorizations.wait_url(item.wait.run_id, item.wait.wait_id)
    if kind == "STUCK_RUN":  # the run page: its ready node, and Stop
        return f"/runs/{quote(item.stuck_run.run_id, safe='')}"
    if kind in ("ACCEPTANCE", "VERIFICATION"):
        return deliverables.assessment_url(item.assessment_due.run_id)
    if kind == "HANDOFF":
        return deliverables.handoff_url(item.handoff.delivery_id)
    if kind == "APPROVAL_EXPIRING":
        return approvals.approval_url(item.approval.approval_id)
    if kind == "WORK_ORDER_PROPOSAL":  # its page: what it asks for, Approve and Decline
        return f"/workorders/{quote(item.work_order_proposal.work_order_id, safe='')}"
    if item.hold.work_order_id:
        return f"/workorders/{quote(item.hold.work_order_id, safe='')}"
    return "/registry#holds"


def counts(found: Any) -> list[dict[str, Any]]:
    """Counts of every kind, in kind order."""
    by_kind = {
        enum_name(inbox_pb2.InboxItemKind.Name(c.kind), "INBOX_ITEM_KIND_"): c.count
        for c in found.counts
    }
    return [{"kind": k, "label": LABELS[k], "count": by_kind.get(k, 0)} for k in KINDS]


async def inbox_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    kind = request.query_params.get("kind", "")
    kind = kind if kind in KINDS else ""
    token = request.query_params.get("page_token", "")
    try:
        found = await read_inbox(engine, session, kind, token)
    except ApiError as error:
        if error.reason == "ACTION_NOT_GRANTED":
            # Where sign-in lands: say what the console is for and who may use it,
            # rather than only that a read was refused.
            context = {"error": error}
            return web.render(request, "not_for_this_principal.html", context, 403)
        return web.error_page(request, error)
    return web.render(
        request,
        "inbox.html",
        {
            "items": [item_row(i) for i in found.items],
            "counts": counts(found),
            "total": found.total,
            "kind": kind,
            "next_page_token": found.next_page_token,
            "page_token": token,  # a later page: its live view leaves its rows alone
            "labels": LABELS,
        },
    )


async def inbox_live(request: Request) -> Response:
    """Server-sent ``inbox`` events whenever the first page or the counts change."""
    session = web.require_session(request)
    console = web.console_of(request)
    kind = request.query_params.get("kind", "")
    kind = kind if kind in KINDS else ""
    if (
        console.live_streams.get(session.session_id, 0) >= console.max_streams_per_session
        or sum(console.live_streams.values()) >= console.max_streams
    ):
        return Response("too many live views", status_code=429)
    return StreamingResponse(
        web.until_closing(console, _live(console, session, kind)),
        media_type="text/event-stream",
        headers={"cache-control": "no-store"},
    )


async def _live(console: web.Console, session: Session, kind: str) -> AsyncGenerator[str, None]:
    console.live_streams[session.session_id] = console.live_streams.get(session.session_id, 0) + 1
    changed = asyncio.Event()
    failure: list[ApiError] = []
    watcher = asyncio.create_task(_watch(console.engine, session, changed, failure))
    last = ""
    try:
        while True:
            try:
                await asyncio.wait_for(changed.wait(), HEARTBEAT_S)
            except TimeoutError:
                if not console.sessions.alive(session.session_id):
                    break
                yield ": keep-alive\n\n"
                continue
            changed.clear()
            if not console.sessions.alive(session.session_id):
                break
            if failure:
                yield _problem(failure[0].reason)
                return
            try:
                found = await read_inbox(console.engine, session, kind, "")
            except ApiError as error:
                yield _problem(error.reason)
                return
            body = json.dumps(
                {
                    "items": [item_row(i) for i in found.items],
                    "counts": counts(found),
                    "total": found.total,
                    "more": bool(found.next_page_token),
                },
                separators=(",", ":"),
            )
            digest = hashlib.sha256(body.encode()).hexdigest()
            if digest != last:
                last = digest
                yield f"event: inbox\ndata: {body}\n\n"
        yield _problem("SIGNED_OUT")
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watcher
        left = console.live_streams.get(session.session_id, 1) - 1
        if left:
            console.live_streams[session.session_id] = left
        else:
            console.live_streams.pop(session.session_id, None)


async def _watch(
    engine: Engine, session: Session, changed: asyncio.Event, failure: list[ApiError]
) -> None:
    """Sets ``changed`` at each WatchInbox message (the first arrives at once)."""
    try:
        async for _summary in engine.watch_inbox(session.token):
            changed.set()
    except ApiError as error:
        failure.append(error)
    else:
        failure.append(ApiError("UNAVAILABLE", "SERVER_UNAVAILABLE", "the inbox watch ended"))
    changed.set()


def _problem(reason: str) -> str:
    return f"event: problem\ndata: {json.dumps({'reason': reason})}\n\n"


ROUTES = [
    Route("/inbox", inbox_page, methods=["GET"]),
    Route("/inbox/live", inbox_live, methods=["GET"]),
]
