"""A mistyped or unsafe server address is a usage error that says what to type, naming
only options and variables the CLI has (issue 25). No server: these fail before a call."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from praxis_cli.main import common_options, run

PORT = 50999


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("PRAXIS_ADDRESS", "PRAXIS_PROFILE", "PRAXIS_TLS_ROOTS", "PRAXIS_INSECURE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRAXIS_CONFIG", str(tmp_path / "cli.json"))
    monkeypatch.setenv("PRAXIS_TOKEN", "prx_secret")


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = run(list(argv))
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return code, lines[0]


def _named_options(line: str) -> set[str]:
    return set(re.findall(r"--[a-z][a-z-]*", line))


COMMON = {o for action in common_options()._actions for o in action.option_strings}


@pytest.mark.parametrize(
    ("address", "suggestion"),
    [
        (f"http://127.0.0.1:{PORT}", f"127.0.0.1:{PORT}"),
        (f"https://praxis.example:{PORT}", f"praxis.example:{PORT}"),
        ("nonsense", "HOST:PORT"),
        ("127.0.0.1", "HOST:PORT"),
        ("127.0.0.1:99999", "HOST:PORT"),
        ("::1:50051", "[::1]:50051"),
    ],
)
def test_a_malformed_address_is_a_usage_error_saying_what_to_type(
    capsys: pytest.CaptureFixture[str], address: str, suggestion: str
) -> None:
    code, line = _error(capsys, "inbox", "--address", address)
    assert code == 2, line
    assert line.startswith(f"error: USAGE: --address must be HOST:PORT (got {address!r})"), line
    assert suggestion in line.partition(")")[2], line
    assert _named_options(line) <= COMMON, line


def test_a_malformed_address_from_the_environment_names_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRAXIS_ADDRESS", "http://localhost:50051")
    code, line = _error(capsys, "inbox")
    assert code == 2
    assert line.startswith("error: USAGE: PRAXIS_ADDRESS must be HOST:PORT"), line
    assert "localhost:50051" in line.partition(")")[2], line


def test_a_token_in_plaintext_to_another_host_names_the_cli_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, line = _error(capsys, "inbox", "--address", f"203.0.113.7:{PORT}")
    assert code == 2, line
    assert line.startswith("error: TLS_REQUIRED: "), line
    assert {"--tls-roots", "--insecure"} <= _named_options(line) <= COMMON, line
    assert "PRAXIS_TLS_ROOTS" in line and "PRAXIS_INSECURE" in line, line
    assert "prx_secret" not in line and "root_certificates" not in line, line


def test_insecure_allows_plaintext_to_another_host(capsys: pytest.CaptureFixture[str]) -> None:
    # TEST-NET-3 is never routed: the call fails as unreachable, not as a refusal.
    code, line = _error(
        capsys, "inbox", "--address", f"203.0.113.7:{PORT}", "--insecure", "--timeout", "0.5"
    )
    assert code == 6, line
    assert line.startswith(("error: UNAVAILABLE: ", "error: DEADLINE_EXCEEDED: ")), line


@pytest.mark.parametrize(
    "address",
    ["localhost:1", "[::1]:1", "praxis-1.internal.example:443", "unix:/tmp/praxis.sock"],
)
def test_well_formed_addresses_are_accepted(address: str) -> None:
    from praxis_cli.config import check_address

    assert check_address(address, "--address") == address
