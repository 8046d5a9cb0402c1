"""``docs/operations.md`` lists every metric as the code registers it, and its alert rules
are valid Prometheus rules."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from praxis.observability import metrics
from tests.support.paths import ROOT

OPERATIONS = ROOT / "docs" / "operations.md"


def _between(begin: str, end: str) -> str:
    text = OPERATIONS.read_text(encoding="utf-8")
    assert begin in text and end in text, f"{OPERATIONS} lost its {begin} markers"
    return text.partition(begin)[2].partition(end)[0]


def test_the_metric_table_matches_the_registered_metrics() -> None:
    documented = _between("<!-- metrics-table:begin -->\n", "<!-- metrics-table:end -->")
    assert documented == metrics.reference_table(), (
        "docs/operations.md is stale: paste the output of `python -m praxis.observability.metrics`"
    )


def test_every_registered_metric_is_in_the_reference() -> None:
    exposed = {name for name, *_ in metrics.REFERENCE}
    for family in metrics.REGISTRY.collect():
        name = family.name + ("_total" if family.type == "counter" else "")
        assert name in exposed, name
    assert len(exposed) == len(metrics.REFERENCE)  # no name twice


def test_the_alert_rules_are_valid_prometheus_rules(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        message = "promtool is not installed (scripts/install_prometheus.sh installs it)"
        if os.environ.get("PRAXIS_REQUIRE_PROMETHEUS") or os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    block = _between("<!-- metrics-rules:begin -->\n", "<!-- metrics-rules:end -->")
    rules = tmp_path / "rules.yml"
    rules.write_text(block.removeprefix("```yaml\n").removesuffix("```\n"), encoding="utf-8")
    done = subprocess.run(
        [promtool, "check", "rules", str(rules)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 rules found" in done.stdout, done.stdout


RULE_TESTS = """
rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'praxis_tasks_ready{model="gpt"}'
        values: '3x40'
      - series: 'praxis_tasks_ready{model="echo"}'
        values: '2x40'
      - series: 'praxis_tasks_claimed_total{model="echo"}'
        values: '0+5x40'
      - series: 'praxis_lease_expiries_total'
        values: '0+10x40'
      - series: 'praxis_attempts_settled_total{outcome="COMPLETED",effect="APPLIED"}'
        values: '0+2x40'
      - series: 'praxis_serving_refusals_total{kind="long_poll",scope="principal"}'
        values: '0+1x40'
    alert_rule_test:
      - eval_time: 30m
        alertname: PraxisModelNotClaimed
        exp_alerts:
          - exp_labels: {model: gpt}
            exp_annotations:
              summary: Model gpt has ready tasks and no worker claimed any in 10 minutes.
      - eval_time: 30m
        alertname: PraxisLeasesExpiringFasterThanSettled
        exp_alerts:
          - exp_annotations:
              summary: Workers lose more leases than they settle (crashing, or leases too short).
      - eval_time: 30m
        alertname: PraxisServingLimitRefusals
        exp_alerts:
          - exp_labels: {kind: long_poll, scope: principal}
            exp_annotations:
              summary: The long_poll limit (principal) is refusing calls.
      - eval_time: 30m
        alertname: PraxisSlowCommits
        exp_alerts: []
"""


def test_the_alert_rules_fire_on_what_they_describe(tmp_path: Path) -> None:
    """promtool's rule unit tests: a model nobody claims, leases expiring faster than
    attempts settle, and a refusing limit fire; the others stay quiet."""
    promtool = shutil.which("promtool")
    if promtool is None:
        message = "promtool is not installed (scripts/install_prometheus.sh installs it)"
        if os.environ.get("PRAXIS_REQUIRE_PROMETHEUS") or os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    block = _between("<!-- metrics-rules:begin -->\n", "<!-- metrics-rules:end -->")
    (tmp_path / "rules.yml").write_text(
        block.removeprefix("```yaml\n").removesuffix("```\n"), encoding="utf-8"
    )
    (tmp_path / "tests.yml").write_text(RULE_TESTS, encoding="utf-8")
    done = subprocess.run(
        [promtool, "test", "rules", "tests.yml"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
