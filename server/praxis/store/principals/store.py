"""Principals in the database: the source of the built-in authority while serving.

A principals file is only a bootstrap: :meth:`PrincipalStore.bootstrap` imports its
entries whose id is not in the database yet, and the database wins afterwards (a
revoked principal is never revived by the file). Every change is one write
transaction that updates the row, increments its version and appends an audit event.
Tokens are generated here, returned once, and stored only as their SHA-256.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.engine import Connection

from praxis.authority.principals import (
    PrincipalRecord,
    PrincipalsAuthority,
    hash_token,
    parse_principals,
)
from praxis.authority.protocol import Authority
from praxis.authority.stored import StoredPrincipalsAuthority
from praxis.clock import Clock
from praxis.core import money, purposes, values
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Code, FieldViolation, Rejection, invalid, not_found
from praxis.store.db import dialect
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions
from praxis.store.principals.emits import PrincipalChanged
from praxis.store.principals.journal import REVOKED, ROTATED, Entry, Journal, pending
from praxis.store.principals.tables import principal_events, principals

log = logging.getLogger("praxis.store")

BOOTSTRAP_ACTOR = "principals-file"
READ_ACTION = "principal.read"
MANAGE_ACTION = "principal.manage"
MAX_GRANTS = 32
MAX_PATTERNS = 64
MAX_REASON = 1024
MAX_PAGE = 1000
DEFAULT_PAGE = 100
# How long a looked-up principal is reused without reading the database again. Changes
# made through this process clear the cache at once; another server process on the same
# database sees a revocation or rotation within this time.
CACHE_TTL_S = 0.25
MAX_CACHED = 10_000
_PATTERN = re.compile(r"^(\*|[A-Za-z0-9_.:@-]{1,127}\*?)$")

_BY_TOKEN = select(principals).where(principals.c.token_sha256 == bindparam("hash"))
_BY_ID = select(principals).where(principals.c.principal_id == bindparam("id"))


@dataclass(frozen=True)
class GrantSpec:
    """One grant as a request states it (a window end of 0 leaves that side open)."""

    actions: tuple[str, ...]
    work_orders: tuple[str, ...]
    max_spend_microcredits: str = ""
    purposes: tuple[str, ...] = ()
    not_before_ms: int = 0
    not_after_ms: int = 0


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


def new_token() -> str:
    """A fresh random bearer token."""
    return "prx_" + secrets.token_urlsafe(32)


def _grants_document(grants: Sequence[GrantSpec]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for grant in grants:
        entry: dict[str, Any] = {
            "actions": list(grant.actions),
            "work_orders": list(grant.work_orders) or ["*"],
        }
        if grant.max_spend_microcredits:
            entry["max_spend_microcredits"] = grant.max_spend_microcredits
        # Written only when set: the grants stored before purposes and windows existed
        # read the same, and so do the grants that use neither.
        if grant.purposes:
            entry["purposes"] = list(grant.purposes)
        if grant.not_before_ms:
            entry["not_before_ms"] = grant.not_before_ms
        if grant.not_after_ms:
            entry["not_after_ms"] = grant.not_after_ms
        out.append(entry)
    return out


def _record(row: Any) -> PrincipalRecord:
    entry = {
        "id": row.principal_id,
        "kind": row.kind,
        "token_sha256": row.token_sha256,
        "expires_at_ms": row.expires_at_ms,
        "grants": json.loads(row.grants_json),
    }
    return parse_principals({"version": 1, "principals": [entry]})[0]


def _view(row: Any, now_ms: int) -> PrincipalView:
    state = row.state
    if state == "ACTIVE" and row.expires_at_ms and row.expires_at_ms <= now_ms:
        state = "EXPIRED"
    grants = tuple(
        GrantSpec(
            tuple(grant["actions"]),
            tuple(grant.get("work_orders", ["*"])),
            str(grant.get("max_spend_microcredits", "")),
            tuple(grant.get("purposes", ())),
            int(grant.get("not_before_ms", 0)),
            int(grant.get("not_after_ms", 0)),
        )
        for grant in json.loads(row.grants_json)
    )
    return PrincipalView(
        principal_id=row.principal_id,
        kind=PrincipalKind(row.kind),
        grants=grants,
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


def _purpose_and_window(grant: GrantSpec, path: str) -> list[FieldViolation]:
    """What is wrong with a grant's purposes and validity window."""
    found: list[FieldViolation] = []
    if len(grant.purposes) > purposes.MAX_PURPOSES:
        found.append(FieldViolation(f"{path}.purposes", f"at most {purposes.MAX_PURPOSES}"))
    for position, purpose in enumerate(grant.purposes):
        problem = purposes.purpose_problem(purpose)
        if problem:
            found.append(FieldViolation(f"{path}.purposes[{position}]", problem))
    if len(set(grant.purposes)) != len(grant.purposes):
        found.append(FieldViolation(f"{path}.purposes", "a purpose is named twice"))
    for name in ("not_before_ms", "not_after_ms"):
        if getattr(grant, name) < 0:
            found.append(FieldViolation(f"{path}.{name}", f"{name} must not be negative"))
    if grant.not_after_ms and grant.not_after_ms <= grant.not_before_ms:
        found.append(
            FieldViolation(f"{path}.not_after_ms", "not_after_ms must be after not_before_ms")
        )
    return found


def check_grants(grants: Sequence[GrantSpec]) -> Rejection | None:
    """GRANT_INVALID (with every violation) or FIELD_REQUIRED when the grants are unusable."""
    if not grants:
        return invalid("FIELD_REQUIRED", "grants", "at least one grant is required")
    if len(grants) > MAX_GRANTS:
        return invalid("GRANT_INVALID", "grants", f"at most {MAX_GRANTS} grants")
    violations: list[FieldViolation] = []
    for index, grant in enumerate(grants):
        path = f"grants[{index}]"
        if not grant.actions:
            violations.append(FieldViolation(f"{path}.actions", "at least one action"))
        for name, patterns in (("actions", grant.actions), ("work_orders", grant.work_orders)):
            if len(patterns) > MAX_PATTERNS:
                violations.append(FieldViolation(f"{path}.{name}", f"at most {MAX_PATTERNS}"))
            for position, pattern in enumerate(patterns):
                if not _PATTERN.match(pattern):
                    violations.append(
                        FieldViolation(
                            f"{path}.{name}[{position}]",
                            f"{pattern[:40]!r} is not a name or a name ending in '*'",
                        )
                    )
        if grant.max_spend_microcredits:
            amount = money.parse_amount(
                grant.max_spend_microcredits, f"{path}.max_spend_microcredits", "GRANT_INVALID"
            )
            if isinstance(amount, Rejection):
                violations.extend(amount.violations)
        violations.extend(_purpose_and_window(grant, path))
    if violations:
        return Rejection(
            Code.INVALID_ARGUMENT, "GRANT_INVALID", violations[0].description, tuple(violations)
        )
    return None


def _page_token(principal_id: str) -> str:
    return base64.urlsafe_b64encode(principal_id.encode("utf-8")).decode("ascii")


def _decode_page_token(token: str) -> str | Rejection:
    try:
        text = base64.urlsafe_b64decode(token.encode("ascii")).decode("utf-8")
    except (ValueError, UnicodeError):
        return invalid("PAGE_INVALID", "page_token", "page_token is not a token of this list")
    if values.check_identifier(text, "page_token"):
        return invalid("PAGE_INVALID", "page_token", "page_token is not a token of this list")
    return text


class PrincipalStore:
    """Principal administration, and the lookups of the database-backed authority."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        journal: Journal | None = None,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        # Revocations and rotations, also kept outside the database (journal.py): a
        # restored backup cannot bring back a credential revoked after its snapshot.
        self.journal = journal
        self.authority: Authority | None = None  # set when the built-in authority is adopted
        self._cache: dict[str, tuple[float, Any]] = {}
        self._generation = 0
        self._cache_lock = threading.Lock()
        # Where PrincipalChanged is published after a revocation or rotation committed:
        # the wake-up that ends the streams and long polls it opened (praxis.app.reactions).
        self.reactions = reactions or Reactions()

    def _cached(self, key: str, load: Callable[[], Any]) -> Any:
        """``load()``, reused for :data:`CACHE_TTL_S` unless a change clears the cache."""
        now = time.monotonic()
        with self._cache_lock:
            hit = self._cache.get(key)
            generation = self._generation
        if hit is not None and now - hit[0] < CACHE_TTL_S:
            return hit[1]
        value = load()
        with self._cache_lock:
            if generation == self._generation:  # no change committed while loading
                if len(self._cache) >= MAX_CACHED:
                    self._cache.clear()
                self._cache[key] = (now, value)
        return value

    def forget(self) -> None:
        """Forgets every cached lookup (after a change committed here or elsewhere)."""
        with self._cache_lock:
            self._generation += 1
            self._cache.clear()

    # --- the authority's lookups --------------------------------------------------------

    def by_token_hash(self, token_sha256: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal holding this token hash and whether it is revoked, or ``None``."""
        return self._lookup("t:" + token_sha256, _BY_TOKEN, {"hash": token_sha256})

    def by_id(self, principal_id: str) -> PrincipalRecord | None:
        """The principal's record, or ``None`` when unknown or revoked."""
        found = self.by_id_with_state(principal_id)
        return None if found is None or found[1] else found[0]

    def by_id_with_state(self, principal_id: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal of this id, revoked or not, and whether it is revoked, or ``None``
        (a client certificate's principal: refused as revoked, not as unknown)."""
        return self._lookup("i:" + principal_id, _BY_ID, {"id": principal_id})

    def _lookup(
        self, key: str, statement: Any, parameters: dict[str, str]
    ) -> tuple[PrincipalRecord, bool] | None:
        """The principal one row of ``statement`` holds and whether it is revoked (cached)."""

        def load() -> tuple[PrincipalRecord, bool] | None:
            with self.db.read() as connection:
                row = connection.execute(statement, parameters).first()
            return None if row is None else (_record(row), row.state == "REVOKED")

        found: tuple[PrincipalRecord, bool] | None = self._cached(key, load)
        return found

    # --- bootstrap ---------------------------------------------------------------------

    def adopt(self, authority: Authority) -> Authority:
        """The authority the server uses.

        A built-in :class:`PrincipalsAuthority` (the principals file) is imported into the
        database and replaced by a :class:`StoredPrincipalsAuthority` over it; any other
        authority (a host adapter) is returned unchanged and principals are not managed
        here (PRINCIPALS_NOT_MANAGED).
        """
        if not isinstance(authority, PrincipalsAuthority):
            return authority
        imported = self.bootstrap(authority.records())
        if imported:
            log.info("principals imported from the principals file", extra={"ids": imported})
        stored = StoredPrincipalsAuthority(self)
        self.authority = stored
        return stored

    def bootstrap(self, records: Sequence[PrincipalRecord]) -> list[str]:
        """Imports the file's principals whose id is not in the database yet.

        Returns:
            The ids imported.
        """
        now = self.clock.now_ms()
        imported: list[str] = []
        with self.db.write() as connection:
            for record in records:
                pid = record.principal.principal_id
                row = connection.execute(_BY_ID, {"id": pid}).first()
                if row is not None:
                    if row.token_sha256 != record.token_sha256 or row.state == "REVOKED":
                        log.warning(
                            "principals file entry ignored: the database holds this principal",
                            extra={"principal_id": pid},
                        )
                    continue
                taken = connection.execute(_BY_TOKEN, {"hash": record.token_sha256}).first()
                if taken is not None:
                    log.warning(
                        "principals file entry ignored: its token is another principal's",
                        extra={"principal_id": pid},
                    )
                    continue
                grants = [
                    GrantSpec(
                        g.actions,
                        g.work_orders,
                        "" if g.max_spend is None else money.text(g.max_spend),
                        g.purposes,
                        g.not_before_ms,
                        g.not_after_ms,
                    )
                    for g in record.grants
                ]
                self._insert(
                    connection, pid, record.principal.kind, grants, record.expires_at_ms,
                    record.token_sha256, BOOTSTRAP_ACTOR, now,
                )  # fmt: skip
                _event(
                    connection, pid, "IMPORTED", 1, BOOTSTRAP_ACTOR, now, "", record.token_sha256
                )
                imported.append(pid)
        self.forget()
        return imported

    @staticmethod
    def _insert(
        connection: Connection,
        principal_id: str,
        kind: PrincipalKind,
        grants: Sequence[GrantSpec],
        expires_at_ms: int,
        token_sha256: str,
        actor: str,
        now: int,
    ) -> None:
        connection.execute(
            principals.insert().values(
                principal_id=principal_id,
                kind=kind.value,
                token_sha256=token_sha256,
                grants_json=json.dumps(_grants_document(grants), separators=(",", ":")),
                expires_at_ms=expires_at_ms,
                state="ACTIVE",
                version=1,
                created_at_ms=now,
                created_by=actor,
                token_issued_at_ms=now,
                revoked_at_ms=0,
                revoked_by="",
                revoke_reason="",
            )
        )

    # --- administration ----------------------------------------------------------------

    def _authorize(self, principal: Principal, action: str) -> Rejection | None:
        if self.authority is None:
            return Rejection(
                Code.FAILED_PRECONDITION,
                "PRINCIPALS_NOT_MANAGED",
                "this server's authority is not the built-in one; manage principals there",
            )
        evidence = self.authority.authorize(principal, action, "", self.clock.now_ms())
        if isinstance(evidence, Rejection):
            return evidence
        if action == MANAGE_ACTION and evidence.kind is not PrincipalKind.HUMAN:
            return Rejection(
                Code.PERMISSION_DENIED, "HUMAN_REQUIRED", "only a human may manage principals"
            )
        return None

    def create(
        self,
        principal: Principal,
        principal_id: str,
        kind: PrincipalKind | None,
        grants: Sequence[GrantSpec],
        expires_at_ms: int,
    ) -> tuple[PrincipalView, str] | Rejection:
        """Creates a principal and returns it with its token (shown once)."""
        now = self.clock.now_ms()
        problem = (
            values.check_identifier(principal_id, "principal_id")
            or (None if kind else invalid("ENUM_INVALID", "kind", "kind must be set"))
            or check_grants(grants)
            or _check_expiry(expires_at_ms, now)
            or self._authorize(principal, MANAGE_ACTION)
        )
        if problem:
            return problem
        assert kind is not None
        token = new_token()
        digest = hash_token(token)
        with self.db.write() as connection:
            if connection.execute(_BY_ID, {"id": principal_id}).first() is not None:
                return Rejection(
                    Code.ALREADY_EXISTS,
                    "PRINCIPAL_ALREADY_EXISTS",
                    f"a principal {principal_id!r} already exists (ids are never reused)",
                )
            actor = principal.principal_id
            self._insert(connection, principal_id, kind, grants, expires_at_ms, digest, actor, now)
            _event(connection, principal_id, "CREATED", 1, actor, now, "", digest)
            row = connection.execute(_BY_ID, {"id": principal_id}).one()
        self.forget()
        return _view(row, now), token

    def get(self, principal: Principal, principal_id: str) -> PrincipalView | Rejection:
        """One principal."""
        problem = values.check_identifier(principal_id, "principal_id") or self._authorize(
            principal, READ_ACTION
        )
        if problem:
            return problem
        with self.db.read() as connection:
            row = connection.execute(_BY_ID, {"id": principal_id}).first()
        if row is None:
            return not_found("PRINCIPAL_NOT_FOUND", f"no principal {principal_id!r}")
        return _view(row, self.clock.now_ms())

    def list_page(
        self, principal: Principal, page_size: int, page_token: str, include_revoked: bool
    ) -> tuple[list[PrincipalView], str] | Rejection:
        """One page of principals in id order, and the next page token."""
        if not 0 <= page_size <= MAX_PAGE:
            return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {MAX_PAGE}]")
        after = _decode_page_token(page_token) if page_token else ""
        if isinstance(after, Rejection):
            return after
        problem = self._authorize(principal, READ_ACTION)
        if problem:
            return problem
        size = page_size or DEFAULT_PAGE
        query = select(principals).where(principals.c.principal_id > after)
        if not include_revoked:
            query = query.where(principals.c.state != "REVOKED")
        query = query.order_by(principals.c.principal_id).limit(size + 1)
        with self.db.read() as connection:
            rows = connection.execute(query).all()
        now = self.clock.now_ms()
        page = [_view(row, now) for row in rows[:size]]
        more = len(rows) > size
        return page, _page_token(page[-1].principal_id) if more and page else ""

    def revoke(
        self, principal: Principal, principal_id: str, reason: str, expected_version: int
    ) -> PrincipalView | Rejection:
        """Revokes a principal for good; revoking a revoked one returns it unchanged."""
        problem = (
            values.check_identifier(principal_id, "principal_id")
            or _check_reason(reason)
            or _check_version(expected_version)
            or self._authorize(principal, MANAGE_ACTION)
        )
        if problem:
            return problem
        now = self.clock.now_ms()
        try:
            with self.db.write() as connection:
                row = self._current(connection, principal_id, expected_version)
                if row.state == "REVOKED":
                    return _view(row, now)
                version = row.version + 1
                connection.execute(
                    update(principals)
                    .where(principals.c.principal_id == principal_id)
                    .values(
                        state="REVOKED",
                        version=version,
                        revoked_at_ms=now,
                        revoked_by=principal.principal_id,
                        revoke_reason=reason,
                    )
                )
                _event(
                    connection, principal_id, "REVOKED", version, principal.principal_id, now,
                    reason, row.token_sha256,
                )  # fmt: skip
                self._journal(
                    Entry(principal_id, REVOKED, version, row.created_at_ms, row.token_sha256,
                          now, principal.principal_id, reason)
                )  # fmt: skip
                view = _view(connection.execute(_BY_ID, {"id": principal_id}).one(), now)
        except Rollback as rollback:
            assert isinstance(rollback.value, Rejection)
            return rollback.value
        self._changed(principal_id)
        return view

    def rotate(
        self, principal: Principal, principal_id: str, expected_version: int
    ) -> tuple[PrincipalView, str] | Rejection:
        """Replaces a principal's token; returns the principal and the new token."""
        problem = (
            values.check_identifier(principal_id, "principal_id")
            or _check_version(expected_version)
            or self._authorize(principal, MANAGE_ACTION)
        )
        if problem:
            return problem
        now = self.clock.now_ms()
        token = new_token()
        digest = hash_token(token)
        try:
            with self.db.write() as connection:
                row = self._current(connection, principal_id, expected_version)
                if row.state == "REVOKED":
                    raise Rollback(
                        Rejection(
                            Code.FAILED_PRECONDITION,
                            "PRINCIPAL_REVOKED",
                            f"{principal_id!r} is revoked; create a new principal instead",
                        )
                    )
                version = row.version + 1
                connection.execute(
                    update(principals)
                    .where(principals.c.principal_id == principal_id)
                    .values(token_sha256=digest, version=version, token_issued_at_ms=now)
                )
                _event(
                    connection, principal_id, "ROTATED", version, principal.principal_id, now,
                    "", digest,
                )  # fmt: skip
                self._journal(
                    Entry(principal_id, ROTATED, version, row.created_at_ms, digest, now,
                          principal.principal_id, "")
                )  # fmt: skip
                view = _view(connection.execute(_BY_ID, {"id": principal_id}).one(), now)
        except Rollback as rollback:
            assert isinstance(rollback.value, Rejection)
            return rollback.value
        self._changed(principal_id)
        return view, token

    def _journal(self, entry: Entry) -> None:
        """Appends ``entry`` to the journal before the change commits; a journal that
        cannot be written refuses the change (nothing is stored)."""
        if self.journal is None:
            return
        try:
            self.journal.append(entry)
        except OSError as error:
            raise Rollback(
                Rejection(
                    Code.UNAVAILABLE,
                    "STORAGE_UNAVAILABLE",
                    f"the principal journal {self.journal.path} cannot be written: "
                    f"{error.strerror}; nothing was stored",
                )
            ) from error

    def replay(self) -> list[Entry]:
        """Re-applies the journal's revocations and rotations that the database lacks
        (after a restore of an older snapshot); returns the entries applied.

        Each one is audited again as its kind, with the original actor and time and the
        reason prefixed ``re-applied from the principal journal``.
        """
        if self.journal is None:
            return []
        entries = pending(self.journal.entries())
        if not entries:
            return []  # no write transaction at start for an empty journal
        applied: list[Entry] = []
        with self.db.write() as connection:
            for entry in entries:
                row = connection.execute(_BY_ID, {"id": entry.principal_id}).first()
                if row is None or row.created_at_ms != entry.created_at_ms:
                    continue  # not the principal the entry was about (or absent: refused)
                if row.version >= entry.version:
                    continue
                change: dict[str, Any] = {"version": entry.version}
                if entry.kind == REVOKED:
                    change.update(
                        state="REVOKED",
                        revoked_at_ms=entry.at_ms,
                        revoked_by=entry.actor,
                        revoke_reason=entry.reason,
                    )
                else:
                    change.update(token_sha256=entry.token_sha256, token_issued_at_ms=entry.at_ms)
                connection.execute(
                    update(principals)
                    .where(principals.c.principal_id == entry.principal_id)
                    .values(**change)
                )
                reason = ("re-applied from the principal journal: " + entry.reason)[:MAX_REASON]
                _event(
                    connection, entry.principal_id, entry.kind, entry.version, entry.actor,
                    entry.at_ms, reason, entry.token_sha256,
                )  # fmt: skip
                applied.append(entry)
        self.forget()
        if applied:
            log.warning(
                "principal revocations and rotations re-applied from the journal",
                extra={"ids": sorted({entry.principal_id for entry in applied})},
            )
        return applied

    def _changed(self, principal_id: str) -> None:
        """After a revocation or rotation committed: forget the cached lookups, then
        publish :class:`PrincipalChanged` (the principal's streams check their credential
        again)."""
        self.forget()
        self.reactions.publish(PrincipalChanged(principal_id))

    @staticmethod
    def _current(connection: Connection, principal_id: str, expected_version: int) -> Any:
        row = connection.execute(_BY_ID, {"id": principal_id}).first()
        if row is None:
            raise Rollback(not_found("PRINCIPAL_NOT_FOUND", f"no principal {principal_id!r}"))
        if expected_version and row.version != expected_version:
            raise Rollback(
                Rejection(
                    Code.ABORTED,
                    "VERSION_CONFLICT",
                    f"the principal is at version {row.version}, not {expected_version}",
                )
            )
        return row

    def history(
        self, principal: Principal, principal_id: str, after: int, limit: int
    ) -> tuple[list[PrincipalEventView], bool] | Rejection:
        """Audit events after ``after``, oldest first, and whether more follow."""
        if principal_id:
            problem = values.check_identifier(principal_id, "principal_id")
            if problem:
                return problem
        if after < 0:
            return invalid("PAGE_INVALID", "after", "after must be >= 0")
        if not 0 <= limit <= MAX_PAGE:
            return invalid("PAGE_INVALID", "limit", f"limit must be in [0, {MAX_PAGE}]")
        problem = self._authorize(principal, READ_ACTION)
        if problem:
            return problem
        size = limit or DEFAULT_PAGE
        query = select(principal_events).where(dialect.seq_after(principal_events.c.seq, after))
        if principal_id:
            query = query.where(principal_events.c.principal_id == principal_id)
        query = query.order_by(principal_events.c.seq).limit(size + 1)
        with self.db.read() as connection:
            rows = connection.execute(query).all()
        events = [
            PrincipalEventView(
                r.seq, r.kind, r.principal_id, r.version, r.actor_id, r.at_ms, r.reason,
                r.token_fingerprint,
            )
            for r in rows[:size]
        ]  # fmt: skip
        return events, len(rows) > size

    def count(self) -> int:
        """How many principals the database holds (revoked included)."""
        with self.db.read() as connection:
            return int(
                connection.execute(select(func.count()).select_from(principals)).scalar_one()
            )


def _event(
    connection: Connection,
    principal_id: str,
    kind: str,
    version: int,
    actor: str,
    now: int,
    reason: str,
    token_sha256: str,
) -> None:
    connection.execute(
        principal_events.insert().values(
            principal_id=principal_id,
            kind=kind,
            version=version,
            actor_id=actor,
            at_ms=now,
            reason=reason,
            token_fingerprint=fingerprint(token_sha256),
        )
    )


def _check_expiry(expires_at_ms: int, now: int) -> Rejection | None:
    if expires_at_ms == 0:
        return None
    problem = values.check_epoch_ms(expires_at_ms, "expires_at_ms")
    if problem:
        return problem
    if expires_at_ms <= now:
        return invalid("TIME_INVALID", "expires_at_ms", "expires_at_ms must be in the future")
    return None


def _check_reason(reason: str) -> Rejection | None:
    if len(reason) > MAX_REASON:
        return invalid("FIELD_REQUIRED", "reason", f"reason must be at most {MAX_REASON} chars")
    return None


def _check_version(expected_version: int) -> Rejection | None:
    if expected_version < 0:
        return invalid("FIELD_REQUIRED", "expected_version", "expected_version must be >= 0")
    return None
