"""A small JSON Schema validator for node output contracts.

Supported subset (anything else in a schema is rejected when the definition is
validated, so a contract never silently means less than it says):

* ``type``: one of ``object``, ``array``, ``string``, ``integer``, ``number``,
  ``boolean``, ``null``, or a non-empty list of them. Documents hold only safe
  integers, so ``number`` accepts exactly what ``integer`` accepts.
* ``properties``: an object of sub-schemas, checked for the keys that are present.
* ``required``: a list of property names that must be present.
* ``additionalProperties``: ``false`` rejects keys not listed in ``properties``
  (``true`` or absent allows them).
* ``items``: one sub-schema every array element must match.
* ``enum``: a non-empty list of allowed values (compared as canonical JSON).
* ``description`` and ``title``: annotations, ignored by validation.
"""

from __future__ import annotations

from collections.abc import Iterator

from praxis.core import values

TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
KEYWORDS = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum"}
    | {"description", "title"}
)
MAX_PROBLEMS = 20


def schema_problems(schema: values.JsonValue, path: str) -> list[tuple[str, str]]:
    """Why ``schema`` is outside the supported subset: ``(field path, problem)`` pairs."""
    problems: list[tuple[str, str]] = []
    _check(schema, path, problems)
    return problems


def _check(schema: values.JsonValue, path: str, out: list[tuple[str, str]]) -> None:
    if not isinstance(schema, dict):
        out.append((path, "a schema must be an object"))
        return
    for key in schema:
        if key not in KEYWORDS:
            out.append((f"{path}.{key}", f"unsupported schema keyword {key!r}"))
    if "type" in schema and not declared_types(schema):
        out.append((f"{path}.type", f"type must be one of {sorted(TYPES)} or a list of them"))
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        out.append((f"{path}.properties", "properties must be an object"))
    else:
        for name, child in properties.items():
            _check(child, f"{path}.properties.{name}", out)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
        out.append((f"{path}.required", "required must be a list of property names"))
    if not isinstance(schema.get("additionalProperties", True), bool):
        out.append((f"{path}.additionalProperties", "additionalProperties must be a boolean"))
    if "items" in schema:
        _check(schema["items"], f"{path}.items", out)
    enum = schema.get("enum", [None])
    if not isinstance(enum, list) or not enum:
        out.append((f"{path}.enum", "enum must be a non-empty list"))


def declared_types(schema: values.JsonValue) -> frozenset[str]:
    """The types a schema declares; empty when it declares none (or an invalid one)."""
    if not isinstance(schema, dict):
        return frozenset()
    declared = schema.get("type")
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list) or not names:
        return frozenset()
    if not all(isinstance(name, str) and name in TYPES for name in names):
        return frozenset()
    return frozenset(names)


def types_at(schema: values.JsonValue, path: tuple[str, ...]) -> frozenset[str] | None:
    """The types the schema proves for the value at ``path``; ``None`` when unknown."""
    node = schema
    for key in path:
        if not isinstance(node, dict):
            return None
        properties = node.get("properties")
        if not isinstance(properties, dict) or key not in properties:
            return None
        node = properties[key]
    return declared_types(node) or None


def validate(value: values.JsonValue, schema: values.JsonValue) -> list[str]:
    """Every way ``value`` breaks ``schema`` (at most :data:`MAX_PROBLEMS`)."""
    problems: list[str] = []
    for problem in _validate(value, schema, "$"):
        problems.append(problem)
        if len(problems) >= MAX_PROBLEMS:
            break
    return problems


def _type_of(value: values.JsonValue) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _validate(value: values.JsonValue, schema: values.JsonValue, path: str) -> Iterator[str]:
    if not isinstance(schema, dict):
        return
    types = declared_types(schema)
    actual = _type_of(value)
    if types and actual not in types and not (actual == "integer" and "number" in types):
        yield f"{path}: expected {' or '.join(sorted(types))}, got {actual}"
        return
    if "enum" in schema:
        allowed = {values.canonical_json(item) for item in schema["enum"]}
        if values.canonical_json(value) not in allowed:
            yield f"{path}: value is not one of the enum values"
    if isinstance(value, dict):
        yield from _validate_object(value, schema, path)
    elif isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            yield from _validate(item, schema["items"], f"{path}[{index}]")


def _validate_object(
    value: dict[str, values.JsonValue], schema: dict[str, values.JsonValue], path: str
) -> Iterator[str]:
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            yield f"{path}: required property {name!r} is missing"
    for name, item in value.items():
        if name in properties:
            yield from _validate(item, properties[name], f"{path}.{name}")
        elif schema.get("additionalProperties", True) is False:
            yield f"{path}: property {name!r} is not allowed"
