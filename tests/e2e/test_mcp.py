"""``praxis mcp`` driven by the ``mcp`` package's own client over stdio and streamable
HTTP, against a real server process: a proposal a human then activates from the CLI, a
task claimed and settled, a question a human answers, and refusals that are the server's
(issue 24); an agent that finds its work and is told, by subscription, of a human's
answer, of a run's end and of its replies, within a bound of watches (issue 39)."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp_types import ResourceUpdatedNotification

from aiws.engine.v1 import handoff_pb2, run_pb2
from praxis.authority.principals import hash_token
from praxis_client import connect
from praxis_mcp.actions import Praxis
from praxis_mcp.server import Redactor, build
from tests.support.cli_shell import POLICY, PRAXIS, V1, V2, Shell, digest_of
from tests.support.harness import principals_document, token_of
from tests.support.server_process import ServerProcess, free_port, write_config

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
    "get_inbox",
    "list_refs",
    "list_runs",
    "list_waits",
    "list_work_orders",
    "propose_work_order",
    "list_handoffs",
    "acknowledge_handoff",
    "get_replies",
    "acknowledge_replies",
}


class Agent:
    """An MCP client session of ``praxis mcp`` run with one principal's token; every
    answer's text is kept, to check that no token ever shows."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seen: list[str] = []
        self.calls = 0

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The structured answer of a tool that must succeed."""
        self.calls += 1
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
async def agent(shell: Shell, who: str, errlog: Path, **options: Any) -> AsyncIterator[Agent]:
    """``praxis mcp`` over stdio as ``who``, its stderr written to ``errlog`` (``options``
    go to the client: ``mode``, ``message_handler``)."""
    params = StdioServerParameters(
        command=PRAXIS, args=["mcp", "--worker-id", "mcp-test"], env=shell.env(who), cwd=shell.home
    )
    with errlog.open("a", encoding="utf-8") as log:
        transport = stdio_client(params, errlog=log)
        async with Client(transport, read_timeout_seconds=90, **options) as client:
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
            refs = await bot.call("list_refs", work_order_id="wo-1")
            assert [(r["work_order_id"], r["run_id"], r["revision"]) for r in refs["refs"]] == [
                ("wo-1", "run-1", 1)
            ]
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
            # get_inbox answers the parts its grants cover and names the refusal of the
            # others: this principal may read neither runs nor events.
            inbox = await bot.call("get_inbox")
            assert inbox["principal_id"] == "reader" and inbox["handoffs_to_acknowledge"] == []
            assert inbox["open_waits"]["error"]["reason"] == "ACTION_NOT_GRANTED"
            assert inbox["replies"]["error"]["reason"] == "ACTION_NOT_GRANTED"
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


# --- finding work and being told (issue 39) ------------------------------------------

COURIER_GRANTS = ["registry.read", "run.*", "task.*", "wait.read", "handoff.*", "event.*"]
REPLIES = "praxis://replies"


@pytest.fixture
def team(tmp_path: Path) -> Iterator[Shell]:
    """A server whose principals add ``courier``, an agent that may also read waits and
    take handoffs (the test principals' ``agent`` may not)."""
    directory = tmp_path / "server"
    document = principals_document()
    document["principals"].append(  # type: ignore[attr-defined]
        {
            "id": "courier",
            "kind": "AGENT",
            "token_sha256": hash_token(token_of("courier")),
            "expires_at_ms": 0,
            "grants": [{"actions": COURIER_GRANTS, "work_orders": ["*"]}],
        }
    )
    directory.mkdir(parents=True)
    (directory / "team.json").write_text(json.dumps(document), encoding="utf-8")
    server = ServerProcess(write_config(directory, principals_path="team.json"), free_port())
    server.start(timeout_s=90)
    try:
        yield Shell(server.address, tmp_path)
    finally:
        server.terminate()


async def updated(events: Any, uri: str) -> None:
    """Waits (at most 60 s) for a ``notifications/resources/updated`` of ``uri`` on a
    ``subscriptions/listen`` stream."""
    with anyio.fail_after(60):
        async for event in events:
            if isinstance(event, ResourceUpdated) and event.uri == uri:
                return


async def read_json(client: Client, uri: str) -> Any:
    """A resource's JSON content."""
    result = await client.read_resource(uri, cache_mode="refresh")
    [content] = result.contents
    return json.loads(content.text)  # type: ignore[union-attr]


def test_the_agent_is_told_of_the_answer_and_the_run_end_without_polling(team: Shell) -> None:
    async def flow() -> None:
        async with agent(team, "courier", team.home / "mcp.err") as bot:
            asked = await bot.call(
                "ask_human", question="Ship release 1.2 today?", answer_schema={"type": "boolean"}
            )
            calls_after_asking = bot.calls
            uri = asked["resource"]
            assert uri == f"praxis://runs/{asked['run_id']}"
            async with bot.client.listen(resource_subscriptions=[uri]) as events:
                [wait] = team.ok("wait", "list", asked["run_id"], "--json").json()["waits"]
                team.ok("wait", "satisfy", wait["wait_id"], "--payload", "true")
                run: dict[str, Any] = {"ended": False}
                while not run["ended"]:  # told: no tool call in between
                    await updated(events, uri)
                    run = await read_json(bot.client, uri)
            assert (run["state"], run["result"]) == ("completed", True)
            assert bot.calls == calls_after_asking  # at most two allowed; none needed

            # A run's end and its reply: subscribed before its one task is done, told
            # when it ends and when the reply it asked for is posted.
            started = await bot.call(
                "start_run",
                definition=PLAN,
                input={"text": "hi"},
                labels={"batch": "b7"},
                reply=True,
                reply_template="Batch b7 done:",
            )
            watched = [started["resource"], REPLIES]
            async with bot.client.listen(resource_subscriptions=watched) as events:
                task = (await bot.call("claim_task", models=["echo"], wait_s=10))["task"]
                await bot.call("complete_task", attempt_id=task["attempt_id"], result="done",
                               effect="applied")  # fmt: skip
                told: set[str] = set()
                with anyio.fail_after(60):
                    async for event in events:
                        if isinstance(event, ResourceUpdated):
                            told.add(event.uri)
                        run = await read_json(bot.client, started["resource"])
                        if run["ended"] and REPLIES in told:
                            break
            assert (run["state"], run["result"]) == ("completed", "done")
            [reply] = (await read_json(bot.client, REPLIES))["replies"]
            assert (reply["run_id"], reply["status"], reply["result"], reply["template"]) == (
                started["run_id"],
                "completed",
                "done",
                "Batch b7 done:",
            )
            await bot.call("acknowledge_replies", through_seq=reply["seq"])
            assert (await bot.call("get_replies"))["replies"] == []
            # A late subscriber to a run that already ended is told at once.
            async with bot.client.listen(resource_subscriptions=[started["resource"]]) as events:
                await updated(events, started["resource"])

            # Its runs are found by label and state; a subscription to a run it may not
            # see is refused with the server's reason.
            found = await bot.call("list_runs", labels={"batch": "b7"}, mine=True)
            assert [r["run_id"] for r in found["runs"]] == [started["run_id"]]
            assert (await bot.call("list_runs", labels={"batch": "b7"}, state="failed"))[
                "runs"
            ] == []
            with pytest.raises(MCPError) as refused:
                async with bot.client.listen(resource_subscriptions=["praxis://runs/run_nope"]):
                    pass
            assert refused.value.error.data["error"]["reason"] == "RUN_NOT_FOUND"
            with pytest.raises(MCPError) as unread:
                await bot.client.read_resource("praxis://waits/wait_nope")
            assert "WAIT_NOT_FOUND" in unread.value.error.message

    run_async(flow)


def test_the_agent_finds_its_waits_and_handoffs_and_acknowledges_one(team: Shell) -> None:
    async def flow() -> None:
        async with agent(team, "courier", team.home / "mcp.err") as bot:
            asked = await bot.call("ask_human", question="Which colour?")
            inbox = await bot.call("get_inbox")
            [open_wait] = inbox["open_waits"]
            assert (open_wait["run_id"], open_wait["question"]) == (
                asked["run_id"],
                "Which colour?",
            )
            assert open_wait["state"] == "pending" and inbox["principal_id"] == "courier"
            assert inbox["handoffs_to_acknowledge"] == []
            assert (inbox["replies"], inbox["more"]) == ([], False)

            started = await bot.call("start_run", definition=PLAN, input={"text": "hi"})
            task = (await bot.call("claim_task", models=["echo"], wait_s=10))["task"]
            await bot.call("complete_task", attempt_id=task["attempt_id"], result="draft",
                           effect="applied")  # fmt: skip
            with connect(team.address, token_of("alice")) as human:
                offered = human.handoffs.CreateHandoff(
                    handoff_pb2.CreateHandoffRequest(
                        request_id="h-1",
                        run_id=started["run_id"],
                        node_uid="a",
                        to_principal_id="courier",
                        note="the draft is yours",
                    )
                ).handoff
            [handoff] = (await bot.call("get_inbox"))["handoffs_to_acknowledge"]
            assert (handoff["delivery_id"], handoff["note"]) == (offered.delivery_id,
                                                                 "the draft is yours")  # fmt: skip
            assert handoff["from_principal_id"] == "alice" and handoff["state"] == "offered"
            done = await bot.call("acknowledge_handoff", delivery_id=offered.delivery_id)
            assert done["state"] == "acknowledged" and done["acknowledged_at_ms"] > 0
            assert (await bot.call("list_handoffs"))["handoffs"] == []
            [kept] = (await bot.call("list_handoffs", state="acknowledged"))["handoffs"]
            assert kept["delivery_id"] == offered.delivery_id
            again = await bot.refused("acknowledge_handoff", delivery_id=offered.delivery_id)
            assert (again["code"], again["reason"]) == (
                "FAILED_PRECONDITION",
                "HANDOFF_ALREADY_ACKNOWLEDGED",
            )
            waits = await bot.call("list_waits", run_id=asked["run_id"], state="any")
            assert [w["wait_id"] for w in waits["waits"]] == [open_wait["wait_id"]]

    run_async(flow)


def test_refusals_name_the_tools_parameters(team: Shell) -> None:
    async def flow() -> None:
        async with agent(team, "courier", team.home / "mcp.err") as bot:
            error = await bot.refused("get_definition", work_order_id="not an id", run_id="r")
            assert (error["code"], error["reason"]) == ("INVALID_ARGUMENT", "IDENTIFIER_INVALID")
            assert [v["field"] for v in error["field_violations"]] == ["work_order_id"]
            bad = await bot.refused("start_run", definition={"version": 1, "nodes": {}}, input={})
            assert bad["reason"] == "DEFINITION_INVALID"
            fields = [v["field"] for v in bad["field_violations"]]
            assert all(f.startswith("definition") for f in fields), fields
            assert not any("_json" in f or f.startswith("ref.") for f in fields), fields
            label = await bot.refused("start_run", definition=PLAN, labels={"bad key": "x"})
            assert label["reason"] == "LABEL_INVALID"
            assert all(v["field"].startswith("labels") for v in label["field_violations"])
            wrong = await bot.client.call_tool("list_waits", {"state": "later"})
            assert wrong.is_error  # the schema's enum: refused before any call is made

    run_async(flow)


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # on purpose
def test_a_stdio_host_of_the_earlier_protocol_is_told_of_an_answer(team: Shell) -> None:
    """What Claude Desktop and most hosts speak today: resources/subscribe over stdio."""
    told: list[str] = []
    arrived = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            told.append(message.params.uri)
            arrived.set()

    async def flow() -> None:
        nonlocal arrived
        errlog = team.home / "mcp.err"
        async with agent(team, "courier", errlog, mode="legacy", message_handler=on_message) as bot:
            asked = await bot.call(
                "ask_human", question="Merge it?", answer_schema={"type": "boolean"}
            )
            await bot.client.subscribe_resource(asked["resource"])
            [wait] = team.ok("wait", "list", asked["run_id"], "--json").json()["waits"]
            team.ok("wait", "satisfy", wait["wait_id"], "--payload", "false")
            run: dict[str, Any] = {"ended": False}
            with anyio.fail_after(60):
                while not run["ended"]:  # each version is told; the answer ends the run
                    await arrived.wait()
                    arrived = anyio.Event()
                    run = await read_json(bot.client, asked["resource"])
            assert set(told) == {asked["resource"]}
            assert (run["state"], run["result"]) == ("completed", False)
            assert bot.calls == 1  # ask_human only

    run_async(flow)


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # on purpose
def test_streamable_http_subscription_tells_of_a_human_answer(team: Shell) -> None:
    """Over HTTP, a host of the earlier protocol (resources/subscribe, what most hosts
    speak today) and one of the current protocol (a listen stream) are both told."""
    port = free_port()
    process = subprocess.Popen(
        [PRAXIS, "mcp", "--http", str(port)],
        env=team.env("courier"),
        cwd=team.home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_listening(port)
        told: list[str] = []
        arrived = anyio.Event()

        async def on_message(message: Any) -> None:
            if isinstance(message, ResourceUpdatedNotification):
                told.append(message.params.uri)
                arrived.set()

        async def flow() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with Client(url, mode="legacy", message_handler=on_message,
                              read_timeout_seconds=60) as client:  # fmt: skip
                asked = await client.call_tool("ask_human", {"question": "Proceed?"})
                assert not asked.is_error and isinstance(asked.structured_content, dict)
                waits = await client.call_tool(
                    "list_waits", {"run_id": asked.structured_content["run_id"]}
                )
                assert isinstance(waits.structured_content, dict)
                [wait] = waits.structured_content["waits"]
                await client.subscribe_resource(wait["resource"])
                team.ok("wait", "satisfy", wait["wait_id"], "--payload", '"yes"')
                with anyio.fail_after(60):
                    await arrived.wait()
                assert told[0] == wait["resource"]
                read = await read_json(client, wait["resource"])
                assert (read["state"], read["answer"], read["satisfied_by"]) == (
                    "satisfied",
                    "yes",
                    "alice",
                )  # one tool call after asking (list_waits): within the two allowed
            # A host of the current protocol: a listen stream over HTTP, no tool call.
            async with Client(url, read_timeout_seconds=60) as client:
                asked = await client.call_tool("ask_human", {"question": "And deploy?"})
                assert isinstance(asked.structured_content, dict)
                uri = asked.structured_content["resource"]
                async with client.listen(resource_subscriptions=[uri]) as events:
                    [wait] = team.ok("wait", "list", asked.structured_content["run_id"],
                                     "--json").json()["waits"]  # fmt: skip
                    team.ok("wait", "satisfy", wait["wait_id"], "--payload", '"no"')
                    run: dict[str, Any] = {"ended": False}
                    while not run["ended"]:
                        await updated(events, uri)
                        run = await read_json(client, uri)
                assert (run["state"], run["result"]) == ("completed", "no")

        run_async(flow)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert token_of("courier") not in err


def wait_listening(port: int) -> None:
    """Returns once something listens on ``port`` on loopback (at most 60 s)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on {port}")


async def listened_once_given_back(client: Client, uris: list[str]) -> None:
    """Opens a listen stream on ``uris`` once the place of a closed one is given back (the
    server learns of a closed stream a moment after the client closed it)."""
    with anyio.fail_after(10):
        while True:
            try:
                async with client.listen(resource_subscriptions=uris):
                    return
            except MCPError as refused:
                assert refused.error.data["error"]["reason"] == "WATCH_LIMIT_REACHED"
                await anyio.sleep(0.1)


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # on purpose
def test_watches_are_bounded_and_end_with_their_subscription(team: Shell) -> None:
    """Past the bound a subscription is refused, never queued; a watch ends (its stream
    and thread) with its listen stream or its unsubscribe, and its place is given back."""
    with connect(team.address, token_of("courier")) as praxis_client:
        praxis = Praxis(praxis_client, "bounded")
        uris = []
        for number in range(2):
            run = praxis.start_run("", "", PLAN, {"n": number}, f"bound-{number}", "")
            uris.append(run["resource"])
        threads = threading.active_count()

        async def modern() -> None:
            async with Client(build(praxis, Redactor([]), max_watches=1)) as client:
                with pytest.raises(MCPError) as refused:
                    async with client.listen(resource_subscriptions=uris):
                        pass
                assert refused.value.error.data["error"]["reason"] == "WATCH_LIMIT_REACHED"
                async with client.listen(resource_subscriptions=uris[:1]):
                    with pytest.raises(MCPError) as second:
                        async with client.listen(resource_subscriptions=uris[1:]):
                            pass
                    assert second.value.error.data["error"]["reason"] == "WATCH_LIMIT_REACHED"
                await listened_once_given_back(client, uris[1:])

        async def legacy() -> None:
            server = build(praxis, Redactor([]), max_watches=1)
            async with Client(server, mode="legacy") as client:
                await client.subscribe_resource(uris[0])
                with pytest.raises(MCPError) as refused:
                    await client.subscribe_resource(uris[1])
                assert refused.value.error.data["error"]["reason"] == "WATCH_LIMIT_REACHED"
                await client.unsubscribe_resource(uris[0])
                await client.subscribe_resource(uris[1])
                await client.unsubscribe_resource(uris[1])

        anyio.run(modern)
        anyio.run(legacy)
        deadline = time.monotonic() + 10
        while threading.active_count() > threads and time.monotonic() < deadline:
            time.sleep(0.1)
        assert threading.active_count() <= threads  # every watch's thread has ended


def test_the_agent_lists_the_work_orders_it_may_act_in(shell: Shell) -> None:
    shell.ok("work-orders", "create", "mission", "--budget", "10")
    shell.ok("work-orders", "create", "docs", "--parent", "mission")
    shell.ok("work-orders", "create", "audit", "--parent", "mission", "--action", "run.read")
    shell.ok("work-orders", "create", "locked", "--action", "run.read")
    shell.ok("work-orders", "pause", "mission", "--reason", "budget review")

    async def flow() -> None:
        async with agent(shell, "agent", shell.home / "mcp.err") as bot:
            roots = await bot.call("list_work_orders")
            assert [w["work_order_id"] for w in roots["work_orders"]] == ["mission"]
            [mission] = roots["work_orders"]
            assert (mission["state"], mission["children"]) == ("paused", 2)
            assert mission["remaining_microcredits"] == "10"
            children = await bot.call("list_work_orders", parent_id="mission")
            [docs] = children["work_orders"]  # audit permits no run.start
            assert (docs["work_order_id"], docs["state"], docs["state_from"]) == (
                "docs",
                "paused",
                "mission",
            )
            reads = await bot.call("list_work_orders", action="run.read")
            assert [w["work_order_id"] for w in reads["work_orders"]] == ["locked", "mission"]

    run_async(flow)


def test_the_agent_proposes_a_child_work_order_and_sees_the_human_decide(shell: Shell) -> None:
    shell.ok("work-orders", "create", "mission", "--budget", "100")

    async def propose() -> None:
        async with agent(shell, "rogue", shell.home / "mcp.err") as bot:
            proposed = await bot.call(
                "propose_work_order",
                work_order_id="research",
                parent_id="mission",
                title="Read the papers",
                budget_microcredits="40",
                actions=["run.*"],
            )
            assert (proposed["state"], proposed["proposed_by"], proposed["replayed"]) == (
                "proposed",
                "rogue",
                False,
            )
            over = await bot.refused(
                "propose_work_order",
                work_order_id="greedy",
                parent_id="mission",
                budget_microcredits="101",
            )
            assert over["reason"] == "WORK_ORDER_BUDGET_EXCEEDS_PARENT"
            listed = await bot.call("list_work_orders", parent_id="mission")
            assert [(w["work_order_id"], w["state"]) for w in listed["work_orders"]] == [
                ("research", "proposed")
            ]

    async def declined() -> None:
        async with agent(shell, "rogue", shell.home / "mcp.err") as bot:
            again = await bot.call(
                "propose_work_order",
                work_order_id="research",
                parent_id="mission",
                title="Read the papers",
                budget_microcredits="40",
                actions=["run.*"],
            )
            assert (again["state"], again["decided_by"], again["decline_reason"]) == (
                "declined",
                "alice",
                "not now",
            )
            assert again["replayed"] is True

    run_async(propose)
    shell.ok("work-orders", "decline", "research", "--reason", "not now")
    run_async(declined)
