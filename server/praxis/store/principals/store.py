"""Principal administration: create, read, list, revoke, rotate, the audit history.

A principals file is only a bootstrap: :meth:`PrincipalStore.bootstrap` imports its
entries whose id is not in the database yet (:mod:`.startup`), and the database wins
afterwards (a revoked principal is never revived by the file). Every change is one write
transaction that updates the row, increments its version and appends an audit event.
Tokens are generated here, returned once, and stored only as their SHA-256. The lookups
of every authenticated call are :mod:`.lookups`'s; the SQL is :mod:`.rows`'.
"""

from __future__ import annotations

import base64
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from praxis.authority.principals import PrincipalRecord, PrincipalsAuthority, hash_token
from praxis.authority.protocol import Authority
from praxis.authority.stored import StoredPrincipalsAuthority
from praxis.clock import Clock
from praxis.core import values
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Code, Rejection, invalid, not_found
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions
from praxis.store.principals import rows, startup
from praxis.store.principals.emits import PrincipalChanged
from praxis.store.principals.grants import GrantSpec, check_grants, to_json
from praxis.store.principals.journal import REVOKED, ROTATED, Entry, Journal, pending
from praxis.store.principals.lookups import PrincipalLookups
from praxis.store.principals.startup import MAX_REASON
from praxis.store.principals.views import (
    PrincipalEventView,
    PrincipalView,
    event_view,
    fingerprint,
    principal_view,
)

log = logging.getLogger("praxis.store")

READ_ACTION = "principal.read"
MANAGE_ACTION = "principal.manage"
MAX_PAGE = 1000
DEFAULT_PAGE = 100


def new_token() -> str:
    """A fresh random bearer token."""
    return "prx_" + secrets.token_urlsafe(32)


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
    """Principal administration over the database, beside the authority's lookups."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        journal: Journal | None = None,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        # The authority's cached lookups: every change committed here clears them.
        self.lookups = PrincipalLookups(db)
        # Revocations and rotations, also kept outside the database (journal.py): a
        # restored backup cannot bring back a credential revoked after its snapshot.
        self.journal = journal
        self.authority: Authority | None = None  # set when the built-in authority is adopted
        # Where PrincipalChanged is published after a revocation or rotation committed:
        # the wake-up that ends the streams and long polls it opened (praxis.app.reactions).
        self.reactions = reactions or Reactions()

    # --- before serving ----------------------------------------------------------------

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
        stored = StoredPrincipalsAuthority(self.lookups)
        self.authority = stored
        return stored

    def bootstrap(self, records: Sequence[PrincipalRecord]) -> list[str]:
        """Imports the file's principals whose id is not in the database yet.

        Returns:
            The ids imported.
        """
        imported = startup.bootstrap(self.db, self.clock.now_ms(), records)
        self.lookups.forget()
        return imported

    def replay(self) -> list[Entry]:
        """Re-applies the journal's revocations and rotations that the database lacks
        (after a restore of an older snapshot); returns the entries applied."""
        if self.journal is None:
            return []
        entries = pending(self.journal.entries())
        if not entries:
            return []  # no write transaction at start for an empty journal
        applied = startup.replay(self.db, entries)
        self.lookups.forget()
        if applied:
            log.warning(
                "principal revocations and rotations re-applied from the journal",
                extra={"ids": sorted({entry.principal_id for entry in applied})},
            )
        return applied

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
            if rows.by_id(connection, principal_id) is not None:
                return Rejection(
                    Code.ALREADY_EXISTS,
                    "PRINCIPAL_ALREADY_EXISTS",
                    f"a principal {principal_id!r} already exists (ids are never reused)",
                )
            actor = principal.principal_id
            rows.add(
                connection, principal_id, kind.value, to_json(grants), expires_at_ms, digest,
                actor, now,
            )  # fmt: skip
            rows.append_event(
                connection, principal_id, "CREATED", 1, actor, now, "", fingerprint(digest)
            )
            row = rows.by_id(connection, principal_id)
        self.lookups.forget()
        return principal_view(row, now), token

    def get(self, principal: Principal, principal_id: str) -> PrincipalView | Rejection:
        """One principal."""
        problem = values.check_identifier(principal_id, "principal_id") or self._authorize(
            principal, READ_ACTION
        )
        if problem:
            return problem
        with self.db.read() as connection:
            row = rows.by_id(connection, principal_id)
        if row is None:
            return not_found("PRINCIPAL_NOT_FOUND", f"no principal {principal_id!r}")
        return principal_view(row, self.clock.now_ms())

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
        with self.db.read() as connection:
            found = rows.page(connection, after, include_revoked, size + 1)
        now = self.clock.now_ms()
        page = [principal_view(row, now) for row in found[:size]]
        more = len(found) > size
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
        actor = principal.principal_id
        try:
            with self.db.write() as connection:
                row = _current(connection, principal_id, expected_version)
                if row.state == "REVOKED":
                    return principal_view(row, now)
                version = row.version + 1
                rows.change(
                    connection, principal_id, state="REVOKED", version=version,
                    revoked_at_ms=now, revoked_by=actor, revoke_reason=reason,
                )  # fmt: skip
                rows.append_event(
                    connection, principal_id, "REVOKED", version, actor, now, reason,
                    fingerprint(row.token_sha256),
                )  # fmt: skip
                self._journal(
                    Entry(principal_id, REVOKED, version, row.created_at_ms, row.token_sha256,
                          now, actor, reason)
                )  # fmt: skip
                view = principal_view(rows.by_id(connection, principal_id), now)
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
        actor = principal.principal_id
        try:
            with self.db.write() as connection:
                row = _current(connection, principal_id, expected_version)
                if row.state == "REVOKED":
                    raise Rollback(
                        Rejection(
                            Code.FAILED_PRECONDITION,
                            "PRINCIPAL_REVOKED",
                            f"{principal_id!r} is revoked; create a new principal instead",
                        )
                    )
                version = row.version + 1
                rows.change(
                    connection, principal_id, token_sha256=digest, version=version,
                    token_issued_at_ms=now,
                )  # fmt: skip
                rows.append_event(
                    connection, principal_id, "ROTATED", version, actor, now, "",
                    fingerprint(digest),
                )  # fmt: skip
                self._journal(
                    Entry(principal_id, ROTATED, version, row.created_at_ms, digest, now,
                          actor, "")
                )  # fmt: skip
                view = principal_view(rows.by_id(connection, principal_id), now)
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

    def _changed(self, principal_id: str) -> None:
        """After a revocation or rotation committed: forget the cached lookups, then
        publish :class:`PrincipalChanged` (the principal's streams check their credential
        again)."""
        self.lookups.forget()
        self.reactions.publish(PrincipalChanged(principal_id))

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
        with self.db.read() as connection:
            found = rows.events_after(connection, after, principal_id, size + 1)
        return [event_view(row) for row in found[:size]], len(found) > size

    def count(self) -> int:
        """How many principals the database holds (revoked included)."""
        with self.db.read() as connection:
            return rows.count(connection)


def _current(connection: Connection, principal_id: str, expected_version: int) -> Any:
    """The principal's row for a change, or a Rollback (unknown, another version)."""
    row = rows.by_id(connection, principal_id)
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
