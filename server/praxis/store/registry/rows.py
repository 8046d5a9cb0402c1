"""The registry's rows: the statements and the functions that read and write heads,
proposals, approvals and receipts, for the registry store and for the slices that read
the registry (a governed run binds its ref's head: :func:`bind_head`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, literal, literal_column, or_, select, tuple_, update
from sqlalchemy.engine import Connection

from praxis.core import registry, values
from praxis.core.records import (
    ApprovalRecord,
    Ref,
)
from praxis.core.rejection import Code, Rejection
from praxis.store.controls.tables import holds, work_orders
from praxis.store.db import portable
from praxis.store.db.metadata import meta
from praxis.store.db.statements import Statement
from praxis.store.registry.tables import (
    approvals,
    consumed_proofs,
    heads,
    proposals,
    receipts,
    registry_events,
    revisions,
)

_APPROVAL = Statement(
    select(
        approvals,
        consumed_proofs.c.consumed_at_ms,
        consumed_proofs.c.request_id.label("consumed_by_request_id"),
    )
    .select_from(
        approvals.outerjoin(
            consumed_proofs, consumed_proofs.c.proof_digest == approvals.c.proof_digest
        )
    )
    .where(approvals.c.approval_id == bindparam("id"))
)
_HEAD = Statement(
    select(heads, revisions.c.definition_json)
    .join(
        revisions,
        and_(
            revisions.c.work_order_id == heads.c.work_order_id,
            revisions.c.run_id == heads.c.run_id,
            revisions.c.revision == heads.c.revision,
        ),
    )
    .where(heads.c.work_order_id == bindparam("wo"), heads.c.run_id == bindparam("run"))
)
_HEAD_BINDING = Statement(
    select(heads.c.revision, heads.c.definition_digest).where(
        heads.c.work_order_id == bindparam("wo"), heads.c.run_id == bindparam("run")
    )
)
_REVISION = Statement(
    select(revisions.c.definition_json, revisions.c.definition_digest).where(
        revisions.c.work_order_id == bindparam("wo"),
        revisions.c.run_id == bindparam("run"),
        revisions.c.revision == bindparam("revision"),
    )
)
_PROPOSAL_WHERE = and_(
    proposals.c.work_order_id == bindparam("wo"),
    proposals.c.run_id == bindparam("run"),
    proposals.c.proposal_id == bindparam("pid"),
)
_PROPOSAL = Statement(select(proposals).where(_PROPOSAL_WHERE))
_DECIDE_PROPOSAL = Statement(update(proposals).where(_PROPOSAL_WHERE))
_UPDATE_HEAD = Statement(
    update(heads).where(
        heads.c.work_order_id == bindparam("wo"), heads.c.run_id == bindparam("run")
    )
)
INSERT = {
    table.name: Statement(table.insert())
    for table in (
        revisions,
        heads,
        proposals,
        registry_events,
        consumed_proofs,
        receipts,
        approvals,
    )
}

# Everything a command reads before it decides, in one statement (one step of the
# serialized write section instead of seven): the clock's high-water mark, the work
# order's controls, whether a hold may apply, the receipt of this request id, the head,
# the named proposal, the named approval and the consumption of its proof. Each part is a
# primary-key lookup joined to one row, so a part that does not exist reads as NULLs.
_ONE = select(literal_column("1").label("one")).subquery("one")
_COMMAND_STATE = Statement(
    select(
        select(meta.c.value)
        .where(meta.c.key == bindparam("clock_key"))
        .scalar_subquery()
        .label("clock"),
        work_orders.c.control,
        work_orders.c.ownership_epoch,
        work_orders.c.authority_epoch,
        work_orders.c.ancestors_json,
        select(holds.c.hold_id)
        .where(
            holds.c.cleared_at_ms.is_(None),
            or_(holds.c.work_order_id == "", holds.c.work_order_id == bindparam("wo")),
        )
        .limit(1)
        .scalar_subquery()
        .label("hold_id"),
        receipts.c.command_digest,
        receipts.c.receipt_json,
        heads.c.revision.label("head_revision"),
        heads.c.definition_digest.label("head_digest"),
        heads.c.policy_digests_json.label("head_policy_digests_json"),
        heads.c.bound_run_id.label("head_bound_run_id"),
        heads.c.updated_at_ms.label("head_updated_at_ms"),
        *(column for column in proposals.c if column.name not in ("work_order_id", "run_id")),
        approvals.c.approval_id,
        approvals.c.material_digest,
        approvals.c.approver_id,
        approvals.c.proof_digest,
        approvals.c.created_at_ms.label("approval_created_at_ms"),
        approvals.c.expires_at_ms,
        approvals.c.purpose,
        consumed_proofs.c.consumed_at_ms,
        consumed_proofs.c.request_id.label("consumed_by_request_id"),
    ).select_from(
        _ONE.outerjoin(work_orders, work_orders.c.work_order_id == bindparam("wo"))
        .outerjoin(
            receipts,
            and_(
                receipts.c.principal_id == bindparam("principal"),
                receipts.c.request_id == bindparam("rid"),
            ),
        )
        .outerjoin(
            heads,
            and_(heads.c.work_order_id == bindparam("wo"), heads.c.run_id == bindparam("run")),
        )
        .outerjoin(
            proposals,
            and_(
                proposals.c.work_order_id == bindparam("wo"),
                proposals.c.run_id == bindparam("run"),
                proposals.c.proposal_id == bindparam("pid"),
            ),
        )
        .outerjoin(approvals, approvals.c.approval_id == bindparam("aid"))
        .outerjoin(consumed_proofs, consumed_proofs.c.proof_digest == approvals.c.proof_digest)
    )
)
# What a Review reads, in one statement (three otherwise): the work order's controls, the
# head with its definition, and the named proposal. Each part is a primary-key lookup
# joined to one row, so a part that does not exist reads as NULLs.
_REVIEW_STATE = Statement(
    select(
        work_orders.c.control,
        work_orders.c.ownership_epoch,
        work_orders.c.authority_epoch,
        work_orders.c.ancestors_json,
        work_orders.c.closed_at_ms,
        work_orders.c.proposal,
        heads.c.revision.label("head_revision"),
        heads.c.definition_digest.label("head_digest"),
        heads.c.policy_digests_json.label("head_policy_digests_json"),
        heads.c.bound_run_id.label("head_bound_run_id"),
        heads.c.updated_at_ms.label("head_updated_at_ms"),
        revisions.c.definition_json.label("head_definition_json"),
        *(column for column in proposals.c if column.name not in ("work_order_id", "run_id")),
    ).select_from(
        _ONE.outerjoin(work_orders, work_orders.c.work_order_id == bindparam("wo"))
        .outerjoin(
            heads,
            and_(heads.c.work_order_id == bindparam("wo"), heads.c.run_id == bindparam("run")),
        )
        .outerjoin(
            revisions,
            and_(
                revisions.c.work_order_id == heads.c.work_order_id,
                revisions.c.run_id == heads.c.run_id,
                revisions.c.revision == heads.c.revision,
            ),
        )
        .outerjoin(
            proposals,
            and_(
                proposals.c.work_order_id == bindparam("wo"),
                proposals.c.run_id == bindparam("run"),
                proposals.c.proposal_id == bindparam("pid"),
            ),
        )
    )
)
# An approval and the consumption of a proof digest, in one statement: CreateApproval
# reads the approval it may replay and, for a new one, the consumption of its proof.
_APPROVAL_AND_PROOF = Statement(
    select(
        approvals,
        consumed_proofs.c.consumed_at_ms,
        consumed_proofs.c.request_id.label("consumed_by_request_id"),
    ).select_from(
        _ONE.outerjoin(approvals, approvals.c.approval_id == bindparam("id")).outerjoin(
            consumed_proofs, consumed_proofs.c.proof_digest == bindparam("proof")
        )
    )
)


@dataclass(frozen=True)
class Executed:
    """A committed (or replayed) command."""

    receipt: registry.Receipt
    replayed: bool


@dataclass(frozen=True)
class HistoryPage:
    """One page of a ref's history."""

    events: list[tuple[int, registry.HistoryEntry]]
    next_after: int
    has_more: bool


@dataclass(frozen=True)
class ApprovalView:
    """An approval with its consumption, as of a read."""

    record: ApprovalRecord
    consumed_at_ms: int
    consumed_by_request_id: str


def load_head(connection: Connection, ref: Ref) -> registry.Head | None:
    """The head of a ref with its definition, or ``None``."""
    row = _HEAD.run(connection, {"wo": ref.work_order_id, "run": ref.run_id}).first()
    if row is None:
        return None
    return registry.Head(
        ref=ref,
        revision=row.revision,
        definition=json.loads(row.definition_json),
        definition_digest=row.definition_digest,
        policy_digests=json.loads(row.policy_digests_json),
        updated_at_ms=row.updated_at_ms,
        bound_run_id=row.bound_run_id,
    )


def revision_digest(connection: Connection, ref: Ref, revision: int) -> str:
    """The digest of the definition a ref's revision holds ("" when there is none)."""
    row = _REVISION.run(
        connection, {"wo": ref.work_order_id, "run": ref.run_id, "revision": revision}
    ).first()
    return "" if row is None else str(row.definition_digest or "")


def revision_definition(connection: Connection, ref: Ref, revision: int) -> values.JsonValue | None:
    """The definition document a ref's revision holds, or ``None`` when there is none."""
    row = _REVISION.run(
        connection, {"wo": ref.work_order_id, "run": ref.run_id, "revision": revision}
    ).first()
    return None if row is None else json.loads(row.definition_json)


class Texts:
    """Canonical JSON texts already known of what a command writes (its definition and
    policy digests, a stored proposal's definition, the head's policy digests), so saving
    one does not serialise it again."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[object, str]] = {}

    def add(self, value: object, text: str) -> None:
        """Remembers the canonical text of ``value`` (this very object)."""
        self._known[id(value)] = (value, text)

    def copy(self) -> Texts:
        """Another set knowing the same texts (a command's transaction may run again)."""
        texts = Texts()
        texts._known = dict(self._known)
        return texts

    def of(self, value: values.JsonValue) -> str:
        """The canonical JSON of ``value``, serialised only when not known."""
        known = self._known.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        return values.canonical_json(value)

    def of_digests(self, digests: Mapping[str, str]) -> str:
        """The canonical JSON of policy digests, serialised only when not known."""
        known = self._known.get(id(digests))
        if known is not None and known[0] is digests:
            return known[1]
        return values.canonical_json(dict(digests))


def bind_head(
    connection: Connection, ref: Ref, run_id: str, principal_id: str, request_id: str, now_ms: int
) -> None:
    """Binds a head to the run executing it and records a BOUND history event (prepared
    statements; the head's revision and digest are read without its definition)."""
    where = {"wo": ref.work_order_id, "run": ref.run_id}
    head = _HEAD_BINDING.run(connection, where).first()
    assert head is not None
    _UPDATE_HEAD.run(connection, {**where, "bound_run_id": run_id})
    INSERT["registry_events"].run(
        connection,
        dict(
            work_order_id=ref.work_order_id,
            run_id=ref.run_id,
            kind=registry.HistoryKind.BOUND.value,
            revision=head.revision,
            proposal_id="",
            principal_id=principal_id,
            approval_id="",
            request_id=request_id,
            digest=head.definition_digest,
            reason=run_id,
            at_ms=now_ms,
        ),
    )


def save_head(
    connection: Connection,
    head: registry.Head,
    proposal: registry.Proposal | None,
    texts: Texts,
) -> None:
    INSERT["revisions"].run(
        connection,
        dict(
            work_order_id=head.ref.work_order_id,
            run_id=head.ref.run_id,
            revision=head.revision,
            definition_json=texts.of(head.definition),
            definition_digest=head.definition_digest,
            proposal_id=proposal.proposal_id if proposal else "",
            created_at_ms=head.updated_at_ms,
        ),
    )
    row = {
        "revision": head.revision,
        "definition_digest": head.definition_digest,
        "policy_digests_json": texts.of_digests(head.policy_digests),
        "bound_run_id": head.bound_run_id,
        "updated_at_ms": head.updated_at_ms,
    }
    if head.revision == 1:
        INSERT["heads"].run(
            connection,
            dict(work_order_id=head.ref.work_order_id, run_id=head.ref.run_id, **row),
        )
    else:
        _UPDATE_HEAD.run(connection, {"wo": head.ref.work_order_id, "run": head.ref.run_id, **row})


def proposal_of(row: Any, ref: Ref) -> registry.Proposal:
    """The proposal of a ``proposals`` row (without ``definition_json``: an empty one)."""
    definition_json = getattr(row, "definition_json", None)
    return registry.Proposal(
        ref=ref,
        proposal_id=row.proposal_id,
        base_revision=row.base_revision,
        definition=json.loads(definition_json) if definition_json is not None else {},
        candidate_digest=row.candidate_digest,
        proposal_digest=row.proposal_digest,
        proposed_by=row.proposed_by,
        summary=row.summary,
        policy_digests=json.loads(row.policy_digests_json),
        created_at_ms=row.created_at_ms,
        status=registry.ProposalStatus(row.status),
        decided_at_ms=row.decided_at_ms,
        activated_revision=row.activated_revision,
        rejection_reason=row.rejection_reason,
        decided_by=row.decided_by,
    )


def load_proposal(connection: Connection, ref: Ref, proposal_id: str) -> registry.Proposal | None:
    """One proposal, or ``None``."""
    row = _PROPOSAL.run(
        connection, {"wo": ref.work_order_id, "run": ref.run_id, "pid": proposal_id}
    ).first()
    if row is None:
        return None
    return proposal_of(row, ref)


def save_proposal(connection: Connection, proposal: registry.Proposal, texts: Texts) -> None:
    decision = {
        "status": proposal.status.value,
        "decided_at_ms": proposal.decided_at_ms,
        "activated_revision": proposal.activated_revision,
        "rejection_reason": proposal.rejection_reason,
        "decided_by": proposal.decided_by,
    }
    if proposal.status is not registry.ProposalStatus.PENDING:
        _DECIDE_PROPOSAL.run(
            connection,
            {
                "wo": proposal.ref.work_order_id,
                "run": proposal.ref.run_id,
                "pid": proposal.proposal_id,
                **decision,
            },
        )
        return
    INSERT["proposals"].run(
        connection,
        dict(
            work_order_id=proposal.ref.work_order_id,
            run_id=proposal.ref.run_id,
            proposal_id=proposal.proposal_id,
            base_revision=proposal.base_revision,
            definition_json=texts.of(proposal.definition),
            candidate_digest=proposal.candidate_digest,
            proposal_digest=proposal.proposal_digest,
            proposed_by=proposal.proposed_by,
            summary=proposal.summary,
            policy_digests_json=texts.of_digests(proposal.policy_digests),
            created_at_ms=proposal.created_at_ms,
            **decision,
        ),
    )


def load_approval(connection: Connection, approval_id: str) -> ApprovalView | None:
    """An approval and the consumption of its proof, or ``None``."""
    row = _APPROVAL.run(connection, {"id": approval_id}).first()
    return None if row is None else approval_view(row)


def consume_proof(
    connection: Connection,
    approval: ApprovalRecord,
    request_id: str,
    principal_id: str,
    now_ms: int,
) -> None:
    """Records the consumption of the approval's proof by the command ``request_id`` of
    ``principal_id`` (for the slices whose commands consume approvals: waits)."""
    connection.execute(
        consumed_proofs.insert().values(
            proof_digest=approval.proof_digest,
            approval_id=approval.approval_id,
            request_id=request_id,
            principal_id=principal_id,
            consumed_at_ms=now_ms,
        )
    )


def approval_record(row: Any, created_at_ms: int) -> ApprovalRecord:
    """The approval of a row holding the ``approvals`` columns (``created_at_ms`` given:
    a command's state row names it apart from its proposal's)."""
    return ApprovalRecord(
        approval_id=row.approval_id,
        material_digest=row.material_digest,
        approver_id=row.approver_id,
        proof_digest=row.proof_digest,
        created_at_ms=created_at_ms,
        expires_at_ms=row.expires_at_ms,
        purpose=row.purpose,
    )


def approval_view(row: Any) -> ApprovalView:
    """The approval of an ``approvals`` row with the consumption columns of its proof."""
    record = approval_record(row, row.created_at_ms)
    if row.consumed_at_ms is None:
        return ApprovalView(record, 0, "")
    return ApprovalView(record, row.consumed_at_ms, row.consumed_by_request_id)


def replayed(row: Any, request_id: str, command_digest: str) -> Executed | Rejection:
    """The answer to a request id used before (``row`` holds its receipt): the original
    receipt when it named the same command."""
    if row.command_digest != command_digest:
        return Rejection(
            Code.ALREADY_EXISTS,
            "REQUEST_ID_REUSED",
            f"request_id {request_id!r} was already used for a different command",
        )
    return Executed(_receipt_from_json(row.receipt_json), replayed=True)


def history_from_row(row: Any) -> registry.HistoryEntry:
    return registry.HistoryEntry(
        kind=registry.HistoryKind(row.kind),
        ref=Ref(row.work_order_id, row.run_id),
        revision=row.revision,
        proposal_id=row.proposal_id,
        principal_id=row.principal_id,
        approval_id=row.approval_id,
        request_id=row.request_id,
        at_ms=row.at_ms,
        digest=row.digest,
        reason=row.reason,
    )


def receipt_to_json(receipt: registry.Receipt) -> str:
    # asdict(receipt) with the action by name, written out (asdict deep-copies slowly)
    return values.canonical_json(
        {
            "request_id": receipt.request_id,
            "principal_id": receipt.principal_id,
            "command_digest": receipt.command_digest,
            "action": receipt.action.name,
            "ref": {"work_order_id": receipt.ref.work_order_id, "run_id": receipt.ref.run_id},
            "head_revision": receipt.head_revision,
            "head_digest": receipt.head_digest,
            "proposal_id": receipt.proposal_id,
            "approval_id": receipt.approval_id,
            "event_seq": receipt.event_seq,
            "committed_at_ms": receipt.committed_at_ms,
        }
    )


def _receipt_from_json(text: str) -> registry.Receipt:
    data = json.loads(text)
    data["action"] = registry.Action[data["action"]]
    data["ref"] = Ref(**data["ref"])
    return registry.Receipt(**data)


def command_state(connection: Connection, parameters: Mapping[str, Any]) -> Any:
    """The one row of everything a command reads before it decides (:data:`_COMMAND_STATE`;
    ``parameters``: ``clock_key``, ``wo``, ``run``, ``principal``, ``rid``, ``pid``,
    ``aid``)."""
    return _COMMAND_STATE.run(connection, parameters).first()


def review_state(
    connection: Connection, ref: Ref, proposal_id: str
) -> tuple[Any, registry.Head | None, registry.Proposal | None]:
    """What a Review reads, in one statement: the row of the work order's controls (for
    :func:`praxis.store.controls.rows.work_order_of`), the head with its definition and
    the proposal ``proposal_id`` names ("": none), each ``None`` when there is none."""
    row = _REVIEW_STATE.run(
        connection, {"wo": ref.work_order_id, "run": ref.run_id, "pid": proposal_id}
    ).first()
    head = None
    if row.head_definition_json is not None:  # a head, and its revision (an inner join)
        head = registry.Head(
            ref=ref,
            revision=row.head_revision,
            definition=json.loads(row.head_definition_json),
            definition_digest=row.head_digest,
            policy_digests=json.loads(row.head_policy_digests_json),
            updated_at_ms=row.head_updated_at_ms,
            bound_run_id=row.head_bound_run_id,
        )
    proposal = proposal_of(row, ref) if proposal_id and row.proposal_id is not None else None
    return row, head, proposal


def approval_and_proof(connection: Connection, approval_id: str, proof_digest: str) -> Any:
    """The one row of an approval (its columns ``NULL`` when there is none) and of the
    consumption of ``proof_digest``."""
    return _APPROVAL_AND_PROOF.run(connection, {"id": approval_id, "proof": proof_digest}).first()


def history_rows(connection: Connection, ref: Ref, after: int, limit: int) -> list[Any]:
    """Up to ``limit`` events of a ref's history after sequence number ``after``, oldest
    first."""
    query = (
        select(registry_events)
        .where(
            registry_events.c.work_order_id == ref.work_order_id,
            registry_events.c.run_id == ref.run_id,
            portable.seq_after(registry_events.c.seq, after),
        )
        .order_by(registry_events.c.seq)
        .limit(limit)
    )
    return list(connection.execute(query).all())


def head_rows(
    connection: Connection, work_order_id: str, after: Sequence[str] | None, limit: int
) -> list[Any]:
    """Up to ``limit`` heads by work order then run id (of ``work_order_id`` when given),
    after the ref ``after`` (work order id, run id)."""
    query = select(heads).order_by(heads.c.work_order_id, heads.c.run_id).limit(limit)
    if work_order_id:
        query = query.where(heads.c.work_order_id == work_order_id)
    if after is not None:
        query = query.where(
            tuple_(heads.c.work_order_id, heads.c.run_id)
            > tuple_(literal(after[0]), literal(after[1]))
        )
    return list(connection.execute(query).all())
