"""The stored form of a run snapshot: compact JSON, one array per node.

The definition is stored once per digest (``run_definitions``) and parsed once per
process; the snapshot names it by digest.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from praxis.core.definition import Definition
from praxis.core.run import NodeRun, NodeStatus, RunState, RunStatus

FORMAT = 1


def encode(state: RunState) -> str:
    """The snapshot's JSON (the version lives in its own column)."""
    return json.dumps(
        {
            "v": FORMAT,
            "s": state.status.value,
            "e": state.result_error,
            "rev": state.revision,
            "d": state.definition.digest,
            "t": [state.created_at_ms, state.updated_at_ms, state.finished_at_ms],
            "n": [_node(node) for node in state.nodes.values()],
            **({"r": state.result_reason} if state.result_reason else {}),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def _node(node: NodeRun) -> list[Any]:
    return [
        node.uid,
        node.node_id,
        node.item,
        node.status.value,
        node.attempts,
        node.attempt_id,
        node.worker_id,
        node.lease_expires_at_ms,
        node.deadline_ms,
        node.not_before_ms,
        node.error,
        node.has_result,
        node.revision,
        node.items,
        node.items_done,
        dict(node.arrays),
    ]


def decode(run_id: str, text: str, version: int, definition: Definition) -> RunState:
    """The snapshot of ``text``, with ``definition`` (looked up by the snapshot's digest)."""
    data = json.loads(text)
    if data.get("v") != FORMAT:
        raise ValueError(f"run {run_id}: unknown snapshot format {data.get('v')!r}")
    created, updated, finished = data["t"]
    nodes = {}
    for row in data["n"]:
        node = NodeRun(
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
        nodes[node.uid] = node
    return RunState(
        run_id=run_id,
        definition=definition,
        revision=data["rev"],
        nodes=nodes,
        status=RunStatus(data["s"]),
        result_error=data["e"],
        created_at_ms=created,
        updated_at_ms=updated,
        finished_at_ms=finished,
        version=version,
        result_reason=data.get("r", ""),
    )


class SnapshotCache:
    """Decoded snapshots of recently used runs, keyed by run id and version.

    Decoding a large run (a wide fan-out) dominates each of its commands; the version
    column identifies a snapshot's content (every write bumps it with a compare-and-swap),
    so a cached decode of the same version is the same state, whichever process wrote it.
    States are immutable, so sharing them is safe.
    """

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._states: OrderedDict[str, RunState] = OrderedDict()
        self._lock = threading.Lock()

    def decode(self, run_id: str, text: str, version: int, definition: Definition) -> RunState:
        """The state of ``text``, decoded once per (run, version, definition)."""
        with self._lock:
            found = self._states.get(run_id)
            if (
                found is not None
                and found.version == version
                and found.definition.digest == definition.digest
            ):
                self._states.move_to_end(run_id)
                return found
        state = decode(run_id, text, version, definition)
        self.remember(state)
        return state

    def remember(self, state: RunState) -> None:
        """Keeps a state just written (or read)."""
        with self._lock:
            self._states[state.run_id] = state
            self._states.move_to_end(state.run_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)
