"""Start-up checks for running exposed to a network (see ``docs/security.md``).

- A non-loopback ``--listen`` needs TLS, or an explicit ``--insecure``: bearer tokens
  would otherwise travel in the clear. So does a non-loopback ``--console`` (sign-in
  tokens, session cookies); with TLS the console beside the server serves HTTPS with the
  same certificate and key.
- ``--tls-client-ca`` turns on mutual TLS: every client must present a certificate signed
  by those roots, and a call without a bearer token is authenticated by its certificate's
  SHA-256 fingerprint, mapped to a principal by the config's ``client_certificates``.
- The principals, credentials and config files must not be writable by anyone but their
  owner: whoever can write the principals file can add a HUMAN principal.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NamedTuple

from praxis.serve import config as config_module
from praxis.serve.startup import Refusal
from praxis_client.client import is_loopback


class Tls(NamedTuple):
    """The server's TLS material (a tuple, as ``Settings.tls`` expects)."""

    chain: bytes
    key: bytes
    client_ca: bytes | None = None


def check_listen(args: argparse.Namespace) -> Refusal | None:
    """Why the listen addresses and TLS flags cannot be served (exit 2), or ``None``."""
    if (args.tls_cert is None) != (args.tls_key is None):
        return Refusal("USAGE", "--tls-cert and --tls-key go together")
    if args.tls_client_ca is not None and args.tls_cert is None:
        return Refusal("USAGE", "--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key")
    console = getattr(args, "console", None)
    if console is not None and not _is_host_port(console):
        return Refusal("USAGE", f"--console must be host:port, not {console!r}")
    if args.tls_cert is not None or args.insecure:
        return None
    if not is_loopback(args.listen):
        return Refusal(
            "TLS_REQUIRED",
            f"--listen {args.listen} is not a loopback address and no TLS is configured: "
            "bearer tokens would travel in the clear. Pass --tls-cert and --tls-key, or "
            "--insecure if a trusted network or proxy encrypts the traffic",
        )
    if console is not None and not is_loopback(console):
        return Refusal(
            "TLS_REQUIRED",
            f"--console {console} is not a loopback address and no TLS is configured: "
            "sign-in links and session cookies would travel in the clear. Pass --tls-cert "
            "and --tls-key (the console then serves HTTPS), or --insecure if a trusted "
            "network or proxy encrypts the traffic",
        )
    return None


def _is_host_port(address: str) -> bool:
    host, _, port = address.rpartition(":")
    return bool(host) and port.isdigit()


def tls_of(args: argparse.Namespace) -> Tls | None:
    """The TLS material named by the flags (checked by :func:`check_listen`)."""
    if args.tls_cert is None:
        return None
    ca = args.tls_client_ca.read_bytes() if args.tls_client_ca else None
    return Tls(args.tls_cert.read_bytes(), args.tls_key.read_bytes(), ca)


def check_files(config: config_module.Config, data_dir: Path) -> None:
    """Refuses principals, credentials or config files that others can write.

    Raises:
        ConfigError: One of them is writable by its group or by others.
    """
    config_module.check_private(config.principals_path)
    credentials = data_dir / "credentials.json"
    if credentials.exists():
        config_module.check_private(credentials)
