"""The models workers registered (``model_registrations``, migration 8).

:mod:`praxis.store.runtime.worker_models` decides what to register, renew and refuse;
these functions read and write the rows.
"""

from __future__ import annotations

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.engine import Connection

from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import model_registrations

_LIVE = Statement(
    select(model_registrations.c.model, model_registrations.c.expires_at_ms).where(
        model_registrations.c.expires_at_ms > bindparam("now")
    )
)  # every claim reads it


def live(connection: Connection, now_ms: int) -> dict[str, int]:
    """The live worker registrations: model -> expiry."""
    rows = _LIVE.run(connection, {"now": now_ms})
    return {row.model: int(row.expires_at_ms) for row in rows}


def insert(connection: Connection, models: list[str], expiry: int, now_ms: int) -> None:
    """Registers ``models`` until ``expiry``, replacing lapsed rows of the same names."""
    connection.execute(
        delete(model_registrations).where(model_registrations.c.model.in_(models))
    )  # lapsed rows of the same names
    connection.execute(
        model_registrations.insert(),
        [{"model": m, "expires_at_ms": expiry, "registered_at_ms": now_ms} for m in models],
    )


def renew(connection: Connection, models: list[str], expiry: int) -> None:
    """Moves the expiry of ``models``' registrations to ``expiry``."""
    connection.execute(
        update(model_registrations)
        .where(model_registrations.c.model.in_(models))
        .values(expires_at_ms=expiry)
    )


def purge(connection: Connection, now_ms: int, limit: int) -> int:
    """Deletes up to ``limit`` lapsed registrations; returns how many."""
    lapsed = (
        select(model_registrations.c.model)
        .where(model_registrations.c.expires_at_ms <= now_ms)
        .limit(limit)
        .scalar_subquery()
    )
    result = connection.execute(
        delete(model_registrations).where(model_registrations.c.model.in_(lapsed))
    )
    return int(result.rowcount or 0)
