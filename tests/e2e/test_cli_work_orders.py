"""``praxis work-orders create|list|tree|close``, driven as a user would, against a real
server (issue 42, item 1)."""

from __future__ import annotations

import json

from rich.cells import cell_len

from tests.support.cli_shell import COLUMNS, Shell, in_terminal
from tests.support.runtime import definition, node


def test_a_tree_of_work_orders_from_the_shell(shell: Shell) -> None:
    created = shell.ok("work-orders", "create", "mission", "--title", "Ship the release",
                       "--budget", "100", "--label", "team=core")  # fmt: skip
    assert "work order mission (a root) open" in created.out
    shell.ok("work-orders", "create", "docs", "--parent", "mission", "--budget", "40")
    shell.ok("work-orders", "create", "review", "--parent", "docs")
    over = shell.run("work-orders", "create", "greedy", "--parent", "mission", "--budget", "101")
    assert over.code == 5
    assert over.error_line().startswith("error: WORK_ORDER_BUDGET_EXCEEDS_PARENT: ")
    agent = shell.run("work-orders", "create", "mine", who="agent")
    assert agent.error_line().startswith("error: HUMAN_REQUIRED: ")

    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    shell.ok("runs", "start", "-f", "one.json", "--work-order", "review", who="agent")
    shell.ok("work-orders", "pause", "mission", "--reason", "audit")
    tree = shell.ok("work-orders", "tree", "mission").out
    assert "title:" in tree and "Ship the release" in tree
    assert "  └ docs  paused (by mission)  0 (40 left)" in tree
    assert "    └ review  paused (by mission)  0 (40 left)" in tree
    assert all(len(line) <= 80 for line in tree.splitlines()), tree
    review = shell.ok("work-orders", "tree", "review", "--json").json()
    assert review["run_counts"] == [{"state": "RUNNING", "count": 1}]
    assert review["work_order"]["ancestors"] == ["mission", "docs"]

    listed = shell.ok("work-orders", "list", "--parent", "mission").out
    assert "docs" in listed and "paused (by mission)" in listed
    paused = shell.ok("work-orders", "list", "--state", "paused", "--json").json()
    assert [w["work_order_id"] for w in paused["work_orders"]] == ["mission"]
    refused = shell.run("work-orders", "resume", "docs")
    assert refused.error_line().startswith("error: WORK_ORDER_CONTROL_INHERITED: ")
    shell.ok("work-orders", "resume", "mission")

    not_drained = shell.run("work-orders", "close", "docs")
    assert not_drained.error_line().startswith("error: WORK_ORDER_NOT_DRAINED: ")
    shell.ok("work-orders", "cancel", "review", "--reason", "not needed")
    assert "work order docs closed" in shell.ok("work-orders", "close", "docs").out


def test_list_and_tree_fit_an_80_column_terminal_with_ids_whole(shell: Shell) -> None:
    # Ids as long as a UUID: a row of ids wider than the terminal is printed whole and
    # wrapped by the terminal (the house table rule), so they are kept to what fits.
    root = "mission-" + "x" * 28
    child = "docs-for-the-release-" + "y" * 15
    title = "Write every page a newcomer needs before the release goes out to customers"
    shell.ok("work-orders", "create", root, "--title", title, "--budget", "100")
    shell.ok("work-orders", "create", child, "--parent", root, "--title", title)
    for args in (("work-orders", "list"), ("work-orders", "list", "--parent", root),
                 ("work-orders", "tree", root)):  # fmt: skip
        lines = in_terminal(shell, *args)
        assert all(cell_len(line) <= COLUMNS for line in lines), (args, lines)
        if args[1] == "tree":
            assert "actions:    any its principals are granted" in lines, lines  # a root
        shown = root if args[1] == "list" and len(args) == 2 else child
        assert any(shown in line for line in lines), (args, lines)  # the id whole on a row


def test_an_agents_proposal_is_decided_from_the_shell_in_one_command(shell: Shell) -> None:
    shell.ok("work-orders", "create", "mission", "--budget", "100")
    proposed = shell.ok("work-orders", "propose", "research", "--parent", "mission",
                        "--title", "Read the papers", "--budget", "40", "--action", "run.*",
                        who="rogue")  # fmt: skip
    assert "work order research proposed under mission: proposed" in proposed.out
    shell.ok("work-orders", "propose", "detour", "--parent", "mission", who="rogue")
    refused = shell.run("work-orders", "approve", "research", who="rogue")
    assert refused.error_line().startswith("error: HUMAN_REQUIRED: ")

    waiting = in_terminal(shell, "inbox", "--kind", "work-order-proposal")
    assert all(cell_len(line) <= COLUMNS for line in waiting), waiting
    assert any("2 waiting" in line for line in waiting), waiting
    assert "  praxis work-orders approve research" in waiting, waiting
    assert "    (or: praxis work-orders decline research --reason WHY)" in waiting, waiting
    lines = in_terminal(shell, "work-orders", "list", "--state", "proposed")
    assert all(cell_len(line) <= COLUMNS for line in lines), lines
    [row] = [line for line in lines if "research" in line]
    assert "mission" in row and "rogue" in row and "40" in row, lines

    assert "work order research open" in shell.ok("work-orders", "approve", "research").out
    declined = shell.ok("work-orders", "decline", "detour", "--reason", "out of scope").out
    assert "work order detour declined" in declined
    assert shell.run("work-orders", "decline", "detour").code == 2  # --reason is required
    tree = shell.ok("work-orders", "tree", "detour").out
    assert "declined by alice" in tree and "out of scope" in tree
    assert (
        shell.ok("work-orders", "list", "--state", "proposed", "--json").json()["work_orders"] == []
    )
    again = shell.run("work-orders", "approve", "detour")
    assert again.error_line().startswith("error: WORK_ORDER_PROPOSAL_DECIDED: ")
