"""praxis_client.answers: the form a wait's schema asks for, and the value of what a
person typed (shared by ``praxis wait answer`` and the console; issue 38, item 1)."""

from __future__ import annotations

import json

import pytest

from praxis_client import answers


def form(schema: object, choices: tuple[str, ...] = ()) -> answers.Field:
    return answers.form(json.dumps(schema), choices)


def test_each_schema_asks_for_its_field() -> None:
    assert form({"type": "string"}).kind == "text"
    assert form({"enum": ["a", 1]}).kind == "choice"
    assert form({"type": "boolean"}).kind == "boolean"
    assert form({"type": "integer"}).kind == "integer"
    assert form({"type": "number"}).kind == "integer"  # documents hold safe integers only
    assert form({"type": "array", "items": {"type": "string"}}).kind == "json"
    assert form({"type": ["string", "null"]}).kind == "json"
    assert form({}).kind == "json"
    assert answers.form("", ()).kind == "json"
    free = form({"type": "string"}, ("ship", "hold"))
    assert (free.kind, free.choices, free.other) == ("choice", ("ship", "hold"), True)


def test_an_object_asks_one_field_per_property() -> None:
    schema = {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "title": "Approve?"},
            "count": {"type": "integer", "description": "how many"},
            "note": {"type": "string"},
            "where": {"type": "object"},
        },
        "required": ["ok", "count"],
    }
    found = form(schema)
    assert found.kind == "object"
    assert [(f.name, f.kind, f.required) for f in found.fields] == [
        ("ok", "boolean", True),
        ("count", "integer", True),
        ("note", "text", False),
        ("where", "json", False),
    ]
    assert found.fields[0].label == "Approve?"
    assert found.fields[1].help == "how many"
    texts = {"ok": "yes", "count": "3", "note": "", "where": '{"a": 1}'}
    assert answers.object_value(found, texts) == {"ok": True, "count": 3, "where": {"a": 1}}
    with pytest.raises(answers.AnswerError, match=r"^count: "):
        answers.object_value(found, {**texts, "count": "three"})


def test_typed_texts_become_values() -> None:
    assert answers.value_of(form({"type": "string"}), " as typed \n") == " as typed \n"
    assert answers.value_of(form({"type": "boolean"}), "Yes") is True
    assert answers.value_of(form({"type": "boolean"}), "n") is False
    choice = form({"enum": ["a", 7, None]})
    assert choice.choice_labels() == ["a", "7", "null"]
    assert answers.value_of(choice, "7") == 7
    assert answers.value_of(choice, "3") is None  # the third, by its number
    free = form({"type": "string"}, ("ship", "hold"))
    assert answers.value_of(free, "2") == "hold"
    assert answers.value_of(free, "later") == "later"
    assert answers.value_of(form({}), '{"k": [1, "x"]}') == {"k": [1, "x"]}


@pytest.mark.parametrize(
    ("schema", "text"),
    [
        ({"type": "boolean"}, "maybe"),
        ({"enum": ["a", "b"]}, "c"),
        ({"enum": ["a", "b"]}, "3"),
        ({"type": "integer"}, "1.5"),
        ({"type": "integer"}, "01"),
        ({"type": "integer"}, "1e3"),
        ({"type": "integer"}, "+1"),
        ({"type": "integer"}, "-0"),
        ({"type": "integer"}, "9007199254740992"),
        ({}, "{"),
        ({}, '{"a": 1, "a": 2}'),
        ({}, "[1.5]"),
        ({}, "[9007199254740992]"),
    ],
)
def test_texts_that_are_no_value_of_their_kind_are_refused(schema: object, text: str) -> None:
    with pytest.raises(answers.AnswerError):
        answers.value_of(form(schema), text)


def test_the_canonical_integer_bounds() -> None:
    field = form({"type": "integer"})
    assert answers.value_of(field, "9007199254740991") == 2**53 - 1
    assert answers.value_of(field, "-9007199254740991") == -(2**53 - 1)
    assert answers.value_of(field, "0") == 0
