"""``praxis``: the command line.

``praxis serve`` runs the service: 127.0.0.1:50051 by default (``--listen``; port 0
picks a free port and prints it), an embedded SQLite file, health and reflection, and a
graceful shutdown on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from praxis import config as config_module
from praxis import logs, startup
from praxis.app import Server, Settings
from praxis.authority.principals import PrincipalsAuthority
from praxis.clock import Clock, SystemClock, TestClock
from praxis.store.migrations import SchemaError

log = logging.getLogger("praxis")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="praxis", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the gRPC service")
    serve.add_argument("--config", type=Path, help="config file (default: <data-dir>/config.json)")
    serve.add_argument(
        "--data-dir",
        type=Path,
        default=config_module.DEFAULT_DATA_DIR,
        help="where a first run creates its config, database and credentials",
    )
    serve.add_argument("--listen", default="127.0.0.1:50051", help="host:port (port 0: any)")
    serve.add_argument("--database-url", help="SQLAlchemy URL overriding the config's")
    serve.add_argument(
        "--test-clock",
        type=int,
        metavar="NOW_MS",
        help="serve TestClockService with the clock set to NOW_MS",
    )
    serve.add_argument("--tls-cert", type=Path, help="PEM certificate chain: serve TLS")
    serve.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    serve.add_argument("--log-level", default="INFO")
    serve.add_argument("--console", metavar="HOST:PORT", help="also serve the web console here")
    _console_parser(commands)
    return parser


def _console_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    console = commands.add_parser("console", help="serve the web console (a gRPC client)")
    console.add_argument("--listen", default="127.0.0.1:8080", help="host:port (port 0: any)")
    console.add_argument("--server", default="127.0.0.1:50051", help="the Praxis gRPC server")
    console.add_argument("--server-roots", type=Path, help="PEM roots: reach the server by TLS")
    console.add_argument("--tls-cert", type=Path, help="PEM certificate chain: serve HTTPS")
    console.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    console.add_argument(
        "--secure-cookies", action="store_true", help="Secure cookies (behind a TLS proxy)"
    )
    console.add_argument(
        "--token-file",
        type=Path,
        help="print a one-time sign-in link for this token (default: $PRAXIS_TOKEN, if set)",
    )
    console.add_argument("--log-level", default="INFO")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``praxis`` command: ``serve`` here, every other command remote."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in ("serve", "console"):
        from praxis_cli.main import run  # the remote commands (docs/cli.md)

        return run(argv)
    args = _parser().parse_args(argv)
    try:
        logs.setup(args.log_level)
    except ValueError as error:
        return startup.report("LOG_LEVEL_INVALID", f"--log-level: {error}", 2)
    if args.command == "console":
        return console(args)
    try:
        return serve(args)
    except (OSError, RuntimeError) as error:  # grpc raises RuntimeError when it cannot bind
        return startup.startup_error(args, error)


def console(args: argparse.Namespace) -> int:
    """Runs the web console until SIGTERM or SIGINT."""
    from praxis_console import serve as console_serve
    from praxis_console.app import Settings as ConsoleSettings

    try:
        listen = console_serve.Listen.parse(args.listen, args.tls_cert, args.tls_key)
        roots = args.server_roots.read_bytes() if args.server_roots else None
        token = console_serve.read_token(args.token_file)
    except (ValueError, OSError, IndexError) as error:
        return startup.report("USAGE", f"console: {error}", 2)
    settings = ConsoleSettings(args.server, roots, secure_cookies=args.secure_cookies)
    try:
        return console_serve.run(settings, listen, token)
    except OSError as error:
        return startup.report(
            "ADDRESS_IN_USE", f"console: cannot listen on {args.listen}: {error.strerror}", 6
        )


def _resolve_config(args: argparse.Namespace) -> config_module.Config:
    path: Path = args.config or args.data_dir / "config.json"
    if args.config is None and not path.exists():
        path, credentials = config_module.create_default(args.data_dir)
        print(
            f"praxis: first run: created {path} with fresh credentials for one human "
            f"(local-human) and one agent (local-agent) principal in {credentials}",
            file=sys.stderr,
            flush=True,
        )
    return config_module.load(path)


def _start_console(args: argparse.Namespace, address: str) -> Any:
    """The web console beside the server (``--console HOST:PORT``), or None."""
    if not args.console:
        return None
    from praxis_console.app import Settings as ConsoleSettings
    from praxis_console.serve import ConsoleThread, Listen

    # Over TLS the console verifies the server with its own certificate as the root.
    roots = args.tls_cert.read_bytes() if args.tls_cert else None
    web = ConsoleThread(ConsoleSettings(address, roots), Listen.parse(args.console, None, None))
    web.start()
    print(
        json.dumps({"console": f"http://{args.console.rpartition(':')[0]}:{web.port}/"}),
        file=sys.stderr,
        flush=True,
    )
    return web


def serve(args: argparse.Namespace) -> int:
    """Runs the server until SIGTERM or SIGINT."""
    try:
        config = _resolve_config(args)
        authority = PrincipalsAuthority.from_file(config.principals_path)
    except (ValueError, KeyError, OSError) as error:
        print(f"praxis: invalid config: {error}", file=sys.stderr, flush=True)
        return 2
    clock: Clock = TestClock(args.test_clock) if args.test_clock is not None else SystemClock()
    if (args.tls_cert is None) != (args.tls_key is None):
        print("praxis: --tls-cert and --tls-key go together", file=sys.stderr, flush=True)
        return 2
    tls = (args.tls_cert.read_bytes(), args.tls_key.read_bytes()) if args.tls_cert else None
    settings = Settings(
        database_url=args.database_url or config.database_url,
        authority=authority,
        clock=clock,
        listen=args.listen,
        models=config.models,
        clock_tolerance_ms=config.clock_tolerance_ms,
        synchronous=config.synchronous,
        limits=config.limits,
        tls=tls,
    )
    try:
        server = Server(settings)
    except SchemaError as error:
        print(f"praxis: refusing to start: {error}", file=sys.stderr, flush=True)
        return 2
    server.start()
    host = args.listen.rpartition(":")[0]
    web = _start_console(args, f"{host}:{server.port}")
    print(json.dumps({"listening": f"{host}:{server.port}", "port": server.port}), flush=True)
    log.info("serving", extra={"port": server.port, "test_clock": args.test_clock is not None})
    stopping = threading.Event()

    def _stop(signum: int, _frame: object) -> None:
        log.info("shutting down", extra={"signal": signal.Signals(signum).name})
        stopping.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    stopping.wait()
    if web is not None:
        web.stop()
    server.stop()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
