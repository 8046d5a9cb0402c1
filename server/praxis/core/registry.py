"""The registry's decisions: validate, review and apply REGISTER, PROPOSE, ACTIVATE, REJECT.

``apply(state, command, now)`` takes the slice of registry state a command touches and
returns an :class:`Outcome` (everything the store must write in one transaction) or a
:class:`Rejection`. Nothing here reads a clock, a database or the network.
"""

from __future__ import annotations

import enum
import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from praxis.core import kinds, values
from praxis.core.records import (
    ActorEvidence,
    ApprovalEvidence,
    ApprovalRecord,
    Epochs,
    PrincipalKind,
    Ref,
)
from praxis.core.rejection import Code, Rejection, invalid, not_found, precondition

HISTORY_DEFAULT_LIMIT = 100
HISTORY_MAX_LIMIT = 1000


class Action(enum.Enum):
    """Registry commands; the value is the grant action name."""

    REGISTER = "registry.register"
    PROPOSE = "registry.propose"
    ACTIVATE = "registry.activate"
    REJECT = "registry.reject"


# The registry actions on the human-only list (core.kinds); each also needs an approval.
HUMAN_ACTIONS = frozenset(a for a in Action if a.value in kinds.HUMAN_ONLY_ACTIONS)


class ProposalStatus(enum.Enum):
    """Lifecycle of a proposal."""

    PENDING = "PENDING"
    ACTIVATED = "ACTIVATED"
    REJECTED = "REJECTED"


class HistoryKind(enum.Enum):
    """Kinds of registry history events."""

    REGISTERED = "REGISTERED"
    PROPOSED = "PROPOSED"
    ACTIVATED = "ACTIVATED"
    REJECTED = "REJECTED"
    BOUND = "BOUND"


@dataclass(frozen=True)
class Command:
    """One validated registry command.

    Attributes:
        action: Which command.
        ref: The ref it targets.
        definition: The parsed definition (REGISTER, PROPOSE).
        policy_digests: Protected policy digests (REGISTER sets, PROPOSE must match).
        proposal_id: The proposal (PROPOSE, ACTIVATE, REJECT).
        base_revision: The base revision (PROPOSE, ACTIVATE).
        next_revision: The next revision (ACTIVATE).
        approval_id: The approval to consume (REGISTER, ACTIVATE, REJECT).
        reason: The rejection reason (REJECT).
        proposed_by: Claimed attribution (PROPOSE), checked against the actor.
        summary: Why the change is proposed (PROPOSE).
    """

    action: Action
    ref: Ref
    definition: values.JsonValue = None
    policy_digests: Mapping[str, str] = field(default_factory=dict)
    proposal_id: str = ""
    base_revision: int = 0
    next_revision: int = 0
    approval_id: str = ""
    reason: str = ""
    proposed_by: str = ""
    summary: str = ""

    @functools.cached_property
    def definition_text(self) -> str:
        """The canonical JSON of the definition ("" without one), computed once."""
        return "" if self.definition is None else values.canonical_json(self.definition)

    @functools.cached_property
    def definition_digest(self) -> str:
        """``values.digest(definition)`` ("" without one), computed once."""
        if self.definition is None:
            return ""
        return "sha256:" + hashlib.sha256(self.definition_text.encode("utf-8")).hexdigest()

    def digest(self) -> str:
        """The command digest a retry under the same request_id must match."""
        return self._digest

    @functools.cached_property
    def _digest(self) -> str:
        return values.digest(
            {
                "action": self.action.name,
                "work_order_id": self.ref.work_order_id,
                "run_id": self.ref.run_id,
                "definition_digest": self.definition_digest,
                "policy_digests": dict(self.policy_digests),
                "proposal_id": self.proposal_id,
                "base_revision": self.base_revision,
                "next_revision": self.next_revision,
                "approval_id": self.approval_id,
                "reason": self.reason,
                "proposed_by": self.proposed_by,
                "summary": self.summary,
            }
        )


@dataclass(frozen=True)
class Head:
    """The current revision of a ref."""

    ref: Ref
    revision: int
    definition: values.JsonValue
    definition_digest: str
    policy_digests: Mapping[str, str]
    updated_at_ms: int
    bound_run_id: str = ""


@dataclass(frozen=True)
class Proposal:
    """A candidate definition against an exact base revision."""

    ref: Ref
    proposal_id: str
    base_revision: int
    definition: values.JsonValue
    candidate_digest: str
    proposal_digest: str
    proposed_by: str
    summary: str
    policy_digests: Mapping[str, str]
    created_at_ms: int
    status: ProposalStatus = ProposalStatus.PENDING
    decided_at_ms: int = 0
    activated_revision: int = 0
    rejection_reason: str = ""
    decided_by: str = ""


@dataclass(frozen=True)
class Material:
    """The exact subject of a human decision; approvals bind to its digest."""

    action: Action
    ref: Ref
    base_revision: int
    base_digest: str
    candidate_revision: int
    candidate_digest: str
    proposal_id: str
    proposal_digest: str
    reason: str
    epochs: Epochs
    proposed_by: str
    policy_digests: Mapping[str, str]
    candidate_definition: values.JsonValue
    base_definition: values.JsonValue

    def digest(self) -> str:
        """``sha256`` over every bound field (the definitions enter through their digests)."""
        return values.digest(
            {
                "action": self.action.name,
                "work_order_id": self.ref.work_order_id,
                "run_id": self.ref.run_id,
                "base_revision": self.base_revision,
                "base_digest": self.base_digest,
                "candidate_revision": self.candidate_revision,
                "candidate_digest": self.candidate_digest,
                "proposal_id": self.proposal_id,
                "proposal_digest": self.proposal_digest,
                "reason": self.reason,
                "installation_id": self.epochs.installation_id,
                "ownership_epoch": self.epochs.ownership_epoch,
                "authority_epoch": self.epochs.authority_epoch,
                "proposed_by": self.proposed_by,
                "policy_digests": dict(self.policy_digests),
            }
        )


@dataclass(frozen=True)
class HistoryEntry:
    """One immutable history event (its sequence number is assigned by the store)."""

    kind: HistoryKind
    ref: Ref
    revision: int
    proposal_id: str
    principal_id: str
    approval_id: str
    request_id: str
    at_ms: int
    digest: str
    reason: str = ""


@dataclass(frozen=True)
class Receipt:
    """The durable record of one committed command."""

    request_id: str
    principal_id: str
    command_digest: str
    action: Action
    ref: Ref
    head_revision: int
    head_digest: str
    proposal_id: str
    approval_id: str
    event_seq: int
    committed_at_ms: int


@dataclass(frozen=True)
class State:
    """The slice of registry state one command reads.

    Attributes:
        epochs: The current epochs of the command's work order.
        head: The ref's head, if registered.
        proposal: The proposal the command names, if it exists.
        approval: The approval the command names, if it exists.
        proof_consumed: Whether that approval's proof was already consumed.
    """

    epochs: Epochs
    head: Head | None
    proposal: Proposal | None
    approval: ApprovalRecord | None = None
    proof_consumed: bool = False


@dataclass(frozen=True)
class Outcome:
    """Everything one command writes, in one transaction.

    Attributes:
        head: The new head (REGISTER, ACTIVATE) or ``None`` when unchanged.
        proposal: The new or updated proposal, if any.
        consumed_approval: The approval whose proof the command consumes.
        history: The history event to append.
        receipt: The receipt (``event_seq`` is filled by the store).
    """

    head: Head | None
    proposal: Proposal | None
    consumed_approval: ApprovalRecord | None
    history: HistoryEntry
    receipt: Receipt


# --- validation -----------------------------------------------------------------------


def check_ref(ref: Ref, field_path: str) -> Rejection | None:
    """Both parts of a ref must be identifiers."""
    return values.check_identifier(
        ref.work_order_id, f"{field_path}.work_order_id"
    ) or values.check_identifier(ref.run_id, f"{field_path}.run_id")


def check_policy_digests(digests: Mapping[str, str], field_path: str) -> Rejection | None:
    """Policy digest names are identifiers and values are ``sha256:<hex>``."""
    for name, value in sorted(digests.items()):
        problem = values.check_identifier(name, f"{field_path}[{name!r}]")
        if problem:
            return problem
        if not values.is_digest(value):
            return invalid(
                "DIGEST_INVALID", f"{field_path}[{name!r}]", f"{value!r} is not sha256:<hex>"
            )
    return None


def parse_definition(
    text: str, field_path: str, profile: values.DocumentProfile
) -> values.JsonValue | Rejection:
    """A definition is a bounded object document of a supported version."""
    if not text:
        return invalid("FIELD_REQUIRED", field_path, f"{field_path} is required")
    return values.parse_versioned_document(text, field_path, (1,), profile)


def validate(command: Command, field_path: str = "command") -> Rejection | None:
    """Checks the shape of a command (identifiers, revisions, required fields)."""
    path = f"{field_path}.{command.action.name.lower()}"
    problem = check_ref(command.ref, f"{path}.ref")
    if problem:
        return problem
    if command.action is not Action.REGISTER:
        problem = values.check_identifier(command.proposal_id, f"{path}.proposal_id")
        if problem:
            return problem
    if command.action in (Action.PROPOSE, Action.ACTIVATE) and command.base_revision < 1:
        return invalid("FIELD_REQUIRED", f"{path}.base_revision", "base_revision must be >= 1")
    if command.action is Action.ACTIVATE and command.next_revision < 1:
        return invalid("FIELD_REQUIRED", f"{path}.next_revision", "next_revision must be >= 1")
    if command.action in HUMAN_ACTIONS:
        if not command.approval_id:
            return invalid(
                "APPROVAL_REQUIRED", f"{path}.approval_id", "this command needs an approval"
            )
        problem = values.check_identifier(command.approval_id, f"{path}.approval_id")
        if problem:
            return problem
    if command.action is Action.REJECT and not command.reason.strip():
        return invalid("FIELD_REQUIRED", f"{path}.reason", "a rejection needs a reason")
    problem = values.check_text(command.reason, f"{path}.reason") or values.check_text(
        command.summary, f"{path}.summary"
    )
    if problem:
        return problem
    if command.action in (Action.REGISTER, Action.PROPOSE):
        problem = check_policy_digests(command.policy_digests, f"{path}.policy_digests")
        if problem:
            return problem
    if command.proposed_by:
        return values.check_identifier(command.proposed_by, f"{path}.proposed_by")
    return None


# --- review ---------------------------------------------------------------------------


def proposal_digest(proposal: Proposal) -> str:
    """Digest of a proposal's immutable content."""
    return values.digest(
        {
            "work_order_id": proposal.ref.work_order_id,
            "run_id": proposal.ref.run_id,
            "proposal_id": proposal.proposal_id,
            "base_revision": proposal.base_revision,
            "candidate_digest": proposal.candidate_digest,
            "proposed_by": proposal.proposed_by,
            "summary": proposal.summary,
            "policy_digests": dict(proposal.policy_digests),
        }
    )


def review(state: State, command: Command) -> Material | Rejection:
    """The review material of a command against the current state."""
    if command.action is Action.REGISTER:
        if state.head is not None:
            return _already_registered(command.ref)
        return Material(
            action=command.action,
            ref=command.ref,
            base_revision=0,
            base_digest="",
            candidate_revision=1,
            candidate_digest=command.definition_digest,
            proposal_id="",
            proposal_digest="",
            reason="",
            epochs=state.epochs,
            proposed_by="",
            policy_digests=command.policy_digests,
            candidate_definition=command.definition,
            base_definition=None,
        )
    head = state.head
    if head is None:
        return not_found("REF_NOT_FOUND", f"ref {_ref_text(command.ref)} is not registered")
    if command.action is Action.PROPOSE:
        return _propose_material(state, head, command)
    proposal = state.proposal
    if proposal is None:
        return not_found("PROPOSAL_NOT_FOUND", f"no proposal {command.proposal_id!r}")
    if proposal.status is not ProposalStatus.PENDING:
        return precondition(
            "PROPOSAL_NOT_PENDING",
            f"proposal {proposal.proposal_id!r} is already {proposal.status.name.lower()}",
        )
    if command.action is Action.ACTIVATE:
        problem = _check_activation_revisions(head, proposal, command)
        if problem:
            return problem
    return Material(
        action=command.action,
        ref=command.ref,
        base_revision=proposal.base_revision,
        base_digest=head.definition_digest if head.revision == proposal.base_revision else "",
        candidate_revision=proposal.base_revision + 1,
        candidate_digest=proposal.candidate_digest,
        proposal_id=proposal.proposal_id,
        proposal_digest=proposal.proposal_digest,
        reason=command.reason if command.action is Action.REJECT else "",
        epochs=state.epochs,
        proposed_by=proposal.proposed_by,
        policy_digests=head.policy_digests,
        candidate_definition=proposal.definition,
        base_definition=head.definition if head.revision == proposal.base_revision else None,
    )


def _propose_material(state: State, head: Head, command: Command) -> Material | Rejection:
    if command.base_revision != head.revision:
        return _stale(command.base_revision, head.revision)
    if state.proposal is not None:
        return Rejection(
            Code.ALREADY_EXISTS,
            "PROPOSAL_ALREADY_EXISTS",
            f"proposal {command.proposal_id!r} already exists for this ref",
        )
    if dict(command.policy_digests) != dict(head.policy_digests):
        return precondition(
            "POLICY_DIGEST_CHANGED", "a proposal cannot change the protected policy digests"
        )
    candidate_digest = command.definition_digest
    if candidate_digest == head.definition_digest:
        return precondition("PROPOSAL_UNCHANGED", "the candidate equals the base definition")
    return Material(
        action=command.action,
        ref=command.ref,
        base_revision=head.revision,
        base_digest=head.definition_digest,
        candidate_revision=head.revision + 1,
        candidate_digest=candidate_digest,
        proposal_id=command.proposal_id,
        proposal_digest="",
        reason="",
        epochs=state.epochs,
        proposed_by=command.proposed_by,
        policy_digests=head.policy_digests,
        candidate_definition=command.definition,
        base_definition=head.definition,
    )


def _check_activation_revisions(
    head: Head, proposal: Proposal, command: Command
) -> Rejection | None:
    if command.base_revision != head.revision:
        return _stale(command.base_revision, head.revision)
    if proposal.base_revision != head.revision:
        return _stale(proposal.base_revision, head.revision)
    if command.next_revision != head.revision + 1:
        return precondition(
            "NEXT_REVISION_MISMATCH",
            f"next_revision must be {head.revision + 1}, not {command.next_revision}",
        )
    return None


# --- apply ----------------------------------------------------------------------------


def check_actor(
    evidence: ActorEvidence, action: Action, principal_id: str, now_ms: int
) -> Rejection | None:
    """Validates the authority's evidence for the actor and the human rule."""
    if (
        evidence.principal_id != principal_id
        or evidence.action != action.value
        or evidence.expires_at_ms <= now_ms
    ):
        return Rejection(
            Code.PERMISSION_DENIED,
            "EVIDENCE_INVALID",
            "the authority's evidence does not cover this principal, action and time",
        )
    return kinds.check_kind(action.value, evidence.kind)


def check_approval(
    state: State,
    evidence: ApprovalEvidence | None,
    material_digest: str,
    now_ms: int,
    purpose: str = "",
) -> Rejection | None:
    """Validates the named approval against the material and the authority's evidence.

    ``purpose`` is the purpose of the consuming action (empty for registry commands and
    reconciliations); the approval must have been given for exactly that purpose.
    """
    approval = state.approval
    if approval is None or evidence is None:
        return precondition("APPROVAL_NOT_FOUND", "the named approval does not exist")
    if evidence.approver_kind is not PrincipalKind.HUMAN:
        return Rejection(
            Code.PERMISSION_DENIED, "APPROVER_NOT_HUMAN", "the approver is not a verified human"
        )
    if (
        evidence.approval_id != approval.approval_id
        or evidence.proof_digest != approval.proof_digest
        or evidence.material_digest != approval.material_digest
        or evidence.purpose != approval.purpose
    ):
        return Rejection(
            Code.PERMISSION_DENIED,
            "EVIDENCE_INVALID",
            "the authority's approval evidence does not match the stored approval",
        )
    if state.proof_consumed:
        return precondition("APPROVAL_CONSUMED", "the approval's proof was already consumed")
    if min(approval.expires_at_ms, evidence.expires_at_ms) <= now_ms:
        return precondition("APPROVAL_EXPIRED", "the approval has expired")
    if approval.material_digest != material_digest:
        return precondition(
            "APPROVAL_MISMATCH", "the approval was given for different review material"
        )
    if approval.purpose != purpose:
        return precondition(
            "APPROVAL_PURPOSE_MISMATCH",
            f"the approval was given for purpose {approval.purpose!r}, the action's purpose "
            f"is {purpose!r}",
        )
    return None


def check_commit_time(
    actor: ActorEvidence, approval: ApprovalEvidence | None, commit_ms: int
) -> Rejection | None:
    """Expiry re-checked at commit time: a session or approval that lapsed fails."""
    if actor.expires_at_ms <= commit_ms:
        return Rejection(
            Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED", "the session expired during the command"
        )
    if approval is not None and approval.expires_at_ms <= commit_ms:
        return precondition("APPROVAL_EXPIRED", "the approval expired during the command")
    return None


def apply(
    state: State,
    command: Command,
    actor: ActorEvidence,
    approval: ApprovalEvidence | None,
    request_id: str,
    now_ms: int,
) -> Outcome | Rejection:
    """Decides one command.

    Args:
        state: The slice of registry state the command reads.
        command: The validated command.
        actor: The authority's evidence for the authenticated principal.
        approval: The authority's evidence for the named approval (human actions).
        request_id: The caller's request id.
        now_ms: The current time.

    Returns:
        The writes of the command, or why it is refused.
    """
    problem = check_actor(actor, command.action, actor.principal_id, now_ms)
    if problem:
        return problem
    if (
        command.action is Action.PROPOSE
        and command.proposed_by
        and command.proposed_by != actor.principal_id
    ):
        return Rejection(
            Code.PERMISSION_DENIED,
            "ATTRIBUTION_MISMATCH",
            "proposed_by must be the authenticated principal",
        )
    material = review(state, command)
    if isinstance(material, Rejection):
        return material
    consumed: ApprovalRecord | None = None
    if command.action in HUMAN_ACTIONS:
        problem = check_approval(state, approval, material.digest(), now_ms)
        if problem:
            return problem
        assert state.approval is not None
        consumed = state.approval
    decision = _Decision(state, command, material, actor, consumed, request_id, now_ms)
    return _HANDLERS[command.action](decision)


@dataclass(frozen=True)
class _Decision:
    """Everything a command handler reads: the checks have passed."""

    state: State
    command: Command
    material: Material
    actor: ActorEvidence
    consumed: ApprovalRecord | None
    request_id: str
    now_ms: int

    def outcome(
        self, kind: HistoryKind, head_after: Head, new_head: Head | None, proposal: Proposal | None
    ) -> Outcome:
        """The writes: the new head and proposal, the history event and the receipt."""
        command, actor, consumed = self.command, self.actor, self.consumed
        history = HistoryEntry(
            kind=kind,
            ref=command.ref,
            revision=head_after.revision,
            proposal_id=command.proposal_id,
            principal_id=actor.principal_id,
            approval_id=consumed.approval_id if consumed else "",
            request_id=self.request_id,
            at_ms=self.now_ms,
            digest=proposal.candidate_digest if proposal else head_after.definition_digest,
            reason=command.reason,
        )
        receipt = Receipt(
            request_id=self.request_id,
            principal_id=actor.principal_id,
            command_digest=command.digest(),
            action=command.action,
            ref=command.ref,
            head_revision=head_after.revision,
            head_digest=head_after.definition_digest,
            proposal_id=command.proposal_id,
            approval_id=consumed.approval_id if consumed else "",
            event_seq=0,
            committed_at_ms=self.now_ms,
        )
        return Outcome(new_head, proposal, consumed, history, receipt)


def _register(d: _Decision) -> Outcome:
    head = Head(
        ref=d.command.ref,
        revision=1,
        definition=d.command.definition,
        definition_digest=d.material.candidate_digest,
        policy_digests=d.command.policy_digests,
        updated_at_ms=d.now_ms,
    )
    return d.outcome(HistoryKind.REGISTERED, head, head, None)


def _propose(d: _Decision) -> Outcome:
    assert d.state.head is not None
    proposal = Proposal(
        ref=d.command.ref,
        proposal_id=d.command.proposal_id,
        base_revision=d.command.base_revision,
        definition=d.command.definition,
        candidate_digest=d.material.candidate_digest,
        proposal_digest="",
        proposed_by=d.actor.principal_id,
        summary=d.command.summary,
        policy_digests=d.command.policy_digests,
        created_at_ms=d.now_ms,
    )
    proposal = replace(proposal, proposal_digest=proposal_digest(proposal))
    return d.outcome(HistoryKind.PROPOSED, d.state.head, None, proposal)


def _activate(d: _Decision) -> Outcome:
    assert d.state.head is not None and d.state.proposal is not None
    proposal = d.state.proposal
    head = Head(
        ref=d.command.ref,
        revision=d.command.next_revision,
        definition=proposal.definition,
        definition_digest=proposal.candidate_digest,
        policy_digests=d.state.head.policy_digests,
        updated_at_ms=d.now_ms,
        bound_run_id=d.state.head.bound_run_id,
    )
    decided = replace(
        proposal,
        status=ProposalStatus.ACTIVATED,
        decided_at_ms=d.now_ms,
        activated_revision=d.command.next_revision,
        decided_by=d.actor.principal_id,
    )
    return d.outcome(HistoryKind.ACTIVATED, head, head, decided)


def _reject(d: _Decision) -> Outcome:
    assert d.state.head is not None and d.state.proposal is not None
    decided = replace(
        d.state.proposal,
        status=ProposalStatus.REJECTED,
        decided_at_ms=d.now_ms,
        rejection_reason=d.command.reason,
        decided_by=d.actor.principal_id,
    )
    return d.outcome(HistoryKind.REJECTED, d.state.head, None, decided)


_HANDLERS = {
    Action.REGISTER: _register,
    Action.PROPOSE: _propose,
    Action.ACTIVATE: _activate,
    Action.REJECT: _reject,
}


def _stale(claimed: int, current: int) -> Rejection:
    return Rejection(
        Code.ABORTED,
        "BASE_REVISION_STALE",
        f"base revision {claimed} is not the current head revision {current}",
    )


def _already_registered(ref: Ref) -> Rejection:
    return Rejection(
        Code.ALREADY_EXISTS, "REF_ALREADY_REGISTERED", f"ref {_ref_text(ref)} is registered"
    )


def _ref_text(ref: Ref) -> str:
    return f"{ref.work_order_id}/{ref.run_id}"


def page_limit(limit: int) -> int | Rejection:
    """History page size: 0 means the default; at most the maximum."""
    if limit == 0:
        return HISTORY_DEFAULT_LIMIT
    if limit < 0 or limit > HISTORY_MAX_LIMIT:
        return invalid("PAGE_INVALID", "limit", f"limit must be in [0, {HISTORY_MAX_LIMIT}]")
    return limit
