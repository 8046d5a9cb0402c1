"""Writes conformance/vectors/*.json, the proto-JSON ``VectorFile`` of each area.

The vectors are committed; this script is how they are authored, and
``tests/conformance/test_vectors.py`` checks that the committed files equal its output.
Edit the scenarios here and run ``.venv/bin/python conformance/tools/build_vectors.py``.
Expected values come from the specification and the contract, never from a recording.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from console_vectors import AREAS as CONSOLE_AREAS  # the console's reads, WatchInbox
from governed_vectors import AREAS as GOVERNED_AREAS  # effects, deadlines, resume
from model_vectors import AREAS as MODEL_AREAS  # contracts, reconciliation, waits, ...
from notify_vectors import AREAS as NOTIFY_AREAS  # StartRun.notify, NotificationService
from retention_vectors import AREAS as RETENTION_AREAS  # archived runs (issue 27)
from runtime_vectors import (  # the runtime's areas: runs, tasks, fan-out, events
    definition_vectors,
    events_vectors,
    fanout_vectors,
    progress_vectors,
    runs_vectors,
    settle_vectors,
    tasks_vectors,
)
from schedule_vectors import AREAS as SCHEDULE_AREAS  # schedules (issue 27)
from simulation_vectors import AREAS as SIMULATION_AREAS  # dry runs (issue 42)
from stream_vectors import streams_vectors  # WatchRun and StreamEvents
from tree_vectors import AREAS as TREE_AREAS  # work orders as a tree (issue 42)
from vectorlib import (  # the sibling module, after the path is set
    D1,
    D2,
    D3,
    DEF1,
    EPOCHS,
    POLICY,
    REF,
    TEXT1,
    TEXT2,
    TEXT3,
    WO,
    activate_cmd,
    activated,
    admin,
    approve,
    approved,
    canonical,
    clock,
    definition,
    digest_of,
    epochs,
    execute,
    get_head,
    get_proposal,
    head,
    history,
    propose_cmd,
    proposed,
    receipt,
    ref,
    register_cmd,
    registered,
    reject_cmd,
    rejected,
    review,
    step,
    vector,
)
from work_order_vectors import AREAS as WORK_ORDER_AREAS  # work orders contain their runs

VECTORS = Path(__file__).resolve().parent.parent / "vectors"

FAILED = "FAILED_PRECONDITION"
INVALID = "INVALID_ARGUMENT"
DENIED = "PERMISSION_DENIED"
EXISTS = "ALREADY_EXISTS"
UNAUTH = "UNAUTHENTICATED"


def pending_proposal(
    pid: str = "p1",
    text: str = TEXT2,
    digest: str = D2,
    by: str = "agent",
    base: int = 1,
    summary: str | None = None,
) -> dict[str, object]:
    """The expected proposal while pending."""
    return {
        "ref": REF,
        "proposalId": pid,
        "baseRevision": str(base),
        "definitionJson": text,
        "candidateDigest": digest,
        "proposalDigest": "<any>",
        "proposedBy": by,
        "summary": summary,
        "state": "PROPOSAL_STATE_PENDING",
        "createdAtMs": "${t0}",
        "decidedAtMs": None,
        "activatedRevision": None,
        "rejectionReason": None,
        "decidedBy": None,
    }


def event(
    kind: str,
    revision: int,
    digest: str,
    principal: str,
    request_id: str,
    *,
    proposal_id: str | None = None,
    approval_id: str | None = None,
    reason: str | None = None,
    at: str = "${t0}",
) -> dict[str, object]:
    """The expected history event."""
    return {
        "seq": "<any>",
        "kind": f"HISTORY_EVENT_KIND_{kind}",
        "ref": REF,
        "revision": str(revision),
        "proposalId": proposal_id,
        "principalId": principal,
        "approvalId": approval_id,
        "requestId": request_id,
        "atMs": at,
        "digest": digest,
        "reason": reason,
    }


REGISTERED_EVENT = event("REGISTERED", 1, D1, "alice", "${ns}-req-reg", approval_id="${ns}-ap-reg")
PROPOSED_EVENT = event("PROPOSED", 1, D2, "agent", "${ns}-req-p1", proposal_id="p1")


# --- registry -----------------------------------------------------------------------


def registry_vectors() -> list[dict[str, object]]:
    reg = register_cmd("${ns}-ap1")
    register_material = {
        "action": "REGISTRY_ACTION_REGISTER",
        "ref": REF,
        "baseRevision": None,
        "baseDigest": None,
        "candidateRevision": "1",
        "candidateDigest": D1,
        "proposalId": None,
        "proposalDigest": None,
        "reason": None,
        "installationId": "${installation_id}",
        "ownershipEpoch": "1",
        "authorityEpoch": "1",
        "proposedBy": None,
        "candidateDefinitionJson": TEXT1,
        "baseDefinitionJson": None,
        "policyDigests": POLICY,
    }
    act = activate_cmd("p1", "${ns}-ap1")
    activate_material = {
        "action": "REGISTRY_ACTION_ACTIVATE",
        "ref": REF,
        "baseRevision": "1",
        "baseDigest": D1,
        "candidateRevision": "2",
        "candidateDigest": D2,
        "proposalId": "p1",
        "proposalDigest": "<any>",
        "reason": None,
        "installationId": "${installation_id}",
        "ownershipEpoch": "1",
        "authorityEpoch": "1",
        "proposedBy": "agent",
        "candidateDefinitionJson": TEXT2,
        "baseDefinitionJson": TEXT1,
        "policyDigests": POLICY,
    }
    return [
        vector(
            "register/review-returns-the-exact-material",
            "Review of a REGISTER shows revision 0 to 1, the candidate digest and the epochs.",
            [review(reg, response={"material": register_material, "materialDigest": "<any>"})],
        ),
        vector(
            "register/a-dry-run-answers-the-receipt-and-stores-nothing",
            "Execute of an approved REGISTER with dryRun answers the receipt of revision 1 "
            "with dryRun set; the ref stays unregistered, and the same request id and "
            "approval then really register it.",
            [
                *approved(reg, "${ns}-ap1", "md"),
                step(
                    "alice",
                    "RegistryService",
                    "Execute",
                    {"epochs": EPOCHS, "requestId": "${ns}-req1", "command": reg, "dryRun": True},
                    response={
                        "receipt": {"headRevision": "1", "headDigest": D1},
                        "replayed": None,
                        "dryRun": True,
                    },
                ),
                get_head(error=("NOT_FOUND", "REF_NOT_FOUND")),
                execute(
                    "alice",
                    "${ns}-req1",
                    reg,
                    response={"receipt": {"headRevision": "1"}, "replayed": None, "dryRun": None},
                ),
            ],
        ),
        vector(
            "register/review-is-deterministic-and-writes-nothing",
            "Reviewing twice gives the same digest, and the ref stays unregistered.",
            [
                review(reg, "md1"),
                review(reg, "md2", response={"materialDigest": "${md1}"}),
                get_head(error=("NOT_FOUND", "REF_NOT_FOUND")),
            ],
        ),
        vector(
            "register/approved-command-creates-revision-1",
            "An approved REGISTER commits revision 1 and returns its receipt.",
            [
                *approved(reg, "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r1",
                    reg,
                    response={
                        "receipt": receipt(
                            "${ns}-r1", "alice", "REGISTER", 1, D1, approval_id="${ns}-ap1"
                        ),
                        "replayed": None,
                    },
                ),
            ],
        ),
        vector(
            "register/head-is-unbound-revision-1",
            "After REGISTER the head is revision 1 with the canonical definition, UNBOUND.",
            [*registered(), get_head(response={"head": head(1, D1, TEXT1)})],
        ),
        vector(
            "register/second-register-is-rejected",
            "REGISTER on a registered ref fails with REF_ALREADY_REGISTERED, even at review.",
            [
                *registered(),
                review(register_cmd("${ns}-ap2"), error=(EXISTS, "REF_ALREADY_REGISTERED")),
            ],
        ),
        vector(
            "register/refs-differ-by-run-id",
            "Two run ids under one work order are two refs with their own heads.",
            [
                *registered(ref("run-1"), tag="r1"),
                *registered(ref("run-2"), TEXT2, tag="r2"),
                get_head(r=ref("run-2"), response={"head": head(1, D2, TEXT2, ref("run-2"))}),
                get_head(r=ref("run-1"), response={"head": head(1, D1, TEXT1, ref("run-1"))}),
            ],
        ),
        vector(
            "propose/agent-proposal-is-recorded-pending",
            "An agent's PROPOSE against the head commits a pending proposal; the head is "
            "unchanged.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    response={
                        "receipt": receipt("${ns}-r2", "agent", "PROPOSE", 1, D1, proposal_id="p1"),
                    },
                ),
                get_proposal("p1", response={"proposal": pending_proposal()}),
                get_head(response={"head": head(1, D1, TEXT1)}),
            ],
        ),
        vector(
            "propose/stale-base-is-rejected",
            "PROPOSE against a base that is not the head fails with ABORTED BASE_REVISION_STALE.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", base=2),
                    error=("ABORTED", "BASE_REVISION_STALE"),
                ),
            ],
        ),
        vector(
            "propose/unregistered-ref-is-not-found",
            "PROPOSE on a ref without revision 1 fails with REF_NOT_FOUND.",
            [execute("agent", "${ns}-r1", propose_cmd("p1"), error=("NOT_FOUND", "REF_NOT_FOUND"))],
        ),
        vector(
            "propose/duplicate-proposal-id-is-rejected",
            "A second proposal with the same id fails with PROPOSAL_ALREADY_EXISTS.",
            [
                *registered(),
                proposed("p1"),
                execute(
                    "agent",
                    "${ns}-r3",
                    propose_cmd("p1", text=TEXT3),
                    error=(EXISTS, "PROPOSAL_ALREADY_EXISTS"),
                ),
            ],
        ),
        vector(
            "propose/policy-digests-cannot-change",
            "A proposal with other policy digests fails with POLICY_DIGEST_CHANGED.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", policy={"safety": "sha256:" + "b" * 64}),
                    error=(FAILED, "POLICY_DIGEST_CHANGED"),
                ),
            ],
        ),
        vector(
            "propose/dropping-policy-digests-is-a-change",
            "A proposal without the ref's policy digests fails with POLICY_DIGEST_CHANGED.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", policy={}),
                    error=(FAILED, "POLICY_DIGEST_CHANGED"),
                ),
            ],
        ),
        vector(
            "propose/unchanged-candidate-is-rejected",
            "A candidate equal to the base fails with PROPOSAL_UNCHANGED.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", text=TEXT1),
                    error=(FAILED, "PROPOSAL_UNCHANGED"),
                ),
            ],
        ),
        vector(
            "propose/reformatted-base-is-unchanged",
            "The same definition with other whitespace and key order is still unchanged.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd(
                        "p1",
                        text=json.dumps(DEF1, indent=2)[::1].replace(
                            '"version": 1', '"version":   1'
                        ),
                    ),
                    error=(FAILED, "PROPOSAL_UNCHANGED"),
                ),
            ],
        ),
        vector(
            "propose/attribution-must-be-the-caller",
            "proposed_by naming another principal fails with ATTRIBUTION_MISMATCH.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", proposedBy="alice"),
                    error=(DENIED, "ATTRIBUTION_MISMATCH"),
                ),
            ],
        ),
        vector(
            "propose/attribution-equal-to-the-caller-is-accepted",
            "proposed_by equal to the authenticated principal is accepted, with the summary.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", proposedBy="agent", summary="use node b"),
                    response={"receipt": {"proposalId": "p1"}},
                ),
                get_proposal(
                    "p1",
                    response={
                        "proposal": pending_proposal(summary="use node b"),
                    },
                ),
            ],
        ),
        vector(
            "activate/review-returns-base-and-candidate",
            "Review of an ACTIVATE shows base 1 and candidate 2 with both definitions.",
            [
                *registered(),
                proposed("p1"),
                review(act, response={"material": activate_material, "materialDigest": "<any>"}),
            ],
        ),
        vector(
            "activate/approved-activation-moves-the-head",
            "An approved ACTIVATE makes the proposal revision 2 and the head.",
            [
                *registered(),
                proposed("p1"),
                *approved(act, "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r3",
                    act,
                    response={
                        "receipt": receipt(
                            "${ns}-r3",
                            "alice",
                            "ACTIVATE",
                            2,
                            D2,
                            proposal_id="p1",
                            approval_id="${ns}-ap1",
                        ),
                    },
                ),
                get_head(response={"head": head(2, D2, TEXT2)}),
                get_proposal(
                    "p1",
                    response={
                        "proposal": {
                            **pending_proposal(),
                            "state": "PROPOSAL_STATE_ACTIVATED",
                            "decidedAtMs": "${t0}",
                            "activatedRevision": "2",
                            "decidedBy": "alice",
                        }
                    },
                ),
            ],
        ),
        vector(
            "activate/stale-base-is-rejected",
            "ACTIVATE naming a base that is no longer the head fails with BASE_REVISION_STALE.",
            [
                *registered(),
                proposed("p1"),
                *activated("p1"),
                proposed("p2", base=2, text=TEXT3),
                review(
                    activate_cmd("p2", "${ns}-ap9", base=1, nxt=2),
                    error=("ABORTED", "BASE_REVISION_STALE"),
                ),
            ],
        ),
        vector(
            "activate/next-revision-must-follow-the-base",
            "ACTIVATE with next_revision other than base + 1 fails with NEXT_REVISION_MISMATCH.",
            [
                *registered(),
                proposed("p1"),
                review(
                    activate_cmd("p1", "${ns}-ap1", base=1, nxt=3),
                    error=(FAILED, "NEXT_REVISION_MISMATCH"),
                ),
            ],
        ),
        vector(
            "activate/activated-proposal-is-not-pending",
            "Activating a proposal twice fails with PROPOSAL_NOT_PENDING.",
            [
                *registered(),
                proposed("p1"),
                *activated("p1"),
                review(
                    activate_cmd("p1", "${ns}-ap9", base=2), error=(FAILED, "PROPOSAL_NOT_PENDING")
                ),
            ],
        ),
        vector(
            "activate/unknown-proposal-is-not-found",
            "ACTIVATE of a proposal id that does not exist fails with PROPOSAL_NOT_FOUND.",
            [
                *registered(),
                review(
                    activate_cmd("nope", "${ns}-ap1"), error=("NOT_FOUND", "PROPOSAL_NOT_FOUND")
                ),
            ],
        ),
        vector(
            "activate/competing-proposals-one-wins",
            "Two proposals on one base: one activates, the other stays pending with a stale base.",
            [
                *registered(),
                proposed("p1"),
                proposed("p2", text=TEXT3),
                *activated("p1"),
                get_proposal("p2", response={"proposal": pending_proposal("p2", TEXT3, D3)}),
                review(
                    activate_cmd("p2", "${ns}-ap9", base=2),
                    error=("ABORTED", "BASE_REVISION_STALE"),
                ),
            ],
        ),
        vector(
            "reject/approved-rejection-keeps-the-head",
            "An approved REJECT records the decision and reason; the head is unchanged.",
            [
                *registered(),
                proposed("p1"),
                *approved(reject_cmd("p1", "too risky", "${ns}-ap1"), "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r3",
                    reject_cmd("p1", "too risky", "${ns}-ap1"),
                    response={
                        "receipt": receipt(
                            "${ns}-r3",
                            "alice",
                            "REJECT",
                            1,
                            D1,
                            proposal_id="p1",
                            approval_id="${ns}-ap1",
                        )
                    },
                ),
                get_proposal(
                    "p1",
                    response={
                        "proposal": {
                            **pending_proposal(),
                            "state": "PROPOSAL_STATE_REJECTED",
                            "decidedAtMs": "${t0}",
                            "rejectionReason": "too risky",
                            "decidedBy": "alice",
                        }
                    },
                ),
                get_head(response={"head": head(1, D1, TEXT1)}),
            ],
        ),
        vector(
            "reject/reason-is-required",
            "REJECT with an empty (or blank) reason fails with FIELD_REQUIRED.",
            [
                *registered(),
                proposed("p1"),
                review(reject_cmd("p1", "   ", "${ns}-ap1"), error=(INVALID, "FIELD_REQUIRED")),
            ],
        ),
        vector(
            "reject/rejected-proposal-cannot-activate",
            "A rejected proposal cannot be activated: PROPOSAL_NOT_PENDING.",
            [
                *registered(),
                proposed("p1"),
                *rejected("p1"),
                review(activate_cmd("p1", "${ns}-ap9"), error=(FAILED, "PROPOSAL_NOT_PENDING")),
            ],
        ),
        vector(
            "command/empty-command-is-rejected",
            "An Execute without a command fails with FIELD_REQUIRED.",
            [execute("alice", "${ns}-r1", {}, error=(INVALID, "FIELD_REQUIRED"))],
        ),
        vector(
            "command/invalid-policy-digest-is-rejected",
            "A policy digest that is not sha256:<64 hex> fails with DIGEST_INVALID.",
            [
                review(
                    register_cmd("${ns}-ap1", policy={"safety": "sha256:ABC"}),
                    error=(INVALID, "DIGEST_INVALID"),
                )
            ],
        ),
        vector(
            "command/definition-is-required",
            "REGISTER without a definition fails with FIELD_REQUIRED.",
            [review(register_cmd("${ns}-ap1", text=""), error=(INVALID, "FIELD_REQUIRED"))],
        ),
        vector(
            "read/unknown-proposal-is-not-found",
            "GetProposal of an unknown id fails with NOT_FOUND PROPOSAL_NOT_FOUND.",
            [*registered(), get_proposal("nope", error=("NOT_FOUND", "PROPOSAL_NOT_FOUND"))],
        ),
    ]


# --- approvals ----------------------------------------------------------------------


def approvals_vectors() -> list[dict[str, object]]:
    reg = register_cmd("${ns}-ap1")
    approval = {
        "approvalId": "${ns}-ap1",
        "materialDigest": "${md}",
        "approverId": "alice",
        "proofDigest": "<any>",
        "createdAtMs": "${t0}",
        "expiresAtMs": "${t0+600000}",
        "state": "APPROVAL_STATE_ACTIVE",
        "consumedAtMs": None,
        "consumedByRequestId": None,
    }
    return [
        vector(
            "approval/create-returns-an-active-approval",
            "CreateApproval by a human records an ACTIVE approval of the material digest.",
            [review(reg), approve("${ns}-ap1", response={"approval": approval, "replayed": None})],
        ),
        vector(
            "approval/get-returns-the-approval",
            "GetApproval returns what CreateApproval recorded; an agent may read it.",
            [
                review(reg),
                approve("${ns}-ap1"),
                step(
                    "agent",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap1"},
                    response={"approval": approval},
                ),
            ],
        ),
        vector(
            "approval/same-content-is-replayed",
            "CreateApproval again with the same id and content returns it with replayed.",
            [
                review(reg),
                approve("${ns}-ap1"),
                approve("${ns}-ap1", response={"approval": approval, "replayed": True}),
            ],
        ),
        vector(
            "approval/same-id-other-content-is-rejected",
            "The same approval id with another expiry fails with APPROVAL_ALREADY_EXISTS.",
            [
                review(reg),
                approve("${ns}-ap1"),
                approve(
                    "${ns}-ap1", expires="${t0+700000}", error=(EXISTS, "APPROVAL_ALREADY_EXISTS")
                ),
            ],
        ),
        vector(
            "approval/agent-cannot-approve",
            "A principal that is not human cannot approve, even with every grant.",
            [
                review(reg),
                approve("${ns}-ap1", principal="rogue", error=(DENIED, "HUMAN_REQUIRED")),
            ],
        ),
        vector(
            "approval/expiry-in-the-past-is-rejected",
            "expires_at_ms at or before now fails with TIME_INVALID.",
            [review(reg), approve("${ns}-ap1", expires="${t0}", error=(INVALID, "TIME_INVALID"))],
        ),
        vector(
            "approval/expiry-beyond-seven-days-is-rejected",
            "expires_at_ms more than 7 days ahead fails with TIME_INVALID.",
            [
                review(reg),
                approve("${ns}-ap1", expires="${t0+604800001}", error=(INVALID, "TIME_INVALID")),
            ],
        ),
        vector(
            "approval/expiry-of-exactly-seven-days-is-accepted",
            "expires_at_ms exactly 7 days ahead is the inclusive limit.",
            [
                review(reg),
                approve(
                    "${ns}-ap1",
                    expires="${t0+604800000}",
                    response={"approval": {"expiresAtMs": "${t0+604800000}"}},
                ),
            ],
        ),
        vector(
            "approval/material-digest-must-be-a-digest",
            "A material digest that is not sha256:<64 lowercase hex> fails with DIGEST_INVALID.",
            [
                step(
                    "alice",
                    "ApprovalService",
                    "CreateApproval",
                    {
                        "approvalId": "${ns}-ap1",
                        "materialDigest": "sha256:" + "A" * 64,
                        "expiresAtMs": "${t0+600000}",
                    },
                    error=(INVALID, "DIGEST_INVALID"),
                )
            ],
        ),
        vector(
            "approval/approval-id-is-required",
            "CreateApproval without an approval id fails with FIELD_REQUIRED.",
            [
                step(
                    "alice",
                    "ApprovalService",
                    "CreateApproval",
                    {"materialDigest": "sha256:" + "a" * 64, "expiresAtMs": "${t0+600000}"},
                    error=(INVALID, "FIELD_REQUIRED"),
                )
            ],
        ),
        vector(
            "approval/unknown-approval-is-not-found",
            "GetApproval of an unknown id fails with NOT_FOUND APPROVAL_NOT_FOUND.",
            [
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-none"},
                    error=("NOT_FOUND", "APPROVAL_NOT_FOUND"),
                )
            ],
        ),
        vector(
            "approval/command-without-approval-is-rejected",
            "A REGISTER naming no approval fails with APPROVAL_REQUIRED.",
            [execute("alice", "${ns}-r1", register_cmd(""), error=(INVALID, "APPROVAL_REQUIRED"))],
        ),
        vector(
            "approval/command-with-unknown-approval-is-rejected",
            "A REGISTER naming an approval that does not exist fails with APPROVAL_NOT_FOUND.",
            [execute("alice", "${ns}-r1", reg, error=(FAILED, "APPROVAL_NOT_FOUND"))],
        ),
        vector(
            "approval/approval-of-other-material-is-rejected",
            "An approval of one ref's REGISTER cannot register another ref.",
            [
                *approved(register_cmd("${ns}-ap1", ref("run-1")), "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r1",
                    register_cmd("${ns}-ap1", ref("run-2")),
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
            ],
        ),
        vector(
            "approval/approval-of-another-definition-is-rejected",
            "An approval of REGISTER with one definition cannot register another definition.",
            [
                *approved(reg, "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r1",
                    register_cmd("${ns}-ap1", text=TEXT2),
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
            ],
        ),
        vector(
            "approval/rejection-reason-is-bound",
            "An approval of a REJECT with one reason cannot reject with another reason.",
            [
                *registered(),
                proposed("p1"),
                *approved(reject_cmd("p1", "reason one", "${ns}-ap1"), "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r3",
                    reject_cmd("p1", "reason two", "${ns}-ap1"),
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
            ],
        ),
        vector(
            "approval/expired-approval-is-rejected",
            "An approval used after its expiry fails with APPROVAL_EXPIRED and reads EXPIRED.",
            [
                review(reg),
                approve("${ns}-ap1", expires="${t0+60000}"),
                execute(
                    "alice", "${ns}-r1", reg, advance_ms=60000, error=(FAILED, "APPROVAL_EXPIRED")
                ),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap1"},
                    response={"approval": {"state": "APPROVAL_STATE_EXPIRED"}},
                ),
            ],
        ),
        vector(
            "approval/approval-one-millisecond-before-expiry-is-accepted",
            "An approval is usable until the millisecond before expires_at_ms.",
            [
                review(reg),
                approve("${ns}-ap1", expires="${t0+60000}"),
                execute(
                    "alice",
                    "${ns}-r1",
                    reg,
                    advance_ms=59999,
                    response={"receipt": {"headRevision": "1", "committedAtMs": "${t0+59999}"}},
                ),
            ],
        ),
        vector(
            "approval/consumed-approval-cannot-be-reused",
            "After a command consumes an approval, another command using it fails with "
            "APPROVAL_CONSUMED, and the approval reads CONSUMED by the first request.",
            [
                *approved(reg, "${ns}-ap1"),
                execute("alice", "${ns}-r1", reg),
                execute(
                    "alice",
                    "${ns}-r2",
                    register_cmd("${ns}-ap1", ref("run-2")),
                    error=(FAILED, "APPROVAL_CONSUMED"),
                ),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap1"},
                    response={
                        "approval": {
                            "state": "APPROVAL_STATE_CONSUMED",
                            "consumedAtMs": "${t0}",
                            "consumedByRequestId": "${ns}-r1",
                        }
                    },
                ),
            ],
        ),
        vector(
            "approval/consumed-proof-cannot-be-replayed-under-another-id",
            "A second approval id for the same human and material has the consumed proof.",
            [
                *registered(),
                proposed("p1"),
                proposed("p2", text=TEXT3),
                review(reject_cmd("p1", "no", "${ns}-ap1")),
                approve("${ns}-ap1"),
                approve("${ns}-ap2"),
                execute("alice", "${ns}-r3", reject_cmd("p1", "no", "${ns}-ap1")),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap2"},
                    response={
                        "approval": {
                            "state": "APPROVAL_STATE_CONSUMED",
                            "consumedByRequestId": "${ns}-r3",
                        }
                    },
                ),
            ],
        ),
        vector(
            "approval/another-human-may-approve",
            "Bob's approval lets alice execute: approver and executor are both verified humans.",
            [
                *approved(reg, "${ns}-ap1", approver="bob"),
                execute(
                    "alice",
                    "${ns}-r1",
                    reg,
                    response={"receipt": {"principalId": "alice", "approvalId": "${ns}-ap1"}},
                ),
            ],
        ),
    ]


# --- idempotency --------------------------------------------------------------------


def idempotency_vectors() -> list[dict[str, object]]:
    reg = register_cmd("${ns}-ap-reg")
    first = receipt("${ns}-req-reg", "alice", "REGISTER", 1, D1, approval_id="${ns}-ap-reg")
    return [
        vector(
            "idempotency/retry-returns-the-original-receipt",
            "The same principal, request id and command returns the original receipt with "
            "replayed = true.",
            [
                *registered(),
                execute("alice", "${ns}-req-reg", reg, captures={"seq": "receipt.eventSeq"}),
                execute(
                    "alice",
                    "${ns}-req-reg",
                    reg,
                    advance_ms=5000,
                    response={"receipt": {**first, "eventSeq": "${seq}"}, "replayed": True},
                ),
            ],
        ),
        vector(
            "idempotency/retry-writes-no-history",
            "A replayed command adds no history event.",
            [
                *registered(),
                execute("alice", "${ns}-req-reg", reg, response={"replayed": True}),
                history(response={"events": [REGISTERED_EVENT], "hasMore": None}),
            ],
        ),
        vector(
            "idempotency/retry-after-the-head-moved-still-replays",
            "A retry of PROPOSE after the proposal was activated returns its original receipt.",
            [
                *registered(),
                proposed("p1"),
                *activated("p1"),
                execute(
                    "agent",
                    "${ns}-req-p1",
                    propose_cmd("p1"),
                    response={
                        "receipt": receipt(
                            "${ns}-req-p1", "agent", "PROPOSE", 1, D1, proposal_id="p1"
                        ),
                        "replayed": True,
                    },
                ),
            ],
        ),
        vector(
            "idempotency/retry-of-activation-does-not-consume-again",
            "Replaying an ACTIVATE neither activates again nor changes the approval.",
            [
                *registered(),
                proposed("p1"),
                *activated("p1"),
                execute(
                    "alice",
                    "${ns}-req-act-p1",
                    activate_cmd("p1", "${ns}-ap-act-p1"),
                    advance_ms=1000,
                    response={
                        "receipt": {"headRevision": "2", "committedAtMs": "${t0}"},
                        "replayed": True,
                    },
                ),
                get_head(response={"head": {"revision": "2", "updatedAtMs": "${t0}"}}),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap-act-p1"},
                    response={
                        "approval": {
                            "state": "APPROVAL_STATE_CONSUMED",
                            "consumedAtMs": "${t0}",
                            "consumedByRequestId": "${ns}-req-act-p1",
                        }
                    },
                ),
            ],
        ),
        vector(
            "idempotency/request-id-with-another-command-is-rejected",
            "The same request id with a different command fails with REQUEST_ID_REUSED.",
            [
                *registered(),
                execute("agent", "${ns}-r2", propose_cmd("p1")),
                execute(
                    "agent", "${ns}-r2", propose_cmd("p2"), error=(EXISTS, "REQUEST_ID_REUSED")
                ),
            ],
        ),
        vector(
            "idempotency/request-ids-are-per-principal",
            "Another principal may use the same request id for its own command.",
            [
                *registered(),
                execute("agent", "${ns}-same", propose_cmd("p1")),
                execute(
                    "service",
                    "${ns}-same",
                    propose_cmd("p2", text=TEXT3),
                    response={
                        "receipt": {"principalId": "service", "proposalId": "p2"},
                        "replayed": None,
                    },
                ),
            ],
        ),
        vector(
            "idempotency/retry-needs-current-epochs",
            "A retry under epochs that have since advanced fails with EPOCH_MISMATCH.",
            [
                *registered(),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_AUTHORITY", "expectedEpoch": "1"},
                ),
                execute("alice", "${ns}-req-reg", reg, error=(FAILED, "EPOCH_MISMATCH")),
            ],
        ),
        vector(
            "idempotency/retry-is-blocked-by-a-pause",
            "A retry on a paused work order fails with WORK_ORDER_PAUSED.",
            [
                *registered(),
                admin("PauseWorkOrder", {"workOrderId": WO, "reason": "incident"}),
                execute("alice", "${ns}-req-reg", reg, error=(FAILED, "WORK_ORDER_PAUSED")),
            ],
        ),
        vector(
            "idempotency/retry-is-blocked-by-a-restore-hold",
            "A retry on a work order under a restore hold fails with RESTORE_HOLD.",
            [
                *registered(),
                admin("PlaceHold", {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO}),
                execute("alice", "${ns}-req-reg", reg, error=(FAILED, "RESTORE_HOLD")),
                admin("ClearHold", {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO}),
                execute("alice", "${ns}-req-reg", reg, response={"replayed": True}),
            ],
        ),
        vector(
            "idempotency/failed-command-can-be-retried",
            "A request id whose command failed is not used up: a later retry may succeed.",
            [
                execute("alice", "${ns}-req-reg", reg, error=(FAILED, "APPROVAL_NOT_FOUND")),
                *approved(reg, "${ns}-ap-reg"),
                execute(
                    "alice", "${ns}-req-reg", reg, response={"receipt": first, "replayed": None}
                ),
            ],
        ),
        vector(
            "idempotency/request-id-is-required",
            "Execute without a request id fails with FIELD_REQUIRED.",
            [execute("alice", "", reg, error=(INVALID, "FIELD_REQUIRED"))],
        ),
        vector(
            "idempotency/request-id-must-be-an-identifier",
            "A request id with a space fails with IDENTIFIER_INVALID.",
            [execute("alice", "${ns} r1", reg, error=(INVALID, "IDENTIFIER_INVALID"))],
        ),
    ]


# --- history ------------------------------------------------------------------------


def history_vectors() -> list[dict[str, object]]:
    lifecycle = [
        *registered(),
        proposed("p1"),
        proposed("p2", text=TEXT3),
        *activated("p1"),
        *rejected("p2", "superseded"),
    ]
    activated_event = event(
        "ACTIVATED",
        2,
        D2,
        "alice",
        "${ns}-req-act-p1",
        proposal_id="p1",
        approval_id="${ns}-ap-act-p1",
    )
    proposed2 = event("PROPOSED", 1, D3, "agent", "${ns}-req-p2", proposal_id="p2")
    rejected_event = event(
        "REJECTED",
        2,
        D3,
        "alice",
        "${ns}-req-rej-p2",
        proposal_id="p2",
        approval_id="${ns}-ap-rej-p2",
        reason="superseded",
    )
    return [
        vector(
            "history/register-writes-one-event",
            "After REGISTER the history holds one REGISTERED event.",
            [
                *registered(),
                history(
                    response={"events": [REGISTERED_EVENT], "nextAfter": "<any>", "hasMore": None}
                ),
            ],
        ),
        vector(
            "history/lifecycle-in-order",
            "Register, two proposals, an activation and a rejection appear oldest first.",
            [
                *lifecycle,
                history(
                    response={
                        "events": [
                            REGISTERED_EVENT,
                            PROPOSED_EVENT,
                            proposed2,
                            activated_event,
                            rejected_event,
                        ]
                    }
                ),
            ],
        ),
        vector(
            "history/pages-follow-the-cursor",
            "limit 2 pages through five events with next_after and has_more.",
            [
                *lifecycle,
                history(
                    limit=2,
                    response={"events": [REGISTERED_EVENT, PROPOSED_EVENT], "hasMore": True},
                    captures={"c1": "nextAfter"},
                ),
                history(
                    after="${c1}",
                    limit=2,
                    response={"events": [proposed2, activated_event], "hasMore": True},
                    captures={"c2": "nextAfter"},
                ),
                history(
                    after="${c2}",
                    limit=2,
                    response={"events": [rejected_event], "hasMore": None},
                    captures={"c3": "nextAfter"},
                ),
                history(
                    after="${c3}",
                    limit=2,
                    response={"events": None, "hasMore": None, "nextAfter": "${c3}"},
                ),
            ],
        ),
        vector(
            "history/next-after-is-the-last-seq",
            "next_after equals the seq of the last event of the page.",
            [
                *registered(),
                proposed("p1"),
                history(limit=1, captures={"last": "events.0.seq"}, response={"hasMore": True}),
                history(limit=1, response={"nextAfter": "${last}"}),
            ],
        ),
        vector(
            "history/exact-page-has-no-more",
            "A page that ends exactly at the last event says has_more = false.",
            [
                *registered(),
                proposed("p1"),
                history(
                    limit=2,
                    response={"events": [REGISTERED_EVENT, PROPOSED_EVENT], "hasMore": None},
                ),
            ],
        ),
        vector(
            "history/unknown-ref-has-an-empty-history",
            "The history of a ref never registered is an empty page, not an error.",
            [history(response={"events": None, "nextAfter": None, "hasMore": None})],
        ),
        vector(
            "history/limit-0-means-the-default",
            "limit 0 returns up to 100 events.",
            [*registered(), history(limit=0, response={"events": [REGISTERED_EVENT]})],
        ),
        vector(
            "history/limit-1000-is-the-maximum",
            "limit 1000 is accepted; 1001 fails with PAGE_INVALID.",
            [
                *registered(),
                history(limit=1000, response={"events": [REGISTERED_EVENT]}),
                history(limit=1001, error=(INVALID, "PAGE_INVALID")),
            ],
        ),
        vector(
            "history/negative-limit-is-rejected",
            "A negative limit fails with PAGE_INVALID.",
            [history(limit=-1, error=(INVALID, "PAGE_INVALID"))],
        ),
        vector(
            "history/negative-cursor-is-rejected",
            "A negative after fails with PAGE_INVALID.",
            [history(after="-5", error=(INVALID, "PAGE_INVALID"))],
        ),
        vector(
            "history/reader-may-read",
            "A principal holding only registry.read may read history and the head.",
            [
                *registered(),
                history(principal="reader", response={"events": [REGISTERED_EVENT]}),
                get_head("reader", response={"head": {"revision": "1"}}),
            ],
        ),
        vector(
            "history/old-decisions-never-change",
            "Activating p2 after p1 leaves p1's ACTIVATED event and proposal unchanged.",
            [
                *registered(),
                proposed("p1"),
                *activated("p1"),
                proposed("p2", base=2, text=TEXT3),
                clock(advance_ms=1000),
                *activated("p2", base=2),
                get_proposal(
                    "p1",
                    response={
                        "proposal": {
                            "state": "PROPOSAL_STATE_ACTIVATED",
                            "activatedRevision": "2",
                            "decidedAtMs": "${t0}",
                        }
                    },
                ),
                get_proposal(
                    "p2",
                    response={
                        "proposal": {
                            "state": "PROPOSAL_STATE_ACTIVATED",
                            "activatedRevision": "3",
                            "decidedAtMs": "${t0+1000}",
                            "createdAtMs": "${t0}",
                        }
                    },
                ),
                history(
                    after=0,
                    limit=3,
                    response={"events": [REGISTERED_EVENT, PROPOSED_EVENT, activated_event]},
                ),
                get_head(response={"head": head(3, D3, TEXT3, at="${t0+1000}")}),
            ],
        ),
    ]


# --- epochs, controls and holds -----------------------------------------------------


def controls_vectors() -> list[dict[str, object]]:
    reg = register_cmd("${ns}-ap1")
    work_order = {
        "workOrderId": WO,
        "controlState": "CONTROL_STATE_ACTIVE",
        "epochs": EPOCHS,
        "holds": None,
    }
    return [
        vector(
            "epochs/new-work-order-starts-at-1-1",
            "GetEpochs of a new work order returns this installation and epochs 1 and 1.",
            [
                step(
                    "agent",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": WO},
                    response={"epochs": EPOCHS},
                )
            ],
        ),
        vector(
            "epochs/other-installation-is-rejected",
            "Epochs naming another installation fail with INSTALLATION_MISMATCH.",
            [
                review(
                    reg,
                    ep=epochs(installation="not-this-installation"),
                    error=(FAILED, "INSTALLATION_MISMATCH"),
                )
            ],
        ),
        vector(
            "epochs/future-epoch-is-rejected",
            "An ownership epoch ahead of the work order's fails with EPOCH_MISMATCH.",
            [review(reg, ep=epochs(ownership=2), error=(FAILED, "EPOCH_MISMATCH"))],
        ),
        vector(
            "epochs/advancing-ownership-invalidates-old-epochs",
            "After AdvanceEpoch(OWNERSHIP) the old epochs fail and the new ones work.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP", "expectedEpoch": "1"},
                    response={"epochs": epochs(ownership=2)},
                ),
                review(reg, ep=epochs(), error=(FAILED, "EPOCH_MISMATCH")),
                review(
                    reg,
                    ep=epochs(ownership=2),
                    response={"material": {"ownershipEpoch": "2", "authorityEpoch": "1"}},
                ),
            ],
        ),
        vector(
            "epochs/advance-is-a-compare-and-swap",
            "AdvanceEpoch names the epoch it expects: a retry with the old value fails with "
            "EPOCH_MISMATCH instead of advancing twice.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP", "expectedEpoch": "1"},
                    response={"epochs": epochs(ownership=2)},
                ),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP", "expectedEpoch": "1"},
                    error=(FAILED, "EPOCH_MISMATCH"),
                ),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP"},
                    error=(INVALID, "FIELD_REQUIRED"),
                ),
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": WO},
                    response={"epochs": epochs(ownership=2)},
                ),
            ],
        ),
        vector(
            "epochs/advancing-authority-is-counted-separately",
            "AdvanceEpoch(AUTHORITY) twice gives epochs 1 and 3.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_AUTHORITY", "expectedEpoch": "1"},
                ),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_AUTHORITY", "expectedEpoch": "2"},
                    response={"epochs": epochs(authority=3)},
                ),
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": WO},
                    response={"epochs": epochs(authority=3)},
                ),
            ],
        ),
        vector(
            "epochs/approval-under-old-epochs-is-rejected",
            "An approval of material bound to epoch 1 cannot be used after the epoch advanced.",
            [
                *approved(reg, "${ns}-ap1"),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_AUTHORITY", "expectedEpoch": "1"},
                ),
                execute(
                    "alice",
                    "${ns}-r1",
                    reg,
                    ep=epochs(authority=2),
                    error=(FAILED, "APPROVAL_MISMATCH"),
                ),
            ],
        ),
        vector(
            "epochs/other-work-orders-are-unaffected",
            "Advancing one work order's epoch leaves another's at 1 and 1.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP", "expectedEpoch": "1"},
                ),
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": "${ns}-other"},
                    response={"epochs": EPOCHS},
                ),
            ],
        ),
        vector(
            "controls/untouched-work-order-is-active",
            "GetWorkOrder of a new work order is ACTIVE, epochs 1 and 1, no holds.",
            [admin("GetWorkOrder", {"workOrderId": WO}, response={"workOrder": work_order})],
        ),
        vector(
            "controls/pause-blocks-commands",
            "A paused work order refuses commands with WORK_ORDER_PAUSED.",
            [
                *registered(),
                admin(
                    "PauseWorkOrder",
                    {"workOrderId": WO, "reason": "incident"},
                    response={"workOrder": {**work_order, "controlState": "CONTROL_STATE_PAUSED"}},
                ),
                execute(
                    "agent", "${ns}-r2", propose_cmd("p1"), error=(FAILED, "WORK_ORDER_PAUSED")
                ),
            ],
        ),
        vector(
            "controls/resume-lifts-the-pause",
            "After ResumeWorkOrder commands proceed again.",
            [
                *registered(),
                admin("PauseWorkOrder", {"workOrderId": WO}),
                admin("ResumeWorkOrder", {"workOrderId": WO}, response={"workOrder": work_order}),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    response={"receipt": {"proposalId": "p1"}},
                ),
            ],
        ),
        vector(
            "controls/pause-leaves-reads-alone",
            "Reads of a paused work order still answer.",
            [
                *registered(),
                admin("PauseWorkOrder", {"workOrderId": WO}),
                get_head(response={"head": {"revision": "1"}}),
            ],
        ),
        vector(
            "controls/cancel-is-final",
            "A canceled work order refuses commands with WORK_ORDER_CANCELED and cannot resume.",
            [
                *registered(),
                admin(
                    "CancelWorkOrder",
                    {"workOrderId": WO, "reason": "done"},
                    response={"workOrder": {"controlState": "CONTROL_STATE_CANCELED"}},
                ),
                execute(
                    "agent", "${ns}-r2", propose_cmd("p1"), error=(FAILED, "WORK_ORDER_CANCELED")
                ),
                admin(
                    "ResumeWorkOrder",
                    {"workOrderId": WO},
                    error=(FAILED, "CONTROL_TRANSITION_INVALID"),
                ),
            ],
        ),
        vector(
            "controls/agent-cannot-pause",
            "An agent without admin grants fails with ACTION_NOT_GRANTED.",
            [
                admin(
                    "PauseWorkOrder",
                    {"workOrderId": WO},
                    principal="agent",
                    error=(DENIED, "ACTION_NOT_GRANTED"),
                )
            ],
        ),
        vector(
            "holds/restore-hold-blocks-the-work-order",
            "A restore hold on a work order refuses its commands with RESTORE_HOLD.",
            [
                *registered(),
                admin(
                    "PlaceHold",
                    {
                        "kind": "HOLD_KIND_RESTORE",
                        "workOrderId": WO,
                        "reason": "restored from backup",
                    },
                    response={
                        "hold": {
                            "kind": "HOLD_KIND_RESTORE",
                            "workOrderId": WO,
                            "reason": "restored from backup",
                            "placedAtMs": "${t0}",
                            "placedBy": "alice",
                        }
                    },
                ),
                execute("agent", "${ns}-r2", propose_cmd("p1"), error=(FAILED, "RESTORE_HOLD")),
                admin(
                    "GetWorkOrder",
                    {"workOrderId": WO},
                    response={
                        "workOrder": {
                            "holds": [
                                {
                                    "kind": "HOLD_KIND_RESTORE",
                                    "workOrderId": WO,
                                    "reason": "restored from backup",
                                    "placedAtMs": "${t0}",
                                    "placedBy": "alice",
                                }
                            ]
                        }
                    },
                ),
            ],
        ),
        vector(
            "holds/clearing-the-hold-unblocks",
            "ClearHold removes the restore hold and commands proceed.",
            [
                *registered(),
                admin("PlaceHold", {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO}),
                admin(
                    "ClearHold",
                    {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO},
                    response={"hold": {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO}},
                ),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    response={"receipt": {"proposalId": "p1"}},
                ),
                admin("GetWorkOrder", {"workOrderId": WO}, response={"workOrder": work_order}),
            ],
        ),
        vector(
            "holds/hold-on-one-work-order-spares-others",
            "A restore hold on one work order does not block another.",
            [
                admin("PlaceHold", {"kind": "HOLD_KIND_RESTORE", "workOrderId": "${ns}-held"}),
                *registered(),
                admin("ClearHold", {"kind": "HOLD_KIND_RESTORE", "workOrderId": "${ns}-held"}),
            ],
        ),
        vector(
            "holds/clearing-an-absent-hold-is-not-found",
            "ClearHold when no such hold is placed fails with HOLD_NOT_FOUND.",
            [
                admin(
                    "ClearHold",
                    {"kind": "HOLD_KIND_RESTORE", "workOrderId": WO},
                    error=("NOT_FOUND", "HOLD_NOT_FOUND"),
                )
            ],
        ),
        vector(
            "holds/clock-uncertainty-cannot-be-placed",
            "Only the engine places clock-uncertainty holds: PlaceHold fails with ENUM_INVALID.",
            [
                admin(
                    "PlaceHold",
                    {"kind": "HOLD_KIND_CLOCK_UNCERTAINTY", "workOrderId": WO},
                    error=(INVALID, "ENUM_INVALID"),
                )
            ],
        ),
        vector(
            "holds/clock-stepping-back-places-a-hold",
            "A clock that steps back beyond tolerance places the installation-wide "
            "clock-uncertainty hold (CLOCK_UNCERTAIN), which stays until an admin clears it.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    set_offset_ms=-60000,
                    error=(FAILED, "CLOCK_UNCERTAIN"),
                ),
                admin(
                    "GetWorkOrder",
                    {"workOrderId": WO},
                    response={
                        "workOrder": {
                            "holds": [
                                {
                                    "kind": "HOLD_KIND_CLOCK_UNCERTAINTY",
                                    "workOrderId": None,
                                    "reason": "<any>",
                                    "placedAtMs": "${t0}",
                                    "placedBy": "engine",
                                }
                            ]
                        }
                    },
                ),
                clock(set_offset_ms=0),
                execute("agent", "${ns}-r2", propose_cmd("p1"), error=(FAILED, "CLOCK_UNCERTAIN")),
                admin(
                    "ClearHold",
                    {"kind": "HOLD_KIND_CLOCK_UNCERTAINTY"},
                    response={
                        "hold": {"kind": "HOLD_KIND_CLOCK_UNCERTAINTY", "placedBy": "engine"}
                    },
                ),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    response={"receipt": {"proposalId": "p1", "committedAtMs": "${t0}"}},
                ),
            ],
        ),
        vector(
            "holds/clock-within-tolerance-is-fine",
            "A clock step back within the 5 s tolerance places no hold.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    set_offset_ms=-4000,
                    response={"receipt": {"committedAtMs": "${t0-4000}"}},
                ),
                clock(set_offset_ms=0),
            ],
        ),
    ]


# --- value rules --------------------------------------------------------------------


def _reg_with(text: str, error: tuple[str, str] | None = None, response=None):
    return review(register_cmd("${ns}-ap1", text=text), error=error, response=response)


def values_vectors() -> list[dict[str, object]]:
    number_forbidden = (INVALID, "DOCUMENT_NUMBER_FORBIDDEN")
    safe = definition(
        "a",
        output={
            "type": "json",
            "schema": {"type": "integer", "enum": [9007199254740991, -9007199254740991]},
        },
    )
    unicode_def = definition("a", prompt='Grüße, 世界 — 🙂 "quoted" \\ back')
    decimal_def = definition("a", prompt="budget 1.50 stays 1.50")
    messy = (
        '{ "output" : {"from":"node:a"},\n  "nodes": {"a": {"input": {"from": "run_input"},'
        ' "agent": {"model": "echo"}}}, "version": 1 }'
    )
    deep = "[" * 65 + "]" * 65
    return [
        vector(
            "document/definition-is-stored-canonically",
            "Whitespace and key order are not part of a definition: the head holds canonical "
            "JSON and its digest.",
            [
                *registered(text=messy),
                get_head(response={"head": head(1, D1, TEXT1)}),
            ],
        ),
        vector(
            "document/utf8-text-round-trips",
            "Non-ASCII text in a definition survives exactly, and the digest is over its UTF-8.",
            [
                *registered(text=canonical(unicode_def)),
                get_head(
                    response={"head": head(1, digest_of(unicode_def), canonical(unicode_def))}
                ),
            ],
        ),
        vector(
            "document/escaped-unicode-equals-literal",
            "A \\u escape and the literal character are the same document.",
            [
                *registered(text=json.dumps(unicode_def, ensure_ascii=True)),
                get_head(
                    response={
                        "head": {
                            "definitionDigest": digest_of(unicode_def),
                            "definitionJson": canonical(unicode_def),
                        }
                    }
                ),
            ],
        ),
        vector(
            "document/decimal-strings-are-never-normalised",
            "A decimal with trailing zeros inside a document string stays as written.",
            [
                *registered(text=canonical(decimal_def)),
                get_head(response={"head": {"definitionJson": canonical(decimal_def)}}),
            ],
        ),
        vector(
            "document/largest-safe-integers-are-accepted",
            "Integers of magnitude 2^53-1 are allowed in documents.",
            [
                _reg_with(
                    canonical(safe), response={"material": {"candidateDigest": digest_of(safe)}}
                )
            ],
        ),
        vector(
            "document/integer-above-2-53-is-rejected",
            "9007199254740992 (2^53) is not a safe integer: DOCUMENT_NUMBER_FORBIDDEN.",
            [
                _reg_with(
                    canonical(safe).replace("9007199254740991,", "9007199254740992,"),
                    error=number_forbidden,
                )
            ],
        ),
        vector(
            "document/negative-integer-below-minus-2-53-is-rejected",
            "-9007199254740992 is not a safe integer: DOCUMENT_NUMBER_FORBIDDEN.",
            [
                _reg_with(
                    canonical(safe).replace("-9007199254740991", "-9007199254740992"),
                    error=number_forbidden,
                )
            ],
        ),
        vector(
            "document/fraction-is-rejected",
            "A number with a fraction (1.5) fails with DOCUMENT_NUMBER_FORBIDDEN.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":1,"x":1.5'), error=number_forbidden
                )
            ],
        ),
        vector(
            "document/trailing-zero-fraction-is-rejected",
            "1.0 is a fraction too, even though it equals an integer.",
            [_reg_with(TEXT1.replace('"version":1', '"version":1.0'), error=number_forbidden)],
        ),
        vector(
            "document/exponent-is-rejected",
            "A number with an exponent (1e3) fails with DOCUMENT_NUMBER_FORBIDDEN.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":1,"x":1e3'), error=number_forbidden
                )
            ],
        ),
        vector(
            "document/nan-is-rejected",
            "NaN is not JSON: DOCUMENT_NUMBER_FORBIDDEN.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":1,"x":NaN'), error=number_forbidden
                )
            ],
        ),
        vector(
            "document/duplicate-key-is-rejected",
            "An object that repeats a key fails with DOCUMENT_DUPLICATE_KEY.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":1,"version":1'),
                    error=(INVALID, "DOCUMENT_DUPLICATE_KEY"),
                )
            ],
        ),
        vector(
            "document/malformed-json-is-rejected",
            "Text that is not JSON fails with DOCUMENT_MALFORMED.",
            [_reg_with('{"version":1,', error=(INVALID, "DOCUMENT_MALFORMED"))],
        ),
        vector(
            "document/non-object-is-rejected",
            "A definition must be a JSON object: an array fails with DOCUMENT_MALFORMED.",
            [_reg_with("[1]", error=(INVALID, "DOCUMENT_MALFORMED"))],
        ),
        vector(
            "document/lone-surrogate-is-rejected",
            "A \\ud800 escape is not valid UTF-8 text: DOCUMENT_MALFORMED.",
            [
                _reg_with(
                    TEXT1.replace('"echo"', '"\\ud800"'), error=(INVALID, "DOCUMENT_MALFORMED")
                )
            ],
        ),
        vector(
            "document/nesting-beyond-the-cap-is-rejected",
            "A document nested 65 levels deep fails with DOCUMENT_TOO_DEEP.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', f'"version":1,"x":{deep}'),
                    error=(INVALID, "DOCUMENT_TOO_DEEP"),
                )
            ],
        ),
        vector(
            "document/future-version-is-rejected",
            "version 2 fails with DOCUMENT_VERSION_UNSUPPORTED; nothing is repaired.",
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":2'),
                    error=(INVALID, "DOCUMENT_VERSION_UNSUPPORTED"),
                )
            ],
        ),
        vector(
            "document/missing-version-is-rejected",
            "A definition without version fails with DOCUMENT_VERSION_UNSUPPORTED.",
            [
                _reg_with(
                    canonical({k: v for k, v in DEF1.items() if k != "version"}),
                    error=(INVALID, "DOCUMENT_VERSION_UNSUPPORTED"),
                )
            ],
        ),
        vector(
            "document/version-as-string-is-rejected",
            'version "1" (a string) is not version 1: DOCUMENT_VERSION_UNSUPPORTED.',
            [
                _reg_with(
                    TEXT1.replace('"version":1', '"version":"1"'),
                    error=(INVALID, "DOCUMENT_VERSION_UNSUPPORTED"),
                )
            ],
        ),
        vector(
            "time/approval-expiry-at-int64-max-is-rejected",
            "expires_at_ms 9223372036854775807 is outside the time range: TIME_INVALID.",
            [
                review(register_cmd("${ns}-ap1")),
                approve(
                    "${ns}-ap1", expires="9223372036854775807", error=(INVALID, "TIME_INVALID")
                ),
            ],
        ),
        vector(
            "time/negative-expiry-is-rejected",
            "A negative expires_at_ms fails with TIME_INVALID.",
            [
                review(register_cmd("${ns}-ap1")),
                approve("${ns}-ap1", expires="-1", error=(INVALID, "TIME_INVALID")),
            ],
        ),
        vector(
            "time/times-are-epoch-milliseconds",
            "Times in responses are the test clock's epoch milliseconds, as int64 strings.",
            [
                *approved(register_cmd("${ns}-ap1"), "${ns}-ap1"),
                execute(
                    "alice",
                    "${ns}-r1",
                    register_cmd("${ns}-ap1"),
                    advance_ms=1234,
                    response={"receipt": {"committedAtMs": "${t0+1234}"}},
                ),
                get_head(response={"head": {"updatedAtMs": "${t0+1234}"}}),
            ],
        ),
        vector(
            "time/test-clock-rejects-time-zero",
            "TestClockService.SetTime to 0 fails with TIME_INVALID.",
            [
                step(
                    "alice",
                    "TestClockService",
                    "SetTime",
                    {"nowMs": "0"},
                    error=(INVALID, "TIME_INVALID"),
                )
            ],
        ),
        vector(
            "time/test-clock-rejects-negative-advance",
            "TestClockService.Advance by a negative amount fails with TIME_INVALID.",
            [
                step(
                    "alice",
                    "TestClockService",
                    "Advance",
                    {"byMs": "-1"},
                    error=(INVALID, "TIME_INVALID"),
                )
            ],
        ),
        vector(
            "time/test-clock-advance-reports-the-time",
            "Advance returns the new time as epoch milliseconds.",
            [
                step(
                    "alice",
                    "TestClockService",
                    "Advance",
                    {"byMs": "250"},
                    response={"nowMs": "${t0+250}"},
                )
            ],
        ),
    ]


# --- cross-language hazards ---------------------------------------------------------


def hazards_vectors() -> list[dict[str, object]]:
    big = "9007199254740993"  # 2^53 + 1: a double would read 9007199254740992
    utf_ref = ref("运行-1", "${ns}-ωρ-工作")
    return [
        vector(
            "int64/cursor-above-2-53-round-trips",
            "ListHistory after 2^53+1 returns an empty page whose next_after is exactly "
            "2^53+1: no client may round it through a double.",
            [history(after=big, response={"events": None, "nextAfter": big})],
        ),
        vector(
            "int64/int64-max-cursor-round-trips",
            "after = 9223372036854775807 (int64 max) is echoed exactly.",
            [history(after="9223372036854775807", response={"nextAfter": "9223372036854775807"})],
        ),
        vector(
            "int64/base-revision-above-2-53-is-stale",
            "PROPOSE with base_revision 2^53+1 is a stale base, not a mangled number.",
            [
                *registered(),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("p1", base=big),
                    error=("ABORTED", "BASE_REVISION_STALE"),
                ),
            ],
        ),
        vector(
            "int64/next-revision-int64-max-is-a-mismatch",
            "ACTIVATE with next_revision 9223372036854775807 fails with NEXT_REVISION_MISMATCH.",
            [
                *registered(),
                proposed("p1"),
                review(
                    activate_cmd("p1", "${ns}-ap1", base=1, nxt="9223372036854775807"),
                    error=(FAILED, "NEXT_REVISION_MISMATCH"),
                ),
            ],
        ),
        vector(
            "int64/beyond-int64-is-refused-by-the-client",
            "after = 9223372036854775808 does not fit int64: the client refuses to send it.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "ListHistory",
                    {"ref": REF, "after": "9223372036854775808"},
                    client_error="int64 out of range",
                )
            ],
        ),
        vector(
            "int64/number-form-is-accepted",
            "proto-JSON allows an int64 as a JSON number too; small values mean the same.",
            [
                *registered(),
                history(after=0, limit=5, response={"events": [REGISTERED_EVENT]}),
                step(
                    "alice", "RegistryService", "ListHistory", {"ref": REF, "after": 1}, response={}
                ),
            ],
        ),
        vector(
            "enum/unknown-numeric-hold-kind-is-rejected",
            "PlaceHold with kind 99 (no such value) reaches the server and fails with "
            "ENUM_INVALID.",
            [admin("PlaceHold", {"kind": 99, "workOrderId": WO}, error=(INVALID, "ENUM_INVALID"))],
        ),
        vector(
            "enum/unknown-numeric-epoch-kind-is-rejected",
            "AdvanceEpoch with kind 99 fails with ENUM_INVALID and changes nothing.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": 99, "expectedEpoch": "1"},
                    error=(INVALID, "ENUM_INVALID"),
                ),
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": WO},
                    response={"epochs": EPOCHS},
                ),
            ],
        ),
        vector(
            "enum/unspecified-is-rejected",
            "AdvanceEpoch with EPOCH_KIND_UNSPECIFIED (or absent) fails with ENUM_INVALID.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_UNSPECIFIED", "expectedEpoch": "1"},
                    error=(INVALID, "ENUM_INVALID"),
                ),
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "expectedEpoch": "1"},
                    error=(INVALID, "ENUM_INVALID"),
                ),
            ],
        ),
        vector(
            "enum/unknown-enum-name-is-refused-by-the-client",
            'kind "HOLD_KIND_FUTURE" is not a name in the contract: the client refuses it.',
            [
                admin(
                    "PlaceHold",
                    {"kind": "HOLD_KIND_FUTURE", "workOrderId": WO},
                    client_error="unknown enum name",
                )
            ],
        ),
        vector(
            "enum/numeric-form-of-a-known-value-is-accepted",
            "kind 1 means HOLD_KIND_RESTORE; the response names it.",
            [
                admin(
                    "PlaceHold",
                    {"kind": 1, "workOrderId": WO},
                    response={"hold": {"kind": "HOLD_KIND_RESTORE"}},
                ),
                admin("ClearHold", {"kind": 1, "workOrderId": WO}),
            ],
        ),
        vector(
            "fields/unknown-request-field-is-refused-by-the-client",
            "A request with a field the contract does not have is refused by every client "
            "(strict parsing), not silently dropped.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": WO, "futureField": "x"},
                    client_error="unknown field",
                )
            ],
        ),
        vector(
            "fields/proto-names-are-accepted",
            "proto-JSON parsers accept the original field names (work_order_id) as well.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"work_order_id": WO},
                    response={"epochs": EPOCHS},
                )
            ],
        ),
        vector(
            "fields/empty-string-equals-absent",
            'proposed_by "" is the same as no proposed_by: the proposal is attributed to the '
            "caller; absent summary reads as absent.",
            [
                *registered(),
                execute("agent", "${ns}-r2", propose_cmd("p1", proposedBy="", summary="")),
                get_proposal("p1", response={"proposal": pending_proposal()}),
            ],
        ),
        vector(
            "fields/absent-message-is-empty-epochs",
            "Execute without epochs is checked like empty epochs: INSTALLATION_MISMATCH.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "Execute",
                    {"requestId": "${ns}-r1", "command": register_cmd("${ns}-ap1")},
                    error=(FAILED, "INSTALLATION_MISMATCH"),
                )
            ],
        ),
        vector(
            "fields/default-values-are-omitted-in-responses",
            "Zero, empty and false fields are absent from proto-JSON responses (not 0 or "
            '""), in every language.',
            [
                admin(
                    "GetWorkOrder",
                    {"workOrderId": WO},
                    response={
                        "workOrder": {
                            "workOrderId": WO,
                            "controlState": "CONTROL_STATE_ACTIVE",
                            "epochs": EPOCHS,
                            "holds": None,
                        }
                    },
                )
            ],
        ),
        vector(
            "utf8/non-ascii-identifiers-round-trip",
            "Work order, run and proposal ids in Greek, Chinese and Cyrillic letters round-trip "
            "through commands, reads and history.",
            [
                *registered(utf_ref, tag="u"),
                execute(
                    "agent",
                    "${ns}-r2",
                    propose_cmd("предложение", r=utf_ref),
                    response={"receipt": {"ref": utf_ref, "proposalId": "предложение"}},
                ),
                get_proposal(
                    "предложение",
                    r=utf_ref,
                    response={"proposal": {"ref": utf_ref, "proposalId": "предложение"}},
                ),
                history(
                    r=utf_ref,
                    response={
                        "events": [
                            {"kind": "HISTORY_EVENT_KIND_REGISTERED", "ref": utf_ref},
                            {"kind": "HISTORY_EVENT_KIND_PROPOSED", "proposalId": "предложение"},
                        ]
                    },
                ),
            ],
        ),
        vector(
            "utf8/identifier-length-counts-code-points",
            "128 characters is the limit, counted in code points: 128 astral letters (256 "
            "UTF-16 units, 512 bytes) are accepted, 129 are not.",
            [
                review(register_cmd("${ns}-ap1")),
                approve(
                    "${ns}-" + "\U0001d49c" * 113,
                    response={"approval": {"approvalId": "${ns}-" + "\U0001d49c" * 113}},
                ),
                approve("${ns}-" + "\U0001d49c" * 114, error=(INVALID, "IDENTIFIER_INVALID")),
            ],
        ),
        vector(
            "utf8/decomposed-accent-is-not-a-letter",
            "An identifier in NFC (é) is accepted; its NFD form (e + U+0301) is not a letter "
            "sequence and fails with IDENTIFIER_INVALID: no normalisation happens.",
            [
                review(register_cmd("${ns}-ap1")),
                approve("${ns}-caf\u00e9"),
                approve("${ns}-cafe\u0301", error=(INVALID, "IDENTIFIER_INVALID")),
            ],
        ),
        vector(
            "utf8/emoji-is-not-an-identifier-character",
            "Symbols such as 🙂 are not letters: IDENTIFIER_INVALID.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": "${ns}-🙂"},
                    error=(INVALID, "IDENTIFIER_INVALID"),
                )
            ],
        ),
        vector(
            "utf8/slash-is-not-an-identifier-character",
            "A ref with '/' in its run id fails with IDENTIFIER_INVALID.",
            [get_head(r=ref("a/b"), error=(INVALID, "IDENTIFIER_INVALID"))],
        ),
    ]


# --- errors -------------------------------------------------------------------------


def errors_vectors() -> list[dict[str, object]]:
    reg = register_cmd("${ns}-ap1")
    epochs_call = {"workOrderId": WO}
    return [
        vector(
            "auth/missing-credential",
            "A call without authorization metadata fails with UNAUTHENTICATED CREDENTIAL_MISSING.",
            [
                step(
                    "",
                    "RegistryService",
                    "GetEpochs",
                    epochs_call,
                    error=(UNAUTH, "CREDENTIAL_MISSING"),
                )
            ],
        ),
        vector(
            "auth/invalid-credential",
            "An unknown bearer token fails with UNAUTHENTICATED CREDENTIAL_INVALID.",
            [
                step(
                    "invalid",
                    "RegistryService",
                    "GetEpochs",
                    epochs_call,
                    error=(UNAUTH, "CREDENTIAL_INVALID"),
                )
            ],
        ),
        vector(
            "auth/expired-credential",
            "An expired principal fails with UNAUTHENTICATED CREDENTIAL_EXPIRED.",
            [
                step(
                    "expired",
                    "RegistryService",
                    "GetEpochs",
                    epochs_call,
                    error=(UNAUTH, "CREDENTIAL_EXPIRED"),
                )
            ],
        ),
        vector(
            "auth/test-clock-needs-a-credential",
            "TestClockService is authenticated like every service.",
            [
                step(
                    "",
                    "TestClockService",
                    "Advance",
                    {"byMs": "0"},
                    error=(UNAUTH, "CREDENTIAL_MISSING"),
                )
            ],
        ),
        vector(
            "auth/admin-needs-a-credential",
            "AdminService without a credential fails with CREDENTIAL_MISSING.",
            [admin("ListHolds", {}, principal="", error=(UNAUTH, "CREDENTIAL_MISSING"))],
        ),
        vector(
            "auth/every-principal-reads-its-grants",
            "Alice, bob, agent, service and reader may all read epochs.",
            [
                step(p, "RegistryService", "GetEpochs", epochs_call, response={"epochs": EPOCHS})
                for p in ("alice", "bob", "agent", "service", "reader")
            ],
        ),
        vector(
            "grants/reader-cannot-propose",
            "A principal with only registry.read fails to PROPOSE with ACTION_NOT_GRANTED.",
            [
                *registered(),
                execute(
                    "reader", "${ns}-r2", propose_cmd("p1"), error=(DENIED, "ACTION_NOT_GRANTED")
                ),
            ],
        ),
        vector(
            "grants/reader-cannot-approve",
            "A human without approval.create fails with ACTION_NOT_GRANTED.",
            [
                review(reg),
                approve("${ns}-ap1", principal="reader", error=(DENIED, "ACTION_NOT_GRANTED")),
            ],
        ),
        vector(
            "grants/agent-cannot-register",
            "An agent holds no registry.register grant: ACTION_NOT_GRANTED.",
            [
                *approved(reg, "${ns}-ap1"),
                execute("agent", "${ns}-r1", reg, error=(DENIED, "ACTION_NOT_GRANTED")),
            ],
        ),
        vector(
            "grants/agent-cannot-advance-epochs",
            "An agent fails AdvanceEpoch with ACTION_NOT_GRANTED.",
            [
                admin(
                    "AdvanceEpoch",
                    {"workOrderId": WO, "kind": "EPOCH_KIND_OWNERSHIP", "expectedEpoch": "1"},
                    principal="agent",
                    error=(DENIED, "ACTION_NOT_GRANTED"),
                )
            ],
        ),
        vector(
            "grants/service-cannot-use-admin",
            "A service account without admin grants fails with ACTION_NOT_GRANTED.",
            [
                admin(
                    "GetWorkOrder",
                    {"workOrderId": WO},
                    principal="service",
                    error=(DENIED, "ACTION_NOT_GRANTED"),
                )
            ],
        ),
        vector(
            "human/agent-with-every-grant-cannot-register",
            "An agent granted everything still fails REGISTER with HUMAN_REQUIRED.",
            [
                *approved(reg, "${ns}-ap1"),
                execute("rogue", "${ns}-r1", reg, error=(DENIED, "HUMAN_REQUIRED")),
            ],
        ),
        vector(
            "human/agent-with-every-grant-cannot-activate",
            "An agent granted everything fails ACTIVATE with HUMAN_REQUIRED.",
            [
                *registered(),
                proposed("p1"),
                *approved(activate_cmd("p1", "${ns}-ap1"), "${ns}-ap1"),
                execute(
                    "rogue",
                    "${ns}-r3",
                    activate_cmd("p1", "${ns}-ap1"),
                    error=(DENIED, "HUMAN_REQUIRED"),
                ),
            ],
        ),
        vector(
            "human/agent-with-every-grant-cannot-reject",
            "An agent granted everything fails REJECT with HUMAN_REQUIRED.",
            [
                *registered(),
                proposed("p1"),
                *approved(reject_cmd("p1", "no", "${ns}-ap1"), "${ns}-ap1"),
                execute(
                    "rogue",
                    "${ns}-r3",
                    reject_cmd("p1", "no", "${ns}-ap1"),
                    error=(DENIED, "HUMAN_REQUIRED"),
                ),
            ],
        ),
        vector(
            "human/service-account-cannot-register",
            "A SERVICE principal with registry.* fails REGISTER with HUMAN_REQUIRED.",
            [
                *approved(reg, "${ns}-ap1"),
                execute("service", "${ns}-r1", reg, error=(DENIED, "HUMAN_REQUIRED")),
            ],
        ),
        vector(
            "human/agent-may-propose-with-every-grant",
            "The rogue agent may still PROPOSE: only human actions need a human.",
            [
                *registered(),
                execute(
                    "rogue",
                    "${ns}-r2",
                    propose_cmd("p1"),
                    response={"receipt": {"principalId": "rogue"}},
                ),
            ],
        ),
        vector(
            "human/denied-command-consumes-nothing",
            "A command refused for HUMAN_REQUIRED leaves the approval ACTIVE.",
            [
                *approved(reg, "${ns}-ap1"),
                execute("rogue", "${ns}-r1", reg, error=(DENIED, "HUMAN_REQUIRED")),
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap1"},
                    response={
                        "approval": {"state": "APPROVAL_STATE_ACTIVE", "consumedByRequestId": None}
                    },
                ),
            ],
        ),
        vector(
            "input/empty-work-order-id-is-required",
            "GetEpochs without a work order id fails with FIELD_REQUIRED.",
            [step("alice", "RegistryService", "GetEpochs", {}, error=(INVALID, "FIELD_REQUIRED"))],
        ),
        vector(
            "input/identifier-longer-than-128-is-rejected",
            "A 129-character work order id fails with IDENTIFIER_INVALID.",
            [
                step(
                    "alice",
                    "RegistryService",
                    "GetEpochs",
                    {"workOrderId": "${ns}-" + "x" * 114},
                    error=(INVALID, "IDENTIFIER_INVALID"),
                )
            ],
        ),
        vector(
            "input/unregistered-head-is-not-found",
            "GetHead of a ref never registered fails with NOT_FOUND REF_NOT_FOUND.",
            [get_head(error=("NOT_FOUND", "REF_NOT_FOUND"))],
        ),
    ]


AREAS = {
    "registry": (
        "Registry commands (REGISTER, PROPOSE, ACTIVATE, REJECT) and their failures.",
        registry_vectors,
    ),
    "approvals": (
        "Approvals: creation, expiry, binding to exact material, single use.",
        approvals_vectors,
    ),
    "idempotency": (
        "Idempotency and replay of commands by (principal, request_id).",
        idempotency_vectors,
    ),
    "history": ("History paging: order, cursors, limits, immutability.", history_vectors),
    "controls": (
        "Epochs, work-order controls and holds (restore and clock uncertainty).",
        controls_vectors,
    ),
    "values": (
        "Value rules: the document profile, canonical JSON and digests, epoch "
        "milliseconds and the test clock.",
        values_vectors,
    ),
    "hazards": (
        "Cross-language hazards: int64 above 2^53, unknown enums and fields, empty "
        "versus absent, UTF-8 identifiers.",
        hazards_vectors,
    ),
    "errors": ("Authentication, grants, the human rule and input errors.", errors_vectors),
    "runs": (
        "Runs and nodes: StartRun (ad hoc and governed), request ids, snapshots, stop, "
        "node results, ListRuns, and definition validation.",
        lambda: runs_vectors() + definition_vectors(),
    ),
    "tasks": (
        "Tasks and leases: claims, settlement and replay, retries and backoff, lease "
        "expiry and timeouts, output contracts, size cap and cost decimals, batch "
        "settlement (SettleTasks), progress reported with heartbeats.",
        lambda: tasks_vectors() + settle_vectors() + progress_vectors(),
    ),
    "fanout": (
        "Fan-out and joins: numeric item order, empty and non-array fan-outs, item "
        "failure, joins keyed by node.",
        fanout_vectors,
    ),
    "events": (
        "Events and cursors: run event order, paging with after/limit, subscribers and "
        "AckEvents positions.",
        events_vectors,
    ),
    "streams": (
        "Server streams: WatchRun snapshots until the run ends; StreamEvents after a "
        "cursor or a subscriber's position, filtered, then live.",
        streams_vectors,
    ),
    **MODEL_AREAS,
    **CONSOLE_AREAS,
    **GOVERNED_AREAS,
    **SCHEDULE_AREAS,
    **WORK_ORDER_AREAS,
    **TREE_AREAS,
    **NOTIFY_AREAS,
    **RETENTION_AREAS,
    **SIMULATION_AREAS,
}


def build() -> dict[str, str]:
    """File name to file text for every area."""
    files: dict[str, str] = {}
    names: set[str] = set()
    for area, (description, make) in AREAS.items():
        vectors = make()
        for item in vectors:
            if item["name"] in names:
                raise SystemExit(f"duplicate vector name {item['name']}")
            names.add(item["name"])
        document = {"area": area, "description": description, "vectors": vectors}
        files[f"{area}.json"] = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    return files


def main() -> None:
    VECTORS.mkdir(exist_ok=True)
    files = build()
    for name, text in files.items():
        (VECTORS / name).write_text(text, encoding="utf-8")
    total = sum(len(json.loads(text)["vectors"]) for text in files.values())
    print(f"wrote {len(files)} files, {total} vectors")


if __name__ == "__main__":
    main()
