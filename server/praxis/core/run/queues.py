"""The queue rows a state implies: a node's ready entry and its timer."""

from __future__ import annotations

from praxis.core.run.state import DECIDED, HOLDING, NodeRun, NodeStatus, RunState


def timer_due(node: NodeRun) -> int:
    """When a RUNNING or STOPPING node's lease or timeout falls due."""
    if node.deadline_ms:
        return min(node.lease_expires_at_ms, node.deadline_ms)
    return node.lease_expires_at_ms


def ready_entry(state: RunState, uid: str) -> tuple[str, int] | None:
    """``(model, not_before_ms)`` when the node is claimable; otherwise ``None``."""
    node = state.nodes.get(uid)
    if node is None or node.status is not NodeStatus.READY or state.status in DECIDED:
        return None
    return state.definition.nodes[node.node_id].agent.model, node.not_before_ms


RUN_TIMER = ""
"""The timer uid of the run's own deadline (never a node uid)."""


def timer_entry(state: RunState, uid: str) -> int | None:
    """When the node's schedule-to-start, running attempt or open wait falls due (for
    :data:`RUN_TIMER`, the run's deadline), or ``None``."""
    if uid == RUN_TIMER:
        live = state.deadline_ms and state.status not in DECIDED  # decided: no deadline
        return state.deadline_ms if live else None
    node = state.nodes.get(uid)
    if node is None:
        return None
    if node.status in (NodeStatus.WAITING, NodeStatus.READY):
        return node.deadline_ms or None
    if node.status not in HOLDING:
        return None
    return timer_due(node)
