"""The registry's pure core: decisions from state, command and time alone."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from praxis.core import registry, values
from praxis.core.records import (
    ActorEvidence,
    ApprovalEvidence,
    ApprovalRecord,
    Epochs,
    PrincipalKind,
    Ref,
)
from praxis.core.rejection import Rejection

NOW = 1_800_000_000_000
EPOCHS = Epochs("inst", 1, 1)
REF = Ref("wo", "run")
DEF1 = {"version": 1, "n": 1}


def actor(action: registry.Action, kind: PrincipalKind = PrincipalKind.HUMAN) -> ActorEvidence:
    return ActorEvidence("alice", kind, action.value, "wo", NOW + 30_000)


def approval_for(
    material: registry.Material, approval_id: str = "ap"
) -> tuple[ApprovalRecord, ApprovalEvidence]:
    digest = material.digest()
    proof = values.digest({"material_digest": digest, "approver_id": "alice"})
    record = ApprovalRecord(approval_id, digest, "alice", proof, NOW, NOW + 60_000)
    evidence = ApprovalEvidence(
        approval_id, "alice", PrincipalKind.HUMAN, digest, proof, NOW + 30_000
    )
    return record, evidence


def register(state: registry.State) -> tuple[registry.State, registry.Outcome]:
    command = registry.Command(registry.Action.REGISTER, REF, definition=DEF1, approval_id="ap")
    material = registry.review(state, command)
    assert isinstance(material, registry.Material)
    record, evidence = approval_for(material)
    state = replace(state, approval=record)
    outcome = registry.apply(state, command, actor(command.action), evidence, "r1", NOW)
    assert isinstance(outcome, registry.Outcome), outcome
    return state, outcome


def test_consumed_proof_refuses_any_approval_id() -> None:
    state, _ = register(registry.State(EPOCHS, None, None))
    consumed = replace(state, proof_consumed=True)
    command = registry.Command(registry.Action.REGISTER, REF, definition=DEF1, approval_id="alias")
    material = registry.review(consumed, command)
    assert isinstance(material, registry.Material)
    record, evidence = approval_for(material, "alias")
    result = registry.apply(
        replace(consumed, approval=record), command, actor(command.action), evidence, "r2", NOW
    )
    assert isinstance(result, Rejection) and result.reason == "APPROVAL_CONSUMED"


def test_commit_time_expiry() -> None:
    evidence = actor(registry.Action.REGISTER)
    assert registry.check_commit_time(evidence, None, NOW) is None
    late = registry.check_commit_time(evidence, None, evidence.expires_at_ms)
    assert late is not None and late.reason == "CREDENTIAL_EXPIRED"


def test_evidence_for_another_action_is_refused() -> None:
    state = registry.State(EPOCHS, None, None)
    command = registry.Command(registry.Action.REGISTER, REF, definition=DEF1, approval_id="ap")
    wrong = actor(registry.Action.PROPOSE)
    result = registry.apply(state, command, wrong, None, "r1", NOW)
    assert isinstance(result, Rejection) and result.reason == "EVIDENCE_INVALID"


def test_apply_is_deterministic() -> None:
    first = register(registry.State(EPOCHS, None, None))
    second = register(registry.State(EPOCHS, None, None))
    assert first == second


def _head(revision: int) -> registry.Head:
    definition = {"version": 1, "rev": revision}
    return registry.Head(REF, revision, definition, values.digest(definition), {}, NOW)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(min_value=0, max_value=3)), max_size=30))
def test_revisions_contiguous_and_head_is_last_activation(
    steps: list[tuple[bool, int]],
) -> None:
    """Random propose/activate sequences: revisions stay contiguous, history only grows."""
    head = _head(1)
    history: list[registry.HistoryEntry] = []
    activated = [1]
    for index, (activate, skew) in enumerate(steps):
        proposal_id = f"p{index}"
        definition = {"version": 1, "i": index}
        propose = registry.Command(
            registry.Action.PROPOSE,
            REF,
            definition=definition,
            proposal_id=proposal_id,
            base_revision=head.revision - (skew == 3),
        )
        state = registry.State(EPOCHS, head, None)
        outcome = registry.apply(
            state, propose, actor(propose.action, PrincipalKind.AGENT), None, f"rq{index}", NOW
        )
        if isinstance(outcome, Rejection):
            assert outcome.reason in ("BASE_REVISION_STALE", "FIELD_REQUIRED")
            continue
        history.append(outcome.history)
        proposal = outcome.proposal
        assert proposal is not None
        if not activate:
            continue
        command = registry.Command(
            registry.Action.ACTIVATE,
            REF,
            proposal_id=proposal_id,
            base_revision=head.revision,
            next_revision=head.revision + 1 + (skew == 2),
            approval_id=f"ap{index}",
        )
        state = registry.State(EPOCHS, head, proposal)
        material = registry.review(state, command)
        if isinstance(material, Rejection):
            assert material.reason == "NEXT_REVISION_MISMATCH"
            continue
        record, evidence = approval_for(material, f"ap{index}")
        result = registry.apply(
            replace(state, approval=record),
            command,
            actor(command.action),
            evidence,
            f"ra{index}",
            NOW,
        )
        assert isinstance(result, registry.Outcome)
        assert result.head is not None
        assert result.head.revision == head.revision + 1
        head = result.head
        activated.append(head.revision)
        history.append(result.history)
    assert activated == list(range(1, len(activated) + 1))
    assert head.revision == activated[-1]
    assert [e.revision for e in history] == sorted(e.revision for e in history)
