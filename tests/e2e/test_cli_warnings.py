"""The CLI prints a definition's warnings on stderr at 80 columns and still succeeds."""

from __future__ import annotations

import json

from tests.support.cli_shell import Shell
from tests.support.runtime import definition, json_out, node


def test_runs_start_and_register_print_the_effects_warning(shell: Shell) -> None:
    document = definition(
        "b", a=node(output=json_out()), b={**node("node:a", ("a",)), "effects": "none"}
    )
    (shell.home / "plan.json").write_text(json.dumps(document))
    started = shell.ok("runs", "start", "-f", "plan.json", who="agent")
    assert started.out.startswith("started run ")
    lines = started.err.strip().splitlines()
    assert lines[0].startswith("warning: EFFECTS_UNDECLARED: 1 agent node(s) declare no")
    assert "(a)" in lines[0] and all(len(line) <= 80 for line in lines), lines
    as_json = shell.ok("runs", "start", "-f", "plan.json", "--json", who="agent")
    [warning] = as_json.json()["warnings"]
    assert warning["kind"] == "DEFINITION_WARNING_KIND_EFFECTS_UNDECLARED"
    assert warning["node_ids"] == ["a"] and warning["node_count"] == 1
    assert "warning: EFFECTS_UNDECLARED:" in as_json.err

    reviewed = shell.ok("register", "wo-w/plan", "-f", "plan.json")
    assert reviewed.err.startswith("warning: EFFECTS_UNDECLARED: ")
    material = shell.ok("register", "wo-w/plan", "-f", "plan.json", "--json").json()
    assert [w["node_ids"] for w in material["warnings"]] == [["a"]]
    registered = shell.ok(
        "register", "wo-w/plan", "-f", "plan.json", "--digest", material["material_digest"]
    )
    assert registered.err.startswith("warning: EFFECTS_UNDECLARED: ")
    assert "committed:" in registered.out
    document["nodes"]["a"]["effects"] = "external"
    (shell.home / "quiet.json").write_text(json.dumps(document))
    quiet = shell.ok("runs", "start", "-f", "quiet.json", who="agent")
    assert quiet.err == ""
