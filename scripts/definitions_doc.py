"""Writes docs/definitions.md from the definition schema, the server's own rules and a template.

    .venv/bin/python scripts/definitions_doc.py          # rewrite docs/definitions.md
    .venv/bin/python scripts/definitions_doc.py --check  # exit 1 when it is stale

The reference tables come from docs/definition.schema.json (every key, its type, default,
limits and meaning), the list of rules beyond the schema from
``praxis.core.definition.SERVER_RULES``; the prose and the examples are hand-written in
docs/definitions.template.md. ``make generate`` runs it and ``make checkgenerate`` fails
when the page is stale; so does tests/unit/docs/test_definitions_doc.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from praxis.core import definition

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "docs" / "definition.schema.json"
TEMPLATE = ROOT / "docs" / "definitions.template.md"
PAGE = ROOT / "docs" / "definitions.md"

SECTIONS = [
    ("The document", "#", "definition_json, the body of StartRun and of REGISTER and PROPOSE"),
    ("A node", "#/$defs/node", "`nodes.<id>`; an agent node unless `kind` names a wait"),
    ("agent", "#/$defs/agent", "`nodes.<id>.agent`, agent nodes only"),
    ("input", "#/$defs/input", "`nodes.<id>.input`"),
    ("fanout", "#/$defs/fanout", "`nodes.<id>.fanout`, agent nodes only"),
    ("retry", "#/$defs/retry", "`nodes.<id>.retry`, agent nodes only"),
    ("wait", "#/$defs/wait", "`nodes.<id>.wait`, wait nodes only"),
    ("output contract", "#/$defs/outputContract", "`nodes.<id>.agent.output`"),
    ("contract schema", "#/$defs/contractSchema", "`agent.output.schema` and `wait.schema`"),
    ("functions", "#/$defs/functions", "`agent.functions` and `default_functions`"),
]


def _resolve(schema: dict[str, Any], pointer: str) -> dict[str, Any]:
    node: Any = schema
    for part in pointer.lstrip("#/").split("/") if pointer != "#" else []:
        node = node[part]
    return dict(node)


def _code(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def _type(spec: dict[str, Any]) -> str:
    if "title" in spec:
        return str(spec["title"])
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[1]
        titles = {"contractSchema": "contract schema", "outputContract": "output contract"}
        title = titles.get(name, name)
        return f"[{title}](#{title.replace(' ', '-')})"
    if "const" in spec:
        return _code(spec["const"])
    if "enum" in spec:
        return " | ".join(_code(value) for value in spec["enum"])
    if "anyOf" in spec:
        return " or ".join(_type(option) for option in spec["anyOf"])
    if spec is False:
        return "(not allowed)"
    kind = spec.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array" and "items" in spec:
        return f"array of {_type(spec['items'])}"
    if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
        return f"object of {_type(spec['additionalProperties'])}"
    return str(kind or "any JSON")


def _limits(spec: dict[str, Any]) -> str:
    parts = []
    if "minimum" in spec or "maximum" in spec:
        parts.append(f"{spec.get('minimum', '')} to {spec.get('maximum', ''):,}".strip())
    for key, text in (
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
        ("minProperties", "at least {} key(s)"),
        ("maxProperties", "at most {:,} keys"),
    ):
        if key in spec:
            parts.append(text.format(spec[key]))
    if spec.get("uniqueItems"):
        parts.append("no repeats")
    if "pattern" in spec:
        parts.append(f"matches `{spec['pattern']}`")
    if "propertyNames" in spec:
        parts.append(f"keys match `{spec['propertyNames']['pattern']}`")
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(schema: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    required = set(spec.get("required", []))
    rows = ["| Key | Type | Default | Limits | Meaning |", "|---|---|---|---|---|"]
    for key, child in spec.get("properties", {}).items():
        if child is False:
            continue
        refs = [o["$ref"] for o in child.get("anyOf", []) if "$ref" in o] or [child.get("$ref")]
        target = _resolve(schema, refs[0]) if refs[0] else child
        meaning = child.get("description") or target.get("description", "")
        default = "required" if key in required else ""
        if "default" in child or "default" in target:
            default = _code(child.get("default", target.get("default")))
        elif not default:
            default = "absent"
        rows.append(
            f"| `{key}` | {_cell(_type(child))} | {_cell(default)} | "
            f"{_cell(_limits(child))} | {_cell(meaning)} |"
        )
    return rows


def reference(schema: dict[str, Any]) -> str:
    out: list[str] = []
    for title, pointer, where in SECTIONS:
        spec = _resolve(schema, pointer)
        out += [f"### {title}", "", f"*{where}.* {spec.get('description', '')}", ""]
        if "properties" in spec:
            out += _table(schema, spec)
        else:
            out += [f"One of: {_type(spec)}."]
        for rules in ("agentNodeRules", "waitNodeRules"):
            if pointer == "#/$defs/node":
                out += ["", f"- {schema['$defs'][rules]['description']}"]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def server_rules() -> str:
    out = ["| Rule | What the server checks |", "|---|---|"]
    out += [f"| {rule.name} | {_cell(rule.text)} |" for rule in definition.SERVER_RULES]
    return "\n".join(out) + "\n"


def generate() -> str:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    text = TEMPLATE.read_text(encoding="utf-8")
    header = (
        "<!-- Generated by `.venv/bin/python scripts/definitions_doc.py` from "
        "docs/definitions.template.md,\ndocs/definition.schema.json and "
        "praxis.core.definition.SERVER_RULES. Edit those. -->\n\n"
    )
    text = text.replace("{{reference}}\n", reference(schema))
    text = text.replace("{{server_rules}}\n", server_rules())
    return header + text


def main(argv: list[str]) -> int:
    page = generate()
    if "--check" in argv:
        if PAGE.read_text(encoding="utf-8") != page:
            sys.stderr.write("docs/definitions.md is stale: run scripts/definitions_doc.py\n")
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
