"""``praxis``: the command line.

``praxis serve`` runs the service: 127.0.0.1:50051 by default (``--listen``; port 0
picks a free port and prints it), an embedded SQLite file, health and reflection, and a
graceful shutdown on SIGTERM or SIGINT. ``--processes N`` (default: one per core) runs
N server processes on the port (:mod:`praxis.serve.processes`); ``--console`` adds the
web console, a process of its own (:mod:`praxis.serve.console`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from praxis.app import ConfigReader, Engine, LiveConfig, Server, Settings
from praxis.authority.principals import PrincipalsAuthority
from praxis.clock import Clock, SystemClock, TestClock
from praxis.core.rejection import FieldViolation, Rejection
from praxis.observability import logs
from praxis.serve import collector, metrics_endpoint, security, startup
from praxis.serve import config as config_module
from praxis.serve import console as console_module
from praxis.serve.processes import (
    Heartbeat,
    StopRequest,
    child_command,
    default_processes,
    supervise,
    wake_dir_for,
)
from praxis.store.db import dialect
from praxis.store.db.database import Database
from praxis_cli.entry import local

log = logging.getLogger("praxis")
DEFAULT_LISTEN = "127.0.0.1:50051"


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
    serve.add_argument(
        "--listen",
        help=f"host:port (port 0: any; default {DEFAULT_LISTEN}, and then the web console "
        f"comes too, on {console_module.DEFAULT_CONSOLE}, unless --no-console)",
    )
    serve.add_argument("--database-url", help="SQLAlchemy URL overriding the config's")
    serve.add_argument(
        "--test-clock",
        type=int,
        metavar="NOW_MS",
        help="serve TestClockService with the clock set to NOW_MS",
    )
    serve.add_argument("--tls-cert", type=Path, help="PEM certificate chain: serve TLS")
    serve.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    serve.add_argument(
        "--tls-client-ca",
        type=Path,
        help="PEM roots: require mutual TLS, client certificates mapped to principals",
    )
    serve.add_argument(
        "--insecure",
        action="store_true",
        help="allow plaintext on a non-loopback address (tokens travel in the clear)",
    )
    serve.add_argument("--log-level", default="INFO")
    serve.add_argument(
        "--processes",
        type=int,
        help="server processes sharing the port and database (default: one per core; "
        "1 with --test-clock)",
    )
    serve.add_argument("--child-index", type=int, help=argparse.SUPPRESS)  # set by --processes
    serve.add_argument("--heartbeat-fd", type=int, help=argparse.SUPPRESS)  # set by --processes
    # Set by --processes: how many server processes the parent started, this one included.
    serve.add_argument("--siblings", type=int, default=1, help=argparse.SUPPRESS)
    console_module.add_serve_arguments(serve)
    serve.add_argument(
        "--metrics-listen",
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (default: off)",
    )
    serve.add_argument("--metrics-child", action="store_true", help=argparse.SUPPRESS)
    serve.add_argument(
        "--db-pool-size",
        type=int,
        metavar="N",
        help="PostgreSQL connections per server process, at most (default and minimum: "
        "2 x (serving.executor_threads + 1) + 1)",
    )
    console_module.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``praxis`` command: ``serve`` here, every other command remote."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not local(argv):
        from praxis_cli.main import run  # the remote commands (docs/cli.md)

        return run(argv)
    if argv[0] == "admin":  # local: reads the data directory's files
        from praxis.serve import admin

        return admin.main(argv[1:])
    if argv[0] not in ("serve", "console"):
        from praxis_cli.main import run  # the remote commands (docs/cli.md)

        return run(argv)
    args = _parser().parse_args(argv)
    if args.command == "serve":
        args.listen_default = args.listen is None
        args.listen = args.listen or DEFAULT_LISTEN
        console_module.choose(args)
    if args.command == "console":
        try:
            logs.setup(args.log_level)
        except ValueError as error:
            return startup.report("LOG_LEVEL_INVALID", f"--log-level: {error}", 2)
        return console_module.run(args)
    try:
        logs.route_native_stderr(args.log_level)  # gRPC's C core logs become JSON lines too
    except ValueError as error:
        return startup.report("LOG_LEVEL_INVALID", f"--log-level: {error}", 2)
    try:
        return serve(args)
    except (OSError, RuntimeError) as error:  # grpc raises RuntimeError when it cannot bind
        return startup.startup_error(args, error)


def _resolve_config(args: argparse.Namespace) -> tuple[Path, config_module.Loaded]:
    path: Path = args.config or args.data_dir / "config.json"
    if args.config is None and not path.exists():
        path, credentials = config_module.create_default(args.data_dir)
        print(
            f"praxis: first run: created {path} with fresh credentials for one human "
            f"(local-human) and one agent (local-agent) principal in {credentials}",
            file=sys.stderr,
            flush=True,
        )
    return path, config_module.read(path)


def live_of(config: config_module.Config) -> LiveConfig:
    """The part of a config a reload applies without a restart."""
    return LiveConfig(
        webhooks=config.webhooks,
        models=config.models,
        limits=config.limits,
        retention=config.retention,
        log_level=config.log_level,
    )


def config_reader(path: Path) -> ConfigReader:
    """Reads ``path`` again (ReloadConfig, SIGHUP): the document and its live part, or a
    field violation per problem, each with its JSON path."""

    def read() -> tuple[dict[str, Any], LiveConfig] | list[FieldViolation]:
        try:
            loaded = config_module.read(path)
        except config_module.ConfigError as error:
            return [FieldViolation(p.path, p.message) for p in error.problems] or [
                FieldViolation("$", str(error))
            ]
        return loaded.document, live_of(loaded.config)

    return read


def _child_argv(
    args: argparse.Namespace, processes: int, index: int, listen: str, heartbeat_fd: int
) -> list[str]:
    """The command line of child ``index`` of ``processes`` (``--processes``)."""
    argv = ["serve", "--data-dir", str(args.data_dir), "--listen", listen]
    argv += ["--processes", "1", "--child-index", str(index), "--log-level", args.log_level]
    argv += ["--siblings", str(processes)]
    argv += ["--heartbeat-fd", str(heartbeat_fd)]
    argv += ["--config", str(args.config or args.data_dir / "config.json")]
    if args.test_clock is not None:  # one server process (and the --console child)
        argv += ["--test-clock", str(args.test_clock)]
    if args.database_url:
        argv += ["--database-url", args.database_url]
    if args.tls_cert:
        argv += ["--tls-cert", str(args.tls_cert), "--tls-key", str(args.tls_key)]
    if args.tls_client_ca:
        argv += ["--tls-client-ca", str(args.tls_client_ca)]
    if args.insecure:
        argv += ["--insecure"]
    if args.db_pool_size is not None:
        argv += ["--db-pool-size", str(args.db_pool_size)]
    if metrics_endpoint.children_record():  # the parent serves the children's metrics
        argv += ["--metrics-child"]
    return argv


def _settings(args: argparse.Namespace) -> tuple[Settings, int, str | None] | startup.Refusal:
    """The server's settings, how many processes and the metrics address; or why the
    flags and files cannot serve (every refusal here exits 2)."""
    problem = security.check_listen(args)
    if problem is not None:
        return problem
    try:
        config_path, loaded = _resolve_config(args)
        config = loaded.config
        security.check_files(config, args.data_dir)
        authority = PrincipalsAuthority.from_file(config.principals_path)
    except (ValueError, KeyError, OSError) as error:
        return startup.Refusal("CONFIG_INVALID", str(error))
    unusable = startup.check_tls(args)
    if unusable is not None:
        return unusable
    clock: Clock = TestClock(args.test_clock) if args.test_clock is not None else SystemClock()
    database_url = args.database_url or config.database_url
    processes = args.processes or (1 if args.test_clock is not None else default_processes())
    if processes < 1 or (processes > 1 and args.test_clock is not None):
        return startup.Refusal("USAGE", "--processes must be 1 with --test-clock, and >= 1")
    child = args.child_index
    # The parent of the server processes: of several, or of one beside the console's.
    supervising = child is None and (processes > 1 or args.console is not None)
    pool_size = args.db_pool_size if args.db_pool_size is not None else config.db_pool_size
    if pool_size is not None:
        problem_text = dialect.check_pool_size(pool_size, config.serving.executor_threads)
        if problem_text:
            return startup.Refusal("USAGE", f"--db-pool-size: {problem_text}")
    metrics_listen = args.metrics_listen or config.metrics_listen
    settings = Settings(
        database_url=database_url,
        authority=authority,
        clock=clock,
        listen=args.listen,
        models=config.models,
        clock_tolerance_ms=config.clock_tolerance_ms,
        synchronous=config.synchronous,
        limits=config.limits,
        tls=security.tls_of(args),
        serving=config.serving,
        reuse_port=child is not None,
        decide_ahead=args.siblings > 1,
        recover=child is None,
        sweeper=child in (None, 0),
        wake_dir=wake_dir_for(database_url, args.data_dir)
        if processes > 1 or child is not None
        else None,
        metrics=bool(metrics_listen and not supervising) or args.metrics_child,
        db_pool_size=pool_size,
        client_certificates=config.client_certificates,  # mapped once principals are adopted
        principal_journal=config.principal_journal,
        retention=config.retention,
        archive_dir=config.archive_dir,
        webhooks=config.webhooks,
        notifications=config.notifications,
        config_reader=config_reader(config_path),
        config_document=loaded.document,
    )
    if config.log_level:  # the file's level, as a reload would apply it
        logging.getLogger().setLevel(config.log_level)
    return settings, processes, metrics_listen


def serve(args: argparse.Namespace) -> int:
    """Runs the server until SIGTERM or SIGINT."""
    os.umask(0o077)  # the database, its WAL and every file created: owner only
    prepared = _settings(args)
    if isinstance(prepared, startup.Refusal):
        return prepared.report()
    refused = console_module.check(args)
    if refused is not None:
        return refused
    settings, processes, metrics_listen = prepared
    child = args.child_index
    # The parent of the server processes: of several, or of one beside the console's.
    supervising = child is None and (processes > 1 or args.console is not None)
    endpoint: metrics_endpoint.Endpoint | None = None
    if metrics_listen and child is None:
        # Supervising, the parent serves what its children record (the console records none).
        opened = startup.metrics_endpoint(metrics_listen, processes + (args.console is not None))
        if isinstance(opened, int):
            return opened
        endpoint = opened
    try:
        if supervising:
            Engine(settings).close()  # migrations and recovery, once, before the children
            return _supervise(args, settings, processes, endpoint)
        server = Server(settings)
    except BaseException as error:
        _close(endpoint)
        refusal = startup.refusal_of(error, settings.database_url)
        if refusal is not None:
            return refusal.report()
        if isinstance(error, RuntimeError):  # grpc could not bind the address
            return startup.startup_error(args, error)
        raise
    return _run(args, server, endpoint)


def _run(args: argparse.Namespace, server: Server, endpoint: Any) -> int:
    """Serves until SIGTERM or SIGINT, then drains."""
    if endpoint is not None:
        endpoint.watch(server.engine.db, server.engine.clock)
    stopping = StopRequest()  # not a threading.Event: set() in a handler can deadlock

    def _stop(signum: int, _frame: object) -> None:
        log.info("shutting down", extra={"signal": signal.Signals(signum).name})
        stopping.set()

    reloading = StopRequest()  # SIGHUP: read config.json again (the main thread does)

    def _reload(_signum: int, _frame: object) -> None:
        reloading.set()

    # Installed before announcing the port: a SIGTERM right after it still drains.
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGHUP, _reload)
    collector.settle_heap()  # the server is built: what it keeps is never scanned again
    server.start()
    host = args.listen.rpartition(":")[0]
    ready = {"listening": f"{host}:{server.port}", "port": server.port}
    if endpoint is not None:
        ready["metrics_port"] = endpoint.port
    print(json.dumps(ready), flush=True)
    log.info("serving", extra={"port": server.port, "test_clock": args.test_clock is not None})
    # A --processes child proves to its parent that its event loop runs (processes.py).
    beats = Heartbeat(args.heartbeat_fd, server.loop) if args.heartbeat_fd is not None else None
    # Wakes now and then: a SIGTERM the kernel delivers to another thread only flags the
    # handler, which runs once the main thread runs Python again (a bare wait() hung).
    while not stopping.wait(0.2):
        if beats is not None:
            beats.tick()
        if reloading.is_set():
            reloading.requested = False
            _reload_on_signal(server)
    if beats is not None:
        beats.draining()
    server.stop()
    _close(endpoint)
    log.info("stopped")
    return 0


def _reload_on_signal(server: Server) -> None:
    """SIGHUP: reloads the config file as ReloadConfig does, answering in the log."""
    try:
        outcome = server.reload_config("signal:SIGHUP", only_if_new=True)
    except Exception:  # the database is failing: logged, the server keeps serving
        log.exception("config reload on SIGHUP failed")
        return
    if isinstance(outcome, Rejection):  # the file's problems, each with its path
        log.error(
            "config reload on SIGHUP refused; nothing changed",
            extra={
                "reason": outcome.reason,
                "problems": [f"{v.field}: {v.description}" for v in outcome.violations],
            },
        )


def _supervise(args: argparse.Namespace, settings: Settings, processes: int, endpoint: Any) -> int:
    """The parent of ``--processes`` and ``--console``: children serve; this process
    serves the metrics."""
    db = None
    if endpoint is not None:
        # The stored-state gauges, read by the scrape thread alone: two connections at most.
        db = Database(settings.database_url, settings.synchronous, pool_size=2)
        endpoint.watch(db, settings.clock)
    # Bound once: every incarnation of the console child serves this socket.
    web = console_module.bind(args) if args.console is not None else None
    if web is None and args.console_default:  # the default console's port was taken
        args.console = None
    try:
        if isinstance(web, int):
            return web
        return supervise(
            lambda index, listen, fd: child_command(
                _child_argv(args, processes, index, listen, fd)
            ),
            processes,
            args.listen,
            {"metrics_port": endpoint.port} if endpoint is not None else None,
            console_module.sidecar(args, web, sign_in_token(args)) if web is not None else None,
        )
    finally:
        _close(endpoint)
        if db is not None:
            db.close()
        if isinstance(web, socket.socket):
            web.close()


def sign_in_token(args: argparse.Namespace) -> str:
    """The local human's token (``credentials.json`` of a first run), for the console's
    one-time sign-in link; '' when the file or that principal is gone."""
    try:
        credentials = json.loads((args.data_dir / "credentials.json").read_text("utf-8"))
        human = credentials["local-human"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    token = human.get("token") if isinstance(human, dict) else None
    return token if isinstance(token, str) and human.get("kind") == "HUMAN" else ""


def _close(endpoint: metrics_endpoint.Endpoint | None) -> None:
    if endpoint is not None:
        endpoint.close()


if __name__ == "__main__":
    sys.exit(main())
