"""The MCP layer's own decisions: refusals shaped from the server's ErrorInfo, the token
redacted from answers and logs, HTTP on loopback only (issue 24); refusals naming the
tools' parameters, resource URIs, the bound of watches, a watch ended by a refusal, and
docs/agents.md naming every tool, resource and prompt (issue 39)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import anyio
import grpc
import pytest
from mcp import Client
from mcp.server import MCPServer
from starlette.testclient import TestClient

from aiws.engine.v1 import run_pb2
from praxis_client import CallError
from praxis_mcp import limits
from praxis_mcp.actions import Praxis, Refused, in_parameters, parameter_of
from praxis_mcp.server import REDACTED, Redactor, _answer, build, check_loopback, serve
from praxis_mcp.watch import Follow, Target, TooManyWatches, Watches, target_of

TOKEN = "prx_secret-token-value"


def test_a_refusal_is_the_servers_code_reason_and_message() -> None:
    refused = Refused(
        CallError(
            grpc.StatusCode.PERMISSION_DENIED,
            "ACTION_NOT_GRANTED",
            "engine.aiws",
            "agent may not run.start on wo-1",
            (("ref", "no such ref"),),
        )
    )
    result = _answer(Redactor([TOKEN]), {"error": refused.as_dict()}, error=True)
    assert result.is_error
    assert result.structured_content == {
        "error": {
            "code": "PERMISSION_DENIED",
            "reason": "ACTION_NOT_GRANTED",
            "message": "agent may not run.start on wo-1",
            "field_violations": [{"field": "ref", "description": "no such ref"}],
        }
    }
    first = result.content[0].text.splitlines()[0]  # type: ignore[union-attr]
    assert first == "ACTION_NOT_GRANTED: agent may not run.start on wo-1"


def test_the_token_never_shows_in_an_answer_even_when_a_message_echoes_it() -> None:
    redactor = Redactor([TOKEN])
    echoed = {"error": {"code": "UNAUTHENTICATED", "reason": "CREDENTIAL_INVALID",
                        "message": f"bad token {TOKEN}"}}  # fmt: skip
    result = _answer(redactor, echoed, error=True)
    text = result.content[0].text  # type: ignore[union-attr]
    assert TOKEN not in text and REDACTED in text
    assert TOKEN not in str(result.structured_content)
    plain = _answer(redactor, {"note": f"x{TOKEN}y"})
    assert plain.structured_content == {"note": f"x{REDACTED}y"}


def test_the_token_never_shows_in_a_log_record(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("praxis_mcp.test")
    caplog.handler.addFilter(Redactor([TOKEN]).log_filter())
    with caplog.at_level(logging.INFO):
        logger.info("calling with %s", TOKEN)
        logger.info(f"inline {TOKEN}")
        try:
            raise RuntimeError(f"a bug that shows {TOKEN}")
        except RuntimeError:
            logger.exception("unexpected")
    assert TOKEN not in caplog.text
    assert caplog.text.count(REDACTED) == 3
    assert "RuntimeError" in caplog.text


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_http_is_served_on_loopback(host: str) -> None:
    check_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.1", "::", "example.com"])
def test_http_anywhere_else_is_refused(host: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        check_loopback(host)


def test_limits_cut_texts_and_waits() -> None:
    assert limits.clip("x" * 10, 4) == "xxxx... [6 more characters cut]"
    assert limits.clip("short") == "short"
    assert limits.bounded_wait(3600) == limits.MAX_WAIT_S
    assert limits.bounded_wait(-1) == 0.0


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_every_loopback_host_gets_the_host_and_origin_checks(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``praxis mcp --http --host HOST`` serves refuses a rebinding page's Host (421)
    and Origin (403), whichever loopback address it listens on (issue 37)."""
    served: dict[str, Any] = {}

    def run(self: MCPServer, transport: str, **options: Any) -> None:
        served.update(options, server=self, transport=transport)

    monkeypatch.setattr(MCPServer, "run", run)
    serve(Praxis(client=cast(Any, None), worker_id="w1"), TOKEN, "http", host, 8765)
    assert (served["transport"], served["host"]) == ("streamable-http", host)
    app = served["server"].streamable_http_app(
        transport_security=served.get("transport_security"), host=host
    )
    own = f"[{host}]:8765" if ":" in host else f"{host}:8765"
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    with TestClient(app, base_url=f"http://{own}") as http:
        assert (
            http.post("/mcp", json=body, headers={"host": "rebind.example:8765"}).status_code == 421
        )
        foreign = {"host": own, "origin": "http://rebind.example:8765"}
        assert http.post("/mcp", json=body, headers=foreign).status_code == 403
        local = {"host": own, "origin": f"http://{own}"}
        assert http.post("/mcp", json=body, headers=local).status_code not in (403, 421)


def test_refusals_name_the_tools_parameters_not_the_request_fields() -> None:
    refused = Refused(
        CallError(
            grpc.StatusCode.INVALID_ARGUMENT,
            "IDENTIFIER_INVALID",
            "engine.aiws",
            "ref.work_order_id must be an identifier; definition_json.nodes.a is bad",
            (("ref.work_order_id", "not an identifier"), ("definition_json.nodes.a", "x"),
             ("labels[bad key]", "y"), ("subscriber", "z"), ("other_field", "w")),
        )
    )  # fmt: skip
    shown = refused.as_dict()
    assert [v["field"] for v in shown["field_violations"]] == [
        "work_order_id",
        "definition.nodes.a",
        "labels[bad key]",
        "reply",
        "other_field",
    ]
    assert shown["message"] == "work_order_id must be an identifier; definition.nodes.a is bad"
    assert in_parameters("an event subscriber, notify and labels in prose") == (
        "an event subscriber, notify and labels in prose"
    )
    assert parameter_of("ref.run_id") == "run_id"


def test_resource_uris_name_a_run_or_a_wait() -> None:
    assert target_of("praxis://runs/run_1") == Target("run", "run_1", "praxis://runs/run_1")
    assert target_of("praxis://waits/w_1") == Target("wait", "w_1", "praxis://waits/w_1")
    assert target_of("praxis://replies") == Target("replies", "", "praxis://replies")
    for other in ("praxis://runs/", "praxis://runs/a/b", "file:///etc/passwd", "praxis://x/1"):
        assert target_of(other) is None


def test_watches_are_bounded_and_given_back() -> None:
    watches = Watches(Praxis(None, "w"), limit=2)  # type: ignore[arg-type]  # never called
    watches.reserve(2)
    with pytest.raises(TooManyWatches):
        watches.reserve(1)
    assert watches.active == 2  # a refused reservation takes nothing
    watches.release(1)
    watches.reserve(1)
    assert watches.active == 2


PROMPT_ARGUMENTS = {
    "work_the_inbox": {"work_order_id": "wo-7"},
    "propose_a_revision": {"work_order_id": "wo-7", "run_id": "plan", "change": "add a review"},
}
# Words of the prompts that look like tool names and are parameters or answer fields.
NOT_TOOLS = {"work_order_id", "run_id", "node_uid", "delivery_id", "handoffs_to_acknowledge",
             "open_waits", "not_applied", "proposal_id", "field_violations",
             "result_error"}  # fmt: skip


def test_docs_name_every_tool_resource_and_prompt() -> None:
    server = build(Praxis(None, "w"), Redactor([]))  # type: ignore[arg-type]  # never called

    async def listed() -> tuple[set[str], set[str], set[str]]:
        async with Client(server) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            templates = await client.list_resource_templates()
            uris = {template.uri_template for template in templates.resource_templates}
            uris |= {str(resource.uri) for resource in (await client.list_resources()).resources}
            prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
            for name, arguments in PROMPT_ARGUMENTS.items():
                got = await client.get_prompt(name, arguments)
                text = got.messages[0].content.text  # type: ignore[union-attr]
                named = set(re.findall(r"\b[a-z]+_[a-z_]+\b", text)) - NOT_TOOLS
                assert named <= tools, (name, named - tools)  # it names real tools only
                assert all(value in text for value in arguments.values())
            return tools, uris, prompts

    tools, uris, prompts = anyio.run(listed)
    assert {"get_inbox", "list_runs", "list_waits", "list_handoffs", "acknowledge_handoff"} <= tools
    assert uris == {"praxis://runs/{run_id}", "praxis://waits/{wait_id}", "praxis://replies"}
    assert prompts == {"work_the_inbox", "propose_a_revision"}
    text = (Path(__file__).parents[3] / "docs" / "agents.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE))
    assert tools | prompts == documented - {"praxis"}
    assert all(f"| `{uri}` |" in text for uri in uris)
    assert "WORK_ORDER/RUN`:" not in text  # tools take work_order_id and run_id


class _Denied(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.PERMISSION_DENIED


class _Stream:
    """A WatchRun stream: one snapshot (version 3, running), then the server's refusal."""

    def __iter__(self) -> Iterator[Any]:
        yield run_pb2.WatchRunResponse(run=run_pb2.Run(run_id="r", version=3, state=1))
        raise _Denied()

    def cancel(self) -> None:
        pass


def test_a_watch_the_server_ends_with_a_refusal_tells_its_subscriber_once() -> None:
    """A revoked grant or the server's stream limit ends a watch: the subscriber is told,
    and reading the resource says why (never a watch that goes silent)."""
    client = SimpleNamespace(runs=SimpleNamespace(WatchRun=lambda request: _Stream()))
    told: list[str] = []
    Follow(Praxis(client, "w"), Target("run", "r", "praxis://runs/r")).run(  # type: ignore[arg-type]
        lambda: told.append("told")
    )
    assert told == ["told"]
