"""The server's configuration: which version each process serves, the latest reloads,
and a human's reload of ``config.json`` (AdminService.GetConfigStatus, ReloadConfig)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import admin_pb2_grpc, config_pb2
from praxis_console import web
from praxis_console.api import ApiError


async def _page(request: Request, answer: Any = None, refused: ApiError | None = None) -> Response:
    """The configuration page, with a reload's ``answer`` (or why it was ``refused``)
    when one was just asked for."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    admin = engine.stub("admin", admin_pb2_grpc.AdminServiceStub)
    status, problem = await engine.read(
        session.token, admin.GetConfigStatus, config_pb2.GetConfigStatusRequest()
    )
    return web.render(
        request,
        "config.html",
        {"status": status, "problem": refused or problem, "answer": answer},
    )


async def config_page(request: Request) -> Response:
    """The versions served and the latest reloads."""
    return await _page(request)


async def reload_config(request: Request) -> Response:
    """Reloads the server's config.json; the page again, with what the reload applied
    (a bad file: the refusal beside the versions, with each problem's JSON path)."""
    session, _form = await web.checked_form(request)
    engine = web.console_of(request).engine
    admin = engine.stub("admin", admin_pb2_grpc.AdminServiceStub)
    try:
        answer = await engine.call(
            session.token, admin.ReloadConfig, config_pb2.ReloadConfigRequest()
        )
    except ApiError as error:
        return await _page(request, refused=error)
    return await _page(request, answer)


ROUTES = [
    Route("/config", config_page, methods=["GET"]),
    Route("/config/reload", reload_config, methods=["POST"]),
]
