"""Answers to a wait: the form its JSON schema asks for, and the value of what a person
typed into it, shared by the CLI (``praxis wait answer``) and the console (a wait's page).

:func:`form` reads a wait's schema (the subset the server supports, docs/concepts.md) and
its choices and says which field asks for the answer:

- ``enum`` (or, over a string, the wait's ``choices``): pick one (``choice``; a free
  string with choices also takes another text, ``other``);
- ``string``: a text (``text``);
- ``boolean``: yes or no (``boolean``);
- ``integer`` or ``number``: a whole number under the wire's canonical rules (``integer``:
  documents hold only safe integers, ``-?(0|[1-9][0-9]*)`` within ±(2^53-1));
- ``object`` with ``properties``: one field per property (``object``; a property that is
  itself an object is a JSON field);
- anything else: a JSON document (``json``).

:func:`value_of` turns the text typed into a field into the JSON value sent; it raises
:class:`AnswerError` for a text that is not a value of the field's kind. Whether the value
matches the schema is the server's decision alone (SatisfyWait refuses it with
``WAIT_PAYLOAD_INVALID`` and one field violation per reason), so that every client refuses
exactly what the server refuses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

MAX_SAFE_INTEGER = 2**53 - 1
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
YES = ("yes", "y", "true")
NO = ("no", "n", "false")


class AnswerError(ValueError):
    """A text that is not a value of its field's kind; the message says why."""


@dataclass(frozen=True)
class Field:
    """One field of an answer's form.

    Attributes:
        kind: ``text``, ``choice``, ``boolean``, ``integer``, ``object`` or ``json``.
        name: The property it answers (empty: the whole answer).
        label: What it asks: the schema's ``title``, else the property name.
        help: The schema's ``description``.
        required: Whether an object's property must be given (always true at the top).
        choices: The values a ``choice`` offers, in order.
        other: A ``choice`` that also takes another text (a free string with choices).
        fields: An ``object``'s fields, in property order.
    """

    kind: str
    name: str = ""
    label: str = ""
    help: str = ""
    required: bool = True
    choices: tuple[Any, ...] = ()
    other: bool = False
    fields: tuple[Field, ...] = ()

    def choice_labels(self) -> list[str]:
        """The choices as a person reads them (strings as they are, others as JSON)."""
        return [label_of(choice) for choice in self.choices]


def label_of(value: Any) -> str:
    """A JSON value as a person reads it: a string as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def form(schema_json: str, choices: Sequence[str] = ()) -> Field:
    """The field that asks for an answer to a wait with this schema and choices."""
    try:
        schema = json.loads(schema_json) if schema_json else {}
    except ValueError:
        schema = None
    return _field(schema, "", True, tuple(choices), top=True)


def _types(schema: Mapping[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return list(dict.fromkeys(declared))
    return []


def _field(schema: Any, name: str, required: bool, choices: tuple[str, ...], *, top: bool) -> Field:
    if not isinstance(schema, dict):
        return Field("json", name, name, "", required)
    label = str(schema.get("title") or name)
    help_text = str(schema.get("description") or "")
    base = Field("json", name, label, help_text, required)
    enum = schema.get("enum")
    types = _types(schema)
    if isinstance(enum, list) and enum:
        return replace(base, kind="choice", choices=tuple(enum))
    if types == ["string"]:
        if choices:
            return replace(base, kind="choice", choices=choices, other=True)
        return replace(base, kind="text")
    if types == ["boolean"]:
        return replace(base, kind="boolean")
    if types in (["integer"], ["number"]):
        return replace(base, kind="integer")
    properties = schema.get("properties")
    if top and types == ["object"] and isinstance(properties, dict) and properties:
        wanted = schema.get("required", [])
        wanted = set(wanted) if isinstance(wanted, list) else set()
        fields = tuple(
            _field(child, str(key), key in wanted, (), top=False)
            for key, child in properties.items()
        )
        return replace(base, kind="object", fields=fields)
    return base


def value_of(field: Field, text: str) -> Any:
    """The JSON value of ``text`` typed into ``field`` (not an ``object``: see
    :func:`object_value`).

    Raises:
        AnswerError: ``text`` is not a value of the field's kind.
    """
    if field.kind == "text":
        return text
    if field.kind == "choice":
        return _choice(field, text)
    if field.kind == "boolean":
        word = text.strip().lower()
        if word in YES:
            return True
        if word in NO:
            return False
        raise AnswerError("answer yes or no")
    if field.kind == "integer":
        return integer_of(text.strip())
    if field.kind == "json":
        return json_of(text)
    raise AnswerError("an object is answered one field per property")


def _choice(field: Field, text: str) -> Any:
    labels = field.choice_labels()
    if text in labels:
        return field.choices[labels.index(text)]
    stripped = text.strip()
    if stripped.isdigit() and 1 <= int(stripped) <= len(labels):
        return field.choices[int(stripped) - 1]
    if field.other and stripped:
        return text
    raise AnswerError(f"choose one of: {', '.join(labels)}")


def object_value(field: Field, texts: Mapping[str, str]) -> dict[str, Any]:
    """The object answered by ``texts`` (property name to the text typed): an empty text
    leaves an optional property out.

    Raises:
        AnswerError: a text is not a value of its property's kind; the message names it.
    """
    out: dict[str, Any] = {}
    for child in field.fields:
        text = texts.get(child.name, "")
        if not text.strip() and not child.required:
            continue
        try:
            out[child.name] = value_of(child, text)
        except AnswerError as error:
            raise AnswerError(f"{child.name}: {error}") from None
    return out


def integer_of(text: str) -> int:
    """A whole number in canonical form (``-?(0|[1-9][0-9]*)``) within ±(2^53-1).

    Raises:
        AnswerError: anything else (``1.5``, ``01``, ``1e3``, ``+1``, ``-0``, too large).
    """
    if _INTEGER.fullmatch(text) is None or text == "-0":
        raise AnswerError(
            "a whole number written plainly (no sign +, leading zeros, fraction or exponent)"
        )
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise AnswerError(f"a whole number within ±{MAX_SAFE_INTEGER}")
    return value


def json_of(text: str) -> Any:
    """A JSON document under the wire's rules: no duplicate keys, numbers only as safe
    integers.

    Raises:
        AnswerError: ``text`` is not such a document.
    """

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        if len(set(keys)) != len(keys):
            raise AnswerError("a JSON object repeats a key")
        return dict(items)

    def number(_text: str) -> Any:
        raise AnswerError("numbers are whole (use a decimal string for fractions)")

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_float=number)
    except AnswerError:
        raise
    except ValueError as error:
        raise AnswerError(f"not JSON: {error}") from None
    _check_integers(value)
    return value


def _check_integers(value: Any) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
        raise AnswerError(f"a number beyond ±{MAX_SAFE_INTEGER}")
    if isinstance(value, list):
        for item in value:
            _check_integers(item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_integers(item)
