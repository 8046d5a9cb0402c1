"""The built-in authority: a principals file of token hashes, kinds, grants and expiry.

File format (JSON)::

    {"version": 1, "principals": [
      {"id": "alice", "kind": "HUMAN", "token_sha256": "<hex>", "expires_at_ms": 0,
       "grants": [{"actions": ["registry.*"], "work_orders": ["*"],
                   "max_spend_microcredits": "5000000",
                   "purposes": ["payments"], "not_before_ms": 0, "not_after_ms": 0}]}]}

``expires_at_ms`` 0 means no expiry. ``max_spend_microcredits`` (optional, canonical
decimal) caps what the runs the principal starts may spend; the lowest cap of its
grants applies. Action and work-order patterns are exact names or
end in ``*`` (a prefix). Raw tokens are never stored; only their SHA-256.

A grant applies to an action when its patterns match, its ``purposes`` (optional; empty:
any) include the action's purpose, and the time lies in its window
(``not_before_ms <= now < not_after_ms``; 0 leaves a side open). Both are checked at use,
by :meth:`PrincipalsAuthority.authorize` and :meth:`PrincipalsAuthority.verify_approval`;
a refusal says which rule no grant met (:func:`decide`).
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
from praxis.core.purposes import MAX_PURPOSES, purpose_problem
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
    """Actions allowed on work orders, each a name or a ``prefix*`` pattern, optionally
    only for some purposes and within a validity window."""

    actions: tuple[str, ...]
    work_orders: tuple[str, ...]
    max_spend: Decimal | None = None
    purposes: tuple[str, ...] = ()
    not_before_ms: int = 0
    not_after_ms: int = 0

    def allows(self, action: str, work_order_id: str) -> bool:
        """True when both the action and the work order match (purpose and window aside).

        An empty work order means every work order (listing runs, events or holds across
        the installation), which only a grant over all work orders (``*``) covers.
        """
        return _matches(self.actions, action) and _matches(self.work_orders, work_order_id or "*")

    def serves(self, purpose: str) -> bool:
        """True when the grant covers an action of ``purpose`` (empty: none)."""
        return not self.purposes or purpose in self.purposes

    def current(self, now_ms: int) -> bool:
        """True when ``now_ms`` lies in the grant's validity window."""
        return self.not_before_ms <= now_ms and (
            not self.not_after_ms or now_ms < self.not_after_ms
        )


def decide(
    principal_id: str,
    grants: tuple[Grant, ...],
    action: str,
    work_order_id: str,
    purpose: str,
    now_ms: int,
) -> Grant | Rejection:
    """The first grant that applies, or why none does.

    ``ACTION_NOT_GRANTED`` when no grant matches the action and work order;
    ``PURPOSE_NOT_GRANTED`` when those that do are limited to other purposes;
    ``GRANT_OUTSIDE_WINDOW`` when those that also cover the purpose are all outside their
    window now (its metadata names the window of the first one).
    """
    for grant in grants:  # the common case first: one pass, nothing built
        if grant.allows(action, work_order_id) and grant.serves(purpose) and grant.current(now_ms):
            return grant
    matching = [grant for grant in grants if grant.allows(action, work_order_id)]
    scope = f"{action!r}" + (f" on {work_order_id!r}" if work_order_id else "")
    if not matching:
        return _denied(
            Code.PERMISSION_DENIED,
            "ACTION_NOT_GRANTED",
            f"{principal_id!r} holds no grant for {scope}",
        )
    serving = [grant for grant in matching if grant.serves(purpose)]
    if not serving:
        limited = sorted({p for grant in matching for p in grant.purposes})
        return Rejection(
            Code.PERMISSION_DENIED,
            "PURPOSE_NOT_GRANTED",
            f"{principal_id!r} holds grants for {scope} only for purposes {limited}; the "
            + (f"action's purpose is {purpose!r}" if purpose else "action names no purpose"),
            metadata=(("purpose", purpose),),
        )
    first = serving[0]
    return Rejection(
        Code.PERMISSION_DENIED,
        "GRANT_OUTSIDE_WINDOW",
        f"{principal_id!r}'s grant for {scope} applies from {first.not_before_ms} "
        f"to {first.not_after_ms or 'no end'} (UTC epoch ms); now is {now_ms}",
        metadata=(
            ("not_before_ms", str(first.not_before_ms)),
            ("not_after_ms", str(first.not_after_ms)),
        ),
    )


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
        return self.authenticate_digest(hash_token(token), now_ms)

    def authenticate_digest(self, digest: str, now_ms: int) -> Principal | Rejection:
        """Resolves the digest of a bearer token (:func:`hash_token`) to a principal."""
        record = self._by_hash.get(digest)
        if record is None or not hmac.compare_digest(record.token_sha256, digest):
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown credential")
        if record.expires_at_ms and record.expires_at_ms <= now_ms:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the credential expired")
        return record.principal

    def authorize(
        self,
        principal: Principal,
        action: str,
        work_order_id: str,
        now_ms: int,
        purpose: str = "",
    ) -> ActorEvidence | Rejection:
        """Evidence that the principal holds a grant for the action, scope and purpose
        that applies now (see :func:`decide`)."""
        record = self._by_id.get(principal.principal_id)
        if record is None:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown principal")
        if record.expires_at_ms and record.expires_at_ms <= now_ms:
            return _denied(Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the credential expired")
        grant = decide(
            principal.principal_id, record.grants, action, work_order_id, purpose, now_ms
        )
        if isinstance(grant, Rejection):
            return grant
        return ActorEvidence(
            principal_id=principal.principal_id,
            kind=record.principal.kind,
            action=action,
            work_order_id=work_order_id,
            expires_at_ms=self._evidence_expiry(record, now_ms, grant),
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
        grant = decide(
            approval.approver_id,
            record.grants,
            "approval.create",
            work_order_id,
            approval.purpose,
            now_ms,
        )
        if isinstance(grant, Rejection):
            if grant.reason == "ACTION_NOT_GRANTED":
                return _denied(
                    Code.PERMISSION_DENIED,
                    "ACTION_NOT_GRANTED",
                    f"approver {approval.approver_id!r} may not approve on {work_order_id!r}",
                )
            return grant
        return ApprovalEvidence(
            approval_id=approval.approval_id,
            approver_id=approval.approver_id,
            approver_kind=PrincipalKind.HUMAN,
            material_digest=approval.material_digest,
            proof_digest=approval.proof_digest,
            expires_at_ms=min(approval.expires_at_ms, self._evidence_expiry(record, now_ms, grant)),
            purpose=approval.purpose,
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
    def _evidence_expiry(record: PrincipalRecord, now_ms: int, grant: Grant) -> int:
        """Evidence lasts :data:`EVIDENCE_TTL_MS`, and never past the principal's expiry
        or the end of the grant it was given under."""
        ends = [now_ms + EVIDENCE_TTL_MS, record.expires_at_ms, grant.not_after_ms]
        return min(end for end in ends if end)


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
    purposes = grant.get("purposes", [])
    if (
        not isinstance(purposes, list)
        or len(purposes) > MAX_PURPOSES
        or any(purpose_problem(p) for p in purposes)
    ):
        raise ValueError(
            f"invalid purposes {purposes!r}: at most {MAX_PURPOSES} purpose identifiers"
        )
    window = [grant.get("not_before_ms", 0), grant.get("not_after_ms", 0)]
    if any(isinstance(ms, bool) or not isinstance(ms, int) or ms < 0 for ms in window) or (
        window[1] and window[1] <= window[0]
    ):
        raise ValueError(f"invalid window {window!r}: not_after_ms must follow not_before_ms")
    return Grant(
        tuple(grant["actions"]),
        tuple(grant.get("work_orders", ["*"])),
        parsed,
        tuple(purposes),
        window[0],
        window[1],
    )


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
