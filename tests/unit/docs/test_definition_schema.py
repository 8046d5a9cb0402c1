"""docs/definition.schema.json and the server's validator give one verdict on every definition.

The corpus: every definition of the conformance vectors, every definition the test suite
writes as a literal or builds with tests.support's helpers (evaluated in its module), the
examples of docs/definitions.md and of the README, and mutations of the valid ones (each
key of each node removed, nulled or given a value of another type, an unknown key added).
For each document: when the server accepts, the schema accepts; when the schema accepts
and the server refuses, every violation is one of ``definition.SERVER_RULES`` (the rules
docs/definitions.md lists as the server's own).
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import json
import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from praxis.core import definition, values
from praxis.core.rejection import Rejection
from tests.support.paths import ROOT

SCHEMA_PATH = ROOT / "docs" / "definition.schema.json"
PLACEHOLDER = re.compile(r"\$\{[^}]*\}")


@functools.cache
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_accepts(text: str) -> bool:
    try:
        document = json.loads(text)
    except ValueError:
        return False
    return bool(validator().is_valid(document))


def server_violations(text: str) -> list[tuple[str, str]]:
    """The server's verdict as (field, problem) pairs; empty when it accepts."""
    document = values.parse_versioned_document(text, "", (1,))
    if isinstance(document, Rejection):
        return [("", document.reason)]
    parsed = definition.parse(document, None, field_path="")
    if isinstance(parsed, Rejection):
        return [(v.field, v.description) for v in parsed.violations]
    return []


def rules_of(violation: tuple[str, str]) -> list[str]:
    field, problem = violation
    return [
        rule.name
        for rule in definition.SERVER_RULES
        if re.search(rule.field, field) and re.search(rule.problem, problem)
    ]


# --- the corpus ------------------------------------------------------------------------


def _strings(value: Any, key: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, key)
    elif isinstance(value, str) and key.lower().endswith("definitionjson") and value:
        yield value


def vector_definitions() -> list[str]:
    texts: list[str] = []
    for path in sorted((ROOT / "conformance" / "vectors").glob("*.json")):
        texts += [PLACEHOLDER.sub("x", t) for t in _strings(json.loads(path.read_text()))]
    return texts


def _candidate(node: ast.AST) -> bool:
    if isinstance(node, ast.Dict):
        return "nodes" in [k.value for k in node.keys if isinstance(k, ast.Constant)]
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in ("definition", "diamond", "fanout")
    return False


def suite_definitions() -> list[str]:
    """Definitions the tests write: literals, helper calls, JSON strings.

    An expression that reads a test's local variables cannot be evaluated here and is
    left out; the count below keeps the corpus from silently shrinking.
    """
    texts: list[str] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        wanted = '"nodes"' in source or "definition(" in source
        if path.parent.name == "fixtures" or not wanted:
            continue
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if '"nodes"' in node.value and node.value.lstrip().startswith("{"):
                    texts.append(node.value)
                continue
            if not _candidate(node):
                continue
            try:
                value = eval(  # the repository's own test expressions
                    compile(ast.Expression(node), str(path), "eval"), dict(vars(module))
                )
            except Exception:  # reads a test's local variable: not evaluable here
                continue
            if isinstance(value, dict) and "nodes" in value:
                texts.append(json.dumps(value))
    return texts


def doc_definitions() -> list[str]:
    """The JSON blocks of docs/definitions.md and the README that are definitions."""
    texts: list[str] = []
    for page in (ROOT / "docs" / "definitions.md", ROOT / "README.md"):
        for block in re.findall(r"```json\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            if '"nodes"' in block:
                texts.append(block)
    return texts


def _bad_values(value: Any) -> list[Any]:
    bad: list[Any] = [None, "x", "", "y" * 300, -1, 0, 10**15, [], {}, True, ["x"], {"x": 1}]
    if isinstance(value, list) and value:
        bad.append([*value, value[0]])  # a repeated item
    if isinstance(value, int) and not isinstance(value, bool):  # each side of each limit
        bad += [1, 100, 101, 86_400_000, 86_400_001, 604_800_000, 604_800_001]
        bad += [7_776_000_000, 7_776_000_001]
    if isinstance(value, str):
        bad += ["z" * n for n in (64, 65, 128, 129, 256, 257)]
    return bad


def mutations(text: str) -> Iterator[str]:
    """Near misses of a valid document: each key removed, retyped, nulled; unknown keys."""
    document = json.loads(text)
    yield json.dumps({**document, "extra": 1})
    for key in list(document):
        yield json.dumps({k: v for k, v in document.items() if k != key})
    targets: list[dict[str, Any]] = []
    for node in document["nodes"].values():
        targets.append(node)
        targets += [v for v in node.values() if isinstance(v, dict)]
    for index, target in enumerate(targets):
        for key in list(target):
            for bad in [*_bad_values(target[key]), "__delete__"]:
                changed = copy.deepcopy(document)
                where = _nth_target(changed, index)
                if bad == "__delete__":
                    del where[key]
                else:
                    where[key] = bad
                yield json.dumps(changed)
        changed = copy.deepcopy(document)
        _nth_target(changed, index)["unknown_key"] = 1
        yield json.dumps(changed)


def _nth_target(document: dict[str, Any], index: int) -> dict[str, Any]:
    targets: list[dict[str, Any]] = []
    for node in document["nodes"].values():
        targets.append(node)
        targets += [v for v in node.values() if isinstance(v, dict)]
    return targets[index]


def _keys(value: Any, path: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            where = "*" if path.endswith("nodes") or path.endswith("properties") else key
            yield f"{path}.{where}={type(item).__name__}"
            yield from _keys(item, f"{path}.{where}")
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item, f"{path}[]")


@functools.cache
def corpus() -> dict[str, list[str]]:
    found = {
        "vectors": vector_definitions(),
        "suite": suite_definitions(),
        "docs": doc_definitions(),
    }
    unique = dict.fromkeys(t for texts in found.values() for t in texts)
    shapes: dict[str, str] = {}  # one valid document per set of keys used: the mutations
    for text in unique:  # of two documents of one shape test the same rules
        if not server_violations(text):
            shapes.setdefault(" ".join(sorted(_keys(json.loads(text)))), text)
    covered: set[str] = set()
    chosen: list[str] = []  # the fewest documents that between them use every key seen
    for shape, text in sorted(shapes.items(), key=lambda item: -len(item[0])):
        keys = set(shape.split())
        if not keys <= covered:
            covered |= keys
            chosen.append(text)
    found["mutations"] = list(dict.fromkeys(m for t in chosen for m in mutations(t)))
    return found


# --- the tests -------------------------------------------------------------------------


def test_the_corpus_is_large_and_mixed() -> None:
    found = corpus()
    assert len(found["vectors"]) >= 500, len(found["vectors"])
    assert len(found["suite"]) >= 200, len(found["suite"])
    assert len(found["docs"]) >= 4, len(found["docs"])
    verdicts = [bool(server_violations(t)) for t in found["mutations"]]
    assert verdicts.count(True) > 1000 and verdicts.count(False) > 100


@pytest.mark.parametrize("source", ["vectors", "suite", "docs", "mutations"])
def test_the_schema_and_the_server_agree(source: str) -> None:
    disagreements: list[str] = []
    for text in corpus()[source]:
        violations = server_violations(text)
        accepted = schema_accepts(text)
        if not violations and not accepted:
            disagreements.append(f"server accepts, schema refuses: {text}")
        elif violations and accepted:
            beyond = [v for v in violations if not rules_of(v)]
            if beyond:
                disagreements.append(f"schema accepts, server refuses {beyond}: {text}")
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(
        disagreements[:10]
    )


def test_every_example_in_the_docs_is_accepted() -> None:
    for text in corpus()["docs"]:
        assert schema_accepts(text), text
        assert not server_violations(text), (server_violations(text), text)


def _doc(**nodes: Any) -> dict[str, Any]:
    return {"version": 1, "nodes": nodes, "output": {"from": "node:a"}}


_TYPED = {"type": "json", "schema": {"type": "object"}}
_A = {"agent": {"model": "m", "output": _TYPED}, "input": {"from": "run_input"}}
BEYOND_THE_SCHEMA: dict[str, Any] = {
    "bounded document": '{"version": 1, "version": 1, "nodes": {}}',
    "dependencies exist": _doc(a={**_A, "depends_on": ["ghost"]}),
    "no cycle": _doc(
        a={**_A, "input": {"from": "node:b"}, "depends_on": ["b"]},
        b={**_A, "input": {"from": "node:a"}, "depends_on": ["a"]},
    ),
    "inputs are dependencies": _doc(a={**_A, "input": {"from": "node:b"}}, b=_A),
    "fan-out items need a fan-out": _doc(a={**_A, "input": {"from": "fanout_item"}}),
    "dependencies are consumed": _doc(a={**_A, "depends_on": ["b"]}, b=_A),
    "fan-out sources": _doc(
        a={**_A, "input": {"from": "fanout_item"}, "depends_on": ["b"]}
        | {"fanout": {"over": "node:b"}},
        b=_A,
    ),
    "read results are typed JSON": _doc(
        a={**_A, "input": {"from": "node:b"}, "depends_on": ["b"]},
        b={"agent": {"model": "m"}, "input": {"from": "run_input"}},
    ),
    "the output is a node": {"version": 1, "nodes": {"a": _A}, "output": {"from": "node:b"}},
    "backoff order": _doc(a={**_A, "retry": {"backoff_ms": 5000, "max_backoff_ms": 10}}),
    "wait defaults match": _doc(
        a={
            "kind": "human_input",
            "wait": {
                "expires_in_ms": 1000,
                "schema": {"type": "string"},
                "on_expiry": "default",
                "default": 1,
            },
        }
    ),
    "choices match": _doc(
        a={
            "kind": "human_input",
            "wait": {
                "expires_in_ms": 1000,
                "schema": {"type": "string", "enum": ["ship"]},
                "on_expiry": "fail",
                "choices": ["ship", "hold"],
            },
        }
    ),
}


@pytest.mark.parametrize("rule", list(BEYOND_THE_SCHEMA))
def test_each_server_rule_is_beyond_the_schema(rule: str) -> None:
    """The schema accepts each example; the server refuses it for that rule alone."""
    example = BEYOND_THE_SCHEMA[rule]
    text = example if isinstance(example, str) else json.dumps(example)
    violations = server_violations(text)
    assert violations
    assert all(rules_of(v) == [rule] for v in violations), violations
    if rule != "bounded document":  # json.loads keeps the last duplicate key
        assert schema_accepts(text)


def test_every_server_rule_has_an_example_or_a_reason() -> None:
    untestable_here = {"known models", "node cap"}  # need models / a server's cap
    names = [rule.name for rule in definition.SERVER_RULES]
    assert set(names) == set(BEYOND_THE_SCHEMA) | untestable_here
    assert rules_of((".nodes.a.agent.model", "model 'x' is unknown; known models: m")) == [
        "known models"
    ]


def test_the_schema_states_the_validators_limits() -> None:
    defs = json.loads(SCHEMA_PATH.read_text())["$defs"]
    node = defs["node"]["properties"]
    assert node["timeout_ms"]["maximum"] == definition.MAX_TIMEOUT_MS
    assert node["schedule_to_start_ms"]["maximum"] == definition.MAX_TIMEOUT_MS
    assert node["schedule_to_start_ms"]["default"] == definition.DEFAULT_SCHEDULE_TO_START_MS
    assert node["effects"]["enum"] == list(definition.EFFECTS)
    assert node["kind"]["enum"] == ["agent", *definition.WAIT_KINDS]
    retry = defs["retry"]["properties"]
    default = definition.RetryPolicy()
    assert retry["attempts"]["maximum"] == definition.MAX_ATTEMPTS
    assert retry["attempts"]["default"] == default.attempts
    assert retry["backoff_ms"]["default"] == default.backoff_ms
    assert retry["max_backoff_ms"]["default"] == default.max_backoff_ms
    assert retry["backoff_ms"]["maximum"] == definition.MAX_BACKOFF_MS
    wait = defs["wait"]["properties"]
    assert wait["expires_in_ms"]["maximum"] == definition.MAX_WAIT_MS
    assert wait["question"]["maxLength"] == definition.MAX_QUESTION_CHARS
    assert wait["choices"]["maxItems"] == definition.MAX_CHOICES
    assert wait["choices"]["items"]["maxLength"] == definition.MAX_CHOICE_CHARS
    assert defs["agent"]["properties"]["provider"]["maxLength"] == definition.MAX_PROVIDER_CHARS
    top = json.loads(SCHEMA_PATH.read_text())["properties"]
    assert top["nodes"]["maxProperties"] == definition.DEFAULT_LIMITS.max_nodes


def test_a_document_may_name_its_schema_for_editors() -> None:
    text = json.dumps({"$schema": "./definition.schema.json", **_doc(a=_A)})
    assert schema_accepts(text)
    assert not server_violations(text)
    bad = json.dumps({"$schema": 1, **_doc(a=_A)})
    assert not schema_accepts(bad)
    assert [field for field, _ in server_violations(bad)] == [".$schema"]
