"""Governed execution's vectors (issue 23): declared effects, lost leases that become
reconciliations, schedule-to-start and run deadlines, ResumeRun, one run per ref.

Imported by ``build_vectors.py``; uses the runtime's helpers (per-vector models, captured
run and attempt ids, the test clock). What a sweep decides is observed deterministically:
a claim after a deadline expires the node or run itself instead of leasing it, and a lost
lease is observed after a claim that long-polls long enough for the sweeper to run.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import (
    AGENT,
    FAILED,
    INVALID,
    ONE,
    RUNS,
    claim,
    claim_one,
    complete,
    definition,
    fail,
    get_run,
    heartbeat,
    json_out,
    model,
    nd,
    node,
    snapshot,
    start,
    stop,
    task,
    teach,
)
from vectorlib import (
    EPOCHS,
    REF,
    activated,
    approve,
    canonical,
    clock,
    digest_of,
    proposed,
    registered,
    step,
    vector,
)

Json = Any

RECONCILIATIONS = [*RUNS, "aiws.engine.v1.ReconciliationService"]
GOVERNED = [*RUNS, "aiws.engine.v1.RegistryService", "aiws.engine.v1.ApprovalService"]
UNDECLARED = definition("a", a=node(retry={"attempts": 3, "backoff_ms": 0}))
IDEMPOTENT = definition("a", a=node(retry={"attempts": 3, "backoff_ms": 0}, effects="idempotent"))
OBJECT = json_out({"type": "object"})
THREE = definition(
    "out",
    a=node(output=OBJECT, tag="a", effects="external"),
    b=node(output=OBJECT, tag="b", effects="external"),
    c=node(output=OBJECT, tag="c", effects="external"),
    out=node(["node:a", "node:b", "node:c"], ("a", "b", "c")),
)
ORPHANED = definition(
    "out", out=node(output=OBJECT), side=node(output=OBJECT, tag="side", effects="external")
)


def reconciliations_of(expected: Json) -> dict[str, Json]:
    """ListReconciliations of ``${run}``; ``None`` expects none."""
    return step(
        AGENT,
        "ReconciliationService",
        "ListReconciliations",
        {"runId": "${run}"},
        response={"reconciliations": expected},
    )


def resume(
    request_id: str = "${ns}-resume",
    reason: str = "fixed upstream",
    *,
    run: Json = None,
    error: tuple[str, str] | None = None,
    **fields: Json,
) -> dict[str, Json]:
    """ResumeRun of ``${run}``."""
    request = {"runId": "${run}", "requestId": request_id, "reason": reason, **fields}
    if error:
        return step(AGENT, "RunService", "ResumeRun", request, error=error)
    return step(
        AGENT, "RunService", "ResumeRun", request, response={"run": run or {"runId": "${run}"}}
    )


def governed_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "governed/task-carries-the-declared-effects",
            "A claimed task says what its node declares repeating its work does "
            "(`effects`); a node that declares nothing carries NODE_EFFECTS_UNSPECIFIED, "
            "which workers treat as external.",
            [
                teach(),
                start(IDEMPOTENT),
                claim([task("a", effects="NODE_EFFECTS_IDEMPOTENT")]),
                start(UNDECLARED, request_id="${ns}-start-2", capture="run2"),
                claim([task("a", run="${run2}", effects=None)]),
            ],
            RUNS,
        ),
        vector(
            "governed/lost-lease-on-an-undeclared-node-opens-a-reconciliation",
            "When the lease of an attempt on a node that declares no effects runs out, the "
            "node is not re-dispatched: it is BLOCKED and a reconciliation of that attempt "
            "waits for a human (not completed, its error says the lease expired).",
            [
                teach(),
                start(UNDECLARED),
                claim_one(lease_ms=5000),
                claim(None, wait_ms=2000, advance_ms=5000),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [nd("a", "BLOCKED", attempts=1, error="<any>")],
                    )
                ),
                step(
                    AGENT,
                    "ReconciliationService",
                    "ListReconciliations",
                    {"runId": "${run}"},
                    response={
                        "reconciliations": [
                            {
                                "attemptId": "${att}",
                                "runId": "${run}",
                                "nodeUid": "a",
                                "completed": None,
                                "state": "RECONCILIATION_STATE_PENDING",
                                "error": "<any>",
                            }
                        ]
                    },
                ),
            ],
            RECONCILIATIONS,
        ),
        vector(
            "governed/applied-with-a-result-completes-a-node-whose-lease-was-lost",
            "A human who established that the lost attempt's effect was applied records "
            "APPLIED with the result (part of the approved material): the node completes "
            "with it and never runs again. A result with NOT_APPLIED is refused.",
            [
                teach(),
                start(definition("a", a=node(output=json_out({"type": "object"})))),
                claim_one(lease_ms=5000),
                claim(None, wait_ms=2000, advance_ms=5000),
                step(
                    "alice",
                    "ReconciliationService",
                    "ReviewReconciliation",
                    {
                        "epochs": EPOCHS,
                        "attemptId": "${att}",
                        "decision": "RECONCILIATION_DECISION_NOT_APPLIED",
                        "evidenceJson": "{}",
                        "resultJson": "{}",
                    },
                    error=(INVALID, "RESULT_NOT_EXPECTED"),
                ),
                step(
                    "alice",
                    "ReconciliationService",
                    "ReviewReconciliation",
                    {
                        "epochs": EPOCHS,
                        "attemptId": "${att}",
                        "decision": "RECONCILIATION_DECISION_APPLIED",
                        "evidenceJson": '{"provider":"charge found"}',
                        "resultJson": '{"charged":true}',
                    },
                    response={"material": {"resultDigest": "<any>"}, "materialDigest": "<any>"},
                    captures={"md_rec": "materialDigest"},
                ),
                approve("${ns}-ap-rec", "md_rec"),
                step(
                    "alice",
                    "ReconciliationService",
                    "Reconcile",
                    {
                        "epochs": EPOCHS,
                        "requestId": "${ns}-rec",
                        "attemptId": "${att}",
                        "decision": "RECONCILIATION_DECISION_APPLIED",
                        "evidenceJson": '{"provider":"charge found"}',
                        "resultJson": '{"charged":true}',
                        "approvalId": "${ns}-ap-rec",
                    },
                    response={"reconciliation": {"state": "RECONCILIATION_STATE_RESOLVED"}},
                ),
                get_run(snapshot("COMPLETED", resultJson='{"charged":true}')),
                claim(None),
            ],
            [*RECONCILIATIONS, "aiws.engine.v1.ApprovalService"],
        ),
        vector(
            "governed/stop-is-settled-by-the-workers-report",
            "StopRun while three external nodes run: the run is CANCELLING and each node "
            "STOPPING (heartbeats answer cancelled without extending the lease), and no "
            "reconciliation opens. The worker that reports NOT_APPLIED cancels its node, "
            "the one that completes keeps its result (DONE); once the silent one's lease "
            "runs out it alone becomes a reconciliation and the run is CANCELLED.",
            [
                teach("", "a", "b", "c"),
                start(THREE),
                *[
                    claim_one(
                        f"att_{uid}",
                        tag=uid,
                        lease_ms=5000,
                        task={"nodeUid": uid, "attemptId": "<any>", "runId": "${run}"},
                    )
                    for uid in ("a", "b", "c")
                ],
                stop(
                    response={
                        "run": snapshot(
                            "CANCELLING",
                            [
                                nd("a", "STOPPING", attempts=1, error="<any>"),
                                nd("b", "STOPPING", attempts=1, error="<any>"),
                                nd("c", "STOPPING", attempts=1, error="<any>"),
                                nd("out", "CANCELLED", error="<any>"),
                            ],
                            finishedAtMs=None,
                        )
                    }
                ),
                heartbeat("att_a", response={"cancelled": True, "leaseExpiresAtMs": "${t0+5000}"}),
                reconciliations_of(None),
                fail("att_a", "stopped before the call", response={"willRetry": None}),
                complete("att_b", '{"sent":1}', response={"replayed": None}),
                get_run(
                    snapshot(
                        "CANCELLING",
                        [
                            nd("a", "CANCELLED", attempts=1, error="<any>"),
                            nd("b", "DONE", attempts=1, result=True),
                            nd("c", "STOPPING", attempts=1, error="<any>"),
                            nd("out", "CANCELLED", error="<any>"),
                        ],
                    )
                ),
                reconciliations_of(None),
                claim(None, wait_ms=2000, advance_ms=5000),
                get_run(
                    snapshot(
                        "CANCELLED",
                        [
                            nd("a", "CANCELLED", attempts=1, error="<any>"),
                            nd("b", "DONE", attempts=1, result=True),
                            nd("c", "BLOCKED", attempts=1, error="<any>"),
                            nd("out", "CANCELLED", error="<any>"),
                        ],
                        finishedAtMs="<any>",
                    )
                ),
                reconciliations_of(
                    [
                        {
                            "attemptId": "${att_c}",
                            "nodeUid": "c",
                            "state": "RECONCILIATION_STATE_PENDING",
                        }
                    ]
                ),
            ],
            RECONCILIATIONS,
        ),
        vector(
            "governed/an-orphan-still-running-holds-completion",
            "When the output finishes while an orphan branch's attempt runs, the run is "
            "COMPLETING (its result already set, not finished) and the orphan STOPPING; it "
            "becomes COMPLETED only once the orphan's worker reported.",
            [
                teach("", "side"),
                start(ORPHANED),
                claim_one("att_out", task={"nodeUid": "out", "attemptId": "<any>"}),
                claim_one("att_side", tag="side", task={"nodeUid": "side", "attemptId": "<any>"}),
                complete("att_out", '{"answer":42}', response={"replayed": None}),
                get_run(
                    snapshot(
                        "COMPLETING",
                        [
                            nd("out", "DONE", attempts=1, result=True),
                            nd("side", "STOPPING", attempts=1, error="<any>"),
                        ],
                        resultJson='{"answer":42}',
                        finishedAtMs=None,
                    )
                ),
                heartbeat("att_side", response={"cancelled": True, "leaseExpiresAtMs": "<any>"}),
                complete("att_side", '{"posted":true}', response={"replayed": None}),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [
                            nd("out", "DONE", attempts=1, result=True),
                            nd("side", "DONE", attempts=1, result=True),
                        ],
                        resultJson='{"answer":42}',
                        finishedAtMs="<any>",
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "governed/a-blocked-orphan-holds-completion-until-reconciled",
            "An orphan whose lease runs out silent after the output finished is BLOCKED and "
            "the run stays COMPLETING; a human's NOT_APPLIED reconciliation cancels the "
            "orphan without running it again and the run is COMPLETED.",
            [
                teach("", "side"),
                start(ORPHANED),
                claim_one("att_out", task={"nodeUid": "out", "attemptId": "<any>"}),
                claim_one(
                    "att_side",
                    tag="side",
                    lease_ms=5000,
                    task={"nodeUid": "side", "attemptId": "<any>"},
                ),
                complete("att_out", '{"answer":42}', response={"replayed": None}),
                claim(None, tag="side", wait_ms=2000, advance_ms=5000),
                get_run(
                    snapshot(
                        "COMPLETING",
                        [
                            nd("out", "DONE", attempts=1, result=True),
                            nd("side", "BLOCKED", attempts=1, error="<any>"),
                        ],
                        finishedAtMs=None,
                    )
                ),
                step(
                    "alice",
                    "ReconciliationService",
                    "ReviewReconciliation",
                    {
                        "epochs": EPOCHS,
                        "attemptId": "${att_side}",
                        "decision": "RECONCILIATION_DECISION_NOT_APPLIED",
                        "evidenceJson": '{"provider":"no such post"}',
                    },
                    response={"materialDigest": "<any>"},
                    captures={"md_rec": "materialDigest"},
                ),
                approve("${ns}-ap-rec", "md_rec"),
                step(
                    "alice",
                    "ReconciliationService",
                    "Reconcile",
                    {
                        "epochs": EPOCHS,
                        "requestId": "${ns}-rec",
                        "attemptId": "${att_side}",
                        "decision": "RECONCILIATION_DECISION_NOT_APPLIED",
                        "evidenceJson": '{"provider":"no such post"}',
                        "approvalId": "${ns}-ap-rec",
                    },
                    response={"reconciliation": {"state": "RECONCILIATION_STATE_RESOLVED"}},
                ),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [
                            nd("out", "DONE", attempts=1, result=True),
                            nd("side", "CANCELLED", attempts=1, error="<any>"),
                        ],
                        resultJson='{"answer":42}',
                        finishedAtMs="<any>",
                    )
                ),
                claim(None, tag="side", advance_ms=60000),
            ],
            [*RECONCILIATIONS, "aiws.engine.v1.ApprovalService"],
        ),
        vector(
            "governed/lost-lease-on-an-idempotent-node-runs-it-again",
            "A node that declares its effects idempotent is re-dispatched after a lost "
            "lease, as attempt 2.",
            [
                teach(),
                start(IDEMPOTENT),
                claim_one(lease_ms=5000),
                claim([task("a", attempt=2, lease_until="${t0+65000}")], advance_ms=5000),
            ],
            RUNS,
        ),
        vector(
            "governed/an-unclaimed-node-fails-after-its-schedule-to-start",
            "A ready node no worker claims within its schedule_to_start_ms fails the run "
            "with result_reason SCHEDULE_TO_START_TIMEOUT (a claim after the deadline "
            "expires it instead of leasing it).",
            [
                teach(),
                start(definition("a", a=node(schedule_to_start_ms=1000))),
                claim(None, advance_ms=1000),
                get_run(
                    snapshot(
                        "FAILED",
                        [nd("a", "FAILED", error="<any>")],
                        resultReason="SCHEDULE_TO_START_TIMEOUT",
                        resultError="<any>",
                        failedNodeIds=["a"],
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "governed/a-run-past-its-deadline-fails",
            "A run started with run_timeout_ms carries its deadline; past it the run fails "
            "with result_reason DEADLINE_EXCEEDED and its node is never leased.",
            [
                teach(),
                start(IDEMPOTENT, runTimeoutMs="1000", run={"deadlineMs": "${t0+1000}"}),
                claim(None, advance_ms=1000),
                get_run(snapshot("FAILED", resultReason="DEADLINE_EXCEEDED", resultError="<any>")),
                start(
                    IDEMPOTENT,
                    request_id="${ns}-bad",
                    runTimeoutMs="-1",
                    error=(INVALID, "TIME_INVALID"),
                ),
            ],
            RUNS,
        ),
        vector(
            "governed/resume-reruns-only-what-failed",
            "ResumeRun of a failed run keeps its DONE nodes, runs the failed one again as "
            "attempt 2 under the same operation id (its effect was NOT_APPLIED) and the run "
            "completes; a repeated request replays; a completed run is not resumable.",
            [
                teach(),
                start(
                    definition(
                        "b",
                        a=node(output=json_out({"type": "object"}), retry={"attempts": 1}),
                        b=node("node:a", ("a",), retry={"attempts": 1}),
                    )
                ),
                claim_one("att_a"),
                step(
                    AGENT,
                    "TaskService",
                    "CompleteTask",
                    {
                        "attemptId": "${att_a}",
                        "workerId": "w1",
                        "resultJson": '{"x":1}',
                        "effect": "EFFECT_OUTCOME_APPLIED",
                    },
                    response={"replayed": None},
                ),
                claim_one("att_b", task={"nodeUid": "b", "operationId": "<any>"}),
                fail("att_b", retryable=False, response={"willRetry": None}),
                get_run(snapshot("FAILED", resultReason="NODE_FAILED", resultError="<any>")),
                resume(run={"state": "RUN_STATE_RUNNING"}),
                resume(run={"state": "RUN_STATE_RUNNING"}),
                claim(
                    [task("b", attempt=2, input_json='{"x":1}')],
                    captures={"att_b2": "tasks.0.attemptId"},
                ),
                step(
                    AGENT,
                    "TaskService",
                    "CompleteTask",
                    {
                        "attemptId": "${att_b2}",
                        "workerId": "w1",
                        "resultJson": '"B"',
                        "effect": "EFFECT_OUTCOME_APPLIED",
                    },
                    response={"replayed": None},
                ),
                get_run(snapshot("COMPLETED", resultJson='"B"')),
                resume("${ns}-resume-2", error=(FAILED, "RUN_NOT_RESUMABLE")),
                resume("${ns}-resume-3", reason="", error=(INVALID, "FIELD_REQUIRED")),
            ],
            RUNS,
        ),
        vector(
            "governed/a-dry-run-resume-answers-and-stores-nothing",
            "ResumeRun with dry_run of a failed run answers the RUNNING run a resume would "
            "make (its node READY) with dryRun set; the run stays FAILED, no task is "
            "offered, and the same request id then really resumes it; a dry run is refused "
            "as a resume is (the run is no longer resumable).",
            [
                teach(),
                start(definition("a", a=node(retry={"attempts": 1}))),
                claim_one("att_a"),
                fail("att_a", retryable=False, response={"willRetry": None}),
                get_run(snapshot("FAILED", resultReason="NODE_FAILED", resultError="<any>")),
                step(
                    AGENT,
                    "RunService",
                    "ResumeRun",
                    {
                        "runId": "${run}",
                        "requestId": "${ns}-resume",
                        "reason": "fixed upstream",
                        "dryRun": True,
                    },
                    response={
                        "dryRun": True,
                        "replayed": None,
                        "run": {
                            "runId": "${run}",
                            "state": "RUN_STATE_RUNNING",
                            "nodes": [nd("a", "READY", attempts=1)],
                        },
                    },
                ),
                get_run(snapshot("FAILED", resultReason="NODE_FAILED", resultError="<any>")),
                claim(None),
                resume(run={"state": "RUN_STATE_RUNNING"}),
                resume(
                    "${ns}-resume-2",
                    dryRun=True,
                    error=(FAILED, "RUN_NOT_RESUMABLE"),
                ),
            ],
            RUNS,
        ),
        vector(
            "governed/a-ref-runs-once",
            "A second StartRun of a governed ref by another request is refused with "
            "REF_ALREADY_RUN; the same request still answers the run.",
            [
                *registered(),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    response={"created": True, "run": {"runId": "<any>"}},
                    captures={"run": "run.runId"},
                ),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    response={"created": None, "run": {"runId": "${run}"}},
                ),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov-2", "ref": REF},
                    error=("ALREADY_EXISTS", "REF_ALREADY_RUN"),
                ),
            ],
            GOVERNED,
        ),
        vector(
            "governed/resuming-a-governed-run-needs-an-approval-of-its-material",
            "ResumeRun of a stopped governed run without an approval fails with "
            "APPROVAL_REQUIRED; with a human's approval of the ReviewResume material it "
            "runs again, and the approval is consumed.",
            [
                *registered(),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    response={"created": True, "run": {"runId": "<any>"}},
                    captures={"run": "run.runId"},
                ),
                stop(response={"run": snapshot("CANCELLED")}),
                resume(error=(FAILED, "APPROVAL_REQUIRED")),
                step(
                    "alice",
                    "RunService",
                    "ReviewResume",
                    {"runId": "${run}", "reason": "fixed upstream"},
                    response={
                        "material": {"runId": "${run}", "nodeCount": 1, "reason": "fixed upstream"},
                        "materialDigest": "<any>",
                    },
                    captures={"md_resume": "materialDigest"},
                ),
                approve("${ns}-ap-resume", "md_resume"),
                resume(
                    "${ns}-resume-ok",
                    approvalId="${ns}-ap-resume",
                    run={"state": "RUN_STATE_RUNNING"},
                ),
                stop(response={"run": snapshot("CANCELLED")}),
                resume(
                    "${ns}-resume-again",
                    approvalId="${ns}-ap-resume",
                    error=(FAILED, "APPROVAL_CONSUMED"),
                ),
            ],
            GOVERNED,
        ),
        replay_checked(),
        *resume_approval_vectors(),
    ]


LAPSED = "lapsed"
"""A human whose grant of every action ended at 1800000000000 (the conformance server's
first clock reading) and who keeps only reads after it."""
BEFORE_T0 = "1799999990000"


def replay_checked() -> dict[str, Json]:
    """Every replay checks today's grant (issue 37): the vector "replay checked"."""

    def resume_as_lapsed(request_id: str, **expect: Json) -> dict[str, Json]:
        request = {"runId": "${run}", "requestId": request_id, "reason": "again"}
        return step(LAPSED, "RunService", "ResumeRun", request, **expect)

    denied = ("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
    return vector(
        "governed/replay-checked-against-todays-grant",
        "A ResumeRun repeated with its request_id after the caller's grant lapsed (lapsed "
        "keeps only reads) is refused as a fresh call is, not answered from the stored "
        "result. The clock is first set before the grant's end, then back.",
        [
            step("alice", "TestClockService", "SetTime", {"nowMs": BEFORE_T0}),
            teach(),
            start(ONE, principal=LAPSED, request_id="${ns}-lapsed"),
            stop(principal=LAPSED, response={"run": {"state": "RUN_STATE_CANCELLED"}}),
            resume_as_lapsed("${ns}-resume", response={"run": {"state": "RUN_STATE_RUNNING"}}),
            resume_as_lapsed(
                "${ns}-resume", response={"run": {"state": "RUN_STATE_RUNNING"}, "replayed": True}
            ),
            clock(set_offset_ms=0),  # back to t0: the grant is over
            resume_as_lapsed("${ns}-resume", error=denied),
            resume_as_lapsed("${ns}-resume-fresh", error=denied),
            get_run({"runId": "${run}"}, principal=LAPSED),  # reads are still granted
        ],
        [*RUNS, "aiws.engine.testing.v1.TestClockService"],
    )


# --- issue 37: resumes that need a fresh approval, agent replacement -------------------

OBJECT_OUT = json_out({"type": "object"})
CHAIN = definition(
    "b",
    a=node(output=OBJECT_OUT, retry={"attempts": 1}),
    b=node("node:a", ("a",), retry={"attempts": 1}),
)
PROMPT = "Answer in one line."
FIXED = definition(
    "b",
    a=node(output=OBJECT_OUT, retry={"attempts": 1}),
    b=node("node:a", ("a",), retry={"attempts": 1})
    | {"agent": {"model": model(), "system_prompt": PROMPT}},
)
DONE_CHANGED = definition(
    "b",
    a=node(retry={"attempts": 1})
    | {"agent": {"model": model(), "output": OBJECT_OUT, "system_prompt": "x"}},
    b=node("node:a", ("a",), retry={"attempts": 1})
    | {"agent": {"model": model(), "system_prompt": PROMPT}},
)


def a_done_b_failed(effect: str, revision: Json = None) -> list[dict[str, Json]]:
    """Claims and completes ``a`` with ``{"x":1}``, then fails ``b`` (not retryable) with
    ``effect``; captures ``b``'s first operation id as ``${op_b1}``."""
    return [
        claim_one("att_a"),
        complete("att_a", '{"x":1}'),
        claim(
            [task("b", input_json='{"x":1}', revision=revision)],
            captures={"att_b": "tasks.0.attemptId", "op_b1": "tasks.0.operationId"},
        ),
        fail("att_b", effect=effect, response={"willRetry": None}),
        get_run(snapshot("FAILED", resultReason="NODE_FAILED", resultError="<any>")),
    ]


def review_resume(expect: Json = None, error: tuple[str, str] | None = None, **fields: Json):
    """ReviewResume of ``${run}`` as alice."""
    request = {"runId": "${run}", "reason": "fixed upstream", **fields}
    if error:
        return step("alice", "RunService", "ReviewResume", request, error=error)
    return step(
        "alice",
        "RunService",
        "ReviewResume",
        request,
        response={"material": expect, "materialDigest": "<any>"},
        captures={"md_resume": "materialDigest", "op_b2": "material.nodes.0.operationId"},
    )


def started_governed(text: str) -> list[dict[str, Json]]:
    return [
        teach(),
        *registered(text=text),
        step(
            AGENT,
            "RunService",
            "StartRun",
            {"requestId": "${ns}-gov", "ref": REF},
            response={"created": True, "run": {"runId": "<any>"}},
            captures={"run": "run.runId"},
        ),
    ]


def resume_approval_vectors() -> list[dict[str, Json]]:
    b_input = digest_of({"x": 1})
    return [
        vector(
            "governed/resume-needing-re-approval-of-an-applied-action",
            "A node whose effect was APPLIED is never run again on an agent's ResumeRun "
            "alone (REAPPROVAL_REQUIRED, nothing changes): ReviewResume lists it with its "
            "new operation id and its input digest, and once a human approved that "
            "material the agent's resume runs it under the new operation.",
            [
                teach(),
                start(CHAIN),
                *a_done_b_failed("EFFECT_OUTCOME_APPLIED"),
                resume(error=(FAILED, "REAPPROVAL_REQUIRED")),
                get_run(snapshot("FAILED", resultReason="NODE_FAILED", resultError="<any>")),
                claim(None),
                review_resume(
                    {
                        "runId": "${run}",
                        "nodeCount": 1,
                        "nodes": [
                            {
                                "nodeUid": "b",
                                "operationId": "<any>",
                                "newOperation": True,
                                "needsApproval": True,
                                "effectApplied": True,
                                "authorized": None,
                                "inputDigest": b_input,
                            }
                        ],
                        "reapprove": [{"nodeUid": "b", "inputDigest": b_input}],
                        "reapproveCount": 1,
                        "toRevision": None,
                    }
                ),
                approve("${ns}-ap-resume", "md_resume"),
                resume(
                    "${ns}-resume-ok",
                    approvalId="${ns}-ap-resume",
                    run={"state": "RUN_STATE_RUNNING"},
                ),
                claim([task("b", attempt=2, input_json='{"x":1}', operationId="${op_b2}")]),
            ],
            [*GOVERNED],
        ),
        vector(
            "governed/agent-replacement-resumes-onto-the-head",
            "A governed run whose node failed, after a human activated a revision that "
            "changes only that node: ReviewResume with toHead shows the node-level diff "
            "(the node, its state, both specs), a human approves it, and ResumeRun with "
            "toHead runs the node under the head's spec and a new operation id at "
            "revision 2, while the DONE node keeps its result.",
            [
                *started_governed(canonical(CHAIN)),
                *a_done_b_failed("EFFECT_OUTCOME_NOT_APPLIED", "1"),
                proposed("p1", text=canonical(FIXED)),
                *activated("p1"),
                get_run({"runId": "${run}", "revision": "1", "state": "RUN_STATE_FAILED"}),
                review_resume(
                    {
                        "revision": "1",
                        "toRevision": "2",
                        "toDefinitionDigest": "<any>",
                        "changes": [
                            {
                                "nodeId": "b",
                                "state": "NODE_STATE_FAILED",
                                "oldSpecDigest": "<any>",
                                "newSpecDigest": "<any>",
                                "oldNodeJson": "<any>",
                                "newNodeJson": "<any>",
                            }
                        ],
                        "nodes": [{"nodeUid": "b", "newOperation": True}],
                    },
                    toHead=True,
                ),
                resume("${ns}-resume-0", toHead=True, error=(FAILED, "APPROVAL_REQUIRED")),
                approve("${ns}-ap-resume", "md_resume"),
                resume(
                    "${ns}-resume-ok",
                    toHead=True,
                    approvalId="${ns}-ap-resume",
                    run={"state": "RUN_STATE_RUNNING", "revision": "2"},
                ),
                claim(
                    [
                        task(
                            "b",
                            attempt=2,
                            input_json='{"x":1}',
                            operationId="${op_b2}",
                            revision="2",
                            agent={"model": model(), "systemPrompt": PROMPT},
                        )
                    ],
                    captures={"att_b2": "tasks.0.attemptId"},
                ),
                complete("att_b2", '"B"'),
                get_run(snapshot("COMPLETED", resultJson='"B"') | {"revision": "2"}),
            ],
            GOVERNED,
        ),
        vector(
            "governed/agent-replacement-refuses-a-change-to-a-done-node",
            "A head that changes a DONE node cannot be resumed onto: ReviewResume and "
            "ResumeRun with toHead fail with REPLACEMENT_CONFLICT and the run is unchanged; "
            "toHead of a run already at its head is RUN_AT_HEAD.",
            [
                *started_governed(canonical(CHAIN)),
                *a_done_b_failed("EFFECT_OUTCOME_NOT_APPLIED", "1"),
                review_resume(toHead=True, error=(FAILED, "RUN_AT_HEAD")),
                proposed("p1", text=canonical(DONE_CHANGED)),
                *activated("p1"),
                review_resume(toHead=True, error=(FAILED, "REPLACEMENT_CONFLICT")),
                resume(
                    toHead=True, approvalId="${ns}-none", error=(FAILED, "REPLACEMENT_CONFLICT")
                ),
                get_run({"runId": "${run}", "revision": "1", "state": "RUN_STATE_FAILED"}),
            ],
            GOVERNED,
        ),
    ]


AREAS = {
    "governed": (
        "Governed execution: declared effects and lost leases, schedule-to-start and run "
        "deadlines, ResumeRun, one run per governed ref.",
        governed_vectors,
    ),
}
__all__ = ["AREAS", "model"]
