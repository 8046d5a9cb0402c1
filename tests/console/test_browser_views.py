"""What the console's views show, measured in a real headless Chromium at 1366x900
(issue 25): the review graphs fit their boxes, a finished run offers no "Stop run" and a
stop that came too late says so, a live run page adds fan-out items when the fan-out
expands, and a node's labels stay inside its box however many items it fans out to."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from tests.support.console import FANOUT, SHOTS, TIMEOUT_MS, Console, propose, register, shot
from tests.support.harness import Harness, token_of

# The JavaScript measures in CSS pixels: a node's rectangle, and the visible client area
# of the figure that holds its graph (inside the border, without scroll bars).
MEASURE = """([figure, node]) => {
  const f = document.querySelector(figure);
  const b = f.getBoundingClientRect();
  const left = b.left + f.clientLeft, top = b.top + f.clientTop;
  const r = document.querySelector(node).getBoundingClientRect();
  return {box: [left, top, left + f.clientWidth, top + f.clientHeight],
          node: [r.left, r.top, r.right, r.bottom], viewport: window.innerWidth};
}"""
# Every piece of text a node draws, with the node's own rectangle.
LABELS = """(node) => {
  const g = document.querySelector(node);
  const r = g.querySelector("rect").getBoundingClientRect();
  const parts = Array.from(g.querySelectorAll("text, tspan, div, span")).map((e) => {
    const b = e.getBoundingClientRect();
    return {text: e.textContent, box: [b.left, b.top, b.right, b.bottom]};
  });
  return {rect: [r.left, r.top, r.right, r.bottom], parts: parts};
}"""


def chain(length: int, model: str = "echo") -> dict[str, object]:
    """A definition of ``length`` nodes in a line: s1 -> s2 -> ... -> s<length>."""
    agent = {"model": model, "output": {"type": "json", "schema": {"type": "string"}}}
    nodes: dict[str, object] = {"s1": {"agent": agent, "input": {"from": "run_input"}}}
    for i in range(2, length + 1):
        nodes[f"s{i}"] = {
            "agent": agent,
            "input": {"from": f"node:s{i - 1}"},
            "depends_on": [f"s{i - 1}"],
        }
    return {"version": 1, "nodes": nodes, "output": {"from": f"node:s{length}"}}


def fanout(model: str) -> dict[str, object]:
    """plan -> work (one item per element of plan's items) -> join, on ``model``."""
    definition = json.loads(json.dumps(FANOUT))
    for node in definition["nodes"].values():
        node["agent"]["model"] = model
    return dict(definition)


def sign_in(page: Page, console: Console, principal_id: str = "alice") -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of(principal_id))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def start(h: Harness, request_id: str, definition: dict[str, object], input_json: str) -> str:
    """Starts an ad hoc run as the agent. Each test's runs use a model of their own, which
    an empty claim first registers (ListModels), so that no test claims another's task."""
    models = {n["agent"]["model"] for n in definition["nodes"].values()}  # type: ignore[attr-defined]
    h.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id="w-register", models=sorted(models), max_tasks=1, lease_ms=1_000, wait_ms=0
        )
    )
    started = h.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id, definition_json=json.dumps(definition), input_json=input_json
        )
    )
    run_id: str = started.run.run_id
    return run_id


def complete_next(h: Harness, model: str, result: object) -> str:
    """Claims the next task of ``model`` and completes it with ``result``; its node uid."""
    agent = h.client("agent")
    claimed = agent.tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id=f"w-{model}", models=[model], max_tasks=1, lease_ms=30_000, wait_ms=5_000
        )
    )
    assert len(claimed.tasks) == 1, claimed
    task = claimed.tasks[0]
    agent.tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=f"w-{model}",
            result_json=json.dumps(result),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )
    node_uid: str = task.node_uid
    return node_uid


def _assert_inside(inner: list[float], outer: list[float], what: Any) -> None:
    slack = 0.5  # sub-pixel rounding of scaled boxes
    assert (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    ), (what, inner, outer)


def test_the_review_page_shows_the_node_under_review(page: Page, console: Console) -> None:
    h = console.harness
    for length in (5, 12):
        work_order_id = f"wo-chain-{length}"
        register(h, work_order_id, "plan", chain(length))
        propose(h, work_order_id, "plan", f"p-chain-{length}", chain(length + 1))
    sign_in(page, console)
    for length in (5, 12):
        page.goto(f"/registry/wo-chain-{length}/plan/proposals/p-chain-{length}")
        added = f'#dag-after g.mark-added[data-node-id="s{length + 1}"]'
        expect(page.locator(added)).to_have_count(1)
        graphs = page.locator("section", has=page.locator("#dag-after"))
        graphs.screenshot(path=str(SHOTS / f"20-review-chain-{length}-graphs.png"))
        for figure, node in (
            ("#dag-before", f'#dag-before g[data-node-id="s{length}"] rect'),
            ("#dag-after", f"{added} rect"),
        ):
            found = page.evaluate(MEASURE, [f"figure:has({figure})", node])
            _assert_inside(found["node"], found["box"], (length, node))
            assert found["box"][2] <= found["viewport"], found  # the box itself is on screen


def test_a_finished_run_offers_no_stop_and_a_late_stop_says_why(
    page: Page, browser: Browser, console: Console
) -> None:
    h = console.harness
    run_id = start(h, "stop-live", chain(1, "m-stop"), '"x"')
    sign_in(page, console)
    page.goto(f"/runs/{run_id}")
    expect(page.locator("#live-status")).to_have_text("Live")
    expect(page.get_by_role("button", name="Stop run")).to_be_visible()
    complete_next(h, "m-stop", "done")  # the run completes while the page is open
    expect(page.locator("#run-state")).to_have_text("COMPLETED")
    expect(page.locator("#live-status")).to_contain_text("Ended")
    expect(page.get_by_role("button", name="Stop run")).to_be_hidden()
    shot(page, "21-run-ended-live")
    page.reload()
    expect(page.get_by_role("button", name="Stop run")).to_have_count(0)

    # A page that still shows the button (no script: nothing live) when the run ends:
    # pressing it says that nothing was stopped, and why.
    late = start(h, "stop-late", chain(1, "m-stop"), '"y"')
    context = browser.new_context(base_url=console.base_url, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        still = context.new_page()
        sign_in(still, console)
        still.goto(f"/runs/{late}")
        complete_next(h, "m-stop", "done")
        still.get_by_label("Reason").fill("too late")
        still.get_by_role("button", name="Stop run").click()
        expect(still.locator("#stop-outcome")).to_contain_text("already ended")
        expect(still.locator("#stop-outcome")).to_contain_text("COMPLETED")
        expect(still.locator("#run-state")).to_have_text("COMPLETED")
        shot(still, "22-run-stop-too-late")
    finally:
        context.close()


def test_a_live_run_page_adds_fanout_items_when_the_fanout_expands(
    page: Page, console: Console
) -> None:
    h = console.harness
    run_id = start(h, "fan-live", fanout("m-fan"), "null")
    sign_in(page, console)
    page.goto(f"/runs/{run_id}")
    expect(page.locator("#live-status")).to_have_text("Live")
    page.evaluate("window.__notReloaded = true")
    expect(page.locator("#items tbody tr")).to_have_count(0)
    assert complete_next(h, "m-fan", {"items": [10, 20, 30]}) == "plan"
    rows = page.locator("#items tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator("#items")).to_be_visible()
    expect(page.locator('#items tr[data-uid="work#1"] [data-field="state"]')).to_have_text("READY")
    done = complete_next(h, "m-fan", 40)
    expect(page.locator(f'#items tr[data-uid="{done}"] [data-field="state"]')).to_have_text("DONE")
    assert page.evaluate("window.__notReloaded === true")  # the same document throughout
    shot(page, "23-run-items-live")


def test_a_ten_thousand_item_fanout_stays_inside_its_box(page: Page, console: Console) -> None:
    h = console.harness
    run_id = start(h, "fan-wide", fanout("m-wide"), "null")
    sign_in(page, console)
    page.goto(f"/runs/{run_id}")
    expect(page.locator("#live-status")).to_have_text("Live")
    page.evaluate("window.__notReloaded = true")
    complete_next(h, "m-wide", {"items": list(range(10_000))})
    work = '#run-graph g[data-node-id="work"]'
    ten_thousand = re.compile(r"10,?000")
    expect(page.locator(f"{work} .node-progress")).to_contain_text(ten_thousand)
    _assert_labels_inside(page, work, ten_thousand, "live")
    shot(page, "24-run-wide-fanout-live")
    # The run is too large for its snapshot to carry items: the first page is read.
    expect(page.locator("#items tbody tr").first).to_be_visible()
    expect(page.get_by_role("link", name="More items")).to_be_visible()
    assert page.evaluate("window.__notReloaded === true")
    page.reload()
    expect(page.locator(f"{work} .node-progress")).to_contain_text("10,000")  # readable
    _assert_labels_inside(page, work, ten_thousand, "reloaded")
    shot(page, "25-run-wide-fanout-reloaded")


def _assert_labels_inside(page: Page, node: str, text: re.Pattern[str], when: str) -> None:
    found = page.evaluate(LABELS, node)
    assert any(text.search(p["text"]) for p in found["parts"]), found
    for part in found["parts"]:
        _assert_inside(part["box"], found["rect"], (when, part["text"]))


def test_the_review_page_warns_of_nodes_that_declare_no_effects(
    page: Page, console: Console
) -> None:
    """The reviewer sees which candidate nodes would block as UNCERTAIN after a crash."""
    h = console.harness
    register(h, "wo-effects", "plan", chain(2))
    candidate = chain(3)
    candidate["nodes"]["s1"]["effects"] = "none"
    propose(h, "wo-effects", "plan", "p-effects", candidate)
    sign_in(page, console)
    page.goto("/registry/wo-effects/plan/proposals/p-effects")
    warning = page.locator('[data-warning="EFFECTS_UNDECLARED"]')
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("2 agent node(s) declare no effects")
    expect(warning.locator("code")).to_have_text(["s2", "s3"])
    shot(page, "21-review-effects-warning")
    quiet = chain(4)
    for node in quiet["nodes"].values():
        node["effects"] = "external"
    propose(h, "wo-effects", "plan", "p-quiet", quiet)
    page.goto("/registry/wo-effects/plan/proposals/p-quiet")
    expect(page.locator("#material-digest")).to_have_count(1)
    expect(page.locator("[data-warning]")).to_have_count(0)
