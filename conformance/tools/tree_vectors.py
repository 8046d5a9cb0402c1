"""Work orders as records and as a tree (issue 42, item 1): ``vectors/workordertree.json``.

WorkOrderService creates a work order (a root, or a child under a parent) and answers
its record with its children; a child's budget is carved from its parent's, so that it
cannot spend beyond what its ancestors have left (exact decimals); pausing a work order
pauses its descendants' runs, and a descendant resumes only with its ancestor. Every
vector works in its own work orders (``${ns}-...``) and on its own model.
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
    ]


AREAS = {
    "workordertree": (
        "Work orders as records and as a tree: create, read, carved budgets and inherited pauses.",
        tree_vectors,
    ),
}
