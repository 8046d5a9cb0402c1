"""Mutual-TLS identity: a verified client certificate's fingerprint, mapped to a principal.

The TLS layer verifies a client certificate against the configured roots before a call
reaches the server; :class:`CertificateMapping` then maps its SHA-256 fingerprint (the
``client_certificates`` object of ``config.json``) to a principal id, and resolves that id
through the server's authority on every call. While serving, that authority is the one
over the stored principals (:mod:`praxis.authority.stored`), so a certificate follows its
principal as the database has it now: refused once the principal is revoked or expired,
with its current kind and grants. The mapping is applied after the principals file has
been adopted into the database, never to the file itself.
"""

from __future__ import annotations

import hashlib
import logging
import ssl
from decimal import Decimal
from typing import Protocol, runtime_checkable

from praxis.authority.protocol import Authority
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection

log = logging.getLogger("praxis.authority")


def certificate_fingerprint(pem_or_der: bytes) -> str:
    """The lowercase hex SHA-256 of a certificate's DER encoding."""
    if pem_or_der.lstrip().startswith(b"-----BEGIN"):
        pem_or_der = ssl.PEM_cert_to_DER_cert(pem_or_der.decode("ascii"))
    return hashlib.sha256(pem_or_der).hexdigest()


@runtime_checkable
class ResolvingAuthority(Authority, Protocol):
    """An authority that can also resolve a principal id (a certificate's) to a principal."""

    def principal_of(self, principal_id: str, now_ms: int) -> Principal | Rejection:
        """The current principal of this id, or UNAUTHENTICATED as its token would be
        (``CREDENTIAL_INVALID`` for an id the authority does not know)."""
        ...


class CertificateMappingError(ValueError):
    """``client_certificates`` cannot be honoured (checked once, at start-up)."""


class CertificateMapping:
    """An :class:`Authority` that also authenticates TLS client certificates.

    ``mapping`` sends a certificate's SHA-256 fingerprint (hex) to a principal id, which is
    resolved through the inner authority on every call, so that revocation, expiry and
    changes of the principal apply to its certificate as they do to its token.
    """

    def __init__(self, inner: ResolvingAuthority, mapping: dict[str, str]) -> None:
        self.inner = inner
        self.mapping = {key.lower(): value for key, value in mapping.items()}

    def authenticate_certificate(self, fingerprint: str, now_ms: int) -> Principal | Rejection:
        """The principal a verified client certificate is mapped to, as it is now."""
        principal_id = self.mapping.get(fingerprint.lower())
        if principal_id is None:
            return Rejection(
                Code.UNAUTHENTICATED,
                "CREDENTIAL_INVALID",
                "the client certificate is not mapped to a principal",
            )
        return self.inner.principal_of(principal_id, now_ms)

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Delegates."""
        return self.inner.authenticate(token, now_ms)

    def authorize(
        self,
        principal: Principal,
        action: str,
        work_order_id: str,
        now_ms: int,
        purpose: str = "",
    ) -> ActorEvidence | Rejection:
        """Delegates."""
        return self.inner.authorize(principal, action, work_order_id, now_ms, purpose)

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Delegates."""
        return self.inner.verify_approval(approval, work_order_id, now_ms)

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """Delegates."""
        return self.inner.spend_cap(principal_id)


def with_certificates(authority: Authority, certificates: dict[str, str], now_ms: int) -> Authority:
    """``authority``, able to map client certificates when the config names any.

    Every mapped principal must be known to ``authority``: a typo never starts a server
    whose certificate could never authenticate. A mapped principal that is known but
    revoked or expired is accepted, with a warning: its certificate is refused as its
    token is, and revoking a principal must not stop the server at its next start.

    Raises:
        CertificateMappingError: A certificate is mapped to a principal the authority does
            not know, or the authority cannot resolve principal ids.
    """
    if not certificates:
        return authority
    if not isinstance(authority, ResolvingAuthority):
        raise CertificateMappingError(
            "client_certificates: this server's authority cannot map certificates to principals"
        )
    for fingerprint, principal_id in sorted(certificates.items()):
        found = authority.principal_of(principal_id, now_ms)
        if not isinstance(found, Rejection):
            continue
        if found.reason == "CREDENTIAL_INVALID":
            raise CertificateMappingError(
                f"client_certificates: {fingerprint[:16]}... is mapped to unknown principal "
                f"{principal_id!r} (create it, in the principals file or with PrincipalService, "
                "before mapping a certificate to it)"
            )
        log.warning(
            "client_certificates: the certificate's principal cannot authenticate",
            extra={"principal_id": principal_id, "reason": found.reason},
        )
    return CertificateMapping(authority, certificates)
