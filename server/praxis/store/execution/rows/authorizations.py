"""Authorization waits' SQL: the approved material recorded on ``wait_approvals``."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.core import authorization as authz
from praxis.core import values
from praxis.store.execution.tables import wait_approvals


def record_approval(
    connection: Connection, found: authz.Material, approval_id: str, approved_by: str, now: int
) -> None:
    """Records the approved material of a wait, with the approval consumed for it."""
    connection.execute(
        wait_approvals.insert().values(
            wait_id=found.wait_id,
            run_id=found.run_id,
            approval_id=approval_id,
            material_digest=found.digest(),
            material_json=values.canonical_json(found.document()),
            approved_by=approved_by,
            consumed_at_ms=now,
        )
    )


def approved(connection: Connection, wait_id: str) -> tuple[str, str, tuple[authz.Action, ...]]:
    """The approval id, material digest and authorised actions a wait was satisfied with
    (empty when it was not satisfied with an approval)."""
    row = connection.execute(
        select(wait_approvals).where(wait_approvals.c.wait_id == wait_id)
    ).first()
    if row is None:
        return "", "", ()
    document: dict[str, Any] = json.loads(row.material_json)
    actions = tuple(
        authz.Action(
            node_uid=a["node_uid"],
            model=a["model"],
            operation_id=a["operation_id"],
            spec_digest=a["spec_digest"],
            input_digest=a["input_digest"],
            fanout=a["fanout"],
        )
        for a in document["actions"]
    )
    return row.approval_id, row.material_digest, actions


def authorised_nodes(connection: Connection, run_id: str) -> frozenset[str]:
    """The node ids whose action an approval of one of the run's authorization waits
    covered (a resume runs none of them again without a fresh approval)."""
    rows = connection.execute(
        select(wait_approvals.c.material_json).where(wait_approvals.c.run_id == run_id)
    )
    found: set[str] = set()
    for row in rows:
        document: dict[str, Any] = json.loads(row.material_json)
        found.update(str(action["node_uid"]) for action in document["actions"])
    return frozenset(found)
