"""Definition validation: every rule, all problems reported together."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from praxis.core import definition as d
from praxis.core.rejection import Code, Rejection
from tests.support.runtime import definition, diamond, json_out, node

MODELS = frozenset({"echo", "gpt-test"})


def parse(document: Any, limits: d.Limits = d.DEFAULT_LIMITS) -> d.Definition | Rejection:
    return d.parse(document, MODELS, limits)


def violations(document: Any, limits: d.Limits = d.DEFAULT_LIMITS) -> dict[str, str]:
    found = parse(document, limits)
    assert isinstance(found, Rejection), found
    assert found.code is Code.INVALID_ARGUMENT
    return {v.field: v.description for v in found.violations}


def test_diamond_parses_with_required_set_and_dependents() -> None:
    parsed = parse(diamond())
    assert isinstance(parsed, d.Definition)
    assert parsed.output == "d"
    assert parsed.required == {"a", "b", "c", "d"}
    assert set(parsed.dependents["a"]) == {"b", "c"}
    assert parsed.digest.startswith("sha256:")


def test_required_set_excludes_side_branches() -> None:
    parsed = parse(
        definition(
            "b",
            a=node(output=json_out()),
            b=node("node:a", ("a",)),
            side=node("node:a", ("a",)),
        )
    )
    assert isinstance(parsed, d.Definition)
    assert parsed.required == {"a", "b"}


def test_node_ids_reject_hash_dot_and_slash() -> None:
    found = violations(definition("ok", ok=node(), **{"a#1": node(), "b.c": node(), "d/e": node()}))
    for bad in ("a#1", "b.c", "d/e"):
        assert f"definition_json.nodes.{bad}" in found


def test_cycle_is_reported() -> None:
    found = violations(
        definition(
            "a",
            a=node("node:b", ("b",), json_out()),
            b=node("node:a", ("a",), json_out()),
        )
    )
    assert any("cycle" in text for text in found.values())


def test_every_problem_is_reported_together() -> None:
    document = definition(
        "missing",
        a=node(output={"type": "text"}),
        b=node("node:a", ("a", "ghost")),
        c=node("node:nowhere", ()),
        e=node("run_input", ("a",)),
    )
    document["extra"] = True
    found = parse(document)
    assert isinstance(found, Rejection)
    assert found.reason == "DEFINITION_INVALID"
    fields = [v.field for v in found.violations]
    assert "definition_json.extra" in fields  # unknown key
    assert "definition_json.output.from" in fields  # output names no node
    assert "definition_json.nodes.b.depends_on" in fields  # ghost dependency
    assert "definition_json.nodes.c.input.from" in fields  # reads a missing node
    assert "definition_json.nodes.a.agent.output" in fields  # read without JSON schema
    assert any("not consumed" in v.description for v in found.violations)  # e ignores a


def test_reading_a_node_needs_a_typed_json_schema() -> None:
    found = violations(definition("b", a=node(output=json_out({})), b=node("node:a", ("a",))))
    assert "definition_json.nodes.a.agent.output" in found


def test_fanout_over_a_path_the_schema_proves_is_not_an_array() -> None:
    schema = {"type": "object", "properties": {"items": {"type": "string"}}}
    found = violations(
        definition(
            "m",
            a=node(output=json_out(schema)),
            m=node("fanout_item", ("a",), fanout={"over": "node:a.items"}),
        )
    )
    assert "not an array" in found["definition_json.nodes.m.fanout.over"]


def test_fanout_over_an_undeclared_path_is_checked_at_run_time() -> None:
    parsed = parse(
        definition(
            "m",
            a=node(output=json_out()),
            m=node("fanout_item", ("a",), fanout={"over": "node:a.items"}),
        )
    )
    assert isinstance(parsed, d.Definition)


def test_node_cap() -> None:
    nodes = {f"n{i}": node() for i in range(6)}
    found = violations(definition("n0", **nodes), d.Limits(max_nodes=5))
    assert "cap" in found["definition_json.nodes"]


def test_unknown_model_lists_the_known_ones() -> None:
    found = parse(definition("a", a=node(model="gpt-9")))
    assert isinstance(found, Rejection)
    assert found.reason == "MODEL_UNKNOWN"
    assert dict(found.metadata)["known_models"] == "echo,gpt-test"
    assert "echo" in found.violations[0].description


def test_unknown_model_with_other_problems_is_one_definition_error() -> None:
    found = parse(definition("a", a=node(model="gpt-9", depends_on_typo=1)))
    assert isinstance(found, Rejection)
    assert found.reason == "DEFINITION_INVALID"
    assert len(found.violations) == 2


def test_unsupported_schema_keywords_are_rejected() -> None:
    found = violations(definition("a", a=node(output=json_out({"type": "object", "$ref": "x"}))))
    assert "definition_json.nodes.a.agent.output.schema.$ref" in found


def test_version_and_retry_and_timeout_ranges() -> None:
    document = definition("a", a=node(timeout_ms=-1, retry={"attempts": 0, "jitter": 1}))
    document["version"] = 2
    found = violations(document)
    assert set(found) >= {
        "definition_json.version",
        "definition_json.nodes.a.timeout_ms",
        "definition_json.nodes.a.retry.attempts",
        "definition_json.nodes.a.retry.jitter",
    }


def test_backoff_doubles_up_to_the_cap() -> None:
    policy = d.RetryPolicy(attempts=5, backoff_ms=100, max_backoff_ms=350)
    assert [policy.delay_ms(n) for n in (1, 2, 3, 4)] == [100, 200, 350, 350]


@st.composite
def dags(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(1, 12))
    nodes: dict[str, Any] = {}
    for index in range(count):
        deps = draw(st.lists(st.sampled_from(range(index)), unique=True)) if index else []
        names = tuple(f"n{dep}" for dep in deps)
        if not names:
            source: Any = "run_input"
        elif len(names) == 1:
            source = f"node:{names[0]}"
        else:
            source = [f"node:{name}" for name in names]
        nodes[f"n{index}"] = node(source, names, json_out())
    return definition(f"n{count - 1}", **nodes)


@settings(max_examples=60, deadline=None)
@given(dags())
def test_generated_acyclic_definitions_parse(document: dict[str, Any]) -> None:
    parsed = parse(document)
    assert isinstance(parsed, d.Definition), parsed
    assert parsed.output in parsed.required
    for node_id in parsed.required:
        assert set(parsed.nodes[node_id].depends_on) <= parsed.required


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_arbitrary_documents_are_rejected_not_raised(document: Any) -> None:
    found = parse(document)
    assert isinstance(found, (d.Definition, Rejection))


def test_unknown_model_error_stays_small_however_many_models_are_known() -> None:
    models = frozenset(f"model-{i:04d}" for i in range(5000))
    document = definition("a", a=node(model="nope"))
    rejection = d.parse(document, models, d.DEFAULT_LIMITS)
    assert isinstance(rejection, Rejection) and rejection.reason == "MODEL_UNKNOWN"
    size = len(rejection.message) + sum(len(k) + len(v) for k, v in rejection.metadata)
    size += sum(len(v.description) for v in rejection.violations)
    assert size < 4096
    assert dict(rejection.metadata)["known_models_count"] == "5000"
    assert "model-0000" in rejection.message and "(4950 more)" in rejection.message
