"""The console's reads: GetRun's definition, node times, WatchInbox (and the stuck runs
it reports), ListRefs and ListContracts.

Imported by ``build_vectors.py``. The inbox and the registry are installation-wide, so
every vector here names its own work order (``${ns}`` or ``${ns}-wo``): WatchInbox and
the list RPCs are filtered by it, and see only what the vector made.
"""

from __future__ import annotations

from typing import Any

from model_vectors import (
    ACCEPT,
    ASSESS,
    CID,
    CWO,
    DRAFT_TEXT,
    HANDOFF_CHAIN,
    HANDOFFS,
    PASS,
    VERIFY,
    acknowledge,
    assess,
    claim_as,
    completed,
    create_contract,
    offer,
)
from runtime_vectors import (
    AGENT,
    INVALID,
    RUNS,
    claim,
    complete,
    definition,
    json_out,
    model,
    node,
    start,
    task,
    teach,
)
from vectorlib import (
    D1,
    REF,
    WO,
    canonical,
    clock,
    proposed,
    ref,
    register_cmd,
    registered,
    resume_stream,
    review,
    step,
    stream_step,
    vector,
)

Json = Any

CHAIN = definition("b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",)))
KINDS = (
    "PROPOSAL", "RECONCILIATION", "HUMAN_INPUT", "AUTHORIZATION", "HOLD", "STUCK_RUN",
    "ACCEPTANCE", "VERIFICATION", "HANDOFF", "APPROVAL_EXPIRING", "WORK_ORDER_PROPOSAL",
)  # fmt: skip
STUCK_AFTER_MS = 300_000  # docs/operations.md: a ready node unclaimed this long
SCHEDULE_TO_START_MS = 3_600_000  # the definition default
INBOX = ["aiws.engine.v1.InboxService"]
REGISTRY = ["aiws.engine.v1.RegistryService"]
CONTRACTS = ["aiws.engine.v1.ContractService"]
PAGE_INVALID = (INVALID, "PAGE_INVALID")


def get_run_definition(rid: str = "${run}", principal: str = AGENT, **expect: Json) -> Json:
    """GetRun with ``includeDefinition``."""
    request = {"runId": rid, "includeDefinition": True}
    return step(principal, "RunService", "GetRun", request, **expect)


def run_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "console/get-run-returns-the-definition-when-asked",
            "GetRun with include_definition returns the canonical JSON of the definition "
            "the run applies, beside the snapshot; without it, no definition.",
            [
                teach(),
                start(CHAIN),
                get_run_definition(
                    response={"run": {"runId": "${run}"}, "definitionJson": canonical(CHAIN)}
                ),
                step(
                    AGENT,
                    "RunService",
                    "GetRun",
                    {"runId": "${run}"},
                    response={"run": {"runId": "${run}"}, "definitionJson": None},
                ),
            ],
            RUNS,
        ),
        vector(
            "console/get-run-definition-of-a-governed-run-is-its-head",
            "A governed run's definition is the head it executes.",
            [
                *registered(),
                step(
                    "alice",
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": ref(), "inputJson": "null"},
                    response={"run": {"runId": "<any>", "definitionDigest": D1}},
                    captures={"run": "run.runId"},
                ),
                get_run_definition(
                    principal="alice",
                    response={"run": {"definitionDigest": D1}, "definitionJson": "<any>"},
                ),
            ],
            RUNS,
        ),
        vector(
            "console/get-run-definition-of-an-unknown-run-is-not-found",
            "include_definition changes nothing about validation and authority.",
            [
                get_run_definition(
                    "run_${ns}", principal="alice", error=("NOT_FOUND", "RUN_NOT_FOUND")
                ),
                get_run_definition("a b", error=(INVALID, "IDENTIFIER_INVALID")),
            ],
            RUNS,
        ),
        vector(
            "console/nodes-carry-their-start-and-end-times",
            "A node's started_at_ms is when its first attempt was dispatched and its "
            "finished_at_ms when it ended; a node not yet started has neither.",
            [
                teach(),
                start(CHAIN),
                claim(
                    [task("a", output=canonical(json_out({"type": "object"})))],
                    captures={"att": "tasks.0.attemptId"},
                ),
                complete("att", '{"ok":true}', advance_ms=500),
                step(
                    AGENT,
                    "RunService",
                    "GetRun",
                    {"runId": "${run}"},
                    response={
                        "run": {
                            "nodes": [
                                {
                                    "nodeUid": "a",
                                    "startedAtMs": "${t0}",
                                    "finishedAtMs": "${t0+500}",
                                },
                                {"nodeUid": "b", "startedAtMs": None, "finishedAtMs": None},
                            ]
                        }
                    },
                ),
            ],
            RUNS,
        ),
    ]


def counts(**nonzero: int) -> list[Json]:
    """The expected InboxCount list: every kind in order, a zero count absent."""
    return [
        {
            "kind": f"INBOX_ITEM_KIND_{kind}",
            "count": str(nonzero[kind]) if nonzero.get(kind) else None,
        }
        for kind in KINDS
    ]


def inbox_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "inbox/watch-sends-counts-at-once-and-after-each-change",
            "WatchInbox of one work order sends its counts at once, nothing for a change "
            "that leaves them (registering a ref), and new counts with a new fingerprint "
            "when a proposal enters the inbox.",
            [
                stream_step(
                    "alice",
                    "InboxService",
                    "WatchInbox",
                    {"workOrderId": WO},
                    [{"counts": counts(), "total": None, "fingerprint": "<any>"}],
                    keep="inbox",
                    captures={"empty": "0.fingerprint"},
                ),
                *registered(),
                proposed("p1"),
                resume_stream(
                    "inbox",
                    [{"counts": counts(PROPOSAL=1), "total": "1", "fingerprint": "<any>"}],
                    captures={"one": "0.fingerprint"},
                ),
                step(
                    "alice",
                    "InboxService",
                    "ListInbox",
                    {"workOrderId": WO},
                    response={"total": "1", "counts": counts(PROPOSAL=1)},
                ),
            ],
            [*INBOX, *REGISTRY],
        ),
        vector(
            "inbox/watch-is-refused-like-list-inbox",
            "WatchInbox needs inbox.read (an agent has none) and a valid work order id.",
            [
                stream_step(
                    AGENT,
                    "InboxService",
                    "WatchInbox",
                    {"workOrderId": WO},
                    error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED"),
                ),
                stream_step(
                    "alice",
                    "InboxService",
                    "WatchInbox",
                    {"workOrderId": "a b"},
                    error=(INVALID, "IDENTIFIER_INVALID"),
                ),
                stream_step(
                    "",
                    "InboxService",
                    "WatchInbox",
                    {},
                    error=("UNAUTHENTICATED", "CREDENTIAL_MISSING"),
                ),
            ],
            INBOX,
        ),
    ]


def governed_run() -> list[Json]:
    """Teaches the vector's model, registers a one-node plan on it at ``${ns}``/run-1 and
    starts that governed run (``${run}``, work order ``${ns}``) at ``${t0}``."""
    return [
        teach(),
        *registered(text=canonical(definition("a", a=node()))),
        step(
            AGENT,
            "RunService",
            "StartRun",
            {"requestId": "${ns}-gov", "ref": REF},
            response={"created": True, "run": {"runId": "<any>"}},
            captures={"run": "run.runId"},
        ),
    ]


def stuck_inbox(served: bool | None) -> Json:
    """ListInbox of the vector's work order, stuck runs only: ``${run}`` is stuck (or,
    with ``served`` None, nothing is)."""
    request = {"workOrderId": WO, "kinds": ["INBOX_ITEM_KIND_STUCK_RUN"]}
    if served is None:
        response = {"items": None, "total": None, "counts": counts()}
        return step("alice", "InboxService", "ListInbox", request, response=response)
    item = {
        "itemId": "stuck:${run}",
        "kind": "INBOX_ITEM_KIND_STUCK_RUN",
        "sinceMs": "${t0}",
        "workOrderId": WO,
        "runId": "${run}",
        "summary": "<any>",
        "stuckRun": {
            "runId": "${run}",
            "nodeUid": "a",
            "model": model(),
            "readySinceMs": "${t0}",
            "served": True if served else None,
            "scheduleToStartDeadlineMs": f"${{t0+{SCHEDULE_TO_START_MS}}}",
            "stuckNodes": "1",
        },
    }
    response = {"items": [item], "total": "1", "counts": counts(STUCK_RUN=1)}
    return step("alice", "InboxService", "ListInbox", request, response=response)


def stuck_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "inbox/stuck-run-is-listed-past-the-threshold",
            "A governed run whose ready node no worker claims becomes a STUCK_RUN item once "
            "it has waited 5 minutes (not a millisecond before): since when, the node, its "
            "model, and whether a worker serves the model (true while the worker's "
            "registration lives, 10 minutes after its claim); a claim that leases the node "
            "takes the item out.",
            [
                *governed_run(),
                stuck_inbox(None),
                clock(STUCK_AFTER_MS - 1),
                stuck_inbox(None),
                clock(1),
                stuck_inbox(served=True),
                clock(600_000),
                stuck_inbox(served=False),
                claim([task("a", lease_until="<any>", revision="1")]),
                stuck_inbox(None),
            ],
            [*INBOX, *REGISTRY, *RUNS],
        ),
        vector(
            "inbox/stuck-run-is-not-listed-while-its-work-order-is-paused",
            "A paused work order's runs are not stuck (the pause is deliberate); resumed, "
            "the run that waited is listed again.",
            [
                *governed_run(),
                clock(STUCK_AFTER_MS),
                step(
                    "alice",
                    "AdminService",
                    "PauseWorkOrder",
                    {"workOrderId": WO, "reason": "audit"},
                ),
                stuck_inbox(None),
                step("alice", "AdminService", "ResumeWorkOrder", {"workOrderId": WO}),
                stuck_inbox(served=True),
            ],
            [*INBOX, *REGISTRY, *RUNS, "aiws.engine.v1.AdminService"],
        ),
        vector(
            "inbox/watch-reports-a-run-becoming-stuck",
            "A run becomes stuck with no write: WatchInbox sends new counts once the clock "
            "passes the threshold.",
            [
                *governed_run(),
                stream_step(
                    "alice",
                    "InboxService",
                    "WatchInbox",
                    {"workOrderId": WO},
                    [{"counts": counts(), "total": None, "fingerprint": "<any>"}],
                    keep="inbox",
                ),
                clock(STUCK_AFTER_MS),
                resume_stream(
                    "inbox",
                    [{"counts": counts(STUCK_RUN=1), "total": "1", "fingerprint": "<any>"}],
                ),
            ],
            [*INBOX, *REGISTRY, *RUNS],
        ),
    ]


def owed_inbox(*kinds: str) -> Json:
    """ListInbox of the contract's work order: the assessments ``${run}`` owes."""
    items = [
        {
            "itemId": f"{kind.lower()}:${{run}}",
            "kind": f"INBOX_ITEM_KIND_{kind}",
            "sinceMs": "${t0}",
            "workOrderId": CWO,
            "runId": "${run}",
            "summary": "<any>",
            "assessmentDue": {
                "runId": "${run}",
                "kind": f"ASSESSMENT_KIND_{kind}",
                "contractId": CID,
                "sinceMs": "${t0}",
            },
        }
        for kind in kinds
    ]
    response = {
        "items": items or None,
        "total": str(len(kinds)) if kinds else None,
        "counts": counts(**{kind: 1 for kind in kinds}),
    }
    return step("alice", "InboxService", "ListInbox", {"workOrderId": CWO}, response=response)


def owed_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "inbox/a-completed-run-under-a-contract-owes-its-assessments",
            "A run under a contract that completes owes a verification and an acceptance: "
            "both are inbox items of the contract's work order since its completion (in "
            "kind order), and each leaves the inbox with the assessment that settles it.",
            [
                create_contract(),
                *completed(CID),
                owed_inbox("ACCEPTANCE", "VERIFICATION"),
                assess(VERIFY, PASS, principal=AGENT),
                owed_inbox("ACCEPTANCE"),
                assess(ACCEPT, PASS, request_id="${ns}-as2"),
                owed_inbox(),
            ],
            [*INBOX, *ASSESS, *CONTRACTS],
        ),
    ]


def handoff_inbox(offered: bool) -> Json:
    """ListInbox of the contract's work order, handoffs only: ``${dlv}`` while offered."""
    request = {"workOrderId": CWO, "kinds": ["INBOX_ITEM_KIND_HANDOFF"]}
    if not offered:
        response = {"items": None, "total": None, "counts": counts()}
        return step("alice", "InboxService", "ListInbox", request, response=response)
    item = {
        "itemId": "handoff:${dlv}",
        "kind": "INBOX_ITEM_KIND_HANDOFF",
        "sinceMs": "${t0}",
        "workOrderId": CWO,
        "runId": "${run}",
        "summary": "<any>",
        "handoff": {
            "deliveryId": "${dlv}",
            "runId": "${run}",
            "nodeUid": "a",
            "fromPrincipalId": AGENT,
            "toPrincipalId": "agent2",
            "state": "HANDOFF_STATE_OFFERED",
        },
    }
    response = {"items": [item], "total": "1", "counts": counts(HANDOFF=1)}
    return step("alice", "InboxService", "ListInbox", request, response=response)


def expiring_count(count: str | None = None, capture: str | None = None) -> Json:
    """ListInbox of the whole installation, expiring approvals only: their count is
    ``count``, or is captured. Approvals name no work order, so the installation-wide
    count holds other vectors' (and languages') approvals too: the vector compares counts
    it captured, with the clock still, never lists the items."""
    expected: dict[str, Json] = {"kind": "INBOX_ITEM_KIND_APPROVAL_EXPIRING"}
    if count is not None:
        expected["count"] = count
    at = KINDS.index("APPROVAL_EXPIRING")
    pattern = [expected if i == at else {} for i in range(len(KINDS))]
    request = {"kinds": ["INBOX_ITEM_KIND_APPROVAL_EXPIRING"], "pageSize": 1}
    return step(
        "alice",
        "InboxService",
        "ListInbox",
        request,
        response={"counts": pattern},
        captures={capture: f"counts.{at}.count"} if capture else None,
    )


def approval_expiring(approval_id: str, md: str, expires: str, **expect: Json) -> Json:
    """CreateApproval by alice of ``${md}`` until ``expires``."""
    request = {"approvalId": approval_id, "materialDigest": "${" + md + "}", "expiresAtMs": expires}
    return step("alice", "ApprovalService", "CreateApproval", request, **expect)


HOUR_MS = 3_600_000


def handoff_and_approval_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "inbox/an-offered-handoff-waits-for-its-acknowledgement",
            "A handoff offered and not acknowledged is a HANDOFF item of its run's work "
            "order since it was offered, with the handoff; acknowledged, it leaves.",
            [
                teach(),
                start(HANDOFF_CHAIN, workOrderId=CWO),
                claim_as("att", op="op"),
                complete("att", DRAFT_TEXT),
                handoff_inbox(offered=False),
                offer(),
                handoff_inbox(offered=True),
                acknowledge(),
                handoff_inbox(offered=False),
            ],
            [*INBOX, *HANDOFFS],
        ),
        vector(
            "inbox/an-expiring-approval-leaves-once-renewed",
            "An unused approval enters the (installation-wide) inbox an hour before it "
            "expires, as the test clock moves; another approval of the same material "
            "and purpose that expires within the window does not take it out, one that "
            "outlives the window (a renewal) does, and takes out every approval of that "
            "material in the window. The same human's approvals of one material share "
            "one proof, and the approval renewed stays ACTIVE.",
            [
                review(register_cmd("${ns}-ap-c", ref("run-c")), "md_c"),
                review(register_cmd("${ns}-ap-a", ref("run-a")), "md_a"),
                approval_expiring("${ns}-ap-c", "md_c", f"${{t0+{HOUR_MS}}}"),
                approval_expiring(
                    "${ns}-ap-a",
                    "md_a",
                    f"${{t0+{HOUR_MS * 3 // 2}}}",
                    response={"approval": {"state": "APPROVAL_STATE_ACTIVE"}},
                    captures={"proof": "approval.proofDigest"},
                ),
                clock(HOUR_MS // 2),  # ap-a enters: it expires in exactly an hour
                expiring_count(capture="n"),
                approval_expiring("${ns}-ap-a1", "md_a", f"${{t0+{HOUR_MS * 4 // 3}}}"),
                expiring_count("${n+1}"),  # within the window: listed, renews nothing
                approval_expiring(
                    "${ns}-ap-a2",
                    "md_a",
                    f"${{t0+{HOUR_MS * 3}}}",
                    response={"approval": {"proofDigest": "${proof}"}, "replayed": None},
                ),
                expiring_count("${n-1}"),  # ap-a and ap-a1 are renewed; ap-c stays
                step(
                    "alice",
                    "ApprovalService",
                    "GetApproval",
                    {"approvalId": "${ns}-ap-a"},
                    response={"approval": {"state": "APPROVAL_STATE_ACTIVE"}},
                ),
            ],
            [*INBOX, "aiws.engine.v1.ApprovalService", *REGISTRY],
        ),
    ]


def head_row(run_id: str) -> Json:
    """The expected Head of a ListRefs page (no definition)."""
    return {
        "ref": {"workOrderId": WO, "runId": run_id},
        "revision": "1",
        "definitionDigest": D1,
        "definitionJson": None,
        "executionBinding": "EXECUTION_BINDING_UNBOUND",
    }


def list_refs(principal: str = "alice", **request_and_expect: Json) -> Json:
    expect = {k: request_and_expect.pop(k) for k in ("response", "error", "captures")
              if k in request_and_expect}  # fmt: skip
    return step(principal, "RegistryService", "ListRefs", request_and_expect, **expect)


def refs_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "refs/list-pages-heads-of-a-work-order",
            "ListRefs of a work order pages its heads by run id, without definitions; a "
            "page token is bound to its query.",
            [
                *registered(ref("run-2"), tag="r2"),
                *registered(ref("run-1"), tag="r1"),
                list_refs(
                    workOrderId=WO,
                    response={
                        "heads": [head_row("run-1"), head_row("run-2")],
                        "nextPageToken": None,
                    },
                ),
                list_refs(
                    "reader",
                    workOrderId=WO,
                    pageSize=1,
                    response={"heads": [head_row("run-1")], "nextPageToken": "<any>"},
                    captures={"next": "nextPageToken"},
                ),
                list_refs(
                    "reader",
                    workOrderId=WO,
                    pageSize=1,
                    pageToken="${next}",
                    response={"heads": [head_row("run-2")], "nextPageToken": None},
                ),
                list_refs(pageSize=1, pageToken="${next}", error=PAGE_INVALID),
            ],
            REGISTRY,
        ),
        vector(
            "refs/list-refuses-bad-pages-and-ids",
            "ListRefs: a page size over 500, a token it did not issue, an invalid work "
            "order id, and no credential are refused.",
            [
                list_refs(workOrderId=WO, pageSize=501, error=PAGE_INVALID),
                list_refs(workOrderId=WO, pageToken="bm9wZQ", error=PAGE_INVALID),
                list_refs(workOrderId="a b", error=(INVALID, "IDENTIFIER_INVALID")),
                list_refs("", workOrderId=WO, error=("UNAUTHENTICATED", "CREDENTIAL_MISSING")),
            ],
            REGISTRY,
        ),
    ]


def contract_row(cid: str, budget: str) -> Json:
    return {
        "contractId": cid,
        "workOrderId": CWO,
        "budgetMicrocredits": budget,
        "spentMicrocredits": "0",
        "reservedMicrocredits": "0",
        "remainingMicrocredits": budget,
    }


def list_contracts(principal: str = "alice", **request_and_expect: Json) -> Json:
    expect = {k: request_and_expect.pop(k) for k in ("response", "error", "captures")
              if k in request_and_expect}  # fmt: skip
    return step(principal, "ContractService", "ListContracts", request_and_expect, **expect)


def contracts_list_vectors() -> list[dict[str, Json]]:
    second = f"{CID}2"
    return [
        vector(
            "contracts/list-pages-contracts-of-a-work-order",
            "ListContracts of a work order pages its contracts by id with exact decimal "
            "budgets and spend; a page token is bound to its query.",
            [
                create_contract("12.5", cid=second, response={"contract": {"contractId": second}}),
                create_contract("100"),
                list_contracts(
                    workOrderId=CWO,
                    response={
                        "contracts": [contract_row(CID, "100"), contract_row(second, "12.5")],
                        "nextPageToken": None,
                    },
                ),
                list_contracts(
                    workOrderId=CWO,
                    pageSize=1,
                    response={"contracts": [contract_row(CID, "100")], "nextPageToken": "<any>"},
                    captures={"next": "nextPageToken"},
                ),
                list_contracts(
                    workOrderId=CWO,
                    pageSize=1,
                    pageToken="${next}",
                    response={"contracts": [contract_row(second, "12.5")], "nextPageToken": None},
                ),
                list_contracts(pageToken="${next}", error=PAGE_INVALID),
            ],
            CONTRACTS,
        ),
        vector(
            "contracts/list-is-refused-without-contract-read",
            "ListContracts needs contract.read (reader has registry.read only), a page "
            "size of at most 500 and a valid work order id.",
            [
                list_contracts(
                    "reader", workOrderId=CWO, error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
                ),
                list_contracts(workOrderId=CWO, pageSize=501, error=PAGE_INVALID),
                list_contracts(workOrderId="a b", error=(INVALID, "IDENTIFIER_INVALID")),
            ],
            CONTRACTS,
        ),
    ]


AREAS = {
    "console": (
        "The reads of the web console: a run's definition (GetRun include_definition), "
        "node start and end times, ListRefs and ListContracts pages bound to their query.",
        lambda: run_vectors() + refs_vectors() + contracts_list_vectors(),
    ),
    "inbox": (
        "WatchInbox: the inbox's counts at once and after each change, refused like "
        "ListInbox; stuck runs: listed past the threshold, not while paused, reported by "
        "WatchInbox with no write; the assessments a completed run under a contract owes; "
        "a handoff until acknowledged; an approval about to expire until renewed.",
        lambda: inbox_vectors() + stuck_vectors() + owed_vectors() + handoff_and_approval_vectors(),
    ),
}
