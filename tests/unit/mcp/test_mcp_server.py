"""The MCP layer's own decisions: refusals shaped from the server's ErrorInfo, the token
redacted from answers and logs, HTTP on loopback only (issue 24)."""

from __future__ import annotations

import logging
from typing import Any, cast

import grpc
import pytest
from mcp.server import MCPServer
from starlette.testclient import TestClient

from praxis_client import CallError
from praxis_mcp import limits
from praxis_mcp.actions import Praxis, Refused
from praxis_mcp.server import REDACTED, Redactor, _answer, check_loopback, serve

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
