"""Every registry rule, each asserting the gRPC code and the ErrorInfo reason."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, approval_pb2, common_pb2, registry_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import (
    activate_cmd,
    approve,
    execute,
    propose_cmd,
    proposed,
    ref,
    register_cmd,
    registered,
    reject_cmd,
    variant,
)

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

FP = grpc.StatusCode.FAILED_PRECONDITION
PD = grpc.StatusCode.PERMISSION_DENIED


def head_revision(h: Harness, r: common_pb2.WorkflowRef) -> int:
    return h.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head.revision


def history_len(h: Harness, r: common_pb2.WorkflowRef) -> int:
    page = h.client("alice").registry.ListHistory(registry_pb2.ListHistoryRequest(ref=r))
    return len(page.events)


# --- actors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "reason"),
    [("agent", "ACTION_NOT_GRANTED"), ("service", "HUMAN_REQUIRED"), ("rogue", "HUMAN_REQUIRED")],
)
def test_register_needs_a_human_actor(harness: Harness, actor: str, reason: str) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1")
    with expect_error(PD, reason):  # a grant never makes a non-human human
        execute(harness, actor, "req-1", command)


def test_activate_and_reject_need_a_human_actor(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    activate = activate_cmd(r, "p1", 1, "ap-a")
    approve(harness, activate, "ap-a")
    with expect_error(PD, "ACTION_NOT_GRANTED"):  # the agent holds no activate grant
        execute(harness, "agent", "req-a", activate)
    with expect_error(PD, "HUMAN_REQUIRED"):  # the service is granted but not human
        execute(harness, "service", "req-a", activate)
    reject = reject_cmd(r, "p1", "no", "ap-r")
    approve(harness, reject, "ap-r")
    with expect_error(PD, "HUMAN_REQUIRED"):
        execute(harness, "service", "req-r", reject)
    assert head_revision(harness, r) == 1


def test_proposal_attribution_must_be_the_authenticated_principal(harness: Harness) -> None:
    r = registered(harness)
    with expect_error(PD, "ATTRIBUTION_MISMATCH"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1, proposed_by="alice"))
    execute(harness, "agent", "req-p2", propose_cmd(r, "p1", 1, proposed_by="agent"))
    proposal = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id="p1"))
        .proposal
    )
    assert proposal.proposed_by == "agent"


def test_missing_invalid_and_expired_credentials(harness: Harness) -> None:
    request = registry_pb2.GetEpochsRequest(work_order_id="wo-1")
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        harness.client(None).registry.GetEpochs(request)
    from praxis_client import connect

    with (
        connect(harness.address, "not-a-token") as stranger,
        expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID"),
    ):
        stranger.registry.GetEpochs(request)
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_EXPIRED"):
        harness.client("expired").registry.GetEpochs(request)


def test_grants_limit_actions(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1")
    with expect_error(PD, "ACTION_NOT_GRANTED"):
        execute(harness, "reader", "req-1", command)
    with expect_error(PD, "ACTION_NOT_GRANTED"):
        harness.client("agent").admin.PauseWorkOrder(
            admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1")
        )


# --- approvals --------------------------------------------------------------------------


def test_command_without_approval_is_invalid(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "APPROVAL_REQUIRED"):
        execute(harness, "alice", "req-1", register_cmd(ref(), ""))


def test_unknown_approval(harness: Harness) -> None:
    with expect_error(FP, "APPROVAL_NOT_FOUND"):
        execute(harness, "alice", "req-1", register_cmd(ref(), "nope"))


def test_only_humans_approve(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    with expect_error(PD, "HUMAN_REQUIRED"):
        approve(harness, command, "ap-1", approver="service")


def test_approval_for_a_different_proposal_fails(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    proposed(harness, r, "p2", definition=variant("other"))
    approve(harness, activate_cmd(r, "p1", 1, "ap-1"), "ap-1")
    with expect_error(FP, "APPROVAL_MISMATCH"):
        execute(harness, "alice", "req-1", activate_cmd(r, "p2", 1, "ap-1"))
    assert head_revision(harness, r) == 1


def test_rejection_reason_is_part_of_the_material(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    approve(harness, reject_cmd(r, "p1", "reason A", "ap-1"), "ap-1")
    with expect_error(FP, "APPROVAL_MISMATCH"):
        execute(harness, "alice", "req-1", reject_cmd(r, "p1", "reason B", "ap-1"))


def test_approval_bound_to_epochs(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-1")
    approve(harness, command, "ap-1")
    harness.client("alice").admin.AdvanceEpoch(
        admin_pb2.AdvanceEpochRequest(
            work_order_id="wo-1", kind=admin_pb2.EPOCH_KIND_AUTHORITY, expected_epoch=1
        )
    )
    with expect_error(FP, "APPROVAL_MISMATCH"):  # current epochs, old approval
        execute(harness, "alice", "req-1", command)


def test_approval_bound_to_installation(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    foreign = common_pb2.Epochs(installation_id="other", ownership_epoch=1, authority_epoch=1)
    with expect_error(FP, "INSTALLATION_MISMATCH"):
        harness.client("alice").registry.Review(
            registry_pb2.ReviewRequest(epochs=foreign, command=command)
        )
    approve(harness, command, "ap-1")
    with expect_error(FP, "INSTALLATION_MISMATCH"):
        execute(harness, "alice", "req-1", command, epochs=foreign)


def test_approval_is_single_use_even_under_an_alias(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-1")
    approve(harness, command, "ap-1")
    approve(harness, activate_cmd(r, "p1", 1, "ap-alias"), "ap-alias")  # same material
    execute(harness, "alice", "req-1", command)
    assert head_revision(harness, r) == 2
    # Consumption is recorded on the shared proof, so the alias reads as consumed too
    # (the core test proves a consumed proof refuses any command: APPROVAL_CONSUMED).
    alias = (
        harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id="ap-alias"))
        .approval
    )
    assert alias.state == approval_pb2.APPROVAL_STATE_CONSUMED
    original = (
        harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id="ap-1"))
        .approval
    )
    assert alias.proof_digest == original.proof_digest


def test_expired_approval_fails(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1", ttl_ms=1_000)
    harness.clock.advance(1_000)
    with expect_error(FP, "APPROVAL_EXPIRED"):
        execute(harness, "alice", "req-1", command)
    with expect_error(grpc.StatusCode.NOT_FOUND, "REF_NOT_FOUND"):
        harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref()))


def test_approval_id_is_idempotent_by_content(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    digest = approve(harness, command, "ap-1")
    again = harness.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-1",
            material_digest=digest,
            expires_at_ms=harness.clock.now_ms() + 600_000,
        )
    )
    assert again.replayed
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "APPROVAL_ALREADY_EXISTS"):
        harness.client("alice").approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-1",
                material_digest="sha256:" + "b" * 64,
                expires_at_ms=harness.clock.now_ms() + 600_000,
            )
        )


@pytest.mark.parametrize(
    ("digest", "ttl", "reason"),
    [
        ("sha256:xyz", 1000, "DIGEST_INVALID"),
        ("", 1000, "DIGEST_INVALID"),
        ("sha256:" + "a" * 64, 0, "TIME_INVALID"),
        ("sha256:" + "a" * 64, 8 * 24 * 3600 * 1000, "TIME_INVALID"),
    ],
)
def test_create_approval_validates(harness: Harness, digest: str, ttl: int, reason: str) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
        harness.client("alice").approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-1",
                material_digest=digest,
                expires_at_ms=harness.clock.now_ms() + ttl,
            )
        )


# --- revisions --------------------------------------------------------------------------


def test_register_twice_fails(harness: Harness) -> None:
    r = registered(harness)
    command = register_cmd(r, "ap-2")
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REF_ALREADY_REGISTERED"):
        harness.client("alice").registry.Review(
            registry_pb2.ReviewRequest(epochs=harness.epochs(), command=command)
        )


def test_propose_against_stale_base(harness: Harness) -> None:
    r = registered(harness)
    with expect_error(grpc.StatusCode.ABORTED, "BASE_REVISION_STALE"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 2))


def test_propose_cannot_change_policy_digests(harness: Harness) -> None:
    r = registered(harness)
    command = propose_cmd(r, "p1", 1)
    command.propose.policy_digests["safety"] = "sha256:" + "c" * 64
    with expect_error(FP, "POLICY_DIGEST_CHANGED"):
        execute(harness, "agent", "req-p", command)


def test_propose_unknown_ref_and_duplicate_id(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.NOT_FOUND, "REF_NOT_FOUND"):
        execute(harness, "agent", "req-p", propose_cmd(ref("nope"), "p1", 1))
    r = registered(harness)
    proposed(harness, r, "p1")
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "PROPOSAL_ALREADY_EXISTS"):
        execute(harness, "agent", "req-p2", propose_cmd(r, "p1", 1, variant("z")))


def test_activate_needs_exact_base_and_next_revision(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    wrong_next = activate_cmd(r, "p1", 1, "ap-1", next_revision=3)
    with expect_error(FP, "NEXT_REVISION_MISMATCH"):
        harness.client("alice").registry.Review(
            registry_pb2.ReviewRequest(epochs=harness.epochs(), command=wrong_next)
        )
    with expect_error(grpc.StatusCode.ABORTED, "BASE_REVISION_STALE"):
        execute(harness, "alice", "req-1", activate_cmd(r, "p1", 2, "ap-1"))
    with expect_error(grpc.StatusCode.NOT_FOUND, "PROPOSAL_NOT_FOUND"):
        execute(harness, "alice", "req-2", activate_cmd(r, "zz", 1, "ap-1"))


def test_competing_proposals_one_wins_other_stays_pending(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    proposed(harness, r, "p2", definition=variant("other-true"))
    first = activate_cmd(r, "p1", 1, "ap-1")
    second = activate_cmd(r, "p2", 1, "ap-2")
    approve(harness, first, "ap-1")
    approve(harness, second, "ap-2")
    execute(harness, "alice", "req-1", first)
    with expect_error(grpc.StatusCode.ABORTED, "BASE_REVISION_STALE"):
        execute(harness, "alice", "req-2", second)
    loser = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id="p2"))
        .proposal
    )
    assert loser.state == registry_pb2.PROPOSAL_STATE_PENDING
    unconsumed = (
        harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id="ap-2"))
        .approval
    )
    assert unconsumed.state == approval_pb2.APPROVAL_STATE_ACTIVE
    # The loser can still be rejected explicitly.
    reject = reject_cmd(r, "p2", "superseded", "ap-3")
    approve(harness, reject, "ap-3")
    execute(harness, "alice", "req-3", reject)


def test_decided_proposal_is_not_pending(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    reject = reject_cmd(r, "p1", "no", "ap-1")
    approve(harness, reject, "ap-1")
    execute(harness, "alice", "req-1", reject)
    with expect_error(FP, "PROPOSAL_NOT_PENDING"):
        harness.client("alice").registry.Review(
            registry_pb2.ReviewRequest(
                epochs=harness.epochs(), command=activate_cmd(r, "p1", 1, "ap-2")
            )
        )


def test_unchanged_candidate_is_refused(harness: Harness) -> None:
    r = registered(harness)
    from tests.support.registry import DEFINITION

    with expect_error(FP, "PROPOSAL_UNCHANGED"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1, DEFINITION))


# --- idempotency ------------------------------------------------------------------------


def test_retry_returns_original_receipt_without_second_effect(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-1")
    approve(harness, command, "ap-1")
    first = execute(harness, "alice", "req-1", command)
    events = history_len(harness, r)
    harness.clock.advance(10_000)
    second = execute(harness, "alice", "req-1", command)
    assert second.replayed and not first.replayed
    assert second.receipt == first.receipt
    assert history_len(harness, r) == events
    assert head_revision(harness, r) == 2


def test_same_request_id_with_different_command_fails(harness: Harness) -> None:
    r = registered(harness)
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p2", 1))


def test_request_ids_are_per_principal(harness: Harness) -> None:
    r = registered(harness)
    execute(harness, "agent", "same", propose_cmd(r, "p1", 1))
    response = execute(harness, "service", "same", propose_cmd(r, "p2", 1, variant("x")))
    assert not response.replayed


def test_retry_still_checks_epochs_and_holds(harness: Harness) -> None:
    r = registered(harness)
    command = propose_cmd(r, "p1", 1)
    old_epochs = harness.epochs()
    execute(harness, "agent", "req-p", command, epochs=old_epochs)
    harness.client("alice").admin.AdvanceEpoch(
        admin_pb2.AdvanceEpochRequest(
            work_order_id="wo-1", kind=admin_pb2.EPOCH_KIND_OWNERSHIP, expected_epoch=1
        )
    )
    with expect_error(FP, "EPOCH_MISMATCH"):
        execute(harness, "agent", "req-p", command, epochs=old_epochs)
    assert execute(harness, "agent", "req-p", command).replayed
    harness.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1")
    )
    with expect_error(FP, "WORK_ORDER_PAUSED"):
        execute(harness, "agent", "req-p", command)


def test_retry_still_requires_authorization(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1")
    execute(harness, "alice", "req-1", command)
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        harness.client(None).registry.Execute(
            registry_pb2.ExecuteRequest(
                epochs=harness.epochs(), request_id="req-1", command=command
            )
        )


# --- controls, holds and the clock ------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "reason"),
    [("PauseWorkOrder", "WORK_ORDER_PAUSED"), ("CancelWorkOrder", "WORK_ORDER_CANCELED")],
)
def test_controls_block_commands(harness: Harness, verb: str, reason: str) -> None:
    r = registered(harness)
    request_type = getattr(admin_pb2, f"{verb}Request")
    getattr(harness.client("alice").admin, verb)(request_type(work_order_id="wo-1"))
    with expect_error(FP, reason):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    assert history_len(harness, r) == 1


def test_resume_unblocks_and_cancel_is_final(harness: Harness) -> None:
    r = registered(harness)
    admin = harness.client("alice").admin
    admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1"))
    admin.ResumeWorkOrder(admin_pb2.ResumeWorkOrderRequest(work_order_id="wo-1"))
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    admin.CancelWorkOrder(admin_pb2.CancelWorkOrderRequest(work_order_id="wo-1"))
    with expect_error(FP, "CONTROL_TRANSITION_INVALID"):
        admin.ResumeWorkOrder(admin_pb2.ResumeWorkOrderRequest(work_order_id="wo-1"))


def test_restore_hold_blocks_until_cleared(harness: Harness) -> None:
    r = registered(harness)
    admin = harness.client("alice").admin
    admin.PlaceHold(admin_pb2.PlaceHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE, reason="restored"))
    with expect_error(FP, "RESTORE_HOLD"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    admin.ClearHold(admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE))
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    with expect_error(grpc.StatusCode.NOT_FOUND, "HOLD_NOT_FOUND"):
        admin.ClearHold(admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE))


def test_clock_step_backwards_places_hold_only_admin_clears(harness: Harness) -> None:
    r = registered(harness)
    harness.clock.advance(-60_000)
    with expect_error(FP, "CLOCK_UNCERTAIN"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    harness.clock.advance(120_000)  # even a healthy clock stays held
    with expect_error(FP, "CLOCK_UNCERTAIN"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))
    holds = harness.client("alice").admin.ListHolds(admin_pb2.ListHoldsRequest()).holds
    assert [h.kind for h in holds] == [admin_pb2.HOLD_KIND_CLOCK_UNCERTAINTY]
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        harness.client("alice").admin.PlaceHold(
            admin_pb2.PlaceHoldRequest(kind=admin_pb2.HOLD_KIND_CLOCK_UNCERTAINTY)
        )
    harness.client("alice").admin.ClearHold(
        admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_CLOCK_UNCERTAINTY)
    )
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))


def test_small_clock_jitter_is_tolerated(harness: Harness) -> None:
    r = registered(harness)
    harness.clock.advance(-1_000)
    execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1))


def test_epoch_mismatch(harness: Harness) -> None:
    r = registered(harness)
    stale = common_pb2.Epochs(
        installation_id=harness.installation_id, ownership_epoch=1, authority_epoch=7
    )
    with expect_error(FP, "EPOCH_MISMATCH"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p1", 1), epochs=stale)


# --- history paging ---------------------------------------------------------------------


def test_history_pages(harness: Harness) -> None:
    r = registered(harness)
    for index in range(5):
        proposed(harness, r, f"p{index}", definition=variant(index))
    client = harness.client("alice").registry
    page = client.ListHistory(registry_pb2.ListHistoryRequest(ref=r, limit=2))
    assert len(page.events) == 2 and page.has_more
    seen = list(page.events)
    while page.has_more:
        page = client.ListHistory(
            registry_pb2.ListHistoryRequest(ref=r, after=page.next_after, limit=2)
        )
        seen += page.events
    assert len(seen) == 6
    assert [e.seq for e in seen] == sorted({e.seq for e in seen})
    empty = client.ListHistory(registry_pb2.ListHistoryRequest(ref=r, after=seen[-1].seq))
    assert not empty.events and empty.next_after == seen[-1].seq
    for limit in (-1, 1001):
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
            client.ListHistory(registry_pb2.ListHistoryRequest(ref=r, limit=limit))


def test_advance_epoch_is_a_compare_and_swap(harness: Harness) -> None:
    admin = harness.client("alice").admin
    request = admin_pb2.AdvanceEpochRequest(
        work_order_id="wo-9", kind=admin_pb2.EPOCH_KIND_OWNERSHIP, expected_epoch=1
    )
    assert admin.AdvanceEpoch(request).epochs.ownership_epoch == 2
    with expect_error(FP, "EPOCH_MISMATCH"):  # a retry does not advance twice
        admin.AdvanceEpoch(request)
    assert harness.epochs("wo-9").ownership_epoch == 2
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        admin.AdvanceEpoch(admin_pb2.AdvanceEpochRequest(work_order_id="wo-9", expected_epoch=2))
