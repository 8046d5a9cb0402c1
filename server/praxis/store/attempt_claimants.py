"""Migration 9: each attempt records the principal whose claim leased it.

Before it, an attempt was bound only to the worker id the claimant chose, which anyone
who read the ``NODE_DISPATCHED`` event could quote; heartbeats and settlements now also
need the claiming principal (:mod:`praxis.store.runs`). Attempts leased before the
migration have an empty principal and stay bound to their worker id only.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.store import migrations
from praxis.store.runtime_schema import ATTEMPTS_ADDED_COLUMNS, attempts

VERSION = 9


def add_principal(connection: Connection) -> None:
    """Adds ``attempts.principal_id`` where it is missing."""
    migrations.add_columns(connection, attempts, ATTEMPTS_ADDED_COLUMNS)


migrations.register(
    migrations.Migration(
        VERSION,
        "attempt_claimants",
        (),
        add_principal,
        adds=(("attempts", ATTEMPTS_ADDED_COLUMNS),),
    )
)
