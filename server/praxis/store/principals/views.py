"""Principals and their audit events as callers see them (never a token)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from praxis.core.records import PrincipalKind
from praxis.store.principals.grants import GrantSpec, from_json


@dataclass(frozen=True)
class PrincipalView:
    """A principal as callers see it (never its token)."""

    principal_id: str
    kind: PrincipalKind
    grants: tuple[GrantSpec, ...]
    expires_at_ms: int
    state: str  # ACTIVE, REVOKED or EXPIRED (at read time)
    version: int
    created_at_ms: int
    created_by: str
    token_issued_at_ms: int
    revoked_at_ms: int
    revoked_by: str
    revoke_reason: str
    token_fingerprint: str


@dataclass(frozen=True)
class PrincipalEventView:
    """One audit event."""

    seq: int
    kind: str
    principal_id: str
    version: int
    actor_id: str
    at_ms: int
    reason: str
    token_fingerprint: str


def fingerprint(token_sha256: str) -> str:
    """The first 8 hex characters of a token's SHA-256."""
    return token_sha256[:8]


def principal_view(row: Any, now_ms: int) -> PrincipalView:
    """The view of a ``principals`` row at ``now_ms`` (an active one past its expiry
    reads EXPIRED)."""
    state = row.state
    if state == "ACTIVE" and row.expires_at_ms and row.expires_at_ms <= now_ms:
        state = "EXPIRED"
    return PrincipalView(
        principal_id=row.principal_id,
        kind=PrincipalKind(row.kind),
        grants=from_json(row.grants_json),
        expires_at_ms=row.expires_at_ms,
        state=state,
        version=row.version,
        created_at_ms=row.created_at_ms,
        created_by=row.created_by,
        token_issued_at_ms=row.token_issued_at_ms,
        revoked_at_ms=row.revoked_at_ms,
        revoked_by=row.revoked_by,
        revoke_reason=row.revoke_reason,
        token_fingerprint=fingerprint(row.token_sha256),
    )


def event_view(row: Any) -> PrincipalEventView:
    """The view of a ``principal_events`` row."""
    return PrincipalEventView(
        row.seq, row.kind, row.principal_id, row.version, row.actor_id, row.at_ms, row.reason,
        row.token_fingerprint,
    )  # fmt: skip
