"""The human's side of the loop in a real headless Chromium (issue 38, items 1 and 2).

A question an agent asks through MCP ``ask_human`` is a row of the inbox in the agent's
words, and the wait's page shows it as plain text (markup in it is shown, never applied)
with the form its answer's schema asks for; the answer given there is exactly what the
agent receives. The run page's waits section carries the same form; a JSON answer is
checked before it is sent, and one the server refuses shows the reasons beside the answer
as typed, with nothing stored. An object is asked one field per property. A decided
proposal's page shows the change against the revision it was proposed against, and who
decided what and when.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from playwright.sync_api import Browser, Page, expect

from aiws.engine.v1 import run_pb2, wait_pb2
from tests.support.cli_shell import PRAXIS
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
from tests.support.registry import activate_cmd, approve, execute, ref

QUESTION = "Which region gets release 1.2?\nPick <b>one</b> & tell the team."
Call = Callable[..., Awaitable[dict[str, Any]]]


@asynccontextmanager
async def agent(console: Console, home: Path) -> AsyncIterator[Call]:
    """``praxis mcp`` over stdio as the agent, against the console's server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRAXIS_")}
    env.update(
        PRAXIS_ADDRESS=console.harness.address,
        PRAXIS_TOKEN=token_of("agent"),
        PRAXIS_CONFIG=str(home / "cli.json"),
    )
    params = StdioServerParameters(command=PRAXIS, args=["mcp"], env=env, cwd=home)
    with (home / "mcp.err").open("a", encoding="utf-8") as log:
        async with Client(stdio_client(params, errlog=log), read_timeout_seconds=90) as client:

            async def call(tool: str, **arguments: Any) -> dict[str, Any]:
                result = await client.call_tool(tool, arguments)
                assert not result.is_error, (tool, result.content)
                assert isinstance(result.structured_content, dict)
                return result.structured_content

            yield call


def sign_in(page: Page, console: Console) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of("alice"))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def waits_of(console: Console, run_id: str) -> list[wait_pb2.Wait]:
    request = wait_pb2.ListWaitsRequest(run_id=run_id)
    return list(console.harness.client("alice").waits.ListWaits(request).waits)


def mcp_call(console: Console, home: Path, tool: str, **arguments: Any) -> dict[str, Any]:
    """One tool call of a fresh ``praxis mcp`` session, in a thread of its own (the page's
    Playwright holds this thread's event loop)."""

    async def one() -> dict[str, Any]:
        async with agent(console, home) as call:
            return await call(tool, **arguments)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, one).result(timeout=120)


def test_a_question_asked_over_mcp_is_answered_from_the_console(
    page: Page, console: Console, tmp_path: Path
) -> None:
    asked = mcp_call(
        console,
        tmp_path,
        "ask_human",
        question=QUESTION,
        choices=["eu-west", "us-east"],
        expires_in_s=600,
    )
    run_id = asked["run_id"]
    sign_in(page, console)
    row = page.locator("#inbox-items tr", has_text=run_id)
    expect(row).to_contain_text("Which region gets release 1.2? Pick <b>one</b> & tell")
    shot(page, "question-0-inbox")
    row.get_by_role("link").click()

    expect(page.locator("#wait-state")).to_have_text("PENDING")
    question = page.locator(".question")
    expect(question).to_have_text(QUESTION)  # line break kept, markup shown as text
    expect(question.locator("b")).to_have_count(0)
    expect(page.get_by_role("radio")).to_have_count(2)
    shot(page, "question-1-wait")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the form fits
    for box in (page.locator(".question"), page.locator("form[data-answer-form]")):
        found = box.bounding_box()
        assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= 390
    for value in page.locator("dd.id-value").all():  # ids on one line, in their own box
        assert value.evaluate("e => e.getClientRects()[0].height < 30"), value.inner_text()
    shot(page, "question-1-wait-390px")
    page.set_viewport_size({"width": 1366, "height": 900})

    page.get_by_role("radio", name="us-east").check()
    page.get_by_role("button", name="Send the answer").click()
    expect(page.locator("#wait-state")).to_have_text("SATISFIED")
    expect(page.locator("#answer-given")).to_have_text('"us-east"')
    expect(page.locator("#satisfied")).to_contain_text("by alice")
    shot(page, "question-2-answered")

    answer = mcp_call(console, tmp_path, "get_answer", run_id=run_id, timeout_s=20)
    assert (answer["answered"], answer["answer"]) == (True, "us-east")


def start(console: Console, request_id: str, wait: dict[str, Any]) -> str:
    document = {
        "version": 1,
        "nodes": {
            "ask": {
                "kind": "human_input",
                "wait": {"expires_in_ms": 3_600_000, "on_expiry": "fail", **wait},
            }
        },
        "output": {"from": "node:ask"},
    }
    started = console.harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=request_id, definition_json=json.dumps(document), input_json="null"
        )
    )
    return str(started.run.run_id)


@contextmanager
def refusing_page(browser: Browser, console: Console) -> Iterator[Page]:
    """A page like the ``page`` fixture's, except that the one console error it allows is
    the load of a refusal (a page answered 400: the answer was refused)."""
    context = browser.new_context(
        base_url=console.base_url, viewport={"width": 1366, "height": 900}
    )
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        yield opened
    finally:
        context.close()
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert [p for p in problems if p != refused] == [], problems


def test_the_run_page_answers_with_a_json_editor_checked_before_sending(
    browser: Browser, console: Console
) -> None:
    with refusing_page(browser, console) as page:
        json_editor_flow(page, console)


def json_editor_flow(page: Page, console: Console) -> None:
    run_id = start(
        console,
        "questions-json",
        {
            "question": "List the files to ship.",
            "schema": {"type": "array", "items": {"type": "string"}},
        },
    )
    sign_in(page, console)
    page.goto(f"/runs/{run_id}")
    section = page.locator("#waits .wait-answer")
    expect(section.locator(".question")).to_have_text("List the files to ship.")
    editor = section.get_by_label("Your answer")
    expect(editor).to_have_value("")  # never pre-filled {}

    editor.fill('["a.txt", ')
    section.get_by_role("button", name="Send the answer").click()
    expect(section.locator(".json-problem")).to_contain_text("not JSON")
    expect(page).to_have_url(f"{console.base_url}/runs/{run_id}")  # nothing was sent
    shot(page, "question-3-json-checked")

    editor.fill('["a.txt", 2]')
    section.get_by_role("button", name="Send the answer").click()
    refused = page.locator("#answer-refused")
    expect(refused.locator(".reason")).to_have_text("WAIT_PAYLOAD_INVALID")
    expect(refused.locator("li")).to_have_count(1)
    expect(page.get_by_label("Your answer")).to_have_value('["a.txt", 2]')  # as typed
    assert [w.state for w in waits_of(console, run_id)] == [wait_pb2.WAIT_STATE_PENDING]
    shot(page, "question-4-refused")

    page.get_by_label("Your answer").fill('["a.txt", "b.txt"]')
    page.get_by_role("button", name="Send the answer").click()
    expect(page.locator("#wait-state")).to_have_text("SATISFIED")
    [wait] = waits_of(console, run_id)
    assert json.loads(wait.payload_json) == ["a.txt", "b.txt"]


def test_an_object_is_answered_one_field_per_property(page: Page, console: Console) -> None:
    schema = {
        "type": "object",
        "properties": {
            "approve": {"type": "boolean", "title": "Approve the release?"},
            "copies": {"type": "integer", "description": "How many to print."},
            "channel": {"enum": ["email", "slack"]},
            "note": {"type": "string"},
        },
        "required": ["approve", "copies", "channel"],
    }
    run_id = start(console, "questions-object", {"question": "Release 1.2?", "schema": schema})
    sign_in(page, console)
    [wait] = waits_of(console, run_id)
    page.goto(f"/runs/{run_id}/waits/{wait.wait_id}")
    form = page.locator("form[data-answer-form]")
    expect(form.get_by_role("radio")).to_have_count(4)  # yes/no, email/slack
    form.get_by_role("radio", name="Yes").check()
    form.get_by_label("copies").fill("1e3")
    form.get_by_role("radio", name="slack").check()
    shot(page, "question-5-object")
    form.get_by_role("button", name="Send the answer").click()
    # The browser holds the number to its canonical form: nothing was sent.
    expect(page).to_have_url(f"{console.base_url}/runs/{run_id}/waits/{wait.wait_id}")
    assert waits_of(console, run_id)[0].state == wait_pb2.WAIT_STATE_PENDING
    form.get_by_label("copies").fill("3")
    form.get_by_role("button", name="Send the answer").click()
    expect(page.locator("#wait-state")).to_have_text("SATISFIED")
    [wait] = waits_of(console, run_id)
    assert json.loads(wait.payload_json) == {"approve": True, "copies": 3, "channel": "slack"}


def test_a_decided_proposals_page_shows_its_change_and_the_decision(
    page: Page, console: Console
) -> None:
    h = console.harness
    register(h, "wo-decided", "r1", FANOUT)
    propose(h, "wo-decided", "r1", "add-check", FANOUT_V2)
    propose(h, "wo-decided", "r1", "rival", FANOUT_V2, summary="the same, later")
    r = ref("wo-decided", "r1")
    command = activate_cmd(r, "add-check", 1, "ap-decided")
    approve(h, command, "ap-decided", epochs=h.epochs("wo-decided"))
    execute(h, "alice", "req-decided", command)
    sign_in(page, console)

    page.goto("/registry/wo-decided/r1/proposals/add-check")
    expect(page.locator("#proposal-state")).to_have_text("ACTIVATED")
    decision = page.locator("#decision")
    expect(decision).to_contain_text("Activated")
    expect(decision.locator("#decided-by")).to_have_text("alice")
    expect(decision).to_contain_text("revision 2")
    # The change against revision 1, not every line added against an empty base.
    expect(page.locator("#diff tr.row-same").first).to_be_visible()
    expect(page.locator("#diff-summary")).to_have_text("1 line removed, 18 added.")
    expect(page.locator("#dag-summary")).to_contain_text("1 node added, 0 removed")
    shot(page, "proposal-decided-activated")

    page.goto("/registry/wo-decided/r1/proposals/rival")
    expect(page.locator("#superseded")).to_contain_text("revision 2")
    expect(page.locator("#diff tr.row-same").first).to_be_visible()
    shot(page, "proposal-superseded")
    page.get_by_label("Reason for rejecting").fill("superseded by add-check")
    page.get_by_role("button", name="Reject", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Reject the proposal").click()
    expect(page.locator("#proposal-state")).to_have_text("REJECTED")
    expect(page.locator("#rejection-reason")).to_have_text("superseded by add-check")
    expect(page.locator("#diff-summary")).to_have_text("1 line removed, 18 added.")
    shot(page, "proposal-decided-rejected")


def test_a_free_answer_beside_the_choices(page: Page, console: Console) -> None:
    run_id = start(
        console,
        "questions-other",
        {
            "question": "Who reviews it?",
            "schema": {"type": "string"},
            "choices": ["Ana", "Bo"],
        },
    )
    sign_in(page, console)
    [wait] = waits_of(console, run_id)
    page.goto(f"/runs/{run_id}/waits/{wait.wait_id}")
    form = page.locator("form[data-answer-form]")
    expect(form.get_by_role("radio")).to_have_count(2)
    form.get_by_label("Another answer").fill("Cy, from legal")
    form.get_by_role("button", name="Send the answer").click()
    expect(page.locator("#wait-state")).to_have_text("SATISFIED")
    [wait] = waits_of(console, run_id)
    assert json.loads(wait.payload_json) == "Cy, from legal"
