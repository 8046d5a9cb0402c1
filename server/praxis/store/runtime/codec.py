"""The stored form of a run: a summary row plus one row per node and fan-out item.

The definition is stored once per digest (``run_definitions``) and parsed once per
process; the run row names it by digest. :func:`node_row` and :func:`node_of` convert
one :class:`~praxis.core.run.NodeRun` to and from its ``run_nodes`` row;
:func:`legacy_snapshot` reads the single-JSON snapshot format that runs were stored in
before migration 7 (``runs.state_json``), for that migration.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import immutables

from praxis.core.definition import Definition
from praxis.core.run import NodeRun, NodeStatus, RunState, RunStatus

LEGACY_FORMAT = 1
_NO_ARRAYS = "{}"


def node_row(run_id: str, node: NodeRun) -> dict[str, Any]:
    """The ``run_nodes`` row of one node."""
    return {
        "run_id": run_id,
        "node_uid": node.uid,
        "node_id": node.node_id,
        "item": node.item,
        "status": node.status.value,
        "attempts": node.attempts,
        "attempt_id": node.attempt_id,
        "worker_id": node.worker_id,
        "lease_expires_at_ms": node.lease_expires_at_ms,
        "deadline_ms": node.deadline_ms,
        "not_before_ms": node.not_before_ms,
        "error": node.error,
        "has_result": int(node.has_result),
        "revision": node.revision,
        "items": node.items,
        "items_done": node.items_done,
        "arrays_json": json.dumps(dict(node.arrays), separators=(",", ":"), ensure_ascii=False)
        if node.arrays
        else _NO_ARRAYS,
        "started_at_ms": node.started_at_ms,
        "finished_at_ms": node.finished_at_ms,
        "operation": node.operation,
        "attempt_base": node.attempt_base,
        "effect": node.effect,
    }


def node_of(row: Any) -> NodeRun:
    """The node of a ``run_nodes`` row."""
    return NodeRun(
        uid=row.node_uid,
        node_id=row.node_id,
        item=row.item,
        status=NodeStatus(row.status),
        attempts=row.attempts,
        attempt_id=row.attempt_id,
        worker_id=row.worker_id,
        lease_expires_at_ms=row.lease_expires_at_ms,
        deadline_ms=row.deadline_ms,
        not_before_ms=row.not_before_ms,
        error=row.error,
        has_result=bool(row.has_result),
        revision=row.revision,
        items=row.items,
        items_done=row.items_done,
        arrays=json.loads(row.arrays_json) if row.arrays_json != _NO_ARRAYS else {},
        started_at_ms=row.started_at_ms,
        finished_at_ms=row.finished_at_ms,
        operation=row.operation,
        attempt_base=row.attempt_base,
        effect=row.effect,
    )


def state_of(row: Any, definition: Definition, nodes: Iterable[NodeRun]) -> RunState:
    """The state of a ``runs`` row and its nodes (all of them, or a partial view)."""
    return RunState(
        run_id=row.run_id,
        definition=definition,
        revision=row.revision,
        nodes=immutables.Map((node.uid, node) for node in nodes),
        status=RunStatus(row.status),
        result_error=row.result_error,
        created_at_ms=row.created_at_ms,
        updated_at_ms=row.updated_at_ms,
        finished_at_ms=row.finished_at_ms,
        version=row.version,
        result_reason=row.result_reason,
        deadline_ms=row.deadline_ms,
    )


def legacy_snapshot(run_id: str, text: str) -> tuple[str, list[NodeRun]]:
    """``(result_reason, nodes)`` of a snapshot stored before migration 7."""
    data = json.loads(text)
    if data.get("v") != LEGACY_FORMAT:
        raise ValueError(f"run {run_id}: unknown snapshot format {data.get('v')!r}")
    nodes = [
        NodeRun(
            uid=row[0],
            node_id=row[1],
            item=row[2],
            status=NodeStatus(row[3]),
            attempts=row[4],
            attempt_id=row[5],
            worker_id=row[6],
            lease_expires_at_ms=row[7],
            deadline_ms=row[8],
            not_before_ms=row[9],
            error=row[10],
            has_result=row[11],
            revision=row[12],
            items=row[13],
            items_done=row[14],
            arrays=row[15],
        )
        for row in data["n"]
    ]
    return data.get("r", ""), nodes
