"""One-line reports of ``praxis serve`` start-up failures, with the CLI's exit codes.

``error: <REASON>: <message>`` on stderr, never a traceback: an unknown ``--log-level``
(LOG_LEVEL_INVALID, 2), a missing or unreadable certificate or key (TLS_INVALID, 2), an
address already in use (ADDRESS_IN_USE, 6, also for ``--metrics-listen``), a malformed
``--metrics-listen`` (USAGE, 2), and a certificate or key the TLS stack refuses
(TLS_INVALID, 2).
"""

from __future__ import annotations

import argparse
import errno
import socket
import ssl

from praxis.observability import logs
from praxis.serve import metrics_endpoint as endpoints


def report(reason: str, message: str, exit_code: int) -> int:
    """Prints the error line; returns the exit code."""
    print(f"error: {reason}: {' '.join(message.split())}", file=logs.console(), flush=True)
    return exit_code


def _address_free(listen: str) -> bool:
    host, _, port = listen.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((host, int(port)))
    except (OSError, ValueError):
        return False
    return True


def startup_error(args: argparse.Namespace, error: OSError | RuntimeError) -> int:
    """Reports a start-up failure of ``serve`` (reading TLS files, binding the address)."""
    tls_files = {str(path) for path in (args.tls_cert, args.tls_key) if path is not None}
    filename = getattr(error, "filename", None)
    if isinstance(error, OSError) and filename is not None and str(filename) in tls_files:
        return report("TLS_INVALID", f"cannot read {filename}: {error.strerror}", 2)
    in_use = isinstance(error, OSError) and error.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL)
    if in_use or "cannot listen" in str(error) or "Failed to bind" in str(error):
        if args.tls_cert is not None and _address_free(args.listen):
            return report("TLS_INVALID", f"{args.tls_cert} and {args.tls_key} are not a "
                          "usable PEM certificate chain and private key", 2)  # fmt: skip
        return report("ADDRESS_IN_USE", f"cannot listen on {args.listen}: the address is in "
                      "use or not available", 6)  # fmt: skip
    if isinstance(error, RuntimeError):
        raise error  # not a start-up condition we know: a bug, with its traceback
    return report("STARTUP_FAILED", str(error), 1)


def check_tls(args: argparse.Namespace) -> int | None:
    """TLS_INVALID (exit 2) when ``--tls-cert``/``--tls-key`` cannot serve, else ``None``.

    Checked once, before any server process starts, so that ``--processes`` children never
    each fail on the same files.
    """
    if args.tls_cert is None or args.tls_key is None:
        return None
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
            args.tls_cert, args.tls_key
        )
    except OSError as error:  # ssl.SSLError is an OSError too
        return report(
            "TLS_INVALID",
            f"{args.tls_cert} and {args.tls_key} are not a usable PEM certificate chain "
            f"and private key: {getattr(error, 'strerror', None) or error}",
            2,
        )
    return None


def metrics_endpoint(listen: str, processes: int) -> endpoints.Endpoint | int:
    """The ``--metrics-listen`` endpoint, bound before any server process starts, or the
    exit code after reporting why it cannot be: a malformed address (USAGE, 2) or one
    that cannot be bound (ADDRESS_IN_USE, 6)."""
    try:
        return endpoints.open_endpoint(listen, processes)
    except ValueError as error:
        return report("USAGE", f"--metrics-listen {error}", 2)
    except OSError as error:
        return report(
            "ADDRESS_IN_USE",
            f"cannot listen on {listen} (--metrics-listen): {error.strerror or error}",
            6,
        )
