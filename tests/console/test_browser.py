"""The console in a real headless Chromium (Debian's, driven by Playwright for Python).

One human's session, start to finish: sign in; see an agent's pending proposal in the
inbox; review its diff and graph; approve and activate; see the inbox empty; start a
fan-out run and watch its page reach COMPLETED live (a praxis_client Worker does the
work), with its graph's edges, node times and the attempts' effect outcomes; see an ad hoc
run's graph drawn with its edges; watch the inbox update without polling (the console
reads the inbox only when WatchInbox reports a change); reconcile an UNCERTAIN effect;
sign out. Each page is captured under ``test-artifacts/console/`` (gitignored).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.store.views.inbox import InboxStore
from praxis_client.worker import Task, Worker
from tests.support.console import (
    FANOUT,
    FANOUT_V2,
    TIMEOUT_MS,
    Console,
    propose,
    register,
    shot,
)
from tests.support.harness import token_of


def _echo(task: Task) -> object:
    time.sleep(0.15)  # slow enough for the page to show the run in progress
    return task.input


def test_a_human_governs_agents_from_the_console(
    page: Page, console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox_reads: list[float] = []
    read_page = InboxStore.page

    def counted_read(*args: Any, **kwargs: Any) -> Any:
        inbox_reads.append(time.monotonic())
        return read_page(*args, **kwargs)

    # The console (a process of its own) reads the inbox with ListInbox: counted here.
    monkeypatch.setattr(InboxStore, "page", counted_read)
    h = console.harness
    register(h, "wo-ui", "plan", FANOUT)
    propose(h, "wo-ui", "plan", "p-1", FANOUT_V2, summary="add a check after the join")

    # Sign in.
    page.goto("/inbox")
    expect(page).to_have_url(f"{console.base_url}/signin")
    shot(page, "01-signin")
    # By keyboard alone: the skip link comes first, the token field is labelled.
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.get_by_label("Bearer token").focus()
    page.keyboard.type(token_of("alice"))
    page.keyboard.press("Enter")
    expect(page.locator("#principal")).to_have_text("alice")

    # The agent's proposal waits in the inbox.
    row = page.locator("#inbox-items tr", has_text="add a check after the join")
    expect(row).to_have_count(1)
    expect(page.locator('.count[data-kind="PROPOSAL"]')).to_have_text("1")
    shot(page, "02-inbox")

    # Review: the diff and the graph before and after.
    row.get_by_role("link").click()
    expect(page.locator("#proposal-state")).to_have_text("PENDING")
    expect(page.locator("#diff tr.row-added").first).to_be_visible()
    expect(page.locator('#dag-after g.mark-added[data-node-id="check"]')).to_have_count(1)
    expect(page.locator('#dag-before g[data-node-id="check"]')).to_have_count(0)
    expect(page.locator("#dag-after path.edge")).to_have_count(3)
    expect(page.locator("#material-digest")).to_contain_text("sha256:")
    expect(page.locator("#activate")).to_be_disabled()
    shot(page, "03-proposal")

    # Approve the material shown, then activate.
    page.get_by_role("button", name="Approve this material").click()
    expect(page.locator("#approval-status")).to_contain_text("ACTIVE")
    page.get_by_role("button", name="Activate").click()
    expect(page.locator("#outcome")).to_contain_text("activated")
    expect(page.locator("#proposal-state")).to_have_text("ACTIVATED")
    shot(page, "04-activated")

    # Nothing waits any more.
    page.get_by_role("link", name="Inbox").click()
    expect(page.locator("#inbox-empty")).to_be_visible()
    shot(page, "05-inbox-empty")

    # Start a fan-out run of the new head; watch it complete without reloading.
    worker = Worker(h.client("agent"), ["echo"], _echo, concurrency=2, poll_ms=200).start()
    try:
        page.goto("/registry/wo-ui/plan")
        expect(page.locator("#head-revision")).to_have_text("2")
        page.get_by_label("Input (JSON)").fill(json.dumps({"items": list(range(8))}))
        page.get_by_role("button", name="Start a run of this head").click()
        page.evaluate("window.__notReloaded = true")
        expect(page.locator("#run-state")).to_have_text("COMPLETED", timeout=TIMEOUT_MS)
        assert page.evaluate("window.__notReloaded === true")  # updated live, same document
        expect(page.locator("#live-status")).to_contain_text("Ended")
        for node in ("plan", "work", "join", "check"):
            expect(page.locator(f'#run-graph g.state-done[data-node-id="{node}"]')).to_have_count(1)
        expect(page.locator('tr[data-uid="work"] [data-field="progress-text"]')).to_have_text("8/8")
        expect(page.locator("#attempt-rows tr")).to_have_count(3 + 8)  # plan, items, join, check
        expect(page.locator("#event-rows tr", has_text="RUN_COMPLETED")).to_have_count(1)
        expect(page.locator("#run-graph path.edge")).to_have_count(3)  # plan→work→join→check
        expect(page.locator("#attempt-rows tr .effect", has_text="APPLIED")).to_have_count(11)
        expect(page.locator('tr[data-uid="check"] [data-field="finished"]')).not_to_be_empty()
        shot(page, "06-run-completed")
    finally:
        worker.stop()

    # An ad hoc run (no registry ref) is drawn with its edges too.
    agent = h.client("agent")
    adhoc = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="adhoc-graph", definition_json=json.dumps(FANOUT), input_json="null"
        )
    )
    page.goto(f"/runs/{adhoc.run.run_id}")
    expect(page.locator("#run-graph path.edge")).to_have_count(2)  # plan → work → join
    shot(page, "06b-adhoc-run-graph")
    agent.runs.StopRun(run_pb2.StopRunRequest(run_id=adhoc.run.run_id, reason="shown"))

    # An uncertain effect: the worker cannot tell whether it was applied.
    started = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="uncertain-1",
            definition_json=json.dumps(
                {
                    "version": 1,
                    "nodes": {"send": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
                    "output": {"from": "node:send"},
                }
            ),
            input_json='"pay the invoice"',
        )
    )
    page.goto("/inbox")
    expect(page.locator("#live-status")).to_have_text("Live")
    time.sleep(2.5)  # an idle inbox page: the console does not read the inbox again
    reads_while_idle = len(inbox_reads)
    time.sleep(2.5)
    assert len(inbox_reads) == reads_while_idle, inbox_reads
    claimed = agent.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-uncertain", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=5_000
        )
    )
    assert [t.run_id for t in claimed.tasks] == [started.run.run_id]
    agent.tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=claimed.tasks[0].attempt_id,
            worker_id="w-uncertain",
            result_json='"sent?"',
            effect=common_pb2.EFFECT_OUTCOME_UNCERTAIN,
        )
    )
    # The inbox shows it live, after WatchInbox reported the change.
    row = page.locator("#inbox-items tr", has_text=started.run.run_id)
    expect(row).to_have_count(1)
    assert len(inbox_reads) > reads_while_idle
    expect(page.locator('.count[data-kind="RECONCILIATION"]')).to_have_text("1")
    row.get_by_role("link").click()
    expect(page.locator("#reconciliation-state")).to_have_text("PENDING")
    page.get_by_label("It was applied").check()
    page.get_by_label("Evidence (JSON)").fill('{"bank_reference": "TX-123"}')
    page.get_by_role("button", name="Review the material").click()
    expect(page.locator("#material")).to_contain_text("RECONCILIATION_DECISION_APPLIED")
    shot(page, "07-reconciliation-review")
    page.get_by_role("button", name="Approve and reconcile").click()
    expect(page.locator("#reconciliation-state")).to_have_text("RESOLVED")
    expect(page.locator("#decision")).to_contain_text("APPLIED by alice")
    shot(page, "08-reconciled")
    page.get_by_role("link", name=started.run.run_id).click()
    expect(page.locator("#run-state")).to_have_text("COMPLETED")
    expect(page.locator("#attempt-rows tr .outcome")).to_have_text("uncertain, reconciled: applied")
    expect(page.locator("#attempt-rows tr .effect")).to_have_text("UNCERTAIN")
    shot(page, "09-run-after-reconciliation")

    # Registry and contracts pages render.
    page.get_by_role("link", name="Registry").click()
    shot(page, "10-registry")
    page.get_by_role("link", name="Runs").click()
    expect(page.locator("#runs tbody tr")).to_have_count(3)
    shot(page, "11-runs")

    # Sign out: the session is gone.
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(f"{console.base_url}/signin")
    page.goto("/inbox")
    expect(page).to_have_url(f"{console.base_url}/signin")
