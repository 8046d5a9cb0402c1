"""The documentation pages stay well-formed and true to the code they name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PAGES = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("clients/*/README.md")])
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_header_is_followed_by_its_rows(page: Path) -> None:
    """A blank line between a table's header and its rows ends the table in Markdown."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[:-1], start=1):
        if SEPARATOR.match(line):
            assert lines[number].startswith("|"), f"{page.name}:{number + 1} breaks a table"


def _methods(path: Path) -> dict[str, set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name: {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }


def test_architecture_walks_complete_task_through_the_methods_the_code_calls() -> None:
    """Every `Class.method` the CompleteTask walk names is a method of that class."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    walk = text.split("## One command, end to end: `CompleteTask`")[1].split("\n## ")[0]
    classes: dict[str, set[str]] = {}
    for module in (ROOT / "server" / "praxis").rglob("*.py"):
        for name, methods in _methods(module).items():
            classes.setdefault(name, set()).update(methods)
    named = re.findall(r"`([A-Z]\w+)\.([a-z_]\w*|[A-Z]\w+)\(", walk)
    assert named, "the walk names no Class.method( call"
    for cls, method in named:
        assert method in classes.get(cls, set()), f"{cls}.{method} does not exist"
    servicer = (ROOT / "server" / "praxis" / "rpc" / "tasks.py").read_text(encoding="utf-8")
    body = servicer.split("def CompleteTask(")[1].split("\n    def ")[0]
    called = re.findall(r"self\.store\.(\w+)\(", body)
    assert called == ["complete"]
    assert "`TaskStore.complete(principal, settlement)`" in walk


def test_architecture_lists_each_folder_of_the_tree_once() -> None:
    """The server tree names each folder once, with the modules that are really in it."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    tree = text.split("```\nserver/\n")[1].split("```")[0]
    folders = re.findall(r"^      (\w+)/ ", tree, flags=re.MULTILINE)
    assert "runtime" in folders
    assert len(folders) == len(set(folders)), folders
    store = ROOT / "server" / "praxis" / "store"
    for folder in ("runtime", "execution"):
        block = tree.split(f"      {folder}/")[1].split("\n      ")[0]
        for word in re.findall(r"\b([a-z_]+)\b", block.split("(")[0]):
            module = store / folder / f"{word}.py"
            assert module.exists() or (store / folder / word).is_dir(), module
    assert "tasks (TaskStore: the worker task protocol)" in tree


def test_console_doc_describes_every_page_of_the_console() -> None:
    """Each page route of the console without parameters has its bullet in console.md."""
    doc = (ROOT / "docs" / "console.md").read_text(encoding="utf-8")
    pages = doc.split("## Pages")[1].split("\n## ")[0]
    routes: set[str] = set()
    for module in (ROOT / "server" / "praxis_console").glob("*.py"):
        routes |= set(
            re.findall(r'Route\("(/[a-z/]+)", \w+, methods=\["GET"\]\)', module.read_text())
        )
    routes -= {"/", "/signin", "/inbox/live"}
    assert "/schedules" in routes
    for route in sorted(routes):
        assert f"(`{route}`)" in pages, f"docs/console.md has no page bullet for {route}"


def test_the_system_diagram_is_drawn_from_its_source() -> None:
    """docs/system.svg (make diagram) has exactly the nodes and edges of docs/system.dot."""
    source = (ROOT / "docs" / "system.dot").read_text(encoding="utf-8")
    drawn = (ROOT / "docs" / "system.svg").read_text(encoding="utf-8")
    titles = set(re.findall(r"<title>([^<]*)</title>", drawn))
    declared = set(re.findall(r"^\s+(\w+)\s+\[label=", source, flags=re.MULTILINE))
    assert declared and declared <= titles, declared - titles
    edges = {t for t in titles if "&#45;&gt;" in t or "->" in t}
    assert len(edges) == 16, sorted(edges)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/system.svg)" in readme and "make diagram" in readme
