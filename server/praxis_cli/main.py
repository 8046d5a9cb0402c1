"""The ``praxis`` remote commands: parser, connection, dispatch and error reporting."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from typing import Any

import grpc

from praxis_cli import config
from praxis_cli.errors import CliError, from_rpc, usage
from praxis_cli.output import Output
from praxis_cli.parser import Parser
from praxis_client import Client, connect

Handler = Callable[["Context", argparse.Namespace], int]
DEFAULT_TIMEOUT_S = 30.0


def version() -> str:
    """The installed version of Praxis."""
    try:
        return metadata.version("praxis-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def common_options() -> argparse.ArgumentParser:
    """Options every command accepts, before or after its name."""
    common = Parser(add_help=False)
    group = common.add_argument_group("connection and output")
    suppress = argparse.SUPPRESS
    group.add_argument(
        "--json",
        action="store_true",
        default=suppress,
        help="print JSON (times as epoch ms) instead of tables",
    )
    group.add_argument(
        "--wide",
        action="store_true",
        default=suppress,
        help="print every table column in full (a terminal's tables otherwise fit its width)",
    )
    group.add_argument(
        "--address", default=suppress, help=f"server host:port (env {config.ENV_ADDRESS})"
    )
    group.add_argument("--token", default=suppress, help=f"bearer token (env {config.ENV_TOKEN})")
    group.add_argument(
        "--tls-roots",
        default=suppress,
        metavar="PEM",
        help=f"verify a TLS server with these roots (env {config.ENV_TLS_ROOTS})",
    )
    group.add_argument(
        "--insecure",
        action="store_true",
        default=suppress,
        help="allow sending the token in plaintext to a host other than this one, on a "
        f"network you trust (env {config.ENV_INSECURE}=1)",
    )
    group.add_argument(
        "--profile",
        default=suppress,
        help=f"a profile stored by 'praxis login' (env {config.ENV_PROFILE})",
    )
    group.add_argument(
        "--timeout",
        type=float,
        default=suppress,
        metavar="SECONDS",
        help=f"deadline of each call (default {DEFAULT_TIMEOUT_S:g})",
    )
    return common


class Context:
    """What a command handler needs: its arguments, output and a lazily made client."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Output(
            bool(getattr(args, "json", False)), wide=bool(getattr(args, "wide", False))
        )
        self.timeout: float = getattr(args, "timeout", DEFAULT_TIMEOUT_S)
        self._client: Client | None = None

    def connection(self) -> config.Connection:
        """The resolved connection."""
        return config.resolve(
            getattr(self.args, "address", None),
            getattr(self.args, "token", None),
            getattr(self.args, "tls_roots", None),
            getattr(self.args, "profile", None),
            getattr(self.args, "insecure", False),
        )

    @property
    def client(self) -> Client:
        """A client of the resolved server."""
        if self._client is None:
            target = self.connection()
            roots = None
            if target.tls_roots is not None:
                try:
                    roots = target.tls_roots.read_bytes()
                except OSError as error:
                    raise usage(
                        f"cannot read TLS roots {target.tls_roots}: {error.strerror}",
                        "TLS_ROOTS_INVALID",
                    ) from error
            try:
                self._client = connect(
                    target.address, target.token, roots, insecure=target.insecure
                )
            except ValueError as error:  # the client's one refusal: a token in plaintext
                raise plaintext_refused(target.address) from error
        return self._client

    def call(self, method: Any, request: Any) -> Any:
        """A unary call with the command's deadline."""
        return method(request, timeout=self.timeout)

    def stream(self, method: Any, request: Any) -> Iterator[Any]:
        """The messages of a server stream (no deadline: it runs until the server ends it
        or Ctrl-C). Ctrl-C cancels the call first, so the server sees the caller go and
        closing the channel never waits on a live stream."""
        call = method(request)
        try:
            yield from call
        except KeyboardInterrupt:
            call.cancel()
            raise

    def close(self) -> None:
        """Closes the channel, if one was opened."""
        if self._client is not None:
            self._client.close()


def plaintext_refused(address: str) -> CliError:
    """The refusal to send a token in plaintext to another host, in the CLI's own terms."""
    return usage(
        f"refusing to send the bearer token in plaintext to {address}, which is not this "
        f"host: verify the server with TLS, --tls-roots PEM (env {config.ENV_TLS_ROOTS}), or "
        f"on a network you trust pass --insecure (env {config.ENV_INSECURE}=1)",
        "TLS_REQUIRED",
    )


def build_parser() -> Parser:
    """The whole command tree (also the source of docs/cli.md)."""
    from praxis_cli.commands import COMMAND_MODULES

    common = common_options()
    parser = Parser(
        prog="praxis",
        description="Praxis: a durable engine for AI-agent work. `praxis serve` runs the "
        "server; every other command is a remote client of its gRPC API.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"praxis {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.add_parser("serve", help="run the server (see 'praxis serve --help')", add_help=False)
    for module in COMMAND_MODULES:
        module.register(commands, common)
    parser.set_defaults(command_tree=parser)  # what `praxis completion` completes
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Runs one remote command; returns its exit code. Never lets a traceback out."""
    argv = list(sys.argv[1:] if argv is None else argv)
    context: Context | None = None
    try:
        args = build_parser().parse_args(argv)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            raise usage("a command is required (see 'praxis --help')")
        context = Context(args)
        return handler(context, args)
    except CliError as error:
        return report(error)
    except grpc.RpcError as error:
        return report(from_rpc(error))
    except KeyboardInterrupt:
        print("error: INTERRUPTED: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug: one line, never a traceback
        return report(CliError("INTERNAL", f"{type(error).__name__}: {error}"))
    finally:
        if context is not None:
            context.close()


def report(error: CliError) -> int:
    """Prints the one-line error (and field violations) to stderr; returns the exit code."""
    for line in error.lines():
        print(line, file=sys.stderr, flush=True)
    return error.exit_code
