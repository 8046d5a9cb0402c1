"""docs/cli.md is generated from the command definitions and must not go stale."""

from __future__ import annotations

from praxis_cli import docs
from praxis_cli.main import build_parser
from tests.support.paths import ROOT

DOC = ROOT / "docs" / "cli.md"


def test_docs_cli_md_matches_the_command_definitions() -> None:
    assert DOC.read_text(encoding="utf-8") == docs.generate(), (
        "docs/cli.md is stale: run `python -m praxis_cli.docs > docs/cli.md`"
    )


def test_every_command_the_issue_names_exists() -> None:
    text = docs.generate()
    for command in [
        "login", "principals add", "principals list", "principals show", "principals revoke",
        "principals rotate", "inbox", "review", "approve", "activate", "reject", "reconcile",
        "wait satisfy", "runs start", "runs list", "runs show", "runs watch", "runs stop",
        "runs result", "registry head", "registry history", "registry proposal", "events tail",
        "holds list", "holds place", "holds clear", "epochs show", "epochs advance",
        "work-orders pause", "work-orders resume", "work-orders cancel", "work-orders create",
        "work-orders list", "work-orders tree", "work-orders close",
    ]:  # fmt: skip
        assert f"### praxis {command}\n" in text, command
    build_parser().parse_args(["runs", "watch", "r-1", "--json"])  # options after the name
    build_parser().parse_args(["--json", "runs", "watch", "r-1"])  # and before it


def test_work_orders_is_the_group_and_workorders_a_hidden_alias() -> None:
    text = docs.generate()
    assert "### praxis work-orders create\n" in text
    assert "praxis workorders" not in text  # the old name is never listed
    parser = build_parser()
    assert "work-orders" in parser.format_help()
    assert "workorders" not in parser.format_help()
    old = parser.parse_args(["workorders", "tree", "mission"])
    new = parser.parse_args(["work-orders", "tree", "mission"])
    assert old.handler is new.handler and old.work_order == new.work_order == "mission"
