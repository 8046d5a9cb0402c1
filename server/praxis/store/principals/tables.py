"""Tables of the database-backed principals (migration 10).

* ``principals``: one row per principal of the built-in authority, with the SHA-256 of
  its current token (never the token), its kind, grants (the principals-file grant
  form, as JSON), expiry, state and a version that every change increments.
* ``principal_events``: the append-only audit history of every import, creation,
  rotation and revocation.

Migration 10 (not 7) leaves room for the runtime migrations being written alongside it;
numbers only need to be increasing.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Integer, String, Table, Text

from praxis.store.db.metadata import metadata

principals = Table(
    "principals",
    metadata,
    Column("principal_id", String(128), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("token_sha256", String(64), nullable=False),
    Column("grants_json", Text, nullable=False),
    Column("expires_at_ms", BigInteger, nullable=False),
    Column("state", String(16), nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("created_by", String(128), nullable=False),
    Column("token_issued_at_ms", BigInteger, nullable=False),
    Column("revoked_at_ms", BigInteger, nullable=False),
    Column("revoked_by", String(128), nullable=False),
    Column("revoke_reason", Text, nullable=False),
)
Index("principals_token", principals.c.token_sha256, unique=True)

principal_events = Table(
    "principal_events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("principal_id", String(128), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("actor_id", String(128), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    Column("reason", Text, nullable=False),
    Column("token_fingerprint", String(16), nullable=False),
)
Index("principal_events_principal", principal_events.c.principal_id, principal_events.c.seq)
