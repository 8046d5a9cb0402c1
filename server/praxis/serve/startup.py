"""One-line reports of ``praxis serve`` start-up failures, with the CLI's exit codes.

``error: <REASON>: <message>`` on the real stderr, whatever ``--log-level`` says, never
a traceback (docs/operations.md, "Start-up refusals and exit codes"):

- exit 2, a start that cannot succeed as configured: USAGE (flags that do not go together,
  a malformed address), LOG_LEVEL_INVALID, TLS_INVALID (missing, unreadable or unusable
  certificate or key), TLS_REQUIRED (plaintext ``--listen`` or ``--console`` beyond
  loopback without ``--insecure``), CONFIG_INVALID (the config file, or a principals or
  credentials file others can write), SCHEMA_INCOMPATIBLE (a database schema that is
  incomplete, foreign or newer than the server), STORAGE_MISMATCH (a SQLite file missing
  or replaced under its installation marker, being restored, or a damaged principal
  journal);
- exit 6, a start that may succeed later: ADDRESS_IN_USE (also for
  ``--metrics-listen``), STORAGE_UNAVAILABLE (the database cannot be reached or opened:
  named without its password, with the driver's cause);
- exit 1, STARTUP_FAILED: any other operating-system error.
"""

from __future__ import annotations

import argparse
import errno
import socket
import ssl
from dataclasses import dataclass

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, InterfaceError, OperationalError

from praxis.authority.certificates import CertificateMappingError
from praxis.observability import logs
from praxis.observability.tracing import TracingConfigError
from praxis.serve import metrics_endpoint as endpoints
from praxis.store.db.files import StorageError, StorageFailure
from praxis.store.db.migrations import SchemaError

USAGE = 2
UNAVAILABLE = 6


def report(reason: str, message: str, exit_code: int) -> int:
    """Prints the error line; returns the exit code."""
    print(f"error: {reason}: {' '.join(message.split())}", file=logs.console(), flush=True)
    return exit_code


@dataclass(frozen=True)
class Refusal:
    """Why ``praxis serve`` does not start: one error line, then ``exit_code``."""

    reason: str
    message: str
    exit_code: int = USAGE

    def report(self) -> int:
        """Prints the error line; returns the exit code."""
        return report(self.reason, self.message, self.exit_code)


def without_password(url: str) -> str:
    """``url`` with its password masked: what a message may show of a database URL."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(a database URL that cannot be parsed)"


def refusal_of(error: BaseException, database_url: str) -> Refusal | None:
    """The refusal a start-up error stands for, or ``None`` (a bug: its traceback)."""
    if isinstance(error, SchemaError):
        return Refusal("SCHEMA_INCOMPATIBLE", str(error))
    if isinstance(error, StorageError):
        return Refusal("STORAGE_MISMATCH", str(error))
    if isinstance(error, (TracingConfigError, CertificateMappingError)):
        return Refusal("CONFIG_INVALID", str(error))  # a certificate of an unknown principal
    if isinstance(error, (OperationalError, InterfaceError, StorageFailure)):
        return database_unavailable(database_url, error)
    return None


def database_unavailable(database_url: str, error: BaseException) -> Refusal:
    """STORAGE_UNAVAILABLE (exit 6): the database named without its password, and the
    driver's own words for the cause (connection refused, authentication failed, ...)."""
    cause = " ".join(str(getattr(error, "orig", None) or error).split())
    try:
        password = make_url(database_url).password
    except ArgumentError:
        password = None
    if password:
        cause = cause.replace(str(password), "***")
    return Refusal(
        "STORAGE_UNAVAILABLE",
        f"cannot use the database {without_password(database_url)}: {cause}",
        UNAVAILABLE,
    )


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


def check_tls(args: argparse.Namespace) -> Refusal | None:
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
        return Refusal(
            "TLS_INVALID",
            f"{args.tls_cert} and {args.tls_key} are not a usable PEM certificate chain "
            f"and private key: {getattr(error, 'strerror', None) or error}",
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
