"""docs/architecture.md cannot drift from the code it describes.

- Every file it links to or names as a path exists.
- Every ``Class.method`` it names in backticks is a method of a class of the server, and
  every dotted module or function name (``app.ports``, ``rows.save``) is one of the server.
- Its diagrams of the layers are drawn from the import contracts (scripts/layers_diagram.py).
- Its tree of ``server/praxis/`` lists, for each folder it shows, exactly the modules and
  subpackages that folder has (a folder whose line ends in prose after ``+`` is checked
  for existence only).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "server" / "praxis"
TEXT = DOC.read_text(encoding="utf-8")

WORD = re.compile(r"^[a-z_][a-z0-9_]*(\.py|/)?$")
NAME_COLUMN = 12  # folder names start left of it, the names they list right of it


def _tree() -> str:
    """The code block that starts with ``server/``."""
    for block in re.findall(r"```\n(.*?)```", TEXT, re.DOTALL):
        if block.startswith("server/\n"):
            return str(block)
    raise AssertionError("docs/architecture.md has no tree of server/")


def _listed() -> dict[Path, tuple[set[str], bool]]:
    """Each folder of ``server/praxis`` the tree shows: the names it lists, and whether
    the list claims to be whole (no prose after ``+``).

    A line whose first word ends in ``/`` and starts within the first ``NAME_COLUMN``
    columns opens a folder (its parent: the nearest folder indented less); any other
    line lists names of the last folder indented less than it."""
    folders: dict[Path, tuple[set[str], bool]] = {}
    stack: list[tuple[int, Path]] = []
    for line in _tree().splitlines():
        text = re.sub(r"\([^)]*\)", " ", line).split("<-")[0]
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip())
        words = text.split()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if indent < NAME_COLUMN and words[0].endswith("/"):
            parent = stack[-1][1] if stack else ROOT
            if parent in folders:  # a subpackage of the folder above
                folders[parent][0].add(words[0].rstrip("/"))
            else:
                folders[parent] = ({words[0].rstrip("/")}, True)
            stack.append((indent, parent / words[0].rstrip("/")))
            words = words[1:]
        elif indent < NAME_COLUMN and not all(word.endswith(".py") for word in words):
            words = words[:1]  # a file of the folder above, with a description
        if not stack:
            continue
        folder = stack[-1][1]
        if PACKAGE not in (folder, *folder.parents):
            continue
        names, whole = folders.get(folder, (set(), True))
        rest = " ".join(words)
        if "+" in rest:
            whole = False
            rest = rest.split("+")[0]
        names |= {
            word.removesuffix(".py").rstrip("/")
            for word in rest.replace(",", " ").split()
            if WORD.match(word)
        }
        folders[folder] = (names, whole)
    return {
        folder: found for folder, found in folders.items() if PACKAGE in (folder, *folder.parents)
    }


def _present(folder: Path) -> set[str]:
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    packages = {p.name for p in folder.iterdir() if (p / "__init__.py").exists()}
    return modules | packages


FOLDERS = _listed()


def test_the_tree_shows_the_package_and_its_slices() -> None:
    shown = {folder.relative_to(PACKAGE).as_posix() for folder in FOLDERS}
    assert {".", "core", "store/runtime", "store/db", "rpc", "serve"} <= shown


@pytest.mark.parametrize(
    "folder", sorted(FOLDERS), ids=lambda f: f.relative_to(ROOT / "server").as_posix()
)
def test_each_folder_of_the_tree_lists_what_it_holds(folder: Path) -> None:
    names, whole = FOLDERS[folder]
    assert folder.is_dir(), f"{folder} is in docs/architecture.md's tree but does not exist"
    present = _present(folder)
    assert names - present == set(), f"listed but missing in {folder}"
    if whole:
        assert present - names == set(), f"in {folder} but not in the tree"


def _linked_paths() -> set[str]:
    links = set(re.findall(r"\]\((\.\./[^)#]+)", TEXT))
    named = {
        name
        for name in re.findall(r"`([a-z_/]+\.py)`", TEXT)
        if "/" in name  # a bare module name is checked by the tree
    }
    return links | named


@pytest.mark.parametrize("path", sorted(_linked_paths()))
def test_every_path_it_names_exists(path: str) -> None:
    candidates = [
        (DOC.parent / path).resolve(),
        PACKAGE / path,
        PACKAGE / "store" / path,
        ROOT / "server" / path,
        ROOT / path,
    ]
    assert any(candidate.exists() for candidate in candidates), path


def _classes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for file in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):  # a library's class the server uses
                for alias in node.names:
                    found.setdefault(alias.name, set())
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, set()).update(
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                )
    return found


CLASSES = _classes()
PROTOS = "\n".join(
    p.read_text(encoding="utf-8")
    for p in [*(ROOT / "proto").rglob("*.proto"), *(ROOT / "third_party").rglob("*.proto")]
)
MESSAGES = set(re.findall(r"^(?:message|enum) (\w+)", PROTOS, re.MULTILINE))
RPCS = set(re.findall(r"^\s*rpc (\w+)\(", PROTOS, re.MULTILINE))
METHODS = sorted(set(re.findall(r"`([A-Z][A-Za-z]+)\.([a-z_]+)[(`]", TEXT)))


@pytest.mark.parametrize("cls,method", METHODS, ids=[f"{c}.{m}" for c, m in METHODS])
def test_every_method_it_names_exists(cls: str, method: str) -> None:
    if cls in MESSAGES:  # a field of a message of the API
        assert re.search(rf"message {cls} \{{[^}}]*\b{method} =", PROTOS, re.DOTALL), cls
        return
    assert method in CLASSES.get(cls, set()), f"{cls}.{method} is not in server/praxis"


def test_every_class_it_names_exists() -> None:
    named = set(re.findall(r"`([A-Z][a-z]+(?:[A-Z][a-z]+)+)`", TEXT))
    missing = sorted(n for n in named - MESSAGES - RPCS if n not in CLASSES)
    assert missing == []


def _modules() -> dict[str, set[str]]:
    """Every module and package of the server, by dotted path from ``praxis`` (and from
    the repository for ``tests``), with the names it defines at its top level."""
    found: dict[str, set[str]] = {}
    for base, prefix in ((PACKAGE, "praxis"), (ROOT / "tests", "tests")):
        for file in base.rglob("*.py"):
            parts = [prefix, *file.relative_to(base).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            tree = ast.parse(file.read_text(encoding="utf-8"))
            names = {
                node.name
                for node in tree.body
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            }
            if file.name == "__init__.py":  # a package's public names it re-exports
                names |= {
                    alias.asname or alias.name
                    for node in tree.body
                    if isinstance(node, ast.ImportFrom)
                    for alias in node.names
                }
            found[".".join(parts)] = names
    return found


MODULES = _modules()
# Dotted names the page cites that are not the server's: libraries, and an action name.
NOT_OURS = {"grpc.aio", "request.getfixturevalue", "task.work"}
DOTTED = sorted(
    set(re.findall(r"`([a-z_]+(?:\.[a-z_]+)+)[`(]", TEXT))
    - NOT_OURS
    - {
        n
        for n in re.findall(r"`([a-z_.]+)`", TEXT)
        if n.rsplit(".", 1)[-1] in ("py", "proto", "toml")
    }
)


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module (a suffix of its path suffices: ``app.ports``,
    ``observability.metrics``) or a top-level function or class of one (``rows.save``)."""
    for path, names in MODULES.items():
        if path == dotted or path.endswith("." + dotted):
            return True
        head, _, last = dotted.rpartition(".")
        if (path == head or path.endswith("." + head)) and last in names:
            return True
    return False


@pytest.mark.parametrize("dotted", DOTTED)
def test_every_module_and_function_it_names_exists(dotted: str) -> None:
    assert _resolves(dotted), f"`{dotted}` names no module or function of the server"


def test_the_layers_diagram_is_drawn_from_the_import_contracts() -> None:
    """The mermaid diagrams are scripts/layers_diagram.py's output from pyproject.toml's
    layers contracts (which `make lint` enforces): a changed contract redraws them."""
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "layers_diagram.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr
