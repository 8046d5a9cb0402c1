"""The registry's main flow over gRPC: register, propose, review, approve, activate."""

from __future__ import annotations

import json

import pytest

from aiws.engine.v1 import approval_pb2, registry_pb2
from tests.support.harness import Harness
from tests.support.registry import (
    DEFINITION,
    DEFINITION_V2,
    activate_cmd,
    approve,
    execute,
    proposed,
    ref,
    register_cmd,
    registered,
    reject_cmd,
    variant,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def test_register_creates_revision_one_unbound(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1")
    response = execute(harness, "alice", "req-1", command)
    assert not response.replayed
    receipt = response.receipt
    assert receipt.action == registry_pb2.REGISTRY_ACTION_REGISTER
    assert receipt.head_revision == 1
    assert receipt.principal_id == "alice"
    assert receipt.approval_id == "ap-1"
    assert receipt.head_digest.startswith("sha256:")
    head = harness.client("agent").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.revision == 1
    assert head.execution_binding == registry_pb2.EXECUTION_BINDING_UNBOUND
    assert json.loads(head.definition_json) == DEFINITION
    assert head.definition_digest == receipt.head_digest


def test_propose_approve_activate_advances_head(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "change-1")
    proposal = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id="change-1"))
        .proposal
    )
    assert proposal.state == registry_pb2.PROPOSAL_STATE_PENDING
    assert proposal.proposed_by == "agent"
    command = activate_cmd(r, "change-1", 1, "ap-act")
    digest = approve(harness, command, "ap-act")
    response = execute(harness, "alice", "req-act", command)
    assert response.receipt.head_revision == 2
    assert response.receipt.proposal_id == "change-1"
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    assert head.revision == 2
    assert json.loads(head.definition_json) == DEFINITION_V2
    proposal = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id="change-1"))
        .proposal
    )
    assert proposal.state == registry_pb2.PROPOSAL_STATE_ACTIVATED
    assert proposal.activated_revision == 2
    approval = (
        harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id="ap-act"))
        .approval
    )
    assert approval.state == approval_pb2.APPROVAL_STATE_CONSUMED
    assert approval.material_digest == digest
    assert approval.consumed_by_request_id == "req-act"


def test_reject_keeps_head_and_records_reason(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "change-1")
    command = reject_cmd(r, "change-1", "too risky", "ap-rej")
    approve(harness, command, "ap-rej")
    response = execute(harness, "alice", "req-rej", command)
    assert response.receipt.action == registry_pb2.REGISTRY_ACTION_REJECT
    assert response.receipt.head_revision == 1
    proposal = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id="change-1"))
        .proposal
    )
    assert proposal.state == registry_pb2.PROPOSAL_STATE_REJECTED
    assert proposal.rejection_reason == "too risky"
    assert proposal.decided_by == "alice"


def test_review_returns_exact_material_and_writes_nothing(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "change-1")
    command = activate_cmd(r, "change-1", 1, "ap-x")
    request = registry_pb2.ReviewRequest(epochs=harness.epochs(), command=command)
    first = harness.client("alice").registry.Review(request)
    second = harness.client("alice").registry.Review(request)
    assert first == second
    material = first.material
    assert material.action == registry_pb2.REGISTRY_ACTION_ACTIVATE
    assert (material.base_revision, material.candidate_revision) == (1, 2)
    assert material.installation_id == harness.installation_id
    assert material.proposed_by == "agent"
    assert json.loads(material.candidate_definition_json) == DEFINITION_V2
    assert json.loads(material.base_definition_json) == DEFINITION
    history = harness.client("alice").registry.ListHistory(registry_pb2.ListHistoryRequest(ref=r))
    assert [e.kind for e in history.events] == [
        registry_pb2.HISTORY_EVENT_KIND_REGISTERED,
        registry_pb2.HISTORY_EVENT_KIND_PROPOSED,
    ]


def test_history_is_immutable_and_ordered(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-1")
    approve(harness, command, "ap-1")
    execute(harness, "alice", "act-1", command)
    before = harness.client("alice").registry.ListHistory(registry_pb2.ListHistoryRequest(ref=r))
    proposed(harness, r, "p2", base=2, definition=variant("x"))
    after = harness.client("alice").registry.ListHistory(registry_pb2.ListHistoryRequest(ref=r))
    assert list(after.events[: len(before.events)]) == list(before.events)
    seqs = [e.seq for e in after.events]
    assert seqs == sorted(seqs)
    assert [e.revision for e in after.events] == [1, 1, 2, 2]
