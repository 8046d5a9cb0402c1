"""The worker driver's halves that let ``scripts/conformance.sh`` run one driver per language
at the same time: a lane writes only its own results (``--no-matrix``), and the matrix is
written once from every language's results when all lanes have ended (``--matrix-only``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.vectors import load_module

DRIVER = ROOT / "conformance" / "workers" / "driver.py"
driver = load_module("praxis_worker_driver", DRIVER)


def _plant(results: Path, language: str, status: str) -> None:
    runs = results / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps({"vector": f"workers/{name}", "status": status, "seconds": 0.1, "detail": ""})
        for name in driver.SCENARIOS
    ]
    (runs / f"workers-{language}.jsonl").write_text("\n".join(lines) + "\n", "utf-8")


def test_matrix_only_writes_the_matrix_of_every_language_run_and_starts_no_server(
    tmp_path: Path,
) -> None:
    _plant(tmp_path, "rust", "pass")
    _plant(tmp_path, "go", "fail")
    done = subprocess.run(
        [sys.executable, str(DRIVER), "--matrix-only", "--results", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    matrix = json.loads((tmp_path / "workers-matrix.json").read_text("utf-8"))
    assert matrix["languages"] == ["go", "rust"]  # the driver's order, not the planting order
    assert matrix["scenarios"] == len(driver.SCENARIOS)
    assert {row["vector"]: row["results"] for row in matrix["matrix"]} == {
        f"workers/{name}": {"go": "fail", "rust": "pass"} for name in driver.SCENARIOS
    }
    assert "| scenario | go | rust |" in (tmp_path / "workers-matrix.md").read_text("utf-8")


def test_a_lane_without_the_matrix_writes_only_its_own_results(tmp_path: Path) -> None:
    outcomes = [driver.Outcome(name, "pass", 0.5) for name in driver.SCENARIOS]
    driver.write_results(tmp_path, "java", outcomes, matrix=False)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["workers-java.jsonl"]
    driver.write_results(tmp_path, "java", outcomes)  # the default still writes the matrix
    assert (tmp_path / "workers-matrix.json").exists()
