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


def test_tombstones_are_kept_as_long_again_as_the_runs_unless_told() -> None:
    assert RetentionPolicy(keep_finished_ms=7 * DAY_MS).tombstone_keep_ms == 7 * DAY_MS
    # A work order that keeps its runs longer: its tombstones answer as long again too.
    longer = {"keep_finished_ms": 7 * DAY_MS, "work_orders": {"audit-*": 0, "keep-*": 30 * DAY_MS}}
    assert parse_policy(longer).tombstone_keep_ms == 30 * DAY_MS
    assert parse_policy({"work_orders": {"scratch-*": DAY_MS}}).tombstone_keep_ms == DAY_MS
    assert RetentionPolicy().tombstone_keep_ms == 0  # nothing is archived
    explicit = {"keep_finished_ms": 7 * DAY_MS, "keep_archived_ms": 400 * DAY_MS}
    assert parse_policy(explicit).tombstone_keep_ms == 400 * DAY_MS
    forever = {"keep_finished_ms": 7 * DAY_MS, "keep_archived_ms": 0}
    assert parse_policy(forever).tombstone_keep_ms == 0
    with pytest.raises(ValueError, match=r"^retention"):
        parse_policy({"keep_finished_ms": DAY_MS, "keep_archived_ms": -1})


def test_the_scope_names_the_work_orders_archived_when_the_default_keeps_for_ever() -> None:
    assert RetentionPolicy(keep_finished_ms=DAY_MS).scope() is None  # any work order
    policy = parse_policy({"work_orders": {"a-*": DAY_MS, "b": 2, "c-*": 0}})
    assert policy.scope() == ("a-*", "b")
