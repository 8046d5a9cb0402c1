"""The registry's upgrade steps: the extra work of migration 19.

Migration 19 (:func:`add_purpose`): each approval records the purpose of the action it
approves (``approvals.purpose``). Approvals given before the migration have none (''),
which is what every command that consumes them requires, so they keep working.

The step is correct on a table created at any version: it adds the column only where
it is missing (a table created after the migration was written already has it).
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.store.db import migrations
from praxis.store.registry.tables import APPROVALS_ADDED_COLUMNS, approvals


def add_purpose(connection: Connection) -> None:
    """Adds ``approvals.purpose`` where it is missing."""
    migrations.add_columns(connection, approvals, APPROVALS_ADDED_COLUMNS)
