"""What the CLI, the console and the MCP server decide the same way is decided once, in
``praxis_client`` (issue 41 item 5): the loopback rule of the three checks, enum names,
terminal states and the ids derived from a human's decision. A grep holds "once"."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from aiws.engine.v1 import approval_pb2, assessment_pb2, run_pb2
from praxis.serve.security import check_listen
from praxis_client.client import connect, is_loopback, is_loopback_host
from praxis_client.conventions import (
    assessment_request_id,
    enum_name,
    is_renewal,
    renewal_ids,
)
from praxis_client.helpers import TERMINAL
from praxis_mcp.server import check_loopback

ROOT = Path(__file__).resolve().parents[3]
FRONT_ENDS = [ROOT / "server" / name for name in ("praxis_cli", "praxis_console", "praxis_mcp")]

LOOPBACK = ["127.0.0.1", "127.0.0.2", "::1", "localhost", "LOCALHOST", "ip6-localhost"]
ELSEWHERE = ["0.0.0.0", "10.0.0.1", "::", "example.com", "localhost.example.com", ""]


def _address(host: str) -> str:
    return f"[{host}]:50051" if ":" in host else f"{host}:50051"


def _serve_refuses(listen: str) -> bool:
    args = argparse.Namespace(
        tls_cert=None, tls_key=None, tls_client_ca=None, insecure=False, listen=listen
    )
    return check_listen(args) is not None


def _mcp_refuses(host: str) -> bool:
    try:
        check_loopback(host)
    except ValueError:
        return True
    return False


def _client_refuses(address: str) -> bool:
    try:
        connect(address, "prx_token").close()
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("host", LOOPBACK)
def test_every_check_takes_a_loopback_host_for_this_machine(host: str) -> None:
    """The client sends a token in plaintext, ``praxis serve`` listens without TLS and
    ``praxis mcp --http`` serves, to the same hosts: loopback addresses and the names
    ``localhost`` and ``ip6-localhost`` in any case."""
    assert is_loopback_host(host) and is_loopback(_address(host))
    assert not _client_refuses(_address(host))
    assert not _serve_refuses(_address(host))
    assert not _mcp_refuses(host)


@pytest.mark.parametrize("host", ELSEWHERE)
def test_every_check_refuses_any_other_host(host: str) -> None:
    assert not is_loopback_host(host) and not is_loopback(_address(host))
    assert _client_refuses(_address(host))
    assert _serve_refuses(_address(host))
    assert _mcp_refuses(host)


def test_unix_sockets_and_lists_of_local_replicas_are_loopback() -> None:
    assert is_loopback("unix:/tmp/praxis.sock") and is_loopback("unix-abstract:praxis")
    assert is_loopback("ipv4:127.0.0.1:1,127.0.0.2:2") and is_loopback("ipv6:[::1]:1")
    assert not is_loopback("ipv4:127.0.0.1:1,10.0.0.1:2")


def test_enum_names_drop_their_prefix_only() -> None:
    assert enum_name(run_pb2.RunState.Name(run_pb2.RUN_STATE_COMPLETED), "RUN_STATE_") == (
        "COMPLETED"
    )
    assert enum_name("NODE_STATE_READY", "RUN_STATE_") == "NODE_STATE_READY"


def test_the_terminal_states_are_the_three_ends() -> None:
    assert {run_pb2.RunState.Name(s) for s in TERMINAL} == {
        "RUN_STATE_COMPLETED",
        "RUN_STATE_FAILED",
        "RUN_STATE_CANCELLED",
    }


def test_an_assessment_id_depends_on_what_is_assessed_not_on_how_findings_are_spelt() -> None:
    verify, passed = (
        assessment_pb2.ASSESSMENT_KIND_VERIFICATION,
        assessment_pb2.ASSESSMENT_VERDICT_PASS,
    )
    subject = "sha256:" + "a" * 64
    one = assessment_request_id("r-1", verify, passed, subject, '{"b": 1, "a": [1, 2]}')
    assert one == assessment_request_id("r-1", verify, passed, subject, '{"a":[1,2],"b":1}')
    assert one.startswith("assess-")
    assert assessment_request_id("r-1", verify, passed, subject, "") == (
        assessment_request_id("r-1", verify, passed, subject, "null")
    )
    others = {
        assessment_request_id("r-2", verify, passed, subject, '{"a":[1,2],"b":1}'),
        assessment_request_id(
            "r-1", verify, assessment_pb2.ASSESSMENT_VERDICT_FAIL, subject, '{"a":[1,2],"b":1}'
        ),
        assessment_request_id("r-1", verify, passed, "sha256:" + "b" * 64, '{"a":[1,2],"b":1}'),
        assessment_request_id("r-1", verify, passed, subject, '{"a":[1,2],"b":2}'),
    }
    assert one not in others and len(others) == 4


def test_renewal_ids_are_derived_per_approval_and_caller() -> None:
    first = list(renewal_ids("ap-1", "token-a"))
    assert first == list(renewal_ids("ap-1", "token-a")) and len(set(first)) == len(first)
    assert all(re.fullmatch(r"ap-renew-[0-9a-f]{20}", i) for i in first)
    assert first[0] != next(renewal_ids("ap-1", "token-b"))
    assert first[0] != next(renewal_ids("ap-2", "token-a"))
    old = approval_pb2.Approval(approval_id="ap-1", material_digest="sha256:" + "c" * 64)
    active = approval_pb2.Approval(
        material_digest=old.material_digest, state=approval_pb2.APPROVAL_STATE_ACTIVE
    )
    assert is_renewal(active, old)
    assert not is_renewal(
        approval_pb2.Approval(
            material_digest=old.material_digest, state=approval_pb2.APPROVAL_STATE_CONSUMED
        ),
        old,
    )
    assert not is_renewal(
        approval_pb2.Approval(
            material_digest="sha256:" + "d" * 64, state=approval_pb2.APPROVAL_STATE_ACTIVE
        ),
        old,
    )


@pytest.mark.parametrize(
    "pattern",
    [
        r"def enum_name\b",
        r"[({\[]\s*(?:run_pb2\.|\")RUN_STATE_COMPLETED\"?,\s*(?:run_pb2\.|\")RUN_STATE_FAILED",
        r"ip_address\(|\.is_loopback\b",
        r"ap-renew-|-renewal\b",
        r"-assess-",
    ],
)
def test_the_front_ends_decide_none_of_it_themselves(pattern: str) -> None:
    """The CLI, the console and the MCP server define no enum namer, no set of terminal
    states, no loopback rule and no renewal or assessment id scheme of their own."""
    found = [
        f"{path.relative_to(ROOT)}"
        for front_end in FRONT_ENDS
        for path in sorted(front_end.rglob("*.py"))
        if re.search(pattern, path.read_text(), re.S)
    ]
    assert found == []


def test_the_settlement_conversion_and_the_claim_check_are_written_once() -> None:
    """``rpc/tasks.py`` builds a store ``Settlement`` in one function, and ``check_claim``
    runs once per request: in the RPC layer, not again in the store."""
    rpc = (ROOT / "server" / "praxis" / "rpc" / "tasks.py").read_text()
    store = (ROOT / "server" / "praxis" / "store" / "runtime" / "tasks.py").read_text()
    builders = re.findall(r"\ndef (\w+)\((?:(?!\ndef ).)*?\bSettlement\(", rpc, re.S)
    assert builders == ["settlement_of"]
    assert re.findall(r"\bcheck_claim\(", store) == ["check_claim("]  # its definition
