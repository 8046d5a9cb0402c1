"""The import contracts of ``make lint`` (``[tool.importlinter]`` in pyproject.toml) hold,
and fail on a violation: a copy of the server package with one import running back up
the layers, or SQL outside store/, is refused with the contract it breaks."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(package_root: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if package_root is not None:  # found before the installed (editable) package
        env["PYTHONPATH"] = f"{package_root}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return subprocess.run(
        [str(LINT), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=package_root or ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_contracts_hold() -> None:
    result = _lint()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout and "KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core/bad.py", "import sqlalchemy", "the core is pure"),
        ("rpc/bad.py", "from sqlalchemy import select", "only store/ speaks SQL"),
        ("store/runtime/bad.py", "from praxis.rpc import errors", "server layers"),
        ("store/registry/bad.py", "from praxis.store.runtime import runs", "store slices"),
        # The runtime publishes RunStarted and RunFinished; it never calls the outbox.
        ("store/runtime/bad.py", "from praxis.store.notifications import rows", "store slices"),
        ("store/db/bad.py", "import grpc", "store/ never speaks gRPC"),
        ("rpc/bad.py", "from praxis.serve import config", "server layers"),
        (
            "store/execution/bad.py",
            "from praxis.store.runtime.runs import RunStore",
            "no store class receives another slice's store class",
        ),
        (
            "store/views/bad.py",
            "from praxis.store.execution.waits import WaitStore",
            "no store class receives another slice's store class",
        ),
        (
            "store/schedules/bad.py",
            "from praxis.store.registry.store import RegistryStore",
            "no store class receives another slice's store class",
        ),
    ],
)
def test_a_violation_fails(tmp_path: Path, module: str, line: str, contract: str) -> None:
    shutil.copytree(ROOT / "server" / "praxis", tmp_path / "praxis")
    (tmp_path / "praxis" / module).write_text(f"{line}  # a violation, on purpose\n")
    result = _lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = [row for row in result.stdout.splitlines() if row.endswith(" BROKEN")]
    assert any(row.startswith(contract) for row in broken), result.stdout
    assert f"praxis.{module[:-3].replace('/', '.')}" in result.stdout


STORE_CLASSES_NAMED_OTHERWISE = {"Notifications"}  # the webhook outbox's store
"""Store classes whose name does not end in ``Store``."""


def _store_class_modules() -> set[str]:
    """The modules of server/praxis/store that define a store class."""
    found = set()
    store = ROOT / "server" / "praxis" / "store"
    for path in store.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
        if any(n.endswith("Store") or n in STORE_CLASSES_NAMED_OTHERWISE for n in names):
            dotted = path.relative_to(ROOT / "server").with_suffix("").parts
            found.add(".".join(dotted))
    return found


def test_every_store_class_module_is_forbidden_to_other_slices() -> None:
    """The store-class contract lists every module that defines a store class, so a
    new store is held by it from its first line."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["name"].startswith("no store class receives")]
    patterns = [
        re.compile("^" + re.escape(p).replace(r"\*", "[^.]+") + "$")
        for p in contract["forbidden_modules"]
    ]
    modules = _store_class_modules()
    assert "praxis.store.runtime.runs" in modules  # the scan sees the store classes
    unlisted = sorted(m for m in modules if not any(p.match(m) for p in patterns))
    assert unlisted == []
