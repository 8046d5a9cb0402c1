"""Start-up checks for running exposed to a network (see ``docs/security.md``).

- A non-loopback ``--listen`` needs TLS, or an explicit ``--insecure``: bearer tokens
  would otherwise travel in the clear.
- ``--tls-client-ca`` turns on mutual TLS: every client must present a certificate signed
  by those roots, and a call without a bearer token is authenticated by its certificate's
  SHA-256 fingerprint, mapped to a principal by the config's ``client_certificates``.
- The principals, credentials and config files must not be writable by anyone but their
  owner: whoever can write the principals file can add a HUMAN principal.
"""

from __future__ import annotations

import argparse
import hashlib
import ipaddress
import ssl
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

from praxis.authority.principals import PrincipalsAuthority
from praxis.authority.protocol import Authority
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection
from praxis.serve import config as config_module

LOOPBACK_NAMES = frozenset({"localhost", "ip6-localhost"})


def is_loopback(listen: str) -> bool:
    """True when ``listen`` (``host:port``, ``[v6]:port`` or ``unix:path``) stays local."""
    if listen.startswith(("unix:", "unix-abstract:")):
        return True
    host = listen.rpartition(":")[0].strip("[]")
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name or an empty host (every interface)


class Tls(NamedTuple):
    """The server's TLS material (a tuple, as ``Settings.tls`` expects)."""

    chain: bytes
    key: bytes
    client_ca: bytes | None = None


def check_listen(args: argparse.Namespace) -> str | None:
    """Why the listen address and TLS flags cannot be served, or ``None``."""
    if (args.tls_cert is None) != (args.tls_key is None):
        return "--tls-cert and --tls-key go together"
    if args.tls_client_ca is not None and args.tls_cert is None:
        return "--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key"
    if args.tls_cert is None and not args.insecure and not is_loopback(args.listen):
        return (
            f"--listen {args.listen} is not a loopback address and no TLS is configured: "
            "bearer tokens would travel in the clear. Pass --tls-cert and --tls-key, or "
            "--insecure if a trusted network or proxy encrypts the traffic"
        )
    return None


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


def certificate_fingerprint(pem_or_der: bytes) -> str:
    """The lowercase hex SHA-256 of a certificate's DER encoding."""
    if pem_or_der.lstrip().startswith(b"-----BEGIN"):
        pem_or_der = ssl.PEM_cert_to_DER_cert(pem_or_der.decode("ascii"))
    return hashlib.sha256(pem_or_der).hexdigest()


class CertificateMapping:
    """An :class:`Authority` that also authenticates TLS client certificates.

    ``mapping`` sends a certificate's SHA-256 fingerprint (hex) to a principal id of the
    inner authority; the TLS layer has already verified the certificate against the
    configured roots before the call reaches the server.
    """

    def __init__(self, inner: Authority, mapping: dict[str, Principal]) -> None:
        self.inner = inner
        self.mapping = {key.lower(): value for key, value in mapping.items()}

    def authenticate_certificate(self, fingerprint: str, now_ms: int) -> Principal | Rejection:
        """The principal mapped to a verified client certificate."""
        principal = self.mapping.get(fingerprint.lower())
        if principal is None:
            return Rejection(
                Code.UNAUTHENTICATED,
                "CREDENTIAL_INVALID",
                "the client certificate is not mapped to a principal",
            )
        # The principal must still be current: ask the inner authority for a harmless read.
        checked = self.inner.authorize(principal, "", "", now_ms)
        if isinstance(checked, Rejection) and checked.code is Code.UNAUTHENTICATED:
            return checked
        return principal

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Delegates."""
        return self.inner.authenticate(token, now_ms)

    def authorize(
        self, principal: Principal, action: str, work_order_id: str, now_ms: int
    ) -> ActorEvidence | Rejection:
        """Delegates."""
        return self.inner.authorize(principal, action, work_order_id, now_ms)

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Delegates."""
        return self.inner.verify_approval(approval, work_order_id, now_ms)

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """Delegates."""
        return self.inner.spend_cap(principal_id)


def with_certificates(authority: PrincipalsAuthority, certificates: dict[str, str]) -> Authority:
    """``authority``, able to map client certificates when the config names any.

    Raises:
        ValueError: A certificate is mapped to a principal the authority does not know.
    """
    if not certificates:
        return authority
    mapping: dict[str, Principal] = {}
    for fingerprint, principal_id in certificates.items():
        principal = authority.principal(principal_id)
        if principal is None:
            raise ValueError(f"client_certificates: unknown principal {principal_id!r}")
        mapping[fingerprint] = principal
    return CertificateMapping(authority, mapping)
