"""What the tools answer: plain JSON-ready dicts built from the API's messages.

Enum values are short lower-case names (``completed``, ``pending``), documents are
parsed JSON values, and every list and free text is bounded (:mod:`praxis_mcp.limits`).
"""

from __future__ import annotations

import json
from typing import Any

from aiws.engine.v1 import (
    event_pb2,
    handoff_pb2,
    registry_pb2,
    run_pb2,
    task_pb2,
    wait_pb2,
    work_order_pb2,
)
from praxis_client.conventions import enum_name
from praxis_client.helpers import TERMINAL
from praxis_mcp.limits import MAX_NODES, clip

WAIT_OPEN = frozenset({wait_pb2.WAIT_STATE_NOT_OPEN, wait_pb2.WAIT_STATE_PENDING})

RUN_URI = "praxis://runs/{run_id}"
"""The MCP resource of a run (its :func:`run` summary); subscribe to hear when it changes."""
WAIT_URI = "praxis://waits/{wait_id}"
"""The MCP resource of a wait (its :func:`wait`); subscribe to hear when it is answered."""

REPLIES_URI = "praxis://replies"
"""The MCP resource of the agent's replies (:func:`reply`, runs started with ``reply``);
subscribe to hear when one arrives."""


def run_uri(run_id: str) -> str:
    """The resource URI of a run."""
    return RUN_URI.format(run_id=run_id)


def wait_uri(wait_id: str) -> str:
    """The resource URI of a wait."""
    return WAIT_URI.format(wait_id=wait_id)


def document(text: str) -> Any:
    """A ``*_json`` field as its value (``None`` when empty)."""
    return json.loads(text) if text else None


def label(enum: Any, value: int, prefix: str) -> str:
    """``RUN_STATE_COMPLETED`` as ``completed`` (:func:`enum_name`, in lower case); an
    unknown number (from a newer server) as its digits."""
    try:
        name: str = enum.Name(value)
    except ValueError:
        return str(value)
    return enum_name(name, prefix).lower()


def head(message: registry_pb2.Head) -> dict[str, Any]:
    """The active definition of a ref."""
    return {
        "work_order_id": message.ref.work_order_id,
        "run_id": message.ref.run_id,
        "revision": message.revision,
        "definition_digest": message.definition_digest,
        "definition": document(message.definition_json),
        "execution_binding": label(
            registry_pb2.ExecutionBinding, message.execution_binding, "EXECUTION_BINDING_"
        ),
        "bound_run_id": message.bound_run_id,
        "updated_at_ms": message.updated_at_ms,
    }


def ref_line(message: registry_pb2.Head) -> dict[str, Any]:
    """A ref as a listing shows it: its head's revision, not its definition (get_definition
    reads that)."""
    return {
        "work_order_id": message.ref.work_order_id,
        "run_id": message.ref.run_id,
        "revision": message.revision,
        "definition_digest": message.definition_digest,
        "execution_binding": label(
            registry_pb2.ExecutionBinding, message.execution_binding, "EXECUTION_BINDING_"
        ),
        "updated_at_ms": message.updated_at_ms,
    }


def proposal(message: registry_pb2.Proposal) -> dict[str, Any]:
    """A proposal and its review state (without its definition: the agent sent it)."""
    return {
        "work_order_id": message.ref.work_order_id,
        "run_id": message.ref.run_id,
        "proposal_id": message.proposal_id,
        "base_revision": message.base_revision,
        "candidate_digest": message.candidate_digest,
        "proposed_by": message.proposed_by,
        "summary": clip(message.summary),
        "state": label(registry_pb2.ProposalState, message.state, "PROPOSAL_STATE_"),
        "created_at_ms": message.created_at_ms,
        "decided_at_ms": message.decided_at_ms,
        "decided_by": message.decided_by,
        "activated_revision": message.activated_revision,
        "rejection_reason": clip(message.rejection_reason),
    }


def progress(message: run_pb2.AttemptProgress) -> dict[str, Any]:
    """The latest progress a node's attempt reported (heartbeat_task): its text, its data
    (a JSON value, or null) and when."""
    return {
        "text": message.text,
        "data": document(message.data_json) if message.data_json else None,
        "reported_at_ms": message.reported_at_ms,
    }


def run(message: run_pb2.Run) -> dict[str, Any]:
    """A run's state, its first :data:`MAX_NODES` nodes and, once it ended, its outcome."""
    nodes = [
        {
            "node_uid": node.node_uid,
            "state": label(run_pb2.NodeState, node.state, "NODE_STATE_"),
            "attempts": node.attempts,
            **({"error": clip(node.error)} if node.error else {}),
            **({"progress": progress(node.progress)} if node.HasField("progress") else {}),
        }
        for node in message.nodes[:MAX_NODES]
    ]
    summary: dict[str, Any] = {
        "run_id": message.run_id,
        "resource": run_uri(message.run_id),
        "state": label(run_pb2.RunState, message.state, "RUN_STATE_"),
        "ended": message.state in TERMINAL,
        "version": message.version,
        "work_order_id": message.work_order_id,
        "revision": message.revision,
        "started_by": message.started_by,
        "nodes": nodes,
        "nodes_omitted": max(0, len(message.nodes) - MAX_NODES),
        "node_count": message.node_count,
    }
    if message.ref.run_id:
        summary["ref"] = {"work_order_id": message.ref.work_order_id, "run_id": message.ref.run_id}
    if message.state == run_pb2.RUN_STATE_COMPLETED:
        summary["result"] = document(message.result_json)
    if message.result_reason or message.result_error:
        summary["result_reason"] = message.result_reason
        summary["result_error"] = clip(message.result_error)
    return summary


def task(message: task_pb2.Task) -> dict[str, Any]:
    """A claimed task: what to do, with what, by when, and the settings of its agent."""
    agent = message.agent
    return {
        "attempt_id": message.attempt_id,
        "run_id": message.run_id,
        "node_uid": message.node_uid,
        "attempt": message.attempt,
        "operation_id": message.operation_id,
        "model": agent.model,
        "provider": agent.provider,
        "system_prompt": agent.system_prompt,
        "functions": document(agent.functions_json),
        "output": document(agent.output_json),
        "template": message.template,
        "input": document(message.input_json),
        "effects": label(task_pb2.NodeEffects, message.effects, "NODE_EFFECTS_"),
        "deadline_ms": message.deadline_ms,
        "lease_expires_at_ms": message.lease_expires_at_ms,
    }


def run_line(message: run_pb2.Run) -> dict[str, Any]:
    """A run as a listing shows it: no nodes, no result (read them with get_run)."""
    line: dict[str, Any] = {
        "run_id": message.run_id,
        "resource": run_uri(message.run_id),
        "state": label(run_pb2.RunState, message.state, "RUN_STATE_"),
        "ended": message.state in TERMINAL,
        "version": message.version,
        "work_order_id": message.work_order_id,
        "started_by": message.started_by,
        "labels": dict(message.labels),
        "created_at_ms": message.created_at_ms,
    }
    if message.ref.run_id:
        line["ref"] = {"work_order_id": message.ref.work_order_id, "run_id": message.ref.run_id}
    return line


def wait(message: wait_pb2.Wait) -> dict[str, Any]:
    """A wait: what it asks (its question and choices), its state and, once satisfied,
    the answer and who gave it."""
    schema = document(message.schema_json)
    out: dict[str, Any] = {
        "wait_id": message.wait_id,
        "resource": wait_uri(message.wait_id),
        "run_id": message.run_id,
        "node_uid": message.node_uid,
        "kind": label(wait_pb2.WaitKind, message.kind, "WAIT_KIND_"),
        "state": label(wait_pb2.WaitState, message.state, "WAIT_STATE_"),
        "open": message.state in WAIT_OPEN,
        "question": clip(message.question),
        "choices": list(message.choices),
        "schema": schema,
        "opened_at_ms": message.opened_at_ms,
        "expires_at_ms": message.expires_at_ms,
    }
    if message.state == wait_pb2.WAIT_STATE_SATISFIED:
        out.update(
            answer=document(message.payload_json),
            satisfied_by=message.satisfied_by,
            satisfied_at_ms=message.satisfied_at_ms,
        )
    if message.state == wait_pb2.WAIT_STATE_DEFAULTED:
        out["answer"] = document(message.default_json)
    return out


def handoff(message: handoff_pb2.Handoff) -> dict[str, Any]:
    """A handoff of a node's outputs: from whom, of what work (the ref and revision the
    node ran under; no ref for an ad hoc run), and whether acknowledged."""
    return {
        "delivery_id": message.delivery_id,
        "run_id": message.run_id,
        "node_uid": message.node_uid,
        "from_principal_id": message.from_principal_id,
        "to_principal_id": message.to_principal_id,
        "outputs_digest": message.outputs_digest,
        "note": clip(message.note),
        "ref": (
            {"work_order_id": message.ref.work_order_id, "run_id": message.ref.run_id}
            if message.ref.run_id
            else None
        ),
        "revision": message.revision,
        "definition_digest": message.definition_digest,
        "state": label(handoff_pb2.HandoffState, message.state, "HANDOFF_STATE_"),
        "created_at_ms": message.created_at_ms,
        "acknowledged_at_ms": message.acknowledged_at_ms,
    }


def reply(message: event_pb2.Event) -> dict[str, Any]:
    """A run's reply (a ``RUN_REPLY`` event): the run's outcome and the reply's template."""
    posted = document(message.payload_json)
    posted = posted if isinstance(posted, dict) else {}
    return {
        "seq": message.seq,
        "run_id": message.run_id,
        "resource": run_uri(message.run_id),
        "status": str(posted.get("status", "")).removeprefix("RUN_STATE_").lower(),
        "result": posted.get("result"),
        "result_error": clip(str(posted.get("result_error") or "")),
        "result_reason": posted.get("result_reason", ""),
        "template": posted.get("template", ""),
        "delivery_id": posted.get("delivery_id", ""),
        "at_ms": message.at_ms,
    }


def work_order(message: work_order_pb2.WorkOrderRecord) -> dict[str, Any]:
    """A work order the agent may act in: its place in the tree, state and spend."""
    return {
        "work_order_id": message.work_order_id,
        "title": message.title,
        "parent_id": message.parent_id,
        "state": label(work_order_pb2.WorkOrderState, message.state, "WORK_ORDER_STATE_"),
        "state_from": message.state_from,
        "children": message.child_count,
        "spent_microcredits": message.spent_microcredits,
        "remaining_microcredits": message.remaining_microcredits or None,
        "actions": list(message.actions),
        "reserved_microcredits": message.reserved_microcredits or "0",
        "proposed_by": message.creator if message.proposed else None,
        "decided_by": message.decided_by or None,
        "decline_reason": message.decline_reason or None,
    }
