"""Review material for a human: its fields, a diff of the definitions as indented JSON,
and a summary of the DAG change."""

from __future__ import annotations

import difflib
import json
from typing import Any

from aiws.engine.v1 import registry_pb2
from praxis_cli.commands.common import pretty_json, ref_text
from praxis_cli.output import to_dict
from praxis_client.conventions import enum_name


def _dependencies(spec: Any) -> set[str]:
    found: set[str] = set()
    if not isinstance(spec, dict):
        return found
    depends = spec.get("depends_on", [])
    if isinstance(depends, list):
        found.update(item for item in depends if isinstance(item, str))
    source = spec.get("input", {}).get("from") if isinstance(spec.get("input"), dict) else None
    for reference in source if isinstance(source, list) else [source]:
        if isinstance(reference, str) and reference.startswith("node:"):
            found.add(reference[5:].split(".", 1)[0])
    over = spec.get("fanout", {}).get("over") if isinstance(spec.get("fanout"), dict) else None
    if isinstance(over, str) and over.startswith("node:"):
        found.add(over[5:].split(".", 1)[0])
    return found


def _graph(definition_json: str) -> tuple[dict[str, Any], set[tuple[str, str]]]:
    try:
        document = json.loads(definition_json) if definition_json else {}
    except ValueError:
        document = {}
    nodes = document.get("nodes", {}) if isinstance(document, dict) else {}
    nodes = nodes if isinstance(nodes, dict) else {}
    edges = {(dep, node) for node, spec in nodes.items() for dep in _dependencies(spec)}
    return nodes, edges


def _output(definition_json: str) -> str:
    try:
        document = json.loads(definition_json) if definition_json else {}
    except ValueError:
        return ""
    output = document.get("output") if isinstance(document, dict) else None
    source = output.get("from") if isinstance(output, dict) else None
    return source if isinstance(source, str) else ""


def dag_change(base_json: str, candidate_json: str) -> dict[str, list[str]]:
    """Nodes added, removed and changed, edges added and removed, and the output moved."""
    base_nodes, base_edges = _graph(base_json)
    new_nodes, new_edges = _graph(candidate_json)
    before, after = _output(base_json), _output(candidate_json)
    return {
        "output_changed": [f"{before or '-'} -> {after}"] if before != after else [],
        "nodes_added": sorted(set(new_nodes) - set(base_nodes)),
        "nodes_removed": sorted(set(base_nodes) - set(new_nodes)),
        "nodes_changed": sorted(
            n for n in set(base_nodes) & set(new_nodes) if base_nodes[n] != new_nodes[n]
        ),
        "edges_added": [f"{a} -> {b}" for a, b in sorted(new_edges - base_edges)],
        "edges_removed": [f"{a} -> {b}" for a, b in sorted(base_edges - new_edges)],
    }


def definition_diff(material: registry_pb2.ReviewMaterial) -> list[str]:
    """A unified diff of the base and candidate definitions as indented JSON."""
    base = pretty_json(material.base_definition_json) if material.base_definition_json else ""
    candidate = pretty_json(material.candidate_definition_json)
    label = f"revision {material.base_revision}" if material.base_revision else "(none)"
    target = f"proposal {material.proposal_id}" if material.proposal_id else "candidate"
    return list(
        difflib.unified_diff(
            base.splitlines(), candidate.splitlines(), label, target, lineterm="", n=3
        )
    )


def show_material(ctx: Any, review: registry_pb2.ReviewResponse, extra: dict[str, Any]) -> None:
    """Prints review material: its fields, the diff, the DAG change and the digest."""
    material = review.material
    diff = definition_diff(material)
    change = dag_change(material.base_definition_json, material.candidate_definition_json)
    if ctx.out.as_json:
        ctx.out.json(
            {
                **extra,
                "material": to_dict(material),
                "material_digest": review.material_digest,
                "warnings": [to_dict(warning) for warning in review.warnings],
                "diff": diff,
                "dag_change": change,
            }
        )
        return
    rows = [
        (
            "action",
            enum_name(registry_pb2.RegistryAction.Name(material.action), "REGISTRY_ACTION_"),
        ),
        ("ref", ref_text(material.ref)),
        ("base", f"revision {material.base_revision} {material.base_digest}".strip()),
        ("candidate", f"revision {material.candidate_revision} {material.candidate_digest}"),
    ]
    if material.proposal_id:
        rows += [
            ("proposal", f"{material.proposal_id} {material.proposal_digest}"),
            ("proposed by", material.proposed_by),
        ]
    if material.reason:
        rows.append(("reason", material.reason))
    rows += [
        (
            "policies",
            ", ".join(f"{k}={v}" for k, v in sorted(material.policy_digests.items())) or "-",
        ),
        (
            "epochs",
            f"installation {material.installation_id}, ownership "
            f"{material.ownership_epoch}, authority {material.authority_epoch}",
        ),
    ]
    rows += [(name, value) for name, value in extra.items() if isinstance(value, str)]
    ctx.out.fields(rows)
    ctx.out.line()
    ctx.out.line("definition (base -> candidate):", "bold")
    for line in diff or ["(no difference)"]:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
        ctx.out.line(line, "bold " + style if line.startswith(("+++", "---")) else style)
    ctx.out.line()
    ctx.out.line("DAG change:", "bold")
    for name, items in change.items():
        ctx.out.line(f"  {name.replace('_', ' ')}: {', '.join(items) if items else '-'}")
    ctx.out.line()
    ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")
