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
        "workorders pause", "workorders resume", "workorders cancel", "workorders create",
        "workorders list", "workorders tree", "workorders close",
    ]:  # fmt: skip
        assert f"### praxis {command}\n" in text, command
    build_parser().parse_args(["runs", "watch", "r-1", "--json"])  # options after the name
    build_parser().parse_args(["--json", "runs", "watch", "r-1"])  # and before it
