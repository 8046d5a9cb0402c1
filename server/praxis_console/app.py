"""The console's ASGI application: routes, static assets, headers, lifespan."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from praxis_console import (
    approvals,
    auth,
    authorizations,
    config,
    decisions,
    deliverables,
    deliveries,
    inbox,
    registry,
    resume,
    runs,
    schedules,
    web,
)
from praxis_console.api import Engine
from praxis_console.sessions import Limits, SessionStore


@dataclass(frozen=True)
class Settings:
    """How the console reaches the engine and treats its cookies.

    Attributes:
        server_address: The Praxis gRPC server, ``host:port``.
        root_certificates: PEM roots to verify a TLS server with; None for plaintext.
        secure_cookies: Mark the session cookie ``Secure`` (the console is served over
            TLS, directly or behind a proxy).
        session_limits: Session bounds and lifetimes.
        client_certificate: PEM certificate chain presented to the server (mutual TLS).
        client_key: PEM private key of ``client_certificate``.
    """

    server_address: str
    root_certificates: bytes | None = None
    secure_cookies: bool = False
    session_limits: Limits = field(default_factory=Limits)
    client_certificate: bytes | None = None
    client_key: bytes | None = field(default=None, repr=False)


async def home(request: Request) -> Response:
    return web.redirect("/inbox" if web.session_of(request) else "/signin")


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")


def create_app(settings: Settings, clock: Callable[[], float] = time.monotonic) -> Starlette:
    """The console application; its gRPC channel opens with the app and closes with it."""
    sessions = SessionStore(clock, settings.session_limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = Engine.connect(
            settings.server_address,
            settings.root_certificates,
            settings.client_certificate,
            settings.client_key,
        )
        app.state.console = web.Console(
            engine=engine,
            sessions=sessions,
            secure_cookies=settings.secure_cookies,
            server_address=settings.server_address,
        )
        try:
            yield
        finally:
            await engine.close()

    app = Starlette(
        routes=[
            Route("/", home, methods=["GET"]),
            *auth.ROUTES,
            *inbox.ROUTES,
            *runs.ROUTES,
            *resume.ROUTES,
            *registry.ROUTES,
            *decisions.ROUTES,
            *authorizations.ROUTES,
            *deliverables.ROUTES,
            *approvals.ROUTES,
            *schedules.ROUTES,
            *deliveries.ROUTES,
            *config.ROUTES,
            Mount("/static", StaticFiles(directory=web.STATIC), name="static"),
        ],
        middleware=[Middleware(web.SecurityHeaders)],
        exception_handlers={
            web.Unauthenticated: web.unauthenticated,
            HTTPException: http_error,
        },
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    return app
