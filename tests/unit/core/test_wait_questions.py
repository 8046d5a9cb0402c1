"""A human_input wait's question and choices (issue 38, item 1): parsed, checked against
the schema, part of the node's digest only when asked."""

from __future__ import annotations

from typing import Any

from praxis.core import definition as d
from praxis.core.rejection import Rejection

MODELS = frozenset({"echo"})


def asking(**wait: Any) -> dict[str, Any]:
    block = {"expires_in_ms": 60_000, "on_expiry": "fail", **wait}
    return {
        "version": 1,
        "nodes": {"ask": {"kind": "human_input", "wait": block}},
        "output": {"from": "node:ask"},
    }


def wait_of(document: dict[str, Any]) -> d.WaitSpec:
    parsed = d.parse(document, MODELS)
    assert isinstance(parsed, d.Definition), parsed
    spec = parsed.nodes["ask"].wait
    assert spec is not None
    return spec


def problems(document: dict[str, Any]) -> dict[str, str]:
    parsed = d.parse(document, MODELS)
    assert isinstance(parsed, Rejection), parsed
    assert parsed.reason == "DEFINITION_INVALID"
    return {v.field: v.description for v in parsed.violations}


def test_the_question_and_choices_are_kept_as_written() -> None:
    question = 'Ship <b>it</b> & "tell" them?\nToday — café'
    spec = wait_of(asking(question=question, choices=["ship", "hold"]))
    assert spec.question == question
    assert spec.choices == ("ship", "hold")


def test_choices_without_a_schema_make_a_string_enum() -> None:
    spec = wait_of(asking(choices=["ship", "hold"]))
    assert spec.schema == {"type": "string", "enum": ["ship", "hold"]}


def test_choices_must_match_a_given_schema() -> None:
    found = problems(asking(schema={"type": "string", "enum": ["a"]}, choices=["a", "b"]))
    assert list(found) == ["definition_json.nodes.ask.wait.choices[1]"]
    assert wait_of(asking(schema={"type": "string"}, choices=["a", "b"])).choices == ("a", "b")


def test_bounds_of_the_question_and_choices() -> None:
    longest = "q" * d.MAX_QUESTION_CHARS
    assert wait_of(asking(question=longest)).question == longest
    assert "definition_json.nodes.ask.wait.question" in problems(asking(question=longest + "q"))
    assert "definition_json.nodes.ask.wait.question" in problems(asking(question=7))
    many = [f"c{i}" for i in range(d.MAX_CHOICES + 1)]
    assert "definition_json.nodes.ask.wait.choices" in problems(asking(choices=many))
    assert "definition_json.nodes.ask.wait.choices" in problems(asking(choices=["a", "a"]))
    assert "definition_json.nodes.ask.wait.choices[0]" in problems(asking(choices=[""]))
    wide = "c" * (d.MAX_CHOICE_CHARS + 1)
    assert "definition_json.nodes.ask.wait.choices[0]" in problems(asking(choices=[wide]))
    assert "definition_json.nodes.ask.wait.choices[1]" in problems(asking(choices=["a", 1]))


def test_only_a_human_input_wait_asks() -> None:
    assert wait_of(asking(question="now?")).question == "now?"
    timer = asking(question="now?")
    timer["nodes"]["ask"]["kind"] = "timer"
    assert "definition_json.nodes.ask.wait.question" in problems(timer)
    gate = asking(choices=["yes"], schema={"type": "string"})
    gate["nodes"]["ask"]["kind"] = "authorization"
    assert "definition_json.nodes.ask.wait.choices" in problems(gate)


def test_the_digest_changes_with_the_question_and_not_without_one() -> None:
    def digest(document: dict[str, Any]) -> str:
        parsed = d.parse(document, MODELS)
        assert isinstance(parsed, d.Definition)
        return parsed.nodes["ask"].spec_digest

    plain = digest(asking(schema={"type": "string"}))
    asked = digest(asking(schema={"type": "string"}, question="a?"))
    other = digest(asking(schema={"type": "string"}, question="b?"))
    assert len({plain, asked, other}) == 3
    # A wait that asks nothing keeps the digest it had before questions existed.
    legacy = d.values.digest(
        {
            "kind": "human_input",
            "source": {"kind": "none", "nodes": []},
            "template": "",
            "depends_on": [],
            "wait": [60_000, {"type": "string"}, "fail", None],
        }
    )
    assert plain == legacy
