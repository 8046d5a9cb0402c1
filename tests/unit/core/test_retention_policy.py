"""The retention policy (core/retention.py): which keep applies, and what a config may say."""

from __future__ import annotations

import pytest

from praxis.core.retention import DAY_MS, RetentionPolicy, parse_policy, run_digest


def test_an_exact_work_order_wins_then_the_longest_prefix() -> None:
    policy = parse_policy(
        {"keep_finished_ms": 7 * DAY_MS, "work_orders": {"wo-a*": 1, "wo-ab*": 2, "wo-abc": 0}}
    )
    assert policy.keep_for("other") == 7 * DAY_MS
    assert policy.keep_for("wo-a1") == 1
    assert policy.keep_for("wo-ab1") == 2
    assert policy.keep_for("wo-abc") == 0  # kept for ever
    assert not policy.due("wo-abc", 1, 10**15)
    assert policy.due("other", 1, 1 + 7 * DAY_MS)
    assert not policy.due("other", 1, 7 * DAY_MS)
    assert not policy.due("other", 0, 10**15)  # never finished
    assert policy.shortest_keep_ms() == 1


def test_the_default_keeps_everything() -> None:
    policy = parse_policy({})
    assert not policy.active and policy.shortest_keep_ms() == 0
    assert parse_policy({"work_orders": {"wo-1": DAY_MS}}).active


@pytest.mark.parametrize(
    "data",
    [
        {"keep_finished_ms": -1},
        {"batch_runs": 0},
        {"batch_runs": 501},
        {"interval_ms": 10},
        {"work_orders": {"a*b": 1}},
        {"work_orders": {"wo": -1}},
        {"work_orders": ["wo"]},
        {"keep_finished_days": 7},
        {"keep_finished_ms": "soon"},
    ],
)
def test_a_bad_policy_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"^retention"):
        parse_policy(data)


def test_the_digest_covers_every_row_and_the_run_id() -> None:
    rows = {"runs": [{"run_id": "r", "status": "COMPLETED"}]}
    digest = run_digest("r", rows)
    assert digest.startswith("sha256:") and len(digest) == 71
    assert run_digest("r", {"runs": [{"status": "COMPLETED", "run_id": "r"}]}) == digest
    assert run_digest("r2", rows) != digest
    assert run_digest("r", {"runs": [{"run_id": "r", "status": "FAILED"}]}) != digest
    assert RetentionPolicy().keep_archived_ms == 400 * DAY_MS
