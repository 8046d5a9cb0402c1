"""The built-in authority: a principals file of token hashes, kinds, grants and expiry.

File format (JSON)::

    {"version": 1, "principals": [
      {"id": "alice", "kind": "HUMAN", "token_sha256": "<hex>", "expires_at_ms": 0,
       "grants": [{"actions": ["registry.*"], "work_orders": ["*"],
                   "max_spend_microcredits": "5000000"}]}]}

``expires_at_ms`` 0 means no expiry. ``max_spend_microcredits`` (optional, canonical
decimal) caps what the runs the principal starts may spend; the lowest cap of its
grants applies. Action and work-order patterns are exact names or
end in ``*`` (a prefix). Raw tokens are never stored; only their SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from praxis.core import money
from praxis.core.records import (
    ActorEvidence,
    ApprovalEvidence,
    ApprovalRecord,
    Principal,
    PrincipalKind,
)
from praxis.core.rejection import Code, Rejection

EVIDENCE_TTL_MS = 30_000

HUMAN_ACTIONS = ("*",)
AGENT_ACTIONS = (
    "registry.read",
    "registry.propose",
    "approval.read",
    "run.*",
    "task.*",
    "event.*",
    "contract.read",
    "reconcile.read",
    "wait.read",
    "wait.satisfy",
    "assess.read",
    "assess.verify",
    "handoff.*",
)


@dataclass(frozen=True)
class Grant:
    """Actions allowed on work orders, each a name or a ``prefix*`` pattern."""

    actions: tuple[str, ...]
    work_orders: tuple[str, ...]
    max_spend: Decimal | None = None

    def allows(self, action: str, work_order_id: str) -> bool:
        """True when both the action and the work order match.

        An empty work order means every work order (listing runs, events or holds across
        the installation), which only a grant over all work orders (``*``) covers.
        """
        return _matches(self.actions, action) and _matches(self.work_orders, work_order_id or "*")


@dataclass(frozen=True)
class PrincipalRecord:
    """One principal of the file."""

    principal: Principal
    token_sha256: str
    grants: tuple[Grant, ...]
    expires_at_ms: int


def _matches(patterns: tuple[str, ...], name: str) -> bool:
    return any(
        pattern == name or (pattern.endswith("*") and name.startswith(pattern[:-1]))
        for pattern in patterns
    )


def hash_token(token: str) -> str:
    """The stored form of a bearer token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _denied(code: Code, reason: str, message: str) -> Rejection:
    return Rejection(code, reason, message)


class PrincipalsAuthority:
    """The built-in :class:`~praxis.authority.protocol.Authority`."""

    def __init__(self, records: list[PrincipalRecord]) -> None:
        self._by_hash = {record.token_sha256: record for record in records}
        self._by_id = {record.principal.principal_id: record for record in records}

    @classmethod
    def from_file(cls, path: Path) -> PrincipalsAuthority:
        """Loads a principals file (see the module docstring)."""
        return cls(parse_principals(json.loads(path.read_text(encoding="utf-8"))))

    def principal_of(self, principal_id: str, now_ms: int) -> Principal | Rejection:
        """The current principal of this id (a client certificate's), as a token would be.

        Refused with UNAUTHENTICATED: ``CREDENTIAL_INVALID`` for an unknown id,
        ``CREDENTIAL_EXPIRED`` for an expired principal.
        """
        record = self._by_id.get(principal_id)
        if record is None:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown principal")
        if record.expires_at_ms and record.expires_at_ms <= now_ms:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the credential expired")
        return record.principal

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Resolves a bearer token to a principal."""
        if not token:
            return _denied(
                Code.UNAUTHENTICATED, "CREDENTIAL_MISSING", "send 'authorization: Bearer <token>'"
            )
        record = self._by_hash.get(hash_token(token))
        if record is None or not hmac.compare_digest(record.token_sha256, hash_token(token)):
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown credential")
        if record.expires_at_ms and record.expires_at_ms <= now_ms:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the credential expired")
        return record.principal

    def authorize(
        self, principal: Principal, action: str, work_order_id: str, now_ms: int
    ) -> ActorEvidence | Rejection:
        """Evidence that the principal holds a grant for the action and scope."""
        record = self._by_id.get(principal.principal_id)
        if record is None:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown principal")
        if record.expires_at_ms and record.expires_at_ms <= now_ms:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the credential expired")
        if not any(grant.allows(action, work_order_id) for grant in record.grants):
            return _denied(
                Code.PERMISSION_DENIED,
                "ACTION_NOT_GRANTED",
                f"{principal.principal_id!r} holds no grant for {action!r}"
                + (f" on {work_order_id!r}" if work_order_id else ""),
            )
        return ActorEvidence(
            principal_id=principal.principal_id,
            kind=record.principal.kind,
            action=action,
            work_order_id=work_order_id,
            expires_at_ms=self._evidence_expiry(record, now_ms),
        )

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Evidence that the approver is a current human allowed to approve here."""
        record = self._by_id.get(approval.approver_id)
        if record is None or (record.expires_at_ms and record.expires_at_ms <= now_ms):
            return _denied(
                Code.PERMISSION_DENIED,
                "APPROVER_NOT_HUMAN",
                f"approver {approval.approver_id!r} is no longer a current principal",
            )
        if record.principal.kind is not PrincipalKind.HUMAN:
            return _denied(
                Code.PERMISSION_DENIED, "APPROVER_NOT_HUMAN", "the approver is not a human"
            )
        if not any(grant.allows("approval.create", work_order_id) for grant in record.grants):
            return _denied(
                Code.PERMISSION_DENIED,
                "ACTION_NOT_GRANTED",
                f"approver {approval.approver_id!r} may not approve on {work_order_id!r}",
            )
        return ApprovalEvidence(
            approval_id=approval.approval_id,
            approver_id=approval.approver_id,
            approver_kind=PrincipalKind.HUMAN,
            material_digest=approval.material_digest,
            proof_digest=approval.proof_digest,
            expires_at_ms=min(approval.expires_at_ms, self._evidence_expiry(record, now_ms)),
        )

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """The lowest ``max_spend_microcredits`` of the principal's grants, if any."""
        record = self._by_id.get(principal_id)
        caps = [g.max_spend for g in record.grants if g.max_spend is not None] if record else []
        return min(caps) if caps else None

    def records(self) -> list[PrincipalRecord]:
        """Every principal, to import into the database (see ``store.principals``)."""
        return list(self._by_id.values())

    @staticmethod
    def _evidence_expiry(record: PrincipalRecord, now_ms: int) -> int:
        expiry = now_ms + EVIDENCE_TTL_MS
        return min(expiry, record.expires_at_ms) if record.expires_at_ms else expiry


def parse_principals(document: Any) -> list[PrincipalRecord]:
    """Validates and parses a principals document.

    Raises:
        ValueError: The document is not a valid principals file.
    """
    if not isinstance(document, dict) or document.get("version") != 1:
        raise ValueError("principals file must be an object with version 1")
    records = []
    for entry in document.get("principals", []):
        try:
            grants = tuple(_grant(grant) for grant in entry.get("grants", []))
            digest = str(entry["token_sha256"])
            if len(digest) != 64:
                raise ValueError("token_sha256 must be 64 hex characters")
            records.append(
                PrincipalRecord(
                    principal=Principal(str(entry["id"]), PrincipalKind(entry["kind"])),
                    token_sha256=digest,
                    grants=grants,
                    expires_at_ms=int(entry.get("expires_at_ms", 0)),
                )
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"invalid principal entry {entry!r}: {error}") from error
    ids = [record.principal.principal_id for record in records]
    if len(set(ids)) != len(ids):
        raise ValueError("principal ids must be unique")
    return records


def _grant(grant: dict[str, Any]) -> Grant:
    cap = grant.get("max_spend_microcredits")
    parsed = None
    if cap is not None:
        amount = money.parse_amount(str(cap), "max_spend_microcredits")
        if isinstance(amount, Rejection):
            raise ValueError(f"invalid max_spend_microcredits {cap!r}: {amount.message}")
        parsed = amount
    return Grant(tuple(grant["actions"]), tuple(grant.get("work_orders", ["*"])), parsed)


def new_principal(
    principal_id: str, kind: PrincipalKind, actions: tuple[str, ...], expires_at_ms: int = 0
) -> tuple[dict[str, Any], str]:
    """A principals-file entry with a fresh random token, and that token."""
    token = "prx_" + secrets.token_urlsafe(32)
    entry = {
        "id": principal_id,
        "kind": kind.value,
        "token_sha256": hash_token(token),
        "expires_at_ms": expires_at_ms,
        "grants": [{"actions": list(actions), "work_orders": ["*"]}],
    }
    return entry, token
