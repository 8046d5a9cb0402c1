"""The function policy: its shapes, bounds, normalized form and matching (issue 24)."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from praxis.core import definition, functions


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        (None, {"allow": ["*"], "deny": []}),
        ("search", {"allow": ["search"], "deny": []}),
        (["b", "a", "b"], {"allow": ["a", "b"], "deny": []}),
        ({"deny": ["shell.*"]}, {"allow": ["*"], "deny": ["shell.*"]}),
        ({"allow": [], "deny": []}, {"allow": [], "deny": []}),
    ],
)
def test_every_spelling_normalizes_to_allow_and_deny(raw: object, normalized: object) -> None:
    assert functions.problems(raw) == []
    assert functions.normalize(raw) == normalized


@pytest.mark.parametrize(
    ("function_id", "permitted"),
    [
        ("web.search", True),
        ("web.fetch", False),  # denied: deny wins over allow
        ("calc", True),
        ("calculator", False),  # a pattern matches the whole id
        ("shell.exec", False),  # allowed by nothing
    ],
)
def test_a_function_is_permitted_by_an_allow_and_no_deny(function_id: str, permitted: bool) -> None:
    policy = functions.normalize({"allow": ["web.*", "calc"], "deny": ["*.fetch"]})
    assert functions.permits(policy, function_id) is permitted


def test_the_default_permits_every_function_and_an_empty_allow_none() -> None:
    assert functions.permits(functions.normalize(None), "anything::at.all")
    assert not functions.permits(functions.normalize([]), "anything")


@pytest.mark.parametrize(
    "raw",
    [
        3,
        [1],
        {"allow": "x"},
        {"allow": ["x"], "only": ["y"]},
        [""],
        ["x" * (functions.MAX_PATTERN_CHARS + 1)],
        [f"f{i}" for i in range(functions.MAX_PATTERNS + 1)],
    ],
)
def test_a_malformed_or_unbounded_policy_is_a_problem(raw: object) -> None:
    assert functions.problems(raw)  # type: ignore[arg-type]


@given(st.text(alphabet="ab.*", max_size=6), st.text(alphabet="ab.", max_size=6))
def test_matching_is_a_glob_where_star_is_any_run(pattern: str, function_id: str) -> None:
    # With only `*` special (no `?` or `[` in the alphabet), fnmatch is the reference.
    policy = {"allow": [pattern], "deny": []}
    assert functions.permits(policy, function_id) is fnmatch.fnmatchcase(function_id, pattern)


def test_the_definition_checks_the_policy_and_keeps_the_provider() -> None:
    document = {
        "version": 1,
        "default_functions": {"deny": [""]},
        "nodes": {
            "a": {
                "agent": {"model": "echo", "provider": "p" * 257, "functions": "ok"},
                "input": {"from": "run_input"},
            }
        },
        "output": {"from": "node:a"},
    }
    rejected = definition.parse(document, frozenset({"echo"}))
    assert not isinstance(rejected, definition.Definition)
    fields = {v.field for v in rejected.violations}
    assert {"definition_json.default_functions", "definition_json.nodes.a.agent.provider"} <= fields
    document["default_functions"] = {"deny": ["shell.*"]}
    document["nodes"]["a"]["agent"]["provider"] = "acme"  # type: ignore[index]
    parsed = definition.parse(document, frozenset({"echo"}))
    assert isinstance(parsed, definition.Definition)
    assert parsed.nodes["a"].agent is not None
    assert parsed.nodes["a"].agent.provider == "acme"
