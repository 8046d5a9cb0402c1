"""praxis.core.reload: a config document's version and what a reload changes (pure)."""

from __future__ import annotations

from praxis.core.reload import change, changed_paths, version_of

BASE = {"database_url": "sqlite:///p.db", "principals_path": "p.json", "models": ["echo"]}
HOOK = {"url": "https://h.example/x", "secret": "whsec_A"}


def test_the_version_is_the_canonical_documents_whatever_the_key_order() -> None:
    shuffled = dict(reversed(list(BASE.items())))
    assert version_of(BASE) == version_of(shuffled)
    assert version_of(BASE).startswith("sha256:") and len(version_of(BASE)) == 71
    assert version_of(BASE) != version_of({**BASE, "models": ["echo", "m"]})


def test_changed_paths_go_two_levels_deep_and_never_below_a_destination() -> None:
    old = {**BASE, "webhooks": {"ops": HOOK}, "limits": {"max_nodes": 5}}
    new = {
        **BASE,
        "webhooks": {"ops": {**HOOK, "secret": "whsec_B"}, "pager": HOOK},
        "limits": {"max_nodes": 5, "max_run_nodes": 9},
        "log_level": "DEBUG",
    }
    assert changed_paths(old, new) == [
        "limits.max_run_nodes",
        "log_level",
        "webhooks.ops",
        "webhooks.pager",
    ]
    assert changed_paths(new, new) == []
    assert changed_paths(BASE, {**BASE, "retention": {"keep_finished_ms": 1}}) == [
        "retention.keep_finished_ms"
    ]


def test_a_change_splits_live_keys_from_those_needing_a_restart() -> None:
    new = {
        **BASE,
        "database_url": "postgresql+psycopg://db/x",
        "models": ["m"],
        "serving": {"executor_threads": 2},
        "retention": {"archive_dir": "elsewhere", "keep_finished_ms": 5},
    }
    found = change(BASE, new)
    assert found.changed == ("models", "retention.keep_finished_ms")
    assert found.restart_required == (
        "database_url",
        "retention.archive_dir",
        "serving.executor_threads",
    )
    assert (found.previous_version, found.version) == (version_of(BASE), version_of(new))
