"""Mutual-TLS identity: a verified client certificate's fingerprint, mapped to a principal.

The TLS layer verifies a client certificate against the configured roots before a call
reaches the server; :class:`CertificateMapping` then maps its SHA-256 fingerprint (the
``client_certificates`` object of ``config.json``) to a principal of the inner authority.
"""

from __future__ import annotations

import hashlib
import ssl
from decimal import Decimal

from praxis.authority.principals import PrincipalsAuthority
from praxis.authority.protocol import Authority
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection


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
