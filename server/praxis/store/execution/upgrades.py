"""The execution model's upgrade steps: the extra work of migration 20.

Migration 20 (:func:`add_inbox_due`): the inbox lists everything a human owes, read
from indexes in its order. It creates ``handoffs_offered`` and ``approvals_expiry`` where
they are missing (a table created after the migration was written already has them),
and fills ``assessments_due`` (which the migration creates) from the runs completed
before it: each completed run under a contract owes the verification and the acceptance
it has no assessment of.
"""

from __future__ import annotations

from sqlalchemy import exists, literal, select
from sqlalchemy.engine import Connection

from praxis.core import assessment
from praxis.core import run as core
from praxis.store.execution.tables import HANDOFFS_OFFERED, assessments, assessments_due
from praxis.store.registry.tables import APPROVALS_EXPIRY
from praxis.store.runtime.tables import runs


def add_inbox_due(connection: Connection) -> None:
    """Creates the inbox's indexes and the assessments owed by completed runs."""
    for index in (HANDOFFS_OFFERED, APPROVALS_EXPIRY):
        index.create(connection, checkfirst=True)
    for kind in assessment.Kind:
        assessed = exists().where(
            assessments.c.run_id == runs.c.run_id, assessments.c.kind == kind.name
        )
        owed = select(
            runs.c.run_id, literal(kind.name), runs.c.work_order_id, runs.c.finished_at_ms
        ).where(
            runs.c.status == core.RunStatus.COMPLETED.value,
            runs.c.contract_id != "",
            ~assessed,
        )
        connection.execute(
            assessments_due.insert().from_select(
                ["run_id", "kind", "work_order_id", "since_ms"], owed
            )
        )
