"""A workflow definition's DAG laid out for an SVG drawing, and the change between two.

The console reads definitions as the documents the API returns (JSON text); it does not
import the engine's core. A node depends on another through ``depends_on``, its
``input.from`` (``node:<id>`` or a list of them) and its ``fanout.over``. Nodes are laid
out in layers, left to right, by their longest path from a root.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

NODE_W = 168
NODE_H = 58  # three lines of label: the id, the state (or mark and kind), fan-out progress
LABEL_INSET_X = 8
LABEL_INSET_Y = 3
GAP_X = 56
GAP_Y = 22
MARGIN = 16
MAX_DRAWN_NODES = 400


@dataclass(frozen=True)
class Node:
    """One node as drawn: its id, kind and box; ``mark`` is added/removed/changed or ''."""

    node_id: str
    kind: str
    fanout: bool
    x: int
    y: int
    mark: str = ""


@dataclass(frozen=True)
class Edge:
    """One dependency, as an SVG path from ``source`` to ``target``."""

    source: str
    target: str
    path: str


@dataclass(frozen=True)
class Graph:
    """A laid-out DAG; ``truncated`` when it had more than :data:`MAX_DRAWN_NODES`."""

    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    width: int
    height: int
    truncated: bool = False
    has_edges: bool = True
    node_w: int = NODE_W
    node_h: int = NODE_H
    label_x: int = LABEL_INSET_X
    label_y: int = LABEL_INSET_Y


@dataclass(frozen=True)
class Change:
    """Nodes and edges added, removed and changed between a base and a candidate."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]
    edges_added: tuple[tuple[str, str], ...]
    edges_removed: tuple[tuple[str, str], ...]


def parse_nodes(definition_json: str) -> dict[str, dict[str, Any]]:
    """The ``nodes`` object of a definition document ({} when absent or unreadable)."""
    if not definition_json:
        return {}
    try:
        document = json.loads(definition_json)
    except ValueError:
        return {}
    nodes = document.get("nodes") if isinstance(document, dict) else None
    if not isinstance(nodes, dict):
        return {}
    return {str(k): v for k, v in nodes.items() if isinstance(v, dict)}


def dependencies(node: dict[str, Any]) -> list[str]:
    """The ids of the nodes ``node`` reads or waits for, in a stable order."""
    found: list[str] = []
    depends_on = node.get("depends_on")
    if isinstance(depends_on, list):
        found += [d for d in depends_on if isinstance(d, str)]
    source = node.get("input", {}).get("from") if isinstance(node.get("input"), dict) else None
    for ref in source if isinstance(source, list) else [source]:
        if isinstance(ref, str) and ref.startswith("node:"):
            found.append(ref[len("node:") :].split(".", 1)[0])
    fanout = node.get("fanout")
    over = fanout.get("over") if isinstance(fanout, dict) else None
    if isinstance(over, str) and over.startswith("node:"):
        found.append(over[len("node:") :].split(".", 1)[0])
    return list(dict.fromkeys(found))


def layout(nodes: dict[str, dict[str, Any]], marks: dict[str, str] | None = None) -> Graph:
    """Lays out a definition's nodes in dependency layers, left to right."""
    marks = marks or {}
    ids = list(nodes)[:MAX_DRAWN_NODES]
    known = set(ids)
    deps = {n: [d for d in dependencies(nodes[n]) if d in known and d != n] for n in ids}
    layer = _layers(ids, deps)
    rows: dict[int, int] = {}
    placed: dict[str, Node] = {}
    for node_id in ids:
        column = layer[node_id]
        row = rows.get(column, 0)
        rows[column] = row + 1
        spec = nodes[node_id]
        placed[node_id] = Node(
            node_id=node_id,
            kind=str(spec.get("kind", "agent")),
            fanout=isinstance(spec.get("fanout"), dict),
            x=MARGIN + column * (NODE_W + GAP_X),
            y=MARGIN + row * (NODE_H + GAP_Y),
            mark=marks.get(node_id, ""),
        )
    edges = tuple(
        Edge(dep, node_id, _path(placed[dep], placed[node_id]))
        for node_id in ids
        for dep in deps[node_id]
    )
    columns = max(layer.values(), default=0) + 1
    height_rows = max(rows.values(), default=1)
    return Graph(
        nodes=tuple(placed.values()),
        edges=edges,
        width=2 * MARGIN + columns * NODE_W + (columns - 1) * GAP_X,
        height=2 * MARGIN + height_rows * NODE_H + (height_rows - 1) * GAP_Y,
        truncated=len(nodes) > MAX_DRAWN_NODES,
    )


def layout_without_edges(node_ids: list[str]) -> Graph:
    """Nodes known only by id (the API gave no definition): one row, no edges."""
    graph = layout({node_id: {} for node_id in node_ids})
    return Graph(graph.nodes, (), graph.width, graph.height, graph.truncated, has_edges=False)


def change(base: dict[str, dict[str, Any]], candidate: dict[str, dict[str, Any]]) -> Change:
    """What a candidate adds, removes and changes against its base."""
    added = tuple(n for n in candidate if n not in base)
    removed = tuple(n for n in base if n not in candidate)
    changed = tuple(
        n for n in candidate if n in base and _canonical(base[n]) != _canonical(candidate[n])
    )
    base_edges = _edges(base)
    candidate_edges = _edges(candidate)
    return Change(
        added=added,
        removed=removed,
        changed=changed,
        edges_added=tuple(e for e in candidate_edges if e not in base_edges),
        edges_removed=tuple(e for e in base_edges if e not in candidate_edges),
    )


def _edges(nodes: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    return [(d, n) for n in nodes for d in dependencies(nodes[n]) if d in nodes]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _layers(ids: list[str], deps: dict[str, list[str]]) -> dict[str, int]:
    """Longest path from a root, iteratively (a cycle, which the engine refuses, is cut)."""
    layer: dict[str, int] = {}
    for start in ids:
        stack = [(start, False)]
        visiting: set[str] = set()
        while stack:
            node_id, expanded = stack.pop()
            if node_id in layer:
                continue
            if expanded:
                visiting.discard(node_id)
                layer[node_id] = 1 + max(
                    (layer.get(d, 0) for d in deps[node_id] if d in layer), default=-1
                )
                continue
            visiting.add(node_id)
            stack.append((node_id, True))
            stack += [(d, False) for d in deps[node_id] if d not in layer and d not in visiting]
    return layer


def _path(source: Node, target: Node) -> str:
    x1, y1 = source.x + NODE_W, source.y + NODE_H // 2
    x2, y2 = target.x, target.y + NODE_H // 2
    middle = (x1 + x2) // 2
    return f"M{x1},{y1} C{middle},{y1} {middle},{y2} {x2},{y2}"
