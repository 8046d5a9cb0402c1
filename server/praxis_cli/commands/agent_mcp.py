"""``praxis mcp``: the Model Context Protocol server for LLM agents (docs/agents.md).

It connects like every remote command (flags, environment, profile) and acts with that
token, which should be an agent principal's. stdout belongs to the MCP protocol on
stdio, so the command prints nothing else there.
"""

from __future__ import annotations

import argparse
import socket
from typing import Any

from praxis_cli.commands.common import leaf
from praxis_cli.errors import usage


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the ``mcp`` command."""
    parser = leaf(
        commands,
        common,
        "mcp",
        _mcp,
        "serve the Model Context Protocol to an LLM agent, acting with this token",
    )
    parser.add_argument(
        "--http",
        metavar="PORT",
        type=int,
        default=None,
        help="serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the loopback address to serve HTTP on (no other is accepted)",
    )
    parser.add_argument(
        "--worker-id",
        default="",
        help="the worker id its task claims use (default mcp-<hostname>); settling a task "
        "needs the id that claimed it, so keep it across restarts",
    )


def _mcp(ctx: Any, args: argparse.Namespace) -> int:
    from praxis_mcp.actions import Praxis
    from praxis_mcp.server import check_loopback, serve

    if args.http is not None:
        if not 0 < args.http < 65536:
            raise usage(f"--http {args.http}: a port is 1 to 65535")
        try:
            check_loopback(args.host)
        except ValueError as error:
            raise usage(str(error), "LOOPBACK_REQUIRED") from error
    token = ctx.connection().token
    praxis = Praxis(ctx.client, args.worker_id or f"mcp-{socket.gethostname()}")
    if args.http is None:
        serve(praxis, token)
    else:
        serve(praxis, token, "http", args.host, args.http)
    return 0
