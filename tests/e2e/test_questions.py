"""A question an agent asks through MCP ``ask_human`` reaches a person at a terminal as
words they can read, is answered by the form its schema asks for (``praxis wait answer``
in a real pseudo-terminal of 80 columns), an answer that breaks the schema is refused with
the reasons and nothing stored, and the agent receives exactly the answer given
(issue 38, item 1)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.support.cli_shell import PRAXIS, Shell
from tests.support.terminal import Terminal

Call = Callable[..., Awaitable[dict[str, Any]]]
QUESTION = (
    "Which region gets release 1.2?\nPick <b>one</b> & say why later. The customers in "
    "both regions asked for it this week, and run_7f3a9c0e2b4d4e6f8a1b2c3d4e5f6a7b has "
    "the numbers."
)


@asynccontextmanager
async def agent(shell: Shell, errlog: Path) -> AsyncIterator[Call]:
    """``praxis mcp`` over stdio as the agent; yields a call of a tool that must succeed."""
    params = StdioServerParameters(
        command=PRAXIS, args=["mcp", "--worker-id", "mcp-q"], env=shell.env("agent"), cwd=shell.home
    )
    with errlog.open("a", encoding="utf-8") as log:
        async with Client(stdio_client(params, errlog=log), read_timeout_seconds=90) as client:

            async def call(tool: str, **arguments: Any) -> dict[str, Any]:
                result = await client.call_tool(tool, arguments)
                assert not result.is_error, (tool, result.content)
                assert isinstance(result.structured_content, dict)
                return result.structured_content

            yield call


def the_wait(shell: Shell, run_id: str) -> dict[str, Any]:
    [wait] = shell.ok("wait", "list", run_id, "--json").json()["waits"]
    return dict(wait)


def test_a_question_asked_over_mcp_is_answered_from_a_terminal(shell: Shell) -> None:
    async def flow() -> None:
        async with agent(shell, shell.home / "mcp.err") as call:
            asked = await call(
                "ask_human", question=QUESTION, choices=["eu-west", "us-east"], expires_in_s=600
            )
            wait = the_wait(shell, asked["run_id"])
            wait_id = wait["wait_id"]
            assert (wait["question"], wait["choices"]) == (QUESTION, ["eu-west", "us-east"])

            inbox = shell.ok("inbox", "--kind", "human-input").out
            assert " ".join(QUESTION.split()) in inbox
            assert f"praxis wait answer {wait_id}" in inbox
            shown = shell.ok("wait", "show", wait_id).out
            assert "Which region gets release 1.2?" in shown and "Pick <b>one</b> & say" in shown
            assert "choices: eu-west, us-east" in shown

            # Refused, with the reasons, and nothing stored: by the server (outside the
            # schema) and before sending (not one of the choices).
            refused = shell.run("wait", "answer", wait_id, "--payload", '"ap-south"')
            assert refused.code == 2
            assert refused.error_line().startswith("error: WAIT_PAYLOAD_INVALID: ")
            assert refused.err.splitlines()[1].startswith("  payload_json: ")
            unsent = shell.run("wait", "answer", wait_id, "--value", "3")
            assert unsent.code == 2
            assert unsent.error_line().startswith("error: WAIT_PAYLOAD_INVALID: ")
            assert the_wait(shell, asked["run_id"])["state"] == "WAIT_STATE_PENDING"

            term = Terminal([PRAXIS, "wait", "answer", wait_id], shell.env("alice"), shell.home)
            term.expect("Which region gets release 1.2?")
            term.expect("Pick <b>one</b> & say why later.")
            term.expect("run_7f3a9c0e2b4d4e6f8a1b2c3d4e5f6a7b")  # wrapped at words only
            term.expect("1) eu-west")
            term.expect("2) us-east")
            term.expect("answer (a number from the list): ")
            term.type("7")
            term.expect("choose one of: eu-west, us-east")
            term.expect("answer (a number from the list): ")
            term.type("2")
            term.expect(f'answered wait {wait_id}: "us-east"')
            assert term.wait() == 0
            assert all(len(line) <= 80 for line in term.seen.splitlines()), term.seen

            answer = await call("get_answer", run_id=asked["run_id"], timeout_s=20)
            assert (answer["answered"], answer["answer"]) == (True, "us-east")
            again = shell.run("wait", "answer", wait_id)  # said before asking anything
            assert again.code == 5
            assert again.error_line().startswith("error: WAIT_ALREADY_SATISFIED: ")

    anyio.run(flow)


def test_an_object_answer_is_asked_one_field_at_a_time(shell: Shell) -> None:
    schema = {
        "type": "object",
        "properties": {
            "approve": {"type": "boolean"},
            "copies": {"type": "integer", "description": "how many to print"},
            "note": {"type": "string"},
        },
        "required": ["approve", "copies"],
    }

    async def flow() -> None:
        async with agent(shell, shell.home / "mcp.err") as call:
            asked = await call(
                "ask_human", question="Print the contract?", answer_schema=schema, expires_in_s=600
            )
            wait_id = the_wait(shell, asked["run_id"])["wait_id"]
            term = Terminal([PRAXIS, "wait", "answer", wait_id], shell.env("alice"), shell.home)
            term.expect("Print the contract?")
            term.expect("approve (yes or no): ")
            term.type("perhaps")
            term.expect("answer yes or no")
            term.expect("approve (yes or no): ")
            term.type("yes")
            term.expect("how many to print")
            term.expect("copies (a whole number): ")
            term.type("1.5")
            term.expect("a whole number written plainly")
            term.expect("copies (a whole number): ")
            term.type("3")
            term.expect("note (text, optional: Enter to leave out): ")
            term.type("")
            term.expect("answered wait")
            assert term.wait() == 0
            answer = await call("get_answer", run_id=asked["run_id"], timeout_s=20)
            assert (answer["answered"], answer["answer"]) == (True, {"approve": True, "copies": 3})
            given = the_wait(shell, asked["run_id"])
            assert json.loads(given["payload_json"]) == {"approve": True, "copies": 3}

    anyio.run(flow)


def test_without_a_terminal_the_answer_is_given_by_value(shell: Shell) -> None:
    asking = {
        "version": 1,
        "nodes": {
            "ask": {
                "kind": "human_input",
                "wait": {
                    "expires_in_ms": 600_000,
                    "on_expiry": "fail",
                    "question": "Publish now?",
                    "schema": {"type": "boolean"},
                },
            }
        },
        "output": {"from": "node:ask"},
    }
    (shell.home / "ask.json").write_text(json.dumps(asking))
    run = shell.ok("runs", "start", "-f", "ask.json", "--json", who="agent").json()["run"]
    wait_id = the_wait(shell, run["run_id"])["wait_id"]
    piped = shell.run("wait", "answer", wait_id, stdin="yes\n")  # stdin is not a terminal
    assert piped.code == 2 and piped.error_line().startswith("error: USAGE: ")
    both = shell.run("wait", "answer", wait_id, "--value", "yes", "--payload", "true")
    assert both.code == 2 and both.error_line().startswith("error: USAGE: ")
    assert the_wait(shell, run["run_id"])["state"] == "WAIT_STATE_PENDING"
    done = shell.ok("wait", "answer", wait_id, "--value", "yes", "--json").json()
    assert (done["wait"]["state"], done["wait"]["payload_json"]) == ("WAIT_STATE_SATISFIED", "true")
    again = shell.run("wait", "answer", wait_id, "--payload", "true")
    assert again.code == 5 and again.error_line().startswith("error: WAIT_ALREADY_SATISFIED: ")
