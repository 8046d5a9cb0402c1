"""Configuration's SQL: the reloads in the model's event log, and each server process's
``meta`` row (``config.process.<digest>``) naming the version it serves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from praxis.store.db.metadata import meta
from praxis.store.execution.tables import model_events


def latest_events(connection: Connection, subject: str, kind: str, limit: int) -> Sequence[Any]:
    """Up to ``limit`` events of one subject and kind, newest first."""
    return connection.execute(
        select(model_events)
        .where(model_events.c.subject == subject, model_events.c.kind == kind)
        .order_by(model_events.c.seq.desc())
        .limit(limit)
    ).all()


def process_values(connection: Connection, prefix: str) -> list[str]:
    """The values of the ``meta`` rows whose key starts with ``prefix``."""
    rows = connection.execute(
        select(meta.c.value).where(meta.c.key.startswith(prefix, autoescape=True))
    ).all()
    return [row.value for row in rows]


def remove_processes(connection: Connection, keys: list[str]) -> None:
    """Removes the ``meta`` rows of these keys."""
    connection.execute(delete(meta).where(meta.c.key.in_(keys)))
