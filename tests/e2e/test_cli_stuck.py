"""``praxis inbox`` shows a stuck run with what to do about it, against a real server on
a test clock (a run becomes stuck when the clock passes the threshold)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from aiws.engine.testing.v1 import clock_pb2
from praxis_client import connect
from tests.support.cli_shell import Shell
from tests.support.harness import T0, token_of
from tests.support.runtime import definition, node
from tests.support.server_process import ServerProcess, free_port, write_config

STUCK_AFTER_MS = 5 * 60_000  # docs/operations.md (the CLI test knows only the wire)


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[Shell]:
    """The real ``praxis`` command against a server subprocess on a test clock."""
    server = ServerProcess(write_config(tmp_path / "server"), free_port(), "--test-clock", str(T0))
    server.start(timeout_s=90)
    try:
        yield Shell(server.address, tmp_path)
    finally:
        server.terminate()


def _advance(shell: Shell, by_ms: int) -> None:
    with connect(shell.address, token_of("alice")) as alice:
        alice.test_clock.Advance(clock_pb2.AdvanceRequest(by_ms=by_ms))


def test_the_inbox_shows_a_stuck_run_and_the_command_that_stops_it(clocked: Shell) -> None:
    (clocked.home / "one.json").write_text(json.dumps(definition("a", a=node(model="gpt-test"))))
    started = clocked.ok("runs", "start", "-f", "one.json", "--json", who="agent").json()
    run_id = started["run"]["run_id"]
    assert "0 waiting" in clocked.ok("inbox").out
    _advance(clocked, STUCK_AFTER_MS)

    shown = clocked.ok("inbox", "--kind", "stuck-run").out
    assert "1 waiting" in shown and "STUCK_RUN" in shown and run_id in shown
    assert "no worker serves model 'gpt-test'" in shown
    assert re.search(rf"^  {run_id}: node a needs model 'gpt-test' \(no worker", shown, re.M)
    [command] = [line.strip() for line in shown.splitlines() if "praxis runs stop" in line]
    as_json = clocked.ok("inbox", "--json").json()
    [item] = as_json["items"]
    assert item["kind"] == "INBOX_ITEM_KIND_STUCK_RUN"
    assert item["stuck_run"]["node_uid"] == "a" and item["stuck_run"]["model"] == "gpt-test"
    assert item["stuck_run"]["ready_since_ms"] == item["since_ms"] == T0

    argv = shlex.split(command)
    assert argv[:3] == ["praxis", "runs", "stop"] and argv[3] == run_id
    clocked.ok(*argv[1:])  # the command as printed
    assert clocked.ok("inbox", "--json").json()["total"] == 0
