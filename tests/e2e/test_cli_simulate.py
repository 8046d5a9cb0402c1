"""``praxis simulate``: a dry run from the terminal, against a real server, storing nothing."""

from __future__ import annotations

import json

from tests.support.cli_shell import Shell
from tests.support.runtime import definition, json_out, node

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))
START = 1_700_000_000_000


def test_a_script_is_played_and_shown_step_by_step(shell: Shell) -> None:
    (shell.home / "plan.json").write_text(json.dumps(CHAIN), encoding="utf-8")
    (shell.home / "script.json").write_text(
        json.dumps(
            [
                {"node": "a", "kind": "FAIL", "error": "flaky", "retryable": True},
                {"node": "a", "kind": "COMPLETE", "result": {"x": 1}, "durationMs": 500},
                {"node": "b", "kind": "COMPLETE", "result": "report"},
            ]
        ),
        encoding="utf-8",
    )
    args = ("simulate", "-f", "plan.json", "--script", "script.json", "--start", str(START))
    shown = shell.ok(*args, who="agent").out
    assert "RUN_ENDED" in shown and '"report"' in shown
    lines = [line for line in shown.splitlines() if "DISPATCH" in line]
    assert len(lines) == 3  # a twice (the failure is retried), then b
    answer = shell.ok(*args, "--json", who="agent").json()
    assert answer["end"] == "SIMULATION_END_RUN_ENDED"
    assert answer["result_json"] == '"report"'
    (shell.home / "silent.json").write_text(
        json.dumps(
            [{"node": "a", "kind": "COMPLETE", "result": {}}, {"node": "b", "kind": "LEASE_LOST"}]
        ),
        encoding="utf-8",
    )
    blocked = shell.ok("simulate", "-f", "plan.json", "--script", "silent.json", who="agent").out
    assert "NEEDS_SCRIPT" in blocked and "a RECONCILE outcome for b" in blocked
    listed = shell.ok("runs", "list", "--json", who="agent").json()
    assert not listed.get("runs")  # a simulation stores no run


def test_a_script_that_is_not_a_list_of_outcomes_is_refused_before_sending(shell: Shell) -> None:
    (shell.home / "plan.json").write_text(json.dumps(CHAIN), encoding="utf-8")
    (shell.home / "bad.json").write_text('{"node": "a"}', encoding="utf-8")
    refused = shell.run("simulate", "-f", "plan.json", "--script", "bad.json", who="agent")
    assert refused.code == 2 and "SCRIPT_INVALID" in refused.err, refused
    (shell.home / "odd.json").write_text('[{"node": "a", "kind": "MAYBE"}]', encoding="utf-8")
    refused = shell.run("simulate", "-f", "plan.json", "--script", "odd.json", who="agent")
    assert refused.code == 2 and "script[0]" in refused.err, refused
    (shell.home / "zzz.json").write_text('[{"node": "zzz", "kind": "COMPLETE"}]', encoding="utf-8")
    refused = shell.run("simulate", "-f", "plan.json", "--script", "zzz.json", who="agent")
    assert refused.code != 0 and "SCRIPT_INVALID" in refused.err, refused


def test_runs_start_dry_run_stores_nothing(shell: Shell) -> None:
    (shell.home / "plan.json").write_text(json.dumps(CHAIN), encoding="utf-8")
    said = shell.ok("runs", "start", "-f", "plan.json", "--dry-run", who="agent").out
    assert "dry run: would start a run" in said and "nothing was stored" in said
    answer = shell.ok("runs", "start", "-f", "plan.json", "--dry-run", "--json", who="agent")
    assert answer.json()["dry_run"] is True
    assert not shell.ok("runs", "list", "--json", who="agent").json().get("runs")
