"""The five client READMEs agree with each other and with the server.

Each language's own suite runs its README's worker (tests/rpc/client/test_readme.py,
clients/go/examples/worker/main_test.go, clients/typescript/test/worker.test.ts,
clients/java/.../SummariseWorkerTest.java, clients/rust/tests/worker.rs): these checks
hold the five to one example, one outcome table and one way to install them.
"""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from tests.support.paths import ROOT

LANGUAGES = ["python", "go", "typescript", "java", "rust"]
FENCE = {"python": "python", "go": "go", "typescript": "ts", "java": "java", "rust": "rust"}


def readme(language: str) -> str:
    return (ROOT / "clients" / language / "README.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, heading
    return found.group(1)


def worker_snippet(language: str) -> str:
    body = section(readme(language), "Write a worker")
    fence = FENCE[language]
    blocks = re.findall(rf"^```{fence}\n(.*?)^```$", body, re.M | re.S)
    assert blocks, f"{language}: no {fence} block under 'Write a worker'"
    return str(max(blocks, key=len))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_worker_snippet_is_the_same_example(language: str) -> None:
    """Model summarise; {"text": ...} -> {"summary": its first 100 characters}, cost 12.5;
    no text: NOT_APPLIED, not retryable, "no text to summarise"."""
    code = worker_snippet(language)
    assert re.findall(r"\"(summari\w+)\"", code).count("summarise") >= 1, code
    assert "summariser" not in code
    assert re.search(r"\"summary\"|\bsummary\b", code)
    assert '"12.5"' in code
    assert "no text to summarise" in code
    assert "100" in code
    assert "first 100 characters" in code


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_outcome_table_says_an_uncaught_error_on_an_undeclared_node_is_uncertain(
    language: str,
) -> None:
    body = section(readme(language), "Write a worker")
    rows = [line for line in body.splitlines() if line.startswith("|")]
    undeclared = [row for row in rows if "no `effects`" in row]
    assert len(undeclared) == 1, rows
    assert "UNCERTAIN" in undeclared[0] and "not retryable" in undeclared[0]
    declared = [row for row in rows if '"effects": "none"' in row]
    assert len(declared) == 1 and "NOT_APPLIED" in declared[0], rows


def _registry_names() -> dict[str, str]:
    pyproject = tomllib.loads((ROOT / "clients/python/pyproject.toml").read_text())
    cargo = tomllib.loads((ROOT / "clients/rust/Cargo.toml").read_text())
    package = json.loads((ROOT / "clients/typescript/package.json").read_text())
    pom = (ROOT / "clients/java/pom.xml").read_text()
    group = re.search(r"<groupId>([^<]+)</groupId>", pom)
    artifact = re.search(r"<artifactId>([^<]+)</artifactId>", pom)
    assert group and artifact
    module = (ROOT / "clients/go/go.mod").read_text().splitlines()[0].split()[1]
    return {
        "python": pyproject["project"]["name"],
        "rust": cargo["package"]["name"],
        "typescript": package["name"],
        "java": f"{group.group(1)}:{artifact.group(1)}",
        "go": module,
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_readme_says_how_to_install_from_a_clone_and_the_future_name(
    language: str,
) -> None:
    install = section(readme(language), "Install")
    assert install.lstrip().startswith("**Not published yet**"), install[:80]
    assert "git clone https://github.com/praxis-engine/praxis.git" in install
    assert "clients/" in install
    name = _registry_names()[language]
    assert f"`{name}`" in install, (language, name)
