"""Tables of the registry (migration 1): heads, revisions, proposals, approvals and their
consumed proofs, idempotent receipts, and the immutable registry history."""

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

heads = Table(
    "heads",
    metadata,
    Column("work_order_id", String(128), nullable=False),
    Column("run_id", String(128), nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("definition_digest", String(80), nullable=False),
    Column("policy_digests_json", Text, nullable=False),
    Column("bound_run_id", String(128), nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("work_order_id", "run_id"),
)

revisions = Table(
    "revisions",
    metadata,
    Column("work_order_id", String(128), nullable=False),
    Column("run_id", String(128), nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("definition_json", Text, nullable=False),
    Column("definition_digest", String(80), nullable=False),
    Column("proposal_id", String(128), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("work_order_id", "run_id", "revision"),
)

proposals = Table(
    "proposals",
    metadata,
    Column("work_order_id", String(128), nullable=False),
    Column("run_id", String(128), nullable=False),
    Column("proposal_id", String(128), nullable=False),
    Column("base_revision", BigInteger, nullable=False),
    Column("definition_json", Text, nullable=False),
    Column("candidate_digest", String(80), nullable=False),
    Column("proposal_digest", String(80), nullable=False),
    Column("proposed_by", String(128), nullable=False),
    Column("summary", Text, nullable=False),
    Column("policy_digests_json", Text, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("decided_at_ms", BigInteger, nullable=False),
    Column("activated_revision", BigInteger, nullable=False),
    Column("rejection_reason", Text, nullable=False),
    Column("decided_by", String(128), nullable=False),
    PrimaryKeyConstraint("work_order_id", "run_id", "proposal_id"),
)

approvals = Table(
    "approvals",
    metadata,
    Column("approval_id", String(128), primary_key=True),
    Column("material_digest", String(80), nullable=False),
    Column("approver_id", String(128), nullable=False),
    Column("proof_digest", String(80), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("expires_at_ms", BigInteger, nullable=False),
    # Added by migration 15 (``APPROVALS_ADDED_COLUMNS``): the purpose of the approved
    # action ('' for none, and for every approval given before the migration).
    Column("purpose", String(64), nullable=False, server_default=text("''")),
)
APPROVALS_ADDED_COLUMNS = ("purpose",)
Index("approvals_proof", approvals.c.proof_digest)
# Migration 20: the inbox lists approvals about to expire, by expiry
# (``execution/upgrades.py`` creates it on a table made before the migration).
APPROVALS_EXPIRY = Index("approvals_expiry", approvals.c.expires_at_ms)

consumed_proofs = Table(
    "consumed_proofs",
    metadata,
    Column("proof_digest", String(80), primary_key=True),
    Column("approval_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("principal_id", String(128), nullable=False),
    Column("consumed_at_ms", BigInteger, nullable=False),
)

receipts = Table(
    "receipts",
    metadata,
    Column("principal_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("command_digest", String(80), nullable=False),
    Column("receipt_json", Text, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("principal_id", "request_id"),
)

registry_events = Table(
    "registry_events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("work_order_id", String(128), nullable=False),
    Column("run_id", String(128), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("proposal_id", String(128), nullable=False),
    Column("principal_id", String(128), nullable=False),
    Column("approval_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("digest", String(80), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
Index(
    "registry_events_ref",
    registry_events.c.work_order_id,
    registry_events.c.run_id,
    registry_events.c.seq,
)
