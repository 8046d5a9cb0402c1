"""SQL and the backend only in rows: the rule of ``praxis.store.db.dialect``.

Dialect names. No module of ``server/praxis`` names a backend (an identifier, an imported
name or a string, not a comment or docstring, containing ``postgres``, ``sqlite`` or
``dialect``: ``dialect.insert_missing``, ``locks.postgres(...)``, ``db.postgres``,
``connection.dialect.name``) except:

* ``store/db/``, the infrastructure every slice shares, where each difference is decided;
* ``store/<slice>/rows.py`` and ``store/<slice>/rows/``, whose row functions give each
  backend its own statement for one call (Temporal's per-backend query);
* the process's edge, ``app.py`` and ``serve/``: the configured URL (``sqlite:///...``,
  ``postgresql://...``) picks the wake transport, where files live and the pool size
  there; that is configuration, not a branch of what a command does;
* :data:`NAMED_EXCEPTIONS`, each with its reason.

SQL. A module of ``store/`` that runs SQL (what the grep of issue 41 looks for,
``connection.execute``, ``select(``, ``insert(``, ``update(``, ``delete(``, read from the
code, not its prose: :func:`runs_sql`) is a ``rows`` module, in ``store/db/``, a table
definition, a migration step (``upgrades.py``, ``schema.py``), the wake transport, or one
of :data:`SQL_NOT_YET_IN_ROWS`, which may only shrink: a listed module that no longer runs
SQL fails the test until it is taken off.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRAXIS = ROOT / "server" / "praxis"
STORE = PRAXIS / "store"

DIALECT = re.compile(r"postgres|sqlite|dialect", re.IGNORECASE)

NAMED_EXCEPTIONS = {
    "store/wake/postgres.py": "the PostgreSQL wake transport (LISTEN/NOTIFY) itself: the "
    "backend is its subject, and app.py chooses it by the configured URL",
    "observability/metrics.py": "metric help texts say what a gauge measures on each "
    "backend; nothing branches on them",
}
"""Modules (relative to server/praxis) that may name a backend, with the reason."""

SQL_BUILDERS = {"select", "insert", "update", "delete", "text", "Statement"}

SQL_ALWAYS_ALLOWED = {
    "schema.py": "the one ordered list of migrations",
    "wake/postgres.py": "LISTEN and NOTIFY on its own connection: the wake transport, no table",
}
"""Modules of store/ outside rows and db/ that may run SQL, with the reason; besides these,
every ``tables.py`` (table definitions) and ``upgrades.py`` (a migration's own steps, which
run once against the schema of their time and must not follow today's rows)."""

SQL_NOT_YET_IN_ROWS: set[str] = set()
"""Modules of store/ (relative to it) that still build or run SQL outside a rows module:
none left (issue 41 moved the last, of runtime/, views/ and controls/, into their rows);
kept so that a module that must wait can be listed, and the test says when it is done."""


def _relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def _in_rows(relative_to_store: str) -> bool:
    parts = relative_to_store.split("/")
    return len(parts) >= 2 and (parts[1] == "rows.py" or parts[1] == "rows")


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings (of a module, class or
    function, or an attribute's string after it): prose, not code."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found.add(id(node.value))
    return found


def _words(node: ast.AST, docstrings: set[int]) -> list[str]:
    """The names and strings ``node`` brings into the code."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [] if id(node) in docstrings else [node.value]
    return []


def dialect_names(path: Path) -> list[str]:
    """``line: word`` for each backend name in the code of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        for word in _words(node, docstrings):
            if DIALECT.search(word):
                found.append(f"{getattr(node, 'lineno', '?')}: {word[:60]!r}")
    return found


def _may_name_a_backend(relative_to_praxis: str) -> bool:
    if relative_to_praxis == "app.py" or relative_to_praxis.startswith("serve/"):
        return True
    if relative_to_praxis in NAMED_EXCEPTIONS:
        return True
    if not relative_to_praxis.startswith("store/"):
        return False
    inside = relative_to_praxis.removeprefix("store/")
    return inside.startswith("db/") or _in_rows(inside)


def test_no_module_names_a_backend_outside_rows_and_db(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"  # the scan is not blind, nor reads prose as code
    planted.write_text(
        '"""Runs on SQLite or PostgreSQL."""\n'
        "# postgres: a comment\n"
        "def decide(db):\n"
        "    if db.postgres:\n"
        "        return 1\n"
    )
    assert dialect_names(planted) == ["4: 'postgres'"]
    stale = [name for name in NAMED_EXCEPTIONS if not dialect_names(PRAXIS / name)]
    assert stale == [], "no longer names a backend: take it off NAMED_EXCEPTIONS"
    offenders = {
        _relative(path, PRAXIS): names
        for path in sorted(PRAXIS.rglob("*.py"))
        if not _may_name_a_backend(_relative(path, PRAXIS)) and (names := dialect_names(path))
    }
    assert offenders == {}, offenders


def runs_sql(path: Path) -> bool:
    """Whether the code of ``path`` builds or runs SQL: a call of SQLAlchemy's builders
    (``select(...)``, ``insert(...)``, ``update(...)``, ``delete(...)``, ``text(...)``), a
    prepared :class:`~praxis.store.db.statements.Statement`, ``<table>.insert()`` (or
    ``update()``, ``delete()``: without arguments, unlike a set's or a dict's) or an
    ``execute`` call."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in SQL_BUILDERS:
            return True
        if isinstance(node.func, ast.Attribute):
            if node.func.attr in ("execute", "exec_driver_sql"):
                return True
            bare = not node.args and not node.keywords
            if node.func.attr in ("insert", "update", "delete") and bare:
                return True
    return False


def _sql_modules_outside_rows() -> set[str]:
    found: set[str] = set()
    for path in STORE.rglob("*.py"):
        relative = _relative(path, STORE)
        if (
            relative.startswith("db/")
            or _in_rows(relative)
            or path.name in ("tables.py", "upgrades.py")
            or relative in SQL_ALWAYS_ALLOWED
        ):
            continue
        if runs_sql(path):
            found.add(relative)
    return found


def test_sql_only_in_rows(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"  # the scan sees a query, and no prose or comment
    planted.write_text(
        '"""select( in prose."""\n# connection.execute(...)\nfound.update(x)\n'
        "def read(connection):\n"
        "    return connection.execute(select(runs))\n"
    )
    assert runs_sql(planted)
    planted.write_text('"""select( in prose."""\n# connection.execute(...)\nfound.update(x)\n')
    assert not runs_sql(planted)
    outside = _sql_modules_outside_rows()
    assert outside - SQL_NOT_YET_IN_ROWS == set(), "SQL outside rows: move it to a row function"
    assert SQL_NOT_YET_IN_ROWS - outside == set(), "no SQL left: take it off the list"


def test_execution_and_principals_keep_their_sql_in_rows() -> None:
    for slice_name in ("execution", "principals"):
        assert (STORE / slice_name / "rows").is_dir() or (STORE / slice_name / "rows.py").is_file()
        listed = {name for name in SQL_NOT_YET_IN_ROWS if name.startswith(f"{slice_name}/")}
        assert listed == set()
