"""Assessments' SQL: the assessments recorded, and the ones each completed governed run
still owes (``assessments_due``, the inbox's)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from praxis.core import assessment as core
from praxis.store.execution.tables import assessments, assessments_due


def owe(connection: Connection, run_id: str, work_order_id: str, since_ms: int) -> None:
    """Records that the run owes an assessment of each kind from ``since_ms``."""
    connection.execute(
        assessments_due.insert(),
        [
            {"run_id": run_id, "kind": kind.name,
             "work_order_id": work_order_id, "since_ms": since_ms}
            for kind in core.Kind
        ],
    )  # fmt: skip


def forgive(connection: Connection, run_id: str, kind: core.Kind | None = None) -> None:
    """The run owes no assessment of ``kind`` (of any kind when ``None``) any more."""
    if kind is None:
        connection.execute(delete(assessments_due).where(assessments_due.c.run_id == run_id))
        return
    connection.execute(
        delete(assessments_due).where(
            assessments_due.c.run_id == run_id, assessments_due.c.kind == kind.name
        )
    )


def add(
    connection: Connection,
    assessment_id: str,
    run_id: str,
    kind: core.Kind,
    verdict: core.Verdict,
    subject_digest: str,
    contract_id: str,
    findings_json: str,
    assessed_by: str,
    now: int,
) -> None:
    """Records one assessment."""
    connection.execute(
        assessments.insert().values(
            assessment_id=assessment_id, run_id=run_id, kind=kind.name,
            verdict=verdict.name, subject_digest=subject_digest,
            contract_id=contract_id, findings_json=findings_json,
            assessed_by=assessed_by, assessed_at_ms=now,
        )
    )  # fmt: skip


def load(connection: Connection, identifier: str) -> core.Assessment:
    """The assessment of this id (it exists)."""
    row = connection.execute(
        select(assessments).where(assessments.c.assessment_id == identifier)
    ).first()
    return _assessment(row)


def of_run(connection: Connection, run_id: str) -> list[core.Assessment]:
    """A run's assessments, oldest first."""
    rows = connection.execute(
        select(assessments).where(assessments.c.run_id == run_id).order_by(assessments.c.seq)
    ).all()
    return [_assessment(row) for row in rows]


def _assessment(row: Any) -> core.Assessment:
    return core.Assessment(
        assessment_id=row.assessment_id,
        run_id=row.run_id,
        kind=core.Kind[row.kind],
        verdict=core.Verdict[row.verdict],
        subject_digest=row.subject_digest,
        contract_id=row.contract_id,
        findings=json.loads(row.findings_json),
        assessed_by=row.assessed_by,
        assessed_at_ms=row.assessed_at_ms,
    )
