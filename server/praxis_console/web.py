"""What every page shares: the console state, sessions, CSRF checks, rendering, headers."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import secrets
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session, SessionStore, csrf_matches

COOKIE = "praxis_console_session"
MAX_FORM_FIELDS = 50
MAX_FORM_BYTES = 512 * 1024
TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make forms send Origin: null
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


@dataclass
class Console:
    """The state of one console process."""

    engine: Engine
    sessions: SessionStore
    secure_cookies: bool
    server_address: str
    live_streams: dict[str, int] = field(default_factory=dict)
    max_streams_per_session: int = 8
    max_streams: int = 256
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the console starts to stop: every live view ends at once."""


class Unauthenticated(Exception):
    """No live session: pages redirect to sign-in, actions are refused with 401."""


def console_of(request: Request) -> Console:
    """The console the request belongs to."""
    found: Console = request.app.state.console
    return found


def session_of(request: Request) -> Session | None:
    """The request's live session, if any."""
    return console_of(request).sessions.get(request.cookies.get(COOKIE, ""))


def require_session(request: Request) -> Session:
    """The request's live session; raises :class:`Unauthenticated` without one."""
    session = session_of(request)
    if session is None:
        raise Unauthenticated()
    return session


async def checked_form(request: Request) -> tuple[Session, FormData]:
    """The session and form of a state-changing request, refused unless its CSRF token,
    session and origin are right (403; 401 without a session)."""
    _check_origin(request)
    session = require_session(request)
    form = await read_form(request)
    submitted = form.get("csrf_token")
    if not isinstance(submitted, str) or not csrf_matches(session, submitted):
        raise HTTPException(403, "missing or wrong CSRF token")
    return session, form


async def read_form(request: Request) -> FormData:
    """A url-encoded form within the console's size bounds."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_FORM_BYTES):
        raise HTTPException(413, "form too large")
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("application/x-www-form-urlencoded"):
        raise HTTPException(415, "forms must be application/x-www-form-urlencoded")
    return await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)


def _check_origin(request: Request) -> None:
    """Refuses a cross-site request (Fetch metadata, then Origin) before anything else."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise HTTPException(403, "cross-site request refused")
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise HTTPException(403, "cross-origin request refused")


def field_text(form: FormData, name: str, limit: int = 4096) -> str:
    """A text field, stripped; 400 past ``limit`` characters."""
    value = form.get(name, "")
    if not isinstance(value, str):
        raise HTTPException(400, f"{name} must be text")
    if len(value) > limit:
        raise HTTPException(400, f"{name} is longer than {limit} characters")
    return value.strip()


def field_int(form: FormData, name: str) -> int:
    """An integer field; 400 when it is not one."""
    value = field_text(form, name, 32)
    try:
        return int(value)
    except ValueError:
        raise HTTPException(400, f"{name} must be an integer") from None


def new_request_id() -> str:
    """A fresh request id for a form (so a resubmission replays instead of repeating)."""
    return "console-" + secrets.token_hex(12)


def format_ms(ms: int) -> str:
    """UTC epoch milliseconds as ``YYYY-MM-DD HH:MM:SS.mmm UTC`` ('' for 0)."""
    if not ms:
        return ""
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{ms % 1000:03d} UTC"


def time_tag(utc_text: str) -> Markup:
    """A time written by :func:`format_ms` as a ``<time>`` element: the page shows it in
    UTC, and the console's script rewrites it in the browser's time zone with the zone's
    name (UTC on hover, or everywhere by the footer's switch). '' stays ''."""
    if not utc_text:
        return Markup("")
    stamp = utc_text.removesuffix(" UTC").replace(" ", "T") + "Z"
    return Markup('<time datetime="{}" title="{}">{}</time>').format(
        stamp, utc_text, escape(utc_text)
    )


def time_ms(ms: int) -> Markup:
    """Epoch milliseconds as a ``<time>`` element (:func:`time_tag`); '' for 0."""
    return time_tag(format_ms(ms))


def format_duration(ms: int) -> str:
    """A duration in milliseconds, readable (``1 h 2 min``, ``3.456 s``)."""
    if ms < 0:
        return ""
    if ms < 60_000:
        return f"{ms / 1000:.3f} s"
    minutes, seconds = divmod(ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min {seconds} s"


def credits(microcredits: str) -> str:
    """Microcredits (a canonical decimal string) as exact credits, never rounded."""
    try:
        value = Decimal(microcredits) / Decimal(1_000_000)
    except InvalidOperation:
        return ""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def plural(count: int, noun: str, nouns: str = "") -> str:
    """``1 line``, ``2 lines``, ``1,000 lines``: a count with its noun in agreement."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


def environment() -> Environment:
    """The template environment (autoescaped; templates live beside this module)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "svg"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ms"] = time_ms
    env.filters["utc"] = time_tag  # a time already written by format_ms (node summaries)
    env.filters["duration"] = format_duration
    env.filters["credits"] = credits
    env.filters["plural"] = plural
    return env


_ENV = environment()


def render(
    request: Request, template: str, context: Mapping[str, Any], status_code: int = 200
) -> HTMLResponse:
    """Renders a page with the session (and its CSRF token) in its context."""
    session = session_of(request)
    page = _ENV.get_template(template).render(
        {
            "session": session,
            "csrf_token": session.csrf_token if session else "",
            "server_address": console_of(request).server_address,
            "path": request.url.path,
            **context,
        }
    )
    return HTMLResponse(page, status_code=status_code, headers={"cache-control": "no-store"})


HTTP_STATUS = {
    "INVALID_ARGUMENT": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "FAILED_PRECONDITION": 409,
    "ABORTED": 409,
    "OUT_OF_RANGE": 400,
    "RESOURCE_EXHAUSTED": 429,
}


def error_page(
    request: Request, error: ApiError, back: tuple[str, str] | None = None
) -> HTMLResponse:
    """The server's refusal, stated plainly (code, reason, message, field violations),
    with the HTTP status closest to its gRPC code (502 for server-side failures);
    ``back`` is a link (URL, text) to where the refused action was taken."""
    status = HTTP_STATUS.get(error.code, 502)
    return render(request, "error.html", {"error": error, "back": back}, status_code=status)


def redirect(url: str) -> RedirectResponse:
    """A 303 See Other (the answer to a form post)."""
    return RedirectResponse(url, status_code=303)


def unauthenticated(request: Request, _exc: Exception) -> Response:
    """Pages send the browser to sign in; anything else is refused with 401."""
    if request.method == "GET" and not request.url.path.endswith("/live"):
        return redirect("/signin")
    return Response("sign in first", status_code=401, media_type="text/plain")


async def until_closing(console: Console, events: AsyncGenerator[str, None]) -> AsyncIterator[str]:
    """A live view's server-sent events until they end or the console starts to stop.

    On a stop the view's generator is cancelled where it waits (its ``finally`` ends its
    gRPC streams) and the response ends complete, so the server stops within its tick
    instead of waiting out its graceful timeout and cancelling the response with a
    traceback; the browser's ``EventSource`` reconnects, to the next console if any.
    """
    closing = asyncio.ensure_future(console.closing.wait())
    step: asyncio.Future[str] | None = None
    try:
        while True:
            step = asyncio.ensure_future(anext(events))
            await asyncio.wait((step, closing), return_when=asyncio.FIRST_COMPLETED)
            if not step.done():
                return  # the console is stopping (finally cancels the step)
            try:
                event = step.result()
            except StopAsyncIteration:
                return
            step = None
            yield event
    finally:
        closing.cancel()
        if step is not None and not step.done():
            step.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await step
        await events.aclose()


class SecurityHeaders:
    """Adds the CSP and other security headers to every response (pure ASGI: streams too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
