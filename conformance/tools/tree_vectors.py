"""Work orders as records and as a tree (issue 42, item 1): ``vectors/workordertree.json``.

WorkOrderService creates a work order (a root, or a child under a parent) and answers
its record with its children; a child's budget is carved from its parent's, so that it
cannot spend beyond what its ancestors have left (exact decimals), and a running
attempt's declared maximum cost is reserved against it until the attempt ends; pausing a
work order pauses its descendants' runs, and a descendant resumes only with its
ancestor. An agent proposes a child, and a human approves or declines it. Every vector
works in its own work orders (``${ns}-...``) and on its own model.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import (
    AGENT,
    FAILED,
    RUNS,
    claim,
    claim_one,
    complete,
    definition,
    json_out,
    node,
    start,
    teach,
)
from vectorlib import admin, step, vector

Json = Any

SERVICES = [*RUNS, "aiws.engine.v1.AdminService", "aiws.engine.v1.WorkOrderService"]
ONE = definition("a", a=node(output=json_out({"type": "object"})))
ROOT, CHILD, LEAF = "${ns}-mission", "${ns}-part", "${ns}-leaf"


def create(
    work_order: str,
    parent: str = "",
    *,
    principal: str = "alice",
    error: tuple[str, str] | None = None,
    record: Json = None,
    **fields: Json,
) -> dict[str, Json]:
    """CreateWorkOrder; ``record`` is the expected WorkOrderRecord pattern."""
    request: dict[str, Json] = {"workOrderId": work_order, **fields}
    if parent:
        request["parentId"] = parent
    if error:
        return step(principal, "WorkOrderService", "CreateWorkOrder", request, error=error)
    expected = {"workOrderId": work_order, "parentId": parent or None, **(record or {})}
    return step(
        principal,
        "WorkOrderService",
        "CreateWorkOrder",
        request,
        response={"workOrder": expected, "replayed": None},
    )


def get(work_order: str, response: Json) -> dict[str, Json]:
    """GetWorkOrderRecord as alice."""
    request = {"workOrderId": work_order}
    return step("alice", "WorkOrderService", "GetWorkOrderRecord", request, response=response)


COSTLY = definition(
    "a",
    a=node(output=json_out({"type": "object"}), max_cost_microcredits="50", retry={"attempts": 1}),
)
PROPOSER = "rogue"  # an agent granted every action: it may propose, never decide
PROPOSED = "WORK_ORDER_STATE_PROPOSED"


def propose(
    work_order: str,
    parent: str,
    *,
    principal: str = PROPOSER,
    error: tuple[str, str] | None = None,
    record: Json = None,
    replayed: bool = False,
    **fields: Json,
) -> dict[str, Json]:
    """ProposeWorkOrder; ``record`` is the expected WorkOrderRecord pattern."""
    request: dict[str, Json] = {"workOrderId": work_order, **fields}
    if parent:
        request["parentId"] = parent
    if error:
        return step(principal, "WorkOrderService", "ProposeWorkOrder", request, error=error)
    expected = {"workOrderId": work_order, "parentId": parent, **(record or {})}
    return step(
        principal,
        "WorkOrderService",
        "ProposeWorkOrder",
        request,
        response={"workOrder": expected, "replayed": True if replayed else None},
    )


def decide(
    work_order: str,
    decision: str,
    reason: str = "",
    *,
    principal: str = "alice",
    error: tuple[str, str] | None = None,
    record: Json = None,
) -> dict[str, Json]:
    """DecideWorkOrderProposal (``APPROVE`` or ``DECLINE``)."""
    request: dict[str, Json] = {
        "workOrderId": work_order,
        "decision": f"PROPOSAL_DECISION_{decision}",
    }
    if reason:
        request["reason"] = reason
    if error:
        return step(principal, "WorkOrderService", "DecideWorkOrderProposal", request, error=error)
    return step(
        principal,
        "WorkOrderService",
        "DecideWorkOrderProposal",
        request,
        response={"workOrder": {"workOrderId": work_order, **(record or {})}},
    )


def tree_vectors() -> list[dict[str, Json]]:
    """The vectors of the ``workordertree`` area."""
    return [
        vector(
            "workordertree/create-a-child-and-read-the-record",
            "CreateWorkOrder records a root and a child under it, each with its creator; "
            "GetWorkOrderRecord answers the root's record, state OPEN, with its child. "
            "Repeating the same create replays it; another content under the id fails "
            "with WORK_ORDER_EXISTS.",
            [
                create(ROOT, title="Mission", record={"creator": "alice", "title": "Mission"}),
                create(
                    CHILD,
                    ROOT,
                    title="Part",
                    record={"ancestors": [ROOT], "state": "WORK_ORDER_STATE_OPEN"},
                ),
                get(
                    ROOT,
                    {
                        "workOrder": {
                            "workOrderId": ROOT,
                            "creator": "alice",
                            "state": "WORK_ORDER_STATE_OPEN",
                            "stateFrom": ROOT,
                            "spentMicrocredits": "0",
                            "childCount": 1,
                            "createdAtMs": "${t0}",
                        },
                        "runCounts": None,
                        "children": [{"workOrderId": CHILD, "parentId": ROOT}],
                    },
                ),
                step(
                    "alice",
                    "WorkOrderService",
                    "CreateWorkOrder",
                    {"workOrderId": ROOT, "title": "Mission"},
                    response={"workOrder": {"workOrderId": ROOT}, "replayed": True},
                ),
                create(ROOT, title="Other", error=("ALREADY_EXISTS", "WORK_ORDER_EXISTS")),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/create-refusals",
            "An agent may not create a work order (HUMAN_REQUIRED, PERMISSION_DENIED); a "
            "parent that is not recorded fails with WORK_ORDER_NOT_FOUND (NOT_FOUND); "
            "neither writes anything.",
            [
                create(ROOT, principal=AGENT, error=("PERMISSION_DENIED", "HUMAN_REQUIRED")),
                create(CHILD, "${ns}-nowhere", error=("NOT_FOUND", "WORK_ORDER_NOT_FOUND")),
                step(
                    "alice",
                    "WorkOrderService",
                    "GetWorkOrderRecord",
                    {"workOrderId": CHILD},
                    error=("NOT_FOUND", "WORK_ORDER_NOT_FOUND"),
                ),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/child-cannot-overspend-its-parent",
            "A child's budget is at most what its parent has left "
            "(WORK_ORDER_BUDGET_EXCEEDS_PARENT); an attempt's cost in a child is charged "
            "to the child and to its parent, exactly; then a new child may have no more "
            "than the remainder.",
            [
                teach(),
                create(ROOT, budgetMicrocredits="100", record={"budgetMicrocredits": "100"}),
                create(
                    CHILD,
                    ROOT,
                    budgetMicrocredits="100.5",
                    error=(FAILED, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"),
                ),
                create(CHILD, ROOT, budgetMicrocredits="100"),
                start(ONE, workOrderId=CHILD),
                claim_one(),
                complete(result='{"ok":true}', cost="99.25"),
                get(
                    ROOT,
                    {
                        "workOrder": {
                            "spentMicrocredits": "99.25",
                            "remainingMicrocredits": "0.75",
                        }
                    },
                ),
                get(
                    CHILD,
                    {
                        "workOrder": {
                            "spentMicrocredits": "99.25",
                            "remainingMicrocredits": "0.75",
                        },
                        "runCounts": [{"state": "COMPLETED", "count": "1"}],
                    },
                ),
                create(
                    LEAF,
                    ROOT,
                    budgetMicrocredits="1",
                    error=(FAILED, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"),
                ),
                create(LEAF, ROOT, budgetMicrocredits="0.75"),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/pausing-a-parent-pauses-a-grandchilds-run",
            "Pausing a work order pauses its grandchild's run: its attempt is not "
            "dispatched, the grandchild's record says PAUSED from the root, and resuming "
            "the grandchild fails with WORK_ORDER_CONTROL_INHERITED; resuming the root "
            "makes the attempt claimable.",
            [
                teach(),
                create(ROOT),
                create(CHILD, ROOT),
                create(LEAF, CHILD),
                start(ONE, workOrderId=LEAF),
                admin(
                    "PauseWorkOrder",
                    {"workOrderId": ROOT, "reason": "hold on"},
                    response={"workOrder": {"controlState": "CONTROL_STATE_PAUSED"}},
                ),
                claim(None),
                get(
                    LEAF,
                    {"workOrder": {"state": "WORK_ORDER_STATE_PAUSED", "stateFrom": ROOT}},
                ),
                admin(
                    "GetWorkOrder",
                    {"workOrderId": LEAF},
                    response={"workOrder": {"controlState": "CONTROL_STATE_PAUSED"}},
                ),
                admin(
                    "ResumeWorkOrder",
                    {"workOrderId": LEAF},
                    error=(FAILED, "WORK_ORDER_CONTROL_INHERITED"),
                ),
                admin(
                    "ResumeWorkOrder",
                    {"workOrderId": ROOT},
                    response={"workOrder": {"controlState": "CONTROL_STATE_ACTIVE"}},
                ),
                claim_one(),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/running-attempts-reserve-their-maximum-cost",
            "A dispatched attempt whose node declares a maximum cost reserves it against "
            "every budgeted work order on its run's path until it ends: the records report "
            "it in reservedMicrocredits and count it in remainingMicrocredits, and a second "
            "run's attempt that would spend beyond what is left is not dispatched (its run "
            "fails with BUDGET_EXCEEDED); once the first reports its cost, the reservation "
            "is let go and the cost charged.",
            [
                teach(),
                create(ROOT, budgetMicrocredits="60"),
                create(CHILD, ROOT),
                start(COSTLY, workOrderId=CHILD),
                claim_one(),
                get(
                    ROOT,
                    {
                        "workOrder": {
                            "reservedMicrocredits": "50",
                            "remainingMicrocredits": "10",
                        }
                    },
                ),
                start(COSTLY, workOrderId=ROOT, request_id="${ns}-second", capture="second"),
                claim(None),
                step(
                    AGENT,
                    "RunService",
                    "GetRun",
                    {"runId": "${second}"},
                    response={
                        "run": {"state": "RUN_STATE_FAILED", "resultReason": "BUDGET_EXCEEDED"}
                    },
                ),
                complete(result='{"ok":true}', cost="49.5"),
                get(
                    ROOT,
                    {
                        "workOrder": {
                            "spentMicrocredits": "49.5",
                            "reservedMicrocredits": "0",
                            "remainingMicrocredits": "10.5",
                        }
                    },
                ),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/an-agent-proposes-a-child-and-a-human-approves-it",
            "An agent proposes a child (ProposeWorkOrder): it is recorded PROPOSED with the "
            "agent as creator, a repeat replays it, and no run starts in it "
            "(WORK_ORDER_NOT_APPROVED). The agent cannot decide it (HUMAN_REQUIRED); a human "
            "approves it (OPEN, decidedBy), after which the same decision answers it "
            "unchanged, the other fails with WORK_ORDER_PROPOSAL_DECIDED, and a run starts.",
            [
                teach(),
                create(ROOT, budgetMicrocredits="100"),
                propose(
                    CHILD,
                    ROOT,
                    title="Part",
                    budgetMicrocredits="40",
                    record={"state": PROPOSED, "proposed": True, "creator": PROPOSER},
                ),
                propose(CHILD, ROOT, title="Part", budgetMicrocredits="40", replayed=True),
                propose(CHILD, ROOT, title="Other", error=("ALREADY_EXISTS", "WORK_ORDER_EXISTS")),
                start(ONE, workOrderId=CHILD, error=(FAILED, "WORK_ORDER_NOT_APPROVED")),
                step(
                    "alice",
                    "WorkOrderService",
                    "ListWorkOrders",
                    {"state": PROPOSED},
                    response={"workOrders": [{"workOrderId": CHILD}], "nextPageToken": None},
                ),
                decide(
                    CHILD,
                    "APPROVE",
                    principal=PROPOSER,
                    error=("PERMISSION_DENIED", "HUMAN_REQUIRED"),
                ),
                decide(
                    CHILD,
                    "APPROVE",
                    record={
                        "state": "WORK_ORDER_STATE_OPEN",
                        "decidedBy": "alice",
                        "decidedAtMs": "${t0}",
                    },
                ),
                decide(CHILD, "APPROVE", record={"state": "WORK_ORDER_STATE_OPEN"}),
                decide(CHILD, "DECLINE", "late", error=(FAILED, "WORK_ORDER_PROPOSAL_DECIDED")),
                start(ONE, workOrderId=CHILD, request_id="${ns}-approved"),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/a-declined-proposal-is-final",
            "Declining needs a reason (FIELD_REQUIRED); a declined proposal is DECLINED with "
            "its reason, for good: approving it fails with WORK_ORDER_PROPOSAL_DECIDED and "
            "no run starts in it.",
            [
                teach(),
                create(ROOT),
                propose(CHILD, ROOT, title="Detour", record={"state": PROPOSED}),
                decide(CHILD, "DECLINE", error=("INVALID_ARGUMENT", "FIELD_REQUIRED")),
                decide(
                    CHILD,
                    "DECLINE",
                    "out of scope",
                    record={
                        "state": "WORK_ORDER_STATE_DECLINED",
                        "declineReason": "out of scope",
                        "decidedBy": "alice",
                    },
                ),
                decide(CHILD, "APPROVE", error=(FAILED, "WORK_ORDER_PROPOSAL_DECIDED")),
                start(ONE, workOrderId=CHILD, error=(FAILED, "WORK_ORDER_NOT_APPROVED")),
            ],
            SERVICES,
        ),
        vector(
            "workordertree/proposal-refusals",
            "A proposal names its parent (FIELD_REQUIRED), is checked as a create "
            "(WORK_ORDER_NOT_FOUND, WORK_ORDER_BUDGET_EXCEEDS_PARENT) and needs the "
            "work_order.propose grant on the parent (ACTION_NOT_GRANTED); a work order "
            "created directly has no proposal to decide (WORK_ORDER_PROPOSAL_DECIDED). None "
            "writes anything.",
            [
                create(ROOT, budgetMicrocredits="10"),
                propose(CHILD, "", error=("INVALID_ARGUMENT", "FIELD_REQUIRED")),
                propose(CHILD, "${ns}-nowhere", error=("NOT_FOUND", "WORK_ORDER_NOT_FOUND")),
                propose(
                    CHILD,
                    ROOT,
                    budgetMicrocredits="11",
                    error=(FAILED, "WORK_ORDER_BUDGET_EXCEEDS_PARENT"),
                ),
                propose(
                    CHILD, ROOT, principal=AGENT, error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
                ),
                decide(ROOT, "APPROVE", error=(FAILED, "WORK_ORDER_PROPOSAL_DECIDED")),
                step(
                    "alice",
                    "WorkOrderService",
                    "GetWorkOrderRecord",
                    {"workOrderId": CHILD},
                    error=("NOT_FOUND", "WORK_ORDER_NOT_FOUND"),
                ),
            ],
            SERVICES,
        ),
    ]


AREAS = {
    "workordertree": (
        "Work orders as records and as a tree: create, read, carved budgets, reservations, "
        "inherited pauses, proposals.",
        tree_vectors,
    ),
}
