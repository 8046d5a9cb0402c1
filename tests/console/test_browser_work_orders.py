"""The console's work order page in a real headless Chromium (issue 42, item 1): the
work order's place in the tree, its state (inherited from an ancestor), its spend and
budget, its children and its runs."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from aiws.engine.v1 import admin_pb2, common_pb2, run_pb2, task_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from tests.support.console import Console
from tests.support.harness import token_of

PLAN = {
    "version": 1,
    "nodes": {"only": {"agent": {"model": "m-tree"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:only"},
}


def sign_in(page: Page, console: Console) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def _spend(console: Console, work_order_id: str, cost: str) -> str:
    h = console.harness
    run = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=f"tree-{work_order_id}",
            definition_json=json.dumps(PLAN),
            input_json="{}",
            work_order_id=work_order_id,
        )
    )
    [task] = (
        h.client("agent")
        .tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w", models=["m-tree"], max_tasks=1, lease_ms=30_000, wait_ms=0
            )
        )
        .tasks
    )
    h.client("agent").tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w",
            result_json='"done"',
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            cost_microcredits=cost,
        )
    )
    return run.run.run_id  # type: ignore[no-any-return]


def test_the_work_order_page_shows_its_tree_runs_and_spend(
    page: Page, console: Console, tmp_path: Path
) -> None:
    h = console.harness
    orders = h.client("alice").work_orders
    orders.CreateWorkOrder(
        pb.CreateWorkOrderRequest(
            work_order_id="launch", title="Launch the product", budget_microcredits="500"
        )
    )
    orders.CreateWorkOrder(
        pb.CreateWorkOrderRequest(
            work_order_id="launch-docs",
            parent_id="launch",
            title="Write the docs",
            budget_microcredits="200",
        )
    )
    orders.CreateWorkOrder(
        pb.CreateWorkOrderRequest(
            work_order_id="launch-site", parent_id="launch", title="Build the site"
        )
    )
    h.client("agent").tasks.ClaimTasks(  # the model becomes known
        task_pb2.ClaimTasksRequest(
            worker_id="w", models=["m-tree"], max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    run_id = _spend(console, "launch-docs", "120.5")
    h.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id="launch", reason="review")
    )

    sign_in(page, console)
    page.goto("/workorders/launch-docs")
    expect(page.locator("#ancestors")).to_have_text("launch \u203a launch-docs")
    expect(page.locator("#title")).to_have_text("Write the docs")
    expect(page.locator("#record")).to_contain_text("PAUSED by launch")
    expect(page.locator("#spent")).to_have_text("120.5 microcredits")
    expect(page.locator("#remaining")).to_have_text("79.5 microcredits")
    expect(page.locator("#actions")).to_have_text("its parent's")  # none of its own
    expect(page.locator("#run-counts")).to_have_text("1 COMPLETED")
    expect(page.locator("#work-order-runs").get_by_role("link", name=run_id)).to_be_visible()

    page.locator("#ancestors").get_by_role("link", name="launch").click()
    expect(page).to_have_url(f"{console.base_url}/workorders/launch")
    expect(page.locator("#spent")).to_have_text("120.5 microcredits")
    expect(page.locator("#remaining")).to_have_text("379.5 microcredits")
    expect(page.locator("#actions")).to_have_text("any its principals are granted")  # a root
    children = page.locator("#children tbody tr")
    expect(children).to_have_count(2)
    expect(children.nth(0)).to_contain_text("launch-docs")
    expect(children.nth(0)).to_contain_text("PAUSED")
    expect(children.nth(1)).to_contain_text("Build the site")
    page.screenshot(path=str(tmp_path / "work-order.png"), full_page=True)


def test_a_work_order_only_controls_named_still_has_its_page(page: Page, console: Console) -> None:
    console.harness.client("alice").admin.PauseWorkOrder(
        admin_pb2.PauseWorkOrderRequest(work_order_id="bare", reason="r")
    )
    sign_in(page, console)
    page.goto("/workorders/bare")
    expect(page.locator("#record")).to_contain_text("(named by runs or controls)")
    expect(page.locator("#children")).to_contain_text("No child work orders")
    expect(page.locator("#work-order-runs")).to_contain_text("No runs in this work order.")


def test_a_proposed_work_order_is_decided_from_the_inbox_in_one_step(
    page: Page, console: Console, tmp_path: Path
) -> None:
    orders = console.harness
    orders.client("alice").work_orders.CreateWorkOrder(
        pb.CreateWorkOrderRequest(work_order_id="campaign", budget_microcredits="500")
    )
    for proposed, title in (("campaign-press", "Write the press kit"), ("campaign-ads", "Buy ads")):
        orders.client("rogue").work_orders.ProposeWorkOrder(  # an agent proposes
            pb.ProposeWorkOrderRequest(
                work_order_id=proposed,
                parent_id="campaign",
                title=title,
                budget_microcredits="120",
                actions=["run.*", "admin.*", "work_order.*"],  # its page reads admin.*
            )
        )
    sign_in(page, console)
    page.goto("/inbox?kind=WORK_ORDER_PROPOSAL")
    items = page.locator("#inbox-items tr")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("rogue proposes campaign-press under campaign")
    expect(items.nth(0)).to_contain_text("budget 120")
    items.nth(0).get_by_role("link").click()
    expect(page).to_have_url(f"{console.base_url}/workorders/campaign-press")
    expect(page.locator("#record")).to_contain_text("PROPOSED")
    expect(page.locator("#control-state")).to_have_text("PROPOSED")  # not its ACTIVE control
    expect(page.locator("#actions")).to_have_text("run.*, admin.*, work_order.*")
    expect(page.locator("#proposal")).to_contain_text("Proposed by rogue")
    page.screenshot(path=str(tmp_path / "proposal.png"), full_page=True)
    page.locator("#proposal").get_by_role("button", name="Approve").click()
    expect(page).to_have_url(f"{console.base_url}/workorders/campaign-press")
    expect(page.locator("#record")).to_contain_text("OPEN")
    expect(page.locator("#decided")).to_contain_text("alice")
    expect(page.locator("#proposal")).to_have_count(0)

    page.goto("/workorders/campaign-ads")
    page.locator("#proposal").get_by_label("Reason").fill("no ads this quarter")
    page.locator("#proposal").get_by_role("button", name="Decline").click()
    expect(page.locator("#record")).to_contain_text("DECLINED")
    expect(page.locator("#control-state")).to_have_text("DECLINED")
    expect(page.locator("#decided")).to_contain_text("no ads this quarter")
    page.goto("/inbox?kind=WORK_ORDER_PROPOSAL")
    expect(page.locator("#inbox-items tr")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "declined.png"), full_page=True)


def test_a_proposal_joins_and_leaves_the_live_inbox_without_a_reload(
    page: Page, console: Console
) -> None:
    h = console.harness
    h.client("alice").work_orders.CreateWorkOrder(pb.CreateWorkOrderRequest(work_order_id="ops"))
    sign_in(page, console)
    rows = page.locator("#inbox-items tr")
    expect(page.locator("#inbox-empty")).to_be_visible()
    h.client("rogue").work_orders.ProposeWorkOrder(
        pb.ProposeWorkOrderRequest(work_order_id="ops-audit", parent_id="ops", title="Audit")
    )
    expect(rows).to_have_count(1)  # pushed by WatchInbox: the page was not reloaded
    expect(rows.nth(0)).to_contain_text("rogue proposes ops-audit under ops")
    expect(page.locator('.count[data-kind="WORK_ORDER_PROPOSAL"]')).to_have_text("1")
    h.client("alice").work_orders.DecideWorkOrderProposal(
        pb.DecideWorkOrderProposalRequest(
            work_order_id="ops-audit", decision=pb.PROPOSAL_DECISION_APPROVE
        )
    )
    expect(rows).to_have_count(0)
    expect(page.locator('.count[data-kind="WORK_ORDER_PROPOSAL"]')).to_have_text("0")
