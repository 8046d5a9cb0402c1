"""The state of a run: statuses, effects, its nodes (:class:`NodeRun`), the snapshot
(:class:`RunState`), attempts and events."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

import immutables

from praxis.core import money, values
from praxis.core.definition import Definition


class _Status(enum.Enum):
    """An enum hashed by identity, as it compares: ``enum.Enum`` hashes its name in
    Python, and the reducer hashes statuses dozens of times a command (tally keys, sets)."""

    __hash__ = object.__hash__


class RunStatus(_Status):
    """Lifecycle of a run.

    ``COMPLETING``, ``FAILING`` and ``CANCELLING`` are a run whose outcome is decided
    (its output finished, it failed, it was stopped) while work it started is still
    unsettled: attempts asked to stop (STOPPING nodes), and for ``COMPLETING`` also
    uncertain effects awaiting a reconciliation (BLOCKED nodes). It ends as the
    matching terminal status once each has settled (:data:`ENDS_AS`).
    """

    RUNNING = "RUNNING"
    AWAITING_NODES = "AWAITING_NODES"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"
    COMPLETING = "COMPLETING"
    FAILING = "FAILING"
    CANCELLING = "CANCELLING"


TERMINAL = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED})
ENDS_AS: Mapping[RunStatus, RunStatus] = {
    RunStatus.COMPLETING: RunStatus.COMPLETED,
    RunStatus.FAILING: RunStatus.FAILED,
    RunStatus.CANCELLING: RunStatus.CANCELLED,
}
"""Each ending status and the terminal status it becomes once nothing is unsettled."""
ENDING = frozenset(ENDS_AS)
DECIDED = TERMINAL | ENDING
"""A run whose outcome is decided: no node is dispatched, promoted or retried."""


class NodeStatus(_Status):
    """Lifecycle of a node or fan-out item."""

    PENDING = "PENDING"
    READY = "READY"
    RUNNING = "RUNNING"
    DONE = "DONE"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"
    BLOCKED = "BLOCKED"
    EXPANDED = "EXPANDED"
    WAITING = "WAITING"
    STOPPING = "STOPPING"
    """A running attempt asked to stop (its run ended or its fan-out group was
    cancelled): heartbeats answer ``cancelled``, and the worker's report still settles
    the node until the lease runs out."""


LIVE = frozenset(
    {
        NodeStatus.PENDING,
        NodeStatus.READY,
        NodeStatus.RUNNING,
        NodeStatus.BLOCKED,
        NodeStatus.EXPANDED,
        NodeStatus.WAITING,
        NodeStatus.STOPPING,
    }
)
HOLDING = frozenset({NodeStatus.RUNNING, NodeStatus.STOPPING})
"""The statuses of a node whose attempt is live: leased to a worker, reserving its cost."""
STARTING = frozenset({NodeStatus.RUNNING, NodeStatus.WAITING, NodeStatus.EXPANDED})
"""Entering one of these starts a node (``NodeRun.started_at_ms``), once."""


class AttemptStatus(_Status):
    """What became of one attempt."""

    LIVE = "LIVE"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    EXPIRED = "EXPIRED"
    TIMED_OUT = "TIMED_OUT"
    CANCELLED = "CANCELLED"


class Effect(_Status):
    """What a worker observed of an attempt's external effect."""

    APPLIED = "APPLIED"
    NOT_APPLIED = "NOT_APPLIED"
    UNCERTAIN = "UNCERTAIN"


@dataclass(frozen=True)
class NodeRun:
    """One node or fan-out item within a run.

    Attributes:
        uid: ``node_id`` or ``node_id#i``.
        item: The item index, or -1 for a plain node.
        attempts: Attempts dispatched so far.
        attempt_id: The current or last attempt.
        lease_expires_at_ms: The live attempt's lease expiry (0 when none).
        deadline_ms: The live attempt's timeout (0 when none).
        not_before_ms: Earliest dispatch of the next attempt (retry backoff).
        items: For a fan-out node, the number of items it expanded into.
        items_done: For a fan-out node, items finished so far.
        arrays: For a fan-out source, each probed path's array length or why it has none.
        deadline_ms: RUNNING: the live attempt's timeout; WAITING: the wait's expiry;
            READY: its schedule-to-start deadline (0 when none).
        started_at_ms: When it first became RUNNING, WAITING or EXPANDED (0 before).
        finished_at_ms: When it became DONE, FAILED or CANCELLED (0 while live).
        operation: The node's operation generation: 0 at first, one more each time a
            resume runs it again after an effect that was not settled as not applied
            (:func:`praxis.core.run.operation_id`).
        attempt_base: The attempts made before the latest resume (its retry policy
            counts the attempts after it).
        effect: The effect of its last settled attempt as reported or reconciled
            (``APPLIED``, ``NOT_APPLIED``, ``UNCERTAIN``; ``""`` when none was).
    """

    uid: str
    node_id: str
    item: int = -1
    status: NodeStatus = NodeStatus.PENDING
    attempts: int = 0
    attempt_id: str = ""
    worker_id: str = ""
    lease_expires_at_ms: int = 0
    deadline_ms: int = 0
    not_before_ms: int = 0
    error: str = ""
    has_result: bool = False
    revision: int = 0
    items: int = 0
    items_done: int = 0
    arrays: Mapping[str, int | str] = field(default_factory=dict)
    started_at_ms: int = 0
    finished_at_ms: int = 0
    operation: int = 0
    attempt_base: int = 0
    effect: str = ""

    @property
    def dispatched(self) -> bool:
        """True once an attempt ran or the node expanded or finished."""
        return self.attempts > 0 or self.status not in (NodeStatus.PENDING, NodeStatus.READY)


Tally = immutables.Map[tuple[str, NodeStatus], int]
"""Node counts by ``(node_id, status)``, items included; ``node_id`` ``""`` is the total
and :data:`REQUIRED` the total over the nodes that decide the outcome."""

REQUIRED = "\x00required"  # never a node id (node ids are identifiers)


@dataclass(frozen=True)
class RunState:
    """The snapshot of one run.

    ``nodes`` is a persistent map (a HAMT): a command copies only the paths it changes,
    so applying a command costs the same whatever the run's size. Its iteration order is
    not meaningful: :func:`ordered_uids` gives definition-then-item order. ``tally``
    counts nodes by node id and status and ``timed`` holds the uids that are RUNNING or
    WAITING; both are maintained by every change (and derived from ``nodes`` when a
    state is built without them), so that settling and expiry never scan every node.
    """

    run_id: str
    definition: Definition
    revision: int
    nodes: immutables.Map[str, NodeRun]
    status: RunStatus = RunStatus.RUNNING
    result_error: str = ""
    created_at_ms: int = 0
    updated_at_ms: int = 0
    finished_at_ms: int = 0
    version: int = 0
    result_reason: str = ""
    deadline_ms: int = 0
    """When the run fails with DEADLINE_EXCEEDED unless it ended (0: no deadline): the
    earlier of its own deadline and its contract's."""
    tally: Tally | None = field(default=None, compare=False, repr=False)
    timed: immutables.Map[str, bool] | None = field(default=None, compare=False, repr=False)
    reserved: Decimal | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        nodes = self.nodes
        if not isinstance(nodes, immutables.Map):
            nodes = immutables.Map(nodes)
            object.__setattr__(self, "nodes", nodes)
        if self.tally is None or self.timed is None or self.reserved is None:
            tally: dict[tuple[str, NodeStatus], int] = {}
            timed: dict[str, bool] = {}
            reserved = money.ZERO
            required = self.definition.required
            for node in nodes.values():
                for key in node_keys(node, required):
                    tally[key] = tally.get(key, 0) + 1
                if node.status in TIMED:
                    timed[node.uid] = True
                if node.status in HOLDING:
                    reserved = money.add(reserved, reservation(self.definition, node.node_id))
            object.__setattr__(self, "tally", immutables.Map(tally))
            object.__setattr__(self, "timed", immutables.Map(timed))
            object.__setattr__(self, "reserved", reserved)

    def count(self, status: NodeStatus, node_id: str = "") -> int:
        """How many nodes and items (of ``node_id``, or of the run) have ``status``."""
        assert self.tally is not None
        return self.tally.get((node_id, status), 0)


TIMED = frozenset({NodeStatus.READY, NodeStatus.RUNNING, NodeStatus.WAITING, NodeStatus.STOPPING})
"""The statuses whose nodes may have a timer: schedule-to-start, lease and timeout, wait
expiry."""


def node_keys(node: NodeRun, required: frozenset[str]) -> tuple[tuple[str, NodeStatus], ...]:
    """The tally keys a node counts under."""
    if node.node_id in required:
        return ((node.node_id, node.status), ("", node.status), (REQUIRED, node.status))
    return ((node.node_id, node.status), ("", node.status))


def ordered_uids(
    definition: Definition,
    nodes: Mapping[str, NodeRun] | immutables.MapMutation[str, NodeRun],
) -> list[str]:
    """Every uid in definition order, each fan-out node followed by its items in order."""
    uids: list[str] = []
    for node_id in definition.nodes:
        node = nodes.get(node_id)
        if node is None:
            continue
        uids.append(node_id)
        uids.extend(item_uid(node_id, index) for index in range(node.items))
    return uids


def order_key(definition: Definition) -> Callable[[str], tuple[int, int]]:
    """A sort key putting uids in definition-then-item order."""
    positions = {node_id: index for index, node_id in enumerate(definition.nodes)}

    def key(uid: str) -> tuple[int, int]:
        node_id, _, item = uid.partition("#")
        return positions.get(node_id, len(positions)), int(item) if item else -1

    return key


@dataclass(frozen=True)
class Attempt:
    """The durable record of one attempt (its settlement makes retries idempotent)."""

    attempt_id: str
    run_id: str
    node_uid: str
    number: int
    worker_id: str
    status: AttemptStatus = AttemptStatus.LIVE
    payload_digest: str = ""
    will_retry: bool = False
    effect: str = ""
    cost_microcredits: str = "0"
    at_ms: int = 0
    principal_id: str = ""
    """The principal whose claim leased the attempt ('' for attempts older than that)."""


EVENT_KINDS: frozenset[str] = frozenset(
    {
        "RUN_STARTED",
        "NODE_DISPATCHED",
        "NODE_COMPLETED",
        "NODE_FAILED",
        "NODE_EXPANDED",
        "RUN_COMPLETED",
        "RUN_FAILED",
        "RUN_CANCELLED",
        "RUN_REVISED",
        "NODE_BLOCKED",
        "NODE_WAITING",
        "WAIT_SATISFIED",
        "WAIT_EXPIRED",
        "NODE_RECONCILED",
        "DISPATCH_REFUSED",
        "RUN_REPLY",
        "NODE_UNCLAIMED",
        "RUN_RESUMED",
        "NODE_RETURNED",
        "RUN_ENDING",
    }
)
"""Every kind of run event (``EventKind`` on the wire is ``EVENT_KIND_`` + the kind)."""


@dataclass(frozen=True)
class Event:
    """A run event to append (the store assigns its sequence number)."""

    kind: str
    node_uid: str = ""
    payload: Mapping[str, values.JsonValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:  # every kind has its EventKind on the wire
            raise ValueError(f"unknown run event kind {self.kind!r}")


def reservation(definition: Definition, node_id: str) -> Decimal:
    """What an attempt of ``node_id`` reserves while it runs: its declared maximum cost.

    The store keeps the same amount per running attempt, against the run's contract and
    against the principal that started the run (:mod:`praxis.store.runtime.rows.reservations`), so
    that dispatch counts other runs' reserves too.
    """
    return Decimal(definition.nodes[node_id].max_cost or "0")


def item_uid(node_id: str, index: int) -> str:
    """The uid of fan-out item ``index`` of ``node_id``."""
    return f"{node_id}#{index}"
