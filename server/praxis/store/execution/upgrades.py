"""The execution model's upgrade steps: the extra work of migrations 20 and 25.

Migration 20 (:func:`add_inbox_due`): the inbox lists everything a human owes, read
from indexes in its order. It creates ``handoffs_offered`` and ``approvals_expiry`` where
they are missing (a table created after the migration was written already has them),
and fills ``assessments_due`` (which the migration creates) from the runs completed
before it: each completed run under a contract owes the verification and the acceptance
it has no assessment of.

Migration 25 (:func:`add_handoff_revisions`): a handoff names the revision of the work it
hands off. The handoffs offered before it take their node's revision, their run's ref
and the digest of that revision's definition; one whose run is gone keeps revision -1
(the API then leaves the three fields unset).
"""

from __future__ import annotations

from sqlalchemy import and_, exists, literal, select, update
from sqlalchemy.engine import Connection

from praxis.core import assessment
from praxis.core import run as core
from praxis.store.db import migrations
from praxis.store.execution.tables import (
    HANDOFFS_OFFERED,
    HANDOFFS_REVISION_COLUMNS,
    assessments,
    assessments_due,
    handoffs,
)
from praxis.store.registry.tables import APPROVALS_EXPIRY, revisions
from praxis.store.runtime.tables import run_nodes, runs


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


def add_handoff_revisions(connection: Connection) -> None:
    """Adds the handoffs' revision columns where they are missing and fills them on the
    handoffs offered before, from their run, node and the registry's revisions."""
    migrations.add_columns(connection, handoffs, HANDOFFS_REVISION_COLUMNS)
    governed_digest = (
        select(revisions.c.definition_digest)
        .where(
            revisions.c.work_order_id == runs.c.work_order_id,
            revisions.c.run_id == runs.c.ref_run_id,
            revisions.c.revision == run_nodes.c.revision,
        )
        .scalar_subquery()
    )
    found = connection.execute(
        select(
            handoffs.c.delivery_id,
            runs.c.work_order_id,
            runs.c.ref_run_id,
            runs.c.revision.label("run_revision"),
            runs.c.definition_digest,
            run_nodes.c.revision,
            governed_digest.label("governed_digest"),
        )
        .join(runs, runs.c.run_id == handoffs.c.run_id)
        .join(
            run_nodes,
            and_(
                run_nodes.c.run_id == handoffs.c.run_id,
                run_nodes.c.node_uid == handoffs.c.node_uid,
            ),
        )
        .where(handoffs.c.revision < 0)
    ).all()
    for row in found:
        digest = row.definition_digest
        if row.ref_run_id and row.revision != row.run_revision:
            digest = row.governed_digest or ""
        connection.execute(
            update(handoffs)
            .where(handoffs.c.delivery_id == row.delivery_id)
            .values(
                ref_work_order_id=row.work_order_id if row.ref_run_id else "",
                ref_run_id=row.ref_run_id,
                revision=row.revision,
                definition_digest=digest,
            )
        )
