"""The durable run event log (``run_events``) and the subscribers' acknowledged
positions (``event_subscribers``): :class:`praxis.store.runtime.events.EventStore`'s rows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, func, select, update
from sqlalchemy.engine import Connection

from praxis.store.db import locks, portable
from praxis.store.runtime.tables import event_subscribers, run_events


def page(
    connection: Connection, after: int, limit: int, run_id: str, subscriber: str
) -> tuple[list[Row[Any]], bool]:
    """Events with ``seq > after`` (oldest first, at most ``limit``), and whether a
    writer in flight may hold some back below the horizon.

    On PostgreSQL only events below the safe horizon are read (see
    :func:`praxis.store.db.locks.event_horizon`): a transaction still appending holds
    back the events after its own, so a reader never skips one.
    """
    query = select(run_events).where(portable.seq_after(run_events.c.seq, after))
    if run_id:
        query = query.where(run_events.c.run_id == run_id)
    if subscriber:
        query = query.where(run_events.c.subscriber == subscriber)
    horizon = locks.event_horizon(connection)
    if horizon is not None:
        query = query.where(run_events.c.seq <= horizon[0])
    rows = connection.execute(query.order_by(run_events.c.seq).limit(limit)).all()
    return list(rows), horizon is not None and horizon[1]


def last_seq(connection: Connection) -> int:
    """The newest event's sequence number (0 for an empty log)."""
    return connection.execute(select(func.max(run_events.c.seq))).scalar() or 0


def cursor(connection: Connection, subscriber: str) -> int | None:
    """The subscriber's acknowledged cursor (None when it never acknowledged)."""
    value = connection.execute(
        select(event_subscribers.c.cursor).where(event_subscribers.c.subscriber == subscriber)
    ).scalar()
    return None if value is None else int(value)


def insert_cursor(connection: Connection, subscriber: str, at: int, now: int) -> None:
    """Records the subscriber's first acknowledged cursor."""
    connection.execute(
        event_subscribers.insert().values(subscriber=subscriber, cursor=at, updated_at_ms=now)
    )


def advance_cursor(connection: Connection, subscriber: str, at: int, now: int) -> None:
    """Moves the subscriber's acknowledged cursor to ``at``."""
    connection.execute(
        update(event_subscribers)
        .where(event_subscribers.c.subscriber == subscriber)
        .values(cursor=at, updated_at_ms=now)
    )
