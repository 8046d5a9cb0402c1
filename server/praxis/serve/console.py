"""The web console's processes: ``praxis console``, and the console of ``praxis serve
--console``, which runs ``praxis console`` as a child of its own beside the server
processes (:class:`praxis.serve.processes.Sidecar`).

The console is a client of the public API like any other, so it runs in a process of its
own: grpcio's asyncio support wants one event loop per process (a second one, on a
thread of a server, logged ``BlockingIOError`` tracebacks, grpc/grpc#25364), and as a
client it must present a client certificate to a server that requires mutual TLS
(``--console-client-cert``/``--console-client-key``).
"""

from __future__ import annotations

import argparse
import json
import logging
import socket
import ssl
from pathlib import Path

from praxis.observability import logs
from praxis.serve import banner, startup
from praxis.serve.processes import Sidecar, child_command
from praxis_client.client import is_loopback

log = logging.getLogger("praxis")
DEFAULT_CONSOLE = "127.0.0.1:8080"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``praxis console`` command."""
    console = commands.add_parser("console", help="serve the web console (a gRPC client)")
    console.add_argument("--listen", default="127.0.0.1:8080", help="host:port (port 0: any)")
    console.add_argument("--server", default="127.0.0.1:50051", help="the Praxis gRPC server")
    console.add_argument("--server-roots", type=Path, help="PEM roots: reach the server by TLS")
    console.add_argument(
        "--client-cert",
        type=Path,
        help="PEM certificate chain the console presents to the server (mutual TLS)",
    )
    console.add_argument("--client-key", type=Path, help="PEM private key of --client-cert")
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
    console.add_argument(
        "--insecure",
        action="store_true",
        help="allow plaintext beyond loopback (--listen without --tls-cert, or --server "
        "without --server-roots): tokens then travel in the clear",
    )
    console.add_argument("--log-level", default="INFO")
    # set by `praxis serve --console`: serve this inherited listening socket
    console.add_argument("--listen-fd", type=int, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """``praxis console``: serves the console until SIGTERM or SIGINT."""
    from praxis_console import serve as console_serve
    from praxis_console.app import Settings

    if (args.client_cert is None) != (args.client_key is None):
        return startup.report("USAGE", "console: --client-cert and --client-key go together", 2)
    try:
        listen = console_serve.Listen.parse(args.listen, args.tls_cert, args.tls_key)
        roots = args.server_roots.read_bytes() if args.server_roots else None
        token = console_serve.read_token(args.token_file)
        certificate = args.client_cert.read_bytes() if args.client_cert else None
        key = args.client_key.read_bytes() if args.client_key else None
    except (ValueError, OSError, IndexError) as error:
        return startup.report("USAGE", f"console: {error}", 2)
    plaintext = _plaintext_beyond_loopback(args)
    if plaintext is not None:
        return startup.report("TLS_REQUIRED", plaintext, 2)
    settings = Settings(
        args.server,
        roots,
        secure_cookies=args.secure_cookies,
        client_certificate=certificate,
        client_key=key,
    )
    try:
        sock = socket.socket(fileno=args.listen_fd) if args.listen_fd is not None else None
        return console_serve.run(settings, listen, token, sock)
    except OSError as error:
        return startup.report(
            "ADDRESS_IN_USE", f"console: cannot listen on {args.listen}: {error.strerror}", 6
        )


def _plaintext_beyond_loopback(args: argparse.Namespace) -> str | None:
    """Why the console would carry tokens in plaintext beyond loopback, or ``None``: the
    gRPC port's rule (TLS, or an explicit ``--insecure``) for both of its sides."""
    if args.insecure:
        return None
    if args.tls_cert is None and not is_loopback(args.listen):
        return (
            f"console: --listen {args.listen} is not a loopback address and the console "
            "serves plaintext: pass --tls-cert and --tls-key (HTTPS), or --insecure if a "
            "trusted proxy terminates TLS"
        )
    if args.server_roots is None and not is_loopback(args.server):
        return (
            f"console: --server {args.server} is not a loopback address and would receive "
            "people's tokens in plaintext: pass --server-roots PEM (TLS), or --insecure"
        )
    return None


# --- `praxis serve --console` ---------------------------------------------------------


def check(args: argparse.Namespace) -> int | None:
    """Why ``serve``'s console flags cannot serve (the exit code, after reporting it), or
    ``None``.

    Under mutual TLS every connection must present a client certificate, the console's
    too (a person's bearer token is sent over it, but the handshake comes first), so
    ``--console`` with ``--tls-client-ca`` needs ``--console-client-cert`` and
    ``--console-client-key``, a certificate the ``--tls-client-ca`` roots sign.
    """
    cert, key = args.console_client_cert, args.console_client_key
    if (cert is None) != (key is None):
        return startup.report("USAGE", "--console-client-cert and --console-client-key go "
                              "together", 2)  # fmt: skip
    if cert is not None and args.console is None:
        return startup.report("USAGE", "--console-client-cert goes with --console", 2)
    if cert is not None and args.tls_cert is None:
        return startup.report("USAGE", "--console-client-cert needs a TLS server "
                              "(--tls-cert and --tls-key)", 2)  # fmt: skip
    if args.console is not None and args.tls_client_ca is not None and cert is None:
        return startup.report(
            "USAGE",
            "--console under mutual TLS (--tls-client-ca) needs --console-client-cert and "
            "--console-client-key: the console reaches the server as a client and must "
            "present a certificate the --tls-client-ca roots sign",
            2,
        )
    if cert is not None:
        try:
            ssl.create_default_context(ssl.Purpose.SERVER_AUTH).load_cert_chain(cert, key)
        except OSError as error:  # ssl.SSLError is an OSError too
            return startup.report(
                "TLS_INVALID",
                f"{cert} and {key} (--console-client-cert, --console-client-key) are not a "
                f"usable PEM certificate chain and private key: "
                f"{getattr(error, 'strerror', None) or error}",
                2,
            )
    return None


def choose(args: argparse.Namespace) -> None:
    """``serve`` on its defaults brings the console (``DEFAULT_CONSOLE``, loopback).

    Only when ``--listen`` is left at its default: a test or tool that names its address
    (``--listen 127.0.0.1:0`` above all) gets no console unless it asks with
    ``--console``, so its servers and output stay as they were. Never under mutual TLS
    (the console would need a client certificate of its own) nor with ``--no-console``.
    """
    args.console_default = (
        args.console is None
        and not args.no_console
        and args.listen_default
        and args.tls_client_ca is None
        and args.child_index is None
    )
    if args.console_default:
        args.console = DEFAULT_CONSOLE


def bind(args: argparse.Namespace) -> socket.socket | int | None:
    """The console's listening socket, bound by ``serve`` once for every incarnation of
    the console child (port 0 picks one); or the exit code after reporting why not; or
    ``None`` when the default console's port is taken (a warning: the server serves)."""
    from praxis_console import serve as console_serve

    try:
        listen = console_serve.Listen.parse(args.console, None, None)
    except ValueError:
        return startup.report("USAGE", f"--console must be host:port, not {args.console!r}", 2)
    try:
        return console_serve.bind(listen)
    except OSError as error:
        if args.console_default:
            log.warning(
                "console not started: %s is taken (--console HOST:PORT serves it "
                "elsewhere, --no-console turns it off)",
                args.console,
                extra={"error": error.strerror or str(error)},
            )
            return None
        return startup.report("ADDRESS_IN_USE", f"cannot listen on {args.console} "
                              f"(--console): {error.strerror or error}", 6)  # fmt: skip


def sidecar(args: argparse.Namespace, sock: socket.socket, token: str = "") -> Sidecar:
    """The console child of ``serve --console``, serving ``sock``; its line
    ``{"console": URL}`` is printed on stderr once it serves, then the start banner
    (:func:`praxis.serve.banner.show`). Given the local human's ``token`` (in its
    environment, never on its command line), the child makes a one-time sign-in link."""
    host = args.console.rpartition(":")[0]
    listen = f"{host}:{sock.getsockname()[1]}"

    def argv(server: str) -> list[str]:
        line = ["console", "--listen", listen, "--listen-fd", str(sock.fileno())]
        line += ["--server", server, "--log-level", args.log_level]
        if args.insecure:  # serve's own rule already allowed plaintext beyond loopback
            line += ["--insecure"]
        if args.tls_cert is not None:  # verified with the server's own certificate, and
            line += ["--server-roots", str(args.tls_cert)]  # serving HTTPS with it
            line += ["--tls-cert", str(args.tls_cert), "--tls-key", str(args.tls_key)]
        if args.console_client_cert is not None:
            line += ["--client-cert", str(args.console_client_cert)]
            line += ["--client-key", str(args.console_client_key)]
        return child_command(line)

    shown: list[bool] = []

    def ready(line: dict[str, object]) -> None:
        print(json.dumps({"console": line["console"]}), file=logs.console(), flush=True)
        if not shown:  # once, not at every restart of the console
            shown.append(True)
            link = str(line.get("signin_link", ""))
            banner.show(args, car.address, str(line["console"]), link)

    env = {"PRAXIS_TOKEN": token} if token else {}
    car = Sidecar("console", argv, ready, pass_fds=(sock.fileno(),), env=env)
    return car


def add_serve_arguments(serve: argparse.ArgumentParser) -> None:
    """``serve``'s console flags."""
    serve.add_argument(
        "--console",
        metavar="HOST:PORT",
        help="also serve the web console here, in a process of its own",
    )
    serve.add_argument(
        "--console-client-cert",
        type=Path,
        metavar="PEM",
        help="with --console under mutual TLS: the client certificate the console presents",
    )
    serve.add_argument(
        "--console-client-key",
        type=Path,
        metavar="PEM",
        help="the private key of --console-client-cert",
    )
    serve.add_argument(
        "--no-console",
        action="store_true",
        help=f"without --listen, serve no console (default: the console on {DEFAULT_CONSOLE})",
    )
