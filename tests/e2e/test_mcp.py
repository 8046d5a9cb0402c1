"""``praxis mcp`` driven by the ``mcp`` package's own client over stdio, against a real
server process: a proposal a human then activates from the CLI, a task claimed and
settled, a question a human answers, and refusals that are the server's (issue 24)."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from aiws.engine.v1 import run_pb2
from praxis_client import connect
from tests.support.cli_shell import POLICY, PRAXIS, V1, V2, Shell, digest_of
from tests.support.harness import token_of
from tests.support.server_process import free_port

TOOLS = {
    "get_definition",
    "propose_revision",
    "get_proposal",
    "start_run",
    "get_run",
    "wait_for_run",
    "claim_task",
    "heartbeat_task",
    "complete_task",
    "fail_task",
    "ask_human",
    "get_answer",
}


class Agent:
    """An MCP client session of ``praxis mcp`` run with one principal's token; every
    answer's text is kept, to check that no token ever shows."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seen: list[str] = []

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The structured answer of a tool that must succeed."""
        result = await self.client.call_tool(tool, arguments)
        self.seen += [block.text for block in result.content if hasattr(block, "text")]
        assert not result.is_error, (tool, result.content)
        assert isinstance(result.structured_content, dict)
        return result.structured_content

    async def refused(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The error of a tool call that must be refused, and its text's first line."""
        result = await self.client.call_tool(tool, arguments)
        self.seen += [block.text for block in result.content if hasattr(block, "text")]
        assert result.is_error, (tool, result.content)
        assert isinstance(result.structured_content, dict)
        error: dict[str, Any] = result.structured_content["error"]
        first_line = result.content[0].text.splitlines()[0]  # type: ignore[union-attr]
        assert first_line == f"{error['reason']}: {error['message']}", first_line
        return error


@asynccontextmanager
async def agent(shell: Shell, who: str, errlog: Path) -> AsyncIterator[Agent]:
    """``praxis mcp`` over stdio as ``who``, its stderr written to ``errlog``."""
    params = StdioServerParameters(
        command=PRAXIS, args=["mcp", "--worker-id", "mcp-test"], env=shell.env(who), cwd=shell.home
    )
    with errlog.open("a", encoding="utf-8") as log:
        async with Client(stdio_client(params, errlog=log), read_timeout_seconds=90) as client:
            session = Agent(client)
            yield session
            assert not any(token_of(who) in text for text in session.seen)
    assert token_of(who) not in errlog.read_text(encoding="utf-8")


def run_async(flow: Callable[[], Awaitable[None]]) -> None:
    anyio.run(flow)


def test_the_agent_proposes_and_a_human_activates_from_the_cli(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))

    async def flow() -> None:
        async with agent(shell, "agent", shell.home / "mcp.err") as bot:
            listed = await bot.client.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            assert all(len(tool.description or "") > 60 for tool in listed.tools)
            head = await bot.call("get_definition", work_order_id="wo-1", run_id="run-1")
            assert (head["revision"], head["definition"]) == (1, V1)
            proposed = await bot.call(
                "propose_revision",
                work_order_id="wo-1",
                run_id="run-1",
                definition=V2,
                summary="add node b after a",
            )
            assert proposed["state"] == "pending" and proposed["proposed_by"] == "agent"
            again = await bot.call(
                "propose_revision",
                work_order_id="wo-1",
                run_id="run-1",
                definition=V2,
                summary="add node b after a",
            )  # a retry replays: no second proposal
            assert again["replayed"] and again["proposal_id"] == proposed["proposal_id"]

            proposal = proposed["proposal_id"]
            digest = digest_of(shell.ok("review", "wo-1/run-1", proposal).out)
            approval = shell.ok(
                "approve", "wo-1/run-1", proposal, "--digest", digest, "--json"
            ).json()["approval_id"]
            shell.ok("activate", "wo-1/run-1", proposal, "--approval", approval)

            decided = await bot.call(
                "get_proposal", work_order_id="wo-1", run_id="run-1", proposal_id=proposal
            )
            assert (decided["state"], decided["activated_revision"]) == ("activated", 2)
            assert decided["decided_by"] == "alice"
            head = await bot.call("get_definition", work_order_id="wo-1", run_id="run-1")
            assert (head["revision"], head["definition"]) == (2, V2)

    run_async(flow)


PLAN = {
    "version": 1,
    "nodes": {
        "a": {
            "agent": {"model": "echo", "provider": "acme-cloud", "functions": ["search.*"]},
            "input": {"from": "run_input"},
            "effects": "external",
        }
    },
    "output": {"from": "node:a"},
}


def test_a_task_is_claimed_and_settled_and_the_run_followed(shell: Shell) -> None:
    async def flow() -> None:
        async with agent(shell, "agent", shell.home / "mcp.err") as bot:
            run = await bot.call("start_run", definition=PLAN, input={"text": "hi"},
                                 request_id="mcp-run-1")  # fmt: skip
            assert run["created"] and not run["ended"]
            claimed = await bot.call("claim_task", models=["echo"], wait_s=10)
            task = claimed["task"]
            assert task["run_id"] == run["run_id"] and task["input"] == {"text": "hi"}
            assert task["provider"] == "acme-cloud"
            assert task["functions"] == {"allow": ["search.*"], "deny": []}
            beat = await bot.call("heartbeat_task", attempt_id=task["attempt_id"], lease_s=60)
            assert beat["cancelled"] is False
            await bot.call("heartbeat_task", attempt_id=task["attempt_id"],
                           progress="indexed 40 of 120 pages",
                           progress_data={"done": 40, "total": 120})  # fmt: skip
            with connect(shell.address, token_of("agent")) as client:
                node = client.runs.GetRun(run_pb2.GetRunRequest(run_id=run["run_id"])).run.nodes[0]
            assert node.progress.attempt_id == task["attempt_id"]
            assert node.progress.text == "indexed 40 of 120 pages"
            assert json.loads(node.progress.data_json) == {"done": 40, "total": 120}
            assert node.progress.reports == 1
            [shown] = (await bot.call("get_run", run_id=run["run_id"]))["nodes"]
            assert shown["progress"]["text"] == "indexed 40 of 120 pages"
            assert shown["progress"]["data"] == {"done": 40, "total": 120}
            too_long = await bot.refused(
                "heartbeat_task", attempt_id=task["attempt_id"], progress="é" * 257
            )  # 514 UTF-8 bytes
            assert (too_long["code"], too_long["reason"]) == ("INVALID_ARGUMENT", "TEXT_TOO_LONG")
            too_big = await bot.refused(
                "heartbeat_task", attempt_id=task["attempt_id"], progress_data={"x": "y" * 1100}
            )
            assert too_big["code"] == "INVALID_ARGUMENT"
            assert too_big["reason"] == "DOCUMENT_TOO_LARGE"
            settled = await bot.call(
                "complete_task",
                attempt_id=task["attempt_id"],
                result="done",
                effect="applied",
                cost_microcredits="1500",
            )
            assert settled == {"attempt_id": task["attempt_id"], "settled": "completed",
                               "replayed": False}  # fmt: skip
            seen = run["version"]
            for _ in range(10):
                followed = await bot.call(
                    "wait_for_run", run_id=run["run_id"], after_version=seen, timeout_s=20
                )
                seen = followed["version"]
                if followed["ended"]:
                    break
            assert (followed["state"], followed["result"]) == ("completed", "done")
            # Settling again with another payload is the server's refusal, named.
            error = await bot.refused(
                "complete_task", attempt_id=task["attempt_id"], result="other", effect="applied"
            )
            assert (error["code"], error["reason"]) == ("ALREADY_EXISTS", "ATTEMPT_ALREADY_SETTLED")
        shown = shell.ok("runs", "show", run["run_id"], "--json").json()
        assert shown["run"]["state"] == "RUN_STATE_COMPLETED"

    run_async(flow)


def test_a_refused_call_is_the_servers_reason(shell: Shell) -> None:
    async def flow() -> None:
        async with agent(shell, "reader", shell.home / "mcp.err") as bot:
            error = await bot.refused("start_run", definition=PLAN, input={})
            assert (error["code"], error["reason"]) == ("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
            missing = await bot.refused("get_definition", work_order_id="wo-9", run_id="r")
            assert (missing["code"], missing["reason"]) == ("NOT_FOUND", "REF_NOT_FOUND")
        async with agent(shell, "agent", shell.home / "mcp.err") as bot:
            bad = await bot.refused("start_run", definition={"version": 1, "nodes": {}}, input={})
            assert (bad["code"], bad["reason"]) == ("INVALID_ARGUMENT", "DEFINITION_INVALID")
            assert bad["field_violations"]

    run_async(flow)


def test_the_agent_asks_a_human_and_receives_the_answer(shell: Shell) -> None:
    async def flow() -> None:
        async with agent(shell, "agent", shell.home / "mcp.err") as bot:
            asked = await bot.call(
                "ask_human",
                question="Ship release 1.2 today?",
                answer_schema={"type": "boolean"},
                expires_in_s=600,
            )
            pending = await bot.call("get_answer", run_id=asked["run_id"], timeout_s=0)
            assert (pending["answered"], pending["state"]) == (False, "pending")
            [wait] = shell.ok("wait", "list", asked["run_id"], "--json").json()["waits"]
            assert wait["question"] == "Ship release 1.2 today?"
            shell.ok("wait", "satisfy", wait["wait_id"], "--payload", "true")
            answer = await bot.call("get_answer", run_id=asked["run_id"], timeout_s=20)
            assert (answer["answered"], answer["answer"]) == (True, True)

    run_async(flow)


def test_streamable_http_on_loopback_only(shell: Shell) -> None:
    refused = shell.run("mcp", "--http", "8765", "--host", "0.0.0.0", who="agent")
    assert refused.code != 0 and refused.error_line().startswith("error: LOOPBACK_REQUIRED: ")
    port = free_port()
    process = subprocess.Popen(
        [PRAXIS, "mcp", "--http", str(port)],
        env=shell.env("agent"),
        cwd=shell.home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"praxis mcp --http did not listen on {port}")

        async def flow() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
                listed = await client.list_tools()
                assert {tool.name for tool in listed.tools} == TOOLS
                result = await client.call_tool("get_run", {"run_id": "no-such-run"})
                assert result.is_error and isinstance(result.structured_content, dict)
                assert result.structured_content["error"]["reason"] == "RUN_NOT_FOUND"

        run_async(flow)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert token_of("agent") not in err
