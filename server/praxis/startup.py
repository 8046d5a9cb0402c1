"""One-line reports of ``praxis serve`` start-up failures, with the CLI's exit codes.

``error: <REASON>: <message>`` on stderr, never a traceback: an unknown ``--log-level``
(LOG_LEVEL_INVALID, 2), a missing or unreadable certificate or key (TLS_INVALID, 2), an
address already in use (ADDRESS_IN_USE, 6), and a certificate or key the TLS stack
refuses (TLS_INVALID, 2).
"""

from __future__ import annotations

import argparse
import socket
import sys


def report(reason: str, message: str, exit_code: int) -> int:
    """Prints the error line; returns the exit code."""
    print(f"error: {reason}: {' '.join(message.split())}", file=sys.stderr, flush=True)
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
    if "cannot listen" in str(error) or "Failed to bind" in str(error):
        if args.tls_cert is not None and _address_free(args.listen):
            return report("TLS_INVALID", f"{args.tls_cert} and {args.tls_key} are not a "
                          "usable PEM certificate chain and private key", 2)  # fmt: skip
        return report("ADDRESS_IN_USE", f"cannot listen on {args.listen}: the address is in "
                      "use or not available", 6)  # fmt: skip
    if isinstance(error, RuntimeError):
        raise error  # not a start-up condition we know: a bug, with its traceback
    return report("STARTUP_FAILED", str(error), 1)
