"""Sign-in with a bearer token or a one-time code, and sign-out."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import contract_pb2
from praxis_console import web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

MAX_TOKEN_CHARS = 4096


async def whoami(engine: Engine, token: str) -> str:
    """The principal a token authenticates as: asks the server (any principal may read
    its own spending), so an unknown, revoked or expired token is refused there."""
    response = await engine.call(
        token, engine.contracts.GetSpending, contract_pb2.GetSpendingRequest()
    )
    principal_id: str = response.principal_id
    return principal_id


async def signin_page(request: Request) -> Response:
    if web.session_of(request) is not None:
        return web.redirect("/inbox")
    return web.render(request, "signin.html", {})


async def signin(request: Request) -> Response:
    web._check_origin(request)
    form = await web.read_form(request)
    token = web.field_text(form, "token", MAX_TOKEN_CHARS)
    if not token:
        return web.render(request, "signin.html", {"problem": "Enter a token."}, 400)
    return await _start_session(request, token)


async def once_page(request: Request) -> Response:
    """A confirmation form: following the link alone (a preview, a prefetch) uses nothing."""
    return web.render(request, "signin_once.html", {"code": request.path_params["code"]})


async def once(request: Request) -> Response:
    web._check_origin(request)
    form = await web.read_form(request)
    token = web.console_of(request).sessions.redeem_code(web.field_text(form, "code", 128))
    if token is None:
        problem = "This sign-in link was already used or has expired."
        return web.render(request, "signin.html", {"problem": problem}, 400)
    return await _start_session(request, token)


async def signout(request: Request) -> Response:
    session, _form = await web.checked_form(request)
    web.console_of(request).sessions.delete(session.session_id)
    response = web.redirect("/signin")
    response.delete_cookie(web.COOKIE, path="/", httponly=True, samesite="strict")
    return response


async def _start_session(request: Request, token: str) -> Response:
    console = web.console_of(request)
    try:
        principal_id = await whoami(console.engine, token)
    except ApiError as error:
        problem = f"The server refused this token ({error.reason or error.code})."
        return web.render(request, "signin.html", {"problem": problem}, 401)
    old = request.cookies.get(web.COOKIE)
    if old:
        console.sessions.delete(old)
    session = console.sessions.create(token, principal_id)
    response = web.redirect("/inbox")
    set_cookie(response, session, console.secure_cookies)
    return response


def set_cookie(response: Response, session: Session, secure: bool) -> None:
    """The session cookie: HttpOnly, SameSite=Strict, Secure over TLS, no Max-Age (the
    server side expires it)."""
    response.set_cookie(
        web.COOKIE,
        session.session_id,
        path="/",
        httponly=True,
        secure=secure,
        samesite="strict",
    )


ROUTES = [
    Route("/signin", signin_page, methods=["GET"]),
    Route("/signin", signin, methods=["POST"]),
    Route("/signin/once/{code}", once_page, methods=["GET"]),
    Route("/signin/once", once, methods=["POST"]),
    Route("/signout", signout, methods=["POST"]),
]
