"""The hot path: the principal behind a token hash or an id, for every authenticated call.

:class:`PrincipalLookups` is the :class:`~praxis.authority.stored.PrincipalSource` of the
built-in authority. A lookup is reused for :data:`CACHE_TTL_S` without reading the
database again; a change made through this process clears the cache at once
(:meth:`PrincipalLookups.forget`), and another server process on the same database sees a
revocation or rotation within that time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from praxis.authority.principals import PrincipalRecord, parse_principals
from praxis.store.db.database import Database
from praxis.store.principals import rows

CACHE_TTL_S = 0.25
"""How long a looked-up principal is reused without reading the database again."""
MAX_CACHED = 10_000


def record_of(row: Any) -> PrincipalRecord:
    """The authority's record of a ``principals`` row (the principals file's form)."""
    entry = {
        "id": row.principal_id,
        "kind": row.kind,
        "token_sha256": row.token_sha256,
        "expires_at_ms": row.expires_at_ms,
        "grants": json.loads(row.grants_json),
    }
    return parse_principals({"version": 1, "principals": [entry]})[0]


class PrincipalLookups:
    """Cached reads of one principal, by token hash or by id."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[str, tuple[float, Any]] = {}
        self._generation = 0
        self._cache_lock = threading.Lock()

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

    def by_token_hash(self, token_sha256: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal holding this token hash and whether it is revoked, or ``None``."""
        return self._lookup("t:" + token_sha256, rows.by_token, token_sha256)

    def by_id(self, principal_id: str) -> PrincipalRecord | None:
        """The principal's record, or ``None`` when unknown or revoked."""
        found = self.by_id_with_state(principal_id)
        return None if found is None or found[1] else found[0]

    def by_id_with_state(self, principal_id: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal of this id, revoked or not, and whether it is revoked, or ``None``
        (a client certificate's principal: refused as revoked, not as unknown)."""
        return self._lookup("i:" + principal_id, rows.by_id, principal_id)

    def _lookup(
        self, key: str, read: Callable[[Any, str], Any], value: str
    ) -> tuple[PrincipalRecord, bool] | None:
        """The principal of the row ``read`` finds and whether it is revoked (cached)."""

        def load() -> tuple[PrincipalRecord, bool] | None:
            with self.db.read() as connection:
                row = read(connection, value)
            return None if row is None else (record_of(row), row.state == "REVOKED")

        found: tuple[PrincipalRecord, bool] | None = self._cached(key, load)
        return found
