"""Tables of the execution model (migration 3).

Each of the four questions keeps its own records: contracts and spend (what may be
spent), reconciliations (what happened to uncertain effects), waits, assessments
(was the deliverable accepted), handoffs and run segments. ``model_requests`` makes the
model's mutations idempotent by request id, and ``model_events`` is their append-only
log: every write of this module appends one event in the same transaction.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
)

from praxis.store.db.metadata import metadata

contracts = Table(
    "contracts",
    metadata,
    Column("contract_id", String(128), primary_key=True),
    Column("work_order_id", String(128), nullable=False),
    Column("content_json", Text, nullable=False),
    Column("digest", String(80), nullable=False),
    Column("created_by", String(128), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("spent_microcredits", String(80), nullable=False),
)

principal_spend = Table(
    "principal_spend",
    metadata,
    Column("principal_id", String(128), primary_key=True),
    Column("spent_microcredits", String(80), nullable=False),
)

reconciliations = Table(
    "reconciliations",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("completed", Integer, nullable=False),
    Column("result_json", Text, nullable=False),
    Column("error", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("decision", String(16), nullable=False),
    Column("evidence_json", Text, nullable=False),
    Column("approval_id", String(128), nullable=False),
    Column("decided_by", String(128), nullable=False),
    Column("opened_at_ms", BigInteger, nullable=False),
    Column("decided_at_ms", BigInteger, nullable=False),
)
Index("reconciliations_run", reconciliations.c.run_id, reconciliations.c.opened_at_ms)

waits = Table(
    "waits",
    metadata,
    Column("wait_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("payload_json", Text, nullable=False),
    Column("satisfied_by", String(128), nullable=False),
    Column("satisfied_at_ms", BigInteger, nullable=False),
)
Index("waits_run", waits.c.run_id, waits.c.node_uid, unique=True)

# Migration 14: the approval an ``authorization`` wait was satisfied with, and the exact
# material it approved (``praxis.core.authorization.Material``, as its document), written
# in the transaction that satisfies the wait and consumes the approval's proof.
wait_approvals = Table(
    "wait_approvals",
    metadata,
    Column("wait_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("approval_id", String(128), nullable=False),
    Column("material_digest", String(80), nullable=False),
    Column("material_json", Text, nullable=False),
    Column("approved_by", String(128), nullable=False),
    Column("consumed_at_ms", BigInteger, nullable=False),
)
Index("wait_approvals_run", wait_approvals.c.run_id)

assessments = Table(
    "assessments",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("assessment_id", String(64), nullable=False, unique=True),
    Column("run_id", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("verdict", String(8), nullable=False),
    Column("subject_digest", String(80), nullable=False),
    Column("contract_id", String(128), nullable=False),
    Column("findings_json", Text, nullable=False),
    Column("assessed_by", String(128), nullable=False),
    Column("assessed_at_ms", BigInteger, nullable=False),
)
Index("assessments_run", assessments.c.run_id, assessments.c.seq)

handoffs = Table(
    "handoffs",
    metadata,
    Column("delivery_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("from_principal_id", String(128), nullable=False),
    Column("to_principal_id", String(128), nullable=False),
    Column("outputs_digest", String(80), nullable=False),
    Column("note", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("acknowledged_at_ms", BigInteger, nullable=False),
    # Added by migration 25 (``HANDOFFS_REVISION_COLUMNS``): the revision of the work the
    # outputs come from (``praxis.core.handoff.Work``); ``revision`` -1 on a handoff made
    # before whose run was gone when the migration ran.
    Column("ref_work_order_id", String(128), nullable=False, server_default=text("''")),
    Column("ref_run_id", String(128), nullable=False, server_default=text("''")),
    Column("revision", BigInteger, nullable=False, server_default=text("-1")),
    Column("definition_digest", String(80), nullable=False, server_default=text("''")),
)
HANDOFFS_REVISION_COLUMNS = ("ref_work_order_id", "ref_run_id", "revision", "definition_digest")

run_segments = Table(
    "run_segments",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("number", Integer, nullable=False),
    Column("reason", String(16), nullable=False),
    Column("started_at_ms", BigInteger, nullable=False),
    Column("ownership_epoch", BigInteger, nullable=False),
    Column("incarnation", String(64), nullable=False),
    PrimaryKeyConstraint("run_id", "number"),
)

model_requests = Table(
    "model_requests",
    metadata,
    Column("principal_id", String(128), nullable=False),
    Column("scope", String(32), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("request_digest", String(80), nullable=False),
    Column("result_key", String(200), nullable=False),
    PrimaryKeyConstraint("principal_id", "scope", "request_id"),
)

model_events = Table(
    "model_events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("subject", String(200), nullable=False),
    Column("payload_json", Text, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
Index("model_events_subject", model_events.c.subject, model_events.c.seq)

# Migration 20: ``handoffs_offered`` lists the handoffs awaiting acknowledgement (the
# inbox) in their order without reading acknowledged ones (``execution/upgrades.py``
# creates it on a table made before the migration).
HANDOFFS_OFFERED = Index(
    "handoffs_offered", handoffs.c.state, handoffs.c.created_at_ms, handoffs.c.delivery_id
)

# --- migration 20: assessments a completed run still waits for (the inbox) ---
#
# One row per kind (VERIFICATION, ACCEPTANCE) that a completed run under a contract has
# no current assessment of: written when the run completes (or its subject changes: a
# new head of its ref), deleted by the assessment that settles it. The inbox reads these
# rows, never the runs it would otherwise have to scan.

assessments_due = Table(
    "assessments_due",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("work_order_id", String(128), nullable=False),
    Column("since_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "kind"),
)
Index("assessments_due_since", assessments_due.c.since_ms, assessments_due.c.run_id)
Index(
    "assessments_due_work_order",
    assessments_due.c.work_order_id,
    assessments_due.c.since_ms,
    assessments_due.c.run_id,
)

EXECUTION_TABLES = (
    contracts,
    principal_spend,
    reconciliations,
    waits,
    assessments,
    handoffs,
    run_segments,
    model_requests,
    model_events,
)
