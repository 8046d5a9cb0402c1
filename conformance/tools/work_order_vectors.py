"""Work orders contain their runs (issue 23, item 2): ``vectors/workorders.json``.

Every run belongs to one work order: an ad hoc run to its contract's (or the one it
names, or ``default``). The work order's pause stops dispatch of its ad hoc runs and
its heartbeat says so; its cancellation ends them with WORK_ORDER_CANCELED; run.start
is authorised at its scope; runs carry labels that ListRuns filters on, with the other
filters. Every vector works in its own work orders (``${ns}-wo``, ``wo-a-${ns}``) and on
its own model, and never pauses or cancels the installation's ``default`` work order.
"""

from __future__ import annotations

from typing import Any

from model_vectors import CID, CWO, create_contract
from runtime_vectors import (
    AGENT,
    FAILED,
    INVALID,
    RUNS,
    claim,
    claim_one,
    complete,
    definition,
    fail,
    get_run,
    heartbeat,
    json_out,
    node,
    start,
    task,
    teach,
)
from vectorlib import admin, step, vector

Json = Any

SERVICES = [*RUNS, "aiws.engine.v1.AdminService", "aiws.engine.v1.ContractService"]
CHAIN = definition("b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",)))
SCOPED_WO = "wo-a-${ns}"  # inside the grant of `scoped` (work orders wo-a*)


def pause(work_order: str = CWO) -> dict[str, Json]:
    """PauseWorkOrder as alice."""
    request = {"workOrderId": work_order, "reason": "hold on"}
    return admin(
        "PauseWorkOrder", request, response={"workOrder": {"controlState": "CONTROL_STATE_PAUSED"}}
    )


def resume(work_order: str = CWO) -> dict[str, Json]:
    """ResumeWorkOrder as alice."""
    request = {"workOrderId": work_order}
    return admin(
        "ResumeWorkOrder", request, response={"workOrder": {"controlState": "CONTROL_STATE_ACTIVE"}}
    )


def cancel(work_order: str = CWO, reason: str = "mission over") -> dict[str, Json]:
    """CancelWorkOrder as alice."""
    request = {"workOrderId": work_order, "reason": reason}
    return admin(
        "CancelWorkOrder",
        request,
        response={"workOrder": {"controlState": "CONTROL_STATE_CANCELED"}},
    )


def list_runs(request: Json, run_ids: list[str], **extra: Json) -> dict[str, Json]:
    """ListRuns as alice, expecting exactly these runs (newest first) and no next page."""
    response = {"runs": [{"runId": f"${{{rid}}}"} for rid in run_ids] or None}
    response["nextPageToken"] = None
    return step("alice", "RunService", "ListRuns", request, response=response, **extra)


def work_order_vectors() -> list[dict[str, Json]]:
    """The vectors of the ``workorders`` area."""
    return [
        vector(
            "workorder/ad-hoc-run-belongs-to-its-contracts-work-order",
            "An ad hoc run under a contract belongs to the contract's work order and "
            "carries who started it and its labels; naming neither a contract nor a work "
            "order puts it in the default work order.",
            [
                teach(),
                create_contract(),
                start(
                    CHAIN,
                    contractId=CID,
                    labels={"team": "search"},
                    run={
                        "workOrderId": CWO,
                        "startedBy": AGENT,
                        "labels": {"team": "search"},
                        "ref": None,
                    },
                ),
                get_run({"workOrderId": CWO, "startedBy": AGENT, "labels": {"team": "search"}}),
                start(
                    CHAIN, request_id="${ns}-plain", capture="plain", run={"workOrderId": "default"}
                ),  # fmt: skip
            ],
            SERVICES,
        ),
        vector(
            "workorder/work-order-and-contract-must-agree",
            "StartRun naming a work order other than its contract's is refused with "
            "WORK_ORDER_MISMATCH and starts nothing; naming the same one starts the run.",
            [
                teach(),
                create_contract(),
                start(
                    CHAIN,
                    contractId=CID,
                    workOrderId="${ns}-other",
                    error=(INVALID, "WORK_ORDER_MISMATCH"),
                ),  # fmt: skip
                list_runs({"workOrderId": "${ns}-other"}, []),
                start(CHAIN, contractId=CID, workOrderId=CWO, run={"workOrderId": CWO}),
            ],
            SERVICES,
        ),
        vector(
            "workorder/pause-stops-dispatch-of-ad-hoc-runs",
            "Pausing a contract's work order stops dispatch of its ad hoc run: a heartbeat "
            "of the running attempt says paused and extends the lease, the attempt may "
            "finish, the next node is not claimable; resuming makes it claimable.",
            [
                teach(),
                create_contract(),
                start(CHAIN, contractId=CID),
                claim_one(),
                pause(),
                heartbeat(
                    response={"leaseExpiresAtMs": "${t0+60000}", "paused": True, "cancelled": None}
                ),
                complete(result='{"ok":true}'),
                claim(None),
                get_run({"state": "RUN_STATE_RUNNING"}),
                resume(),
                claim([task("b", input_json='{"ok":true}')]),
            ],
            SERVICES,
        ),
        vector(
            "workorder/cancel-ends-ad-hoc-runs-with-a-reason",
            "Cancelling a contract's work order cancels its ad hoc run with result_reason "
            "WORK_ORDER_CANCELED: CANCELLING while its running attempt, whose heartbeat says "
            "cancelled, has not reported, then CANCELLED; a later StartRun under the work "
            "order is refused with WORK_ORDER_CANCELED.",
            [
                teach(),
                create_contract(),
                start(CHAIN, contractId=CID),
                claim_one(),
                cancel(),
                get_run(
                    {
                        "state": "RUN_STATE_CANCELLING",
                        "resultReason": "WORK_ORDER_CANCELED",
                        "resultError": "mission over",
                    }
                ),
                heartbeat(response={"cancelled": True, "paused": None}),
                fail("att", "stopped", response={"willRetry": None}),
                get_run(
                    {
                        "state": "RUN_STATE_CANCELLED",
                        "resultReason": "WORK_ORDER_CANCELED",
                        "resultError": "mission over",
                    }
                ),
                start(
                    CHAIN,
                    request_id="${ns}-late",
                    contractId=CID,
                    error=(FAILED, "WORK_ORDER_CANCELED"),
                ),  # fmt: skip
                start(
                    CHAIN,
                    request_id="${ns}-named",
                    workOrderId=CWO,
                    error=(FAILED, "WORK_ORDER_CANCELED"),
                ),  # fmt: skip
            ],
            SERVICES,
        ),
        vector(
            "workorder/run-start-is-authorised-at-the-work-order",
            "A principal whose grant covers only work orders wo-a* may not start a run "
            "under a contract of another work order, nor in the default work order; it "
            "may start one in a work order its grant covers.",
            [
                teach(),
                create_contract(),
                start(
                    CHAIN,
                    contractId=CID,
                    principal="scoped",
                    error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED"),
                ),  # fmt: skip
                start(
                    CHAIN,
                    request_id="${ns}-default",
                    principal="scoped",
                    error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED"),
                ),  # fmt: skip
                start(
                    CHAIN,
                    request_id="${ns}-inside",
                    principal="scoped",
                    workOrderId=SCOPED_WO,
                    run={"workOrderId": SCOPED_WO, "startedBy": "scoped"},
                ),  # fmt: skip
                get_run({"workOrderId": SCOPED_WO}, principal="scoped"),
            ],
            SERVICES,
        ),
        vector(
            "workorder/labels-past-their-bounds-are-refused",
            "StartRun with more than 16 labels, a key that is not an identifier, a key of "
            "64 characters or a value over 256 bytes fails with LABEL_INVALID; 16 labels "
            "with a 63-character key and a 256-byte value are kept.",
            [
                teach(),
                start(
                    CHAIN,
                    labels={f"k{i}": "v" for i in range(17)},
                    error=(INVALID, "LABEL_INVALID"),
                ),  # fmt: skip
                start(CHAIN, labels={"bad key": "v"}, error=(INVALID, "LABEL_INVALID")),
                start(CHAIN, labels={"k" * 64: "v"}, error=(INVALID, "LABEL_INVALID")),
                start(CHAIN, labels={"k": "é" * 129}, error=(INVALID, "LABEL_INVALID")),
                start(
                    CHAIN,
                    workOrderId=CWO,
                    labels={f"k{i}": "v" for i in range(15)} | {"k" * 63: "é" * 128},
                    run={"labels": {f"k{i}": "v" for i in range(15)} | {"k" * 63: "é" * 128}},
                ),
            ],
            SERVICES,
        ),
        vector(
            "workorder/list-runs-filters",
            "ListRuns filters by work order, contract, starter, creation time and labels "
            "(all given must match), newest first; a page token is refused with another "
            "filter.",
            [
                teach(),
                create_contract(),
                start(
                    CHAIN,
                    request_id="${ns}-r1",
                    capture="r1",
                    contractId=CID,
                    labels={"team": "search", "tier": "gold"},
                ),  # fmt: skip
                start(
                    CHAIN,
                    request_id="${ns}-r2",
                    capture="r2",
                    workOrderId=CWO,
                    labels={"team": "search"},
                    advance_ms=10,
                ),  # fmt: skip
                start(
                    CHAIN,
                    request_id="${ns}-r3",
                    capture="r3",
                    workOrderId=CWO,
                    principal="alice",
                    labels={"team": "ads"},
                    advance_ms=10,
                ),  # fmt: skip
                list_runs({"workOrderId": CWO}, ["r3", "r2", "r1"]),
                list_runs({"contractId": CID}, ["r1"]),
                list_runs({"workOrderId": CWO, "startedBy": "alice"}, ["r3"]),
                list_runs({"workOrderId": CWO, "labels": {"team": "search"}}, ["r2", "r1"]),
                list_runs(
                    {"workOrderId": CWO, "labels": {"team": "search", "tier": "gold"}}, ["r1"]
                ),
                list_runs({"labels": {"team": "search", "tier": "gold", "x": "${ns}"}}, []),
                list_runs(
                    {"workOrderId": CWO, "createdAfterMs": "${t0}", "createdBeforeMs": "${t0+20}"},
                    ["r2"],
                ),
                step(
                    "alice",
                    "RunService",
                    "ListRuns",
                    {"workOrderId": CWO, "pageSize": 1},
                    response={"runs": [{"runId": "${r3}"}], "nextPageToken": "<any>"},
                    captures={"page": "nextPageToken"},
                ),
                list_runs(
                    {"workOrderId": CWO, "pageSize": 2, "pageToken": "${page}"}, ["r2", "r1"]
                ),  # fmt: skip
                step(
                    "alice",
                    "RunService",
                    "ListRuns",
                    {"workOrderId": "${ns}-other", "pageSize": 1, "pageToken": "${page}"},
                    error=(INVALID, "PAGE_INVALID"),
                ),
                step(
                    "alice",
                    "RunService",
                    "ListRuns",
                    {"labels": {"bad key": "v"}},
                    error=(INVALID, "LABEL_INVALID"),
                ),
            ],
            SERVICES,
        ),
    ]


AREAS = {
    "workorders": (
        "Work orders contain their runs: an ad hoc run belongs to its contract's (or a "
        "named, or the default) work order; pause, cancel and grants act on it; labels "
        "and ListRuns filters.",
        work_order_vectors,
    ),
}
