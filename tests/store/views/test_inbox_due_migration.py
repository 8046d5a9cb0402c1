"""Migration 20 creates ``assessments_due`` and fills it from the runs completed before.

A database is written by today's server, then taken back to migration 19 (the table and
the two inbox indexes dropped, the migration unrecorded), as an older server would have
left it. Today's server migrates it again: each completed run under a contract owes the
assessments it has none of, since its completion; a run without a contract owes none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete, inspect, select, text

from aiws.engine.v1 import assessment_pb2, run_pb2
from praxis.store.db import migrations
from praxis.store.db.metadata import schema_migrations
from praxis.store.execution.tables import assessments_due
from praxis.store.schema import MIGRATIONS
from tests.support.execution import create_contract, settle, start_model_server, start_run
from tests.support.harness import T0, Harness
from tests.support.runtime import claim, definition, json_out, node

VERSION = next(m.version for m in MIGRATIONS if m.name == "inbox_due")
SINGLE = definition("a", a=node(output=json_out()))


def _back_to_the_previous_version(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            # The later migrations are undone too, and applied again after this one.
            for later in (m for m in MIGRATIONS if m.version > VERSION):
                for created in later.tables:
                    created.drop(connection)
                for name, columns in later.adds:
                    for added in columns:
                        migrations.drop_column(connection, name, added)
            assessments_due.drop(connection)
            for index in ("handoffs_offered", "approvals_expiry"):
                connection.execute(text(f"DROP INDEX {index}"))
            connection.execute(
                delete(schema_migrations).where(schema_migrations.c.version >= VERSION)
            )
    finally:
        engine.dispose()


def _completed(h: Harness, **fields: object) -> str:
    run = start_run(h, SINGLE, **fields)
    [task] = claim(h)
    settle(h, task, {"ok": True})
    return run.run_id


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_completed_runs_under_a_contract_owe_what_they_were_not_given(
    database: Path | str,
) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    h = start_model_server(database)
    try:
        create_contract(h)
        plain = _completed(h)
        h.clock.advance(1_000)
        owed = _completed(h, contract_id="c-1")
        verified = _completed(h, contract_id="c-1")
        subject = (
            h.client("alice")
            .assessments.GetAcceptance(assessment_pb2.GetAcceptanceRequest(run_id=verified))
            .subject_digest
        )
        h.client("alice").assessments.RecordAssessment(
            assessment_pb2.RecordAssessmentRequest(
                request_id="as-1", run_id=verified, subject_digest=subject,
                kind=assessment_pb2.ASSESSMENT_KIND_VERIFICATION,
                verdict=assessment_pb2.ASSESSMENT_VERDICT_PASS,
            )
        )  # fmt: skip
        live = start_run(h, SINGLE, contract_id="c-1")
        got = h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=live.run_id)).run
        assert got.state == run_pb2.RUN_STATE_RUNNING
    finally:
        h.close()
    _back_to_the_previous_version(url)

    h = start_model_server(database)
    try:
        engine = h.server.engine.runs.db.engine
        assert "handoffs_offered" in {i["name"] for i in inspect(engine).get_indexes("handoffs")}
        assert "approvals_expiry" in {i["name"] for i in inspect(engine).get_indexes("approvals")}
        columns = (assessments_due.c.run_id, assessments_due.c.kind, assessments_due.c.since_ms)
        with engine.connect() as connection:
            rows = sorted(tuple(row) for row in connection.execute(select(*columns)))
        assert rows == sorted(
            [(owed, "ACCEPTANCE", T0 + 1_000), (owed, "VERIFICATION", T0 + 1_000),
             (verified, "ACCEPTANCE", T0 + 1_000)]
        )  # fmt: skip
        assert plain not in {row[0] for row in rows}
    finally:
        h.close()
