"""Who made each subscription (``subscriptions``): its owning principal.

:func:`praxis.store.runtime.subscriptions.claim` decides who may use one.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.store.db import portable
from praxis.store.runtime.tables import subscriptions


def make(connection: Connection, subscriber: str, principal_id: str, now_ms: int) -> None:
    """Makes ``subscriber`` owned by ``principal_id`` unless it exists already."""
    connection.execute(
        portable.insert_missing(connection, subscriptions).values(
            subscriber=subscriber, principal_id=principal_id, created_at_ms=now_ms
        )
    )


def owner(connection: Connection, subscriber: str) -> str | None:
    """The principal that made ``subscriber`` (None for none)."""
    found: str | None = connection.execute(
        select(subscriptions.c.principal_id).where(subscriptions.c.subscriber == subscriber)
    ).scalar()
    return found
