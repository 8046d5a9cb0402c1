"""The principals' SQL: every statement on ``principals`` and ``principal_events``.

The store classes of this slice (:mod:`.lookups`, :mod:`.store`, :mod:`.startup`) call
these functions and build no SQL of their own; rows come back as SQLAlchemy rows with the
tables' column names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.engine import Connection

from praxis.store.db import portable
from praxis.store.principals.tables import principal_events, principals

_BY_TOKEN = select(principals).where(principals.c.token_sha256 == bindparam("hash"))
_BY_ID = select(principals).where(principals.c.principal_id == bindparam("id"))


def by_token(connection: Connection, token_sha256: str) -> Any:
    """The row of the principal holding this token hash, or ``None``."""
    return connection.execute(_BY_TOKEN, {"hash": token_sha256}).first()


def by_id(connection: Connection, principal_id: str) -> Any:
    """The row of the principal of this id (revoked or not), or ``None``."""
    return connection.execute(_BY_ID, {"id": principal_id}).first()


def add(
    connection: Connection,
    principal_id: str,
    kind: str,
    grants_json: str,
    expires_at_ms: int,
    token_sha256: str,
    actor: str,
    now: int,
) -> None:
    """Adds an active principal at version 1."""
    connection.execute(
        principals.insert().values(
            principal_id=principal_id,
            kind=kind,
            token_sha256=token_sha256,
            grants_json=grants_json,
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


def change(connection: Connection, principal_id: str, **values: Any) -> None:
    """Sets ``values`` (column names) on the principal's row."""
    connection.execute(
        update(principals).where(principals.c.principal_id == principal_id).values(**values)
    )


def append_event(
    connection: Connection,
    principal_id: str,
    kind: str,
    version: int,
    actor: str,
    now: int,
    reason: str,
    token_fingerprint: str,
) -> None:
    """Appends one audit event."""
    connection.execute(
        principal_events.insert().values(
            principal_id=principal_id,
            kind=kind,
            version=version,
            actor_id=actor,
            at_ms=now,
            reason=reason,
            token_fingerprint=token_fingerprint,
        )
    )


def page(connection: Connection, after: str, include_revoked: bool, limit: int) -> Sequence[Any]:
    """Up to ``limit`` principals whose id follows ``after``, in id order."""
    query = select(principals).where(principals.c.principal_id > after)
    if not include_revoked:
        query = query.where(principals.c.state != "REVOKED")
    return connection.execute(query.order_by(principals.c.principal_id).limit(limit)).all()


def events_after(
    connection: Connection, after: int, principal_id: str, limit: int
) -> Sequence[Any]:
    """Up to ``limit`` audit events past ``after`` (of one principal, unless ``""``),
    oldest first."""
    query = select(principal_events).where(portable.seq_after(principal_events.c.seq, after))
    if principal_id:
        query = query.where(principal_events.c.principal_id == principal_id)
    return connection.execute(query.order_by(principal_events.c.seq).limit(limit)).all()


def count(connection: Connection) -> int:
    """How many principals there are (revoked included)."""
    return int(connection.execute(select(func.count()).select_from(principals)).scalar_one())
