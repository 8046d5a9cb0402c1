"""The suite's own rules: a test module imports helpers from ``tests.support`` only, never
from another test module; a test that reaches PostgreSQL never runs in the SQLite half
(``-m "not postgres"``, ``make test-fast``)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from tests.support.paths import ROOT

TESTS = ROOT / "tests"
# Scripts that rebuild stored inputs: run by hand inside an older checkout, whose test
# helpers they import by that checkout's names (tests/fixtures/make_pre_run_nodes.py).
NOT_TESTS = TESTS / "fixtures"


def _test_module_imports(source: str, path: Path) -> list[str]:
    """What ``source`` (the text of the file ``path``) imports from ``tests`` outside
    ``tests.support``; relative imports resolved against the file's package."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    names: list[str] = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            names += [f"{module}.{alias.name}" for alias in node.names]
    return [
        name
        for name in names
        if name.startswith("tests.")
        and name != "tests.support"
        and not name.startswith("tests.support.")
    ]


def test_no_test_module_imports_another() -> None:
    found = {
        str(path.relative_to(ROOT)): names
        for path in sorted(TESTS.rglob("*.py"))
        if NOT_TESTS not in path.parents
        and (names := _test_module_imports(path.read_text(encoding="utf-8"), path))
    }
    assert found == {}, f"move the shared helpers into tests/support/: {found}"


def test_the_import_check_sees_absolute_relative_and_package_imports() -> None:
    source = textwrap.dedent(
        """
        import tests.rpc.runtime.test_flow
        from tests.rpc.views.test_console_reads import Watcher
        from . import test_inbox
        from .test_inbox import helper
        from .. import conftest
        from tests import conftest as root
        from tests.support.inbox import counted
        from tests.support import harness
        from tests import support
        import tests.support.runtime
        from ...support import paths
        """
    )
    names = _test_module_imports(source, TESTS / "rpc" / "views" / "test_probe.py")
    assert names == [
        "tests.rpc.runtime.test_flow",
        "tests.rpc.views.test_console_reads.Watcher",
        "tests.rpc.views.test_inbox",
        "tests.rpc.views.test_inbox.helper",
        "tests.rpc.conftest",
        "tests.conftest",
    ]


def test_a_test_reaching_postgres_unmarked_fails_and_a_marked_one_leaves_the_sqlite_half(
    tmp_path: Path,
) -> None:
    """A test that asks for the cluster by ``request.getfixturevalue`` (no marker hook can
    see it) fails at once instead of running in the SQLite half; one parametrized on
    ``backend`` is marked ``postgres`` and deselected there. Needs no PostgreSQL: the check
    comes before the binaries are looked for."""
    (tmp_path / "test_slip.py").write_text(
        textwrap.dedent(
            """
            import pytest

            def test_slips(request):
                request.getfixturevalue("postgres_cluster")

            @pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
            def test_marked(backend, request):
                if backend == "postgres":
                    request.getfixturevalue("postgres_cluster")
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    report = tmp_path / "report.xml"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PRAXIS_REQUIRE_POSTGRES", None)  # a missing installation would fail, not skip
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-q", "-m", "not postgres", f"--junitxml={report}",
         "--rootdir", str(tmp_path), "-c", str(tmp_path / "pytest.ini"), str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    outcomes = {
        case.get("name"): [child.tag for child in case]
        for case in ElementTree.parse(report).iter("testcase")
    }
    assert outcomes == {"test_slips": ["failure"], "test_marked[sqlite]": []}, outcomes
