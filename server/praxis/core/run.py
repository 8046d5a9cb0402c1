"""The run reducer: ``apply(state, command, now) -> Outcome | Rejection``.

A :class:`RunState` is the compact snapshot of one run: its definition, revision and one
:class:`NodeRun` per node and fan-out item. Commands (:class:`Start`, :class:`Dispatch`,
:class:`Heartbeat`, :class:`Complete`, :class:`Fail`, :class:`Expire`, :class:`Stop`,
:class:`Revise`) each have one handler. An :class:`Outcome` holds the next state, the
events to append, the node uids whose queue rows must be re-synced, the attempt records
to upsert and the result to store. Nothing here reads a clock, a database or the network;
attempt and operation ids are derived from (run, node uid, attempt number).

Semantics (SPEC section 6): only the output node and its transitive dependencies decide
the outcome; other branches are cancelled when the run ends. A fan-out freezes its array
when it expands (the source result is immutable); an empty fan-out completes at once; a
fan-out over a non-array fails the fan-out node with a reason naming node and path.
Failed retryable attempts, expired leases and timeouts retry with exponential backoff up
to the node's budget. Expiry compares absolute times, so a clock that steps backwards
delays expiry and never brings it forward.

Execution model (SPEC section 7): a :class:`Dispatch` carries the run's
:class:`~praxis.core.contract.Allowance`; an attempt that would exceed the budget, the
spending cap or the deadline is not dispatched, and the node fails with the reason in
``RunState.result_reason``. An attempt settled with an ``UNCERTAIN`` effect leaves its
node BLOCKED, which blocks the run's completion, until a :class:`Reconcile` records a
reviewed decision: NOT_APPLIED retries under the same operation id, APPLIED settles.
Wait nodes open as WAITING with an expiry; :class:`SatisfyWait` completes them with a
validated payload, and :class:`Expire` fails them or takes their default at (never
before) the expiry.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import immutables

from praxis.core import contract, jsonschema, money, values
from praxis.core.definition import DEFAULT_LIMITS, Definition, Limits, Node
from praxis.core.rejection import Code, FieldViolation, Rejection, not_found, precondition


class RunStatus(enum.Enum):
    """Lifecycle of a run."""

    RUNNING = "RUNNING"
    AWAITING_NODES = "AWAITING_NODES"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


TERMINAL = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED})


class NodeStatus(enum.Enum):
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


LIVE = frozenset(
    {
        NodeStatus.PENDING,
        NodeStatus.READY,
        NodeStatus.RUNNING,
        NodeStatus.BLOCKED,
        NodeStatus.EXPANDED,
        NodeStatus.WAITING,
    }
)
_STARTING = frozenset({NodeStatus.RUNNING, NodeStatus.WAITING, NodeStatus.EXPANDED})
"""Entering one of these starts a node (``NodeRun.started_at_ms``), once."""


class AttemptStatus(enum.Enum):
    """What became of one attempt."""

    LIVE = "LIVE"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    EXPIRED = "EXPIRED"
    TIMED_OUT = "TIMED_OUT"
    CANCELLED = "CANCELLED"


class Effect(enum.Enum):
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
        started_at_ms: When it first became RUNNING, WAITING or EXPANDED (0 before).
        finished_at_ms: When it became DONE, FAILED or CANCELLED (0 while live).
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
                for key in _keys(node, required):
                    tally[key] = tally.get(key, 0) + 1
                if node.status in _TIMED:
                    timed[node.uid] = True
                if node.status is NodeStatus.RUNNING:
                    reserved = money.add(reserved, reservation(self.definition, node.node_id))
            object.__setattr__(self, "tally", immutables.Map(tally))
            object.__setattr__(self, "timed", immutables.Map(timed))
            object.__setattr__(self, "reserved", reserved)

    def count(self, status: NodeStatus, node_id: str = "") -> int:
        """How many nodes and items (of ``node_id``, or of the run) have ``status``."""
        assert self.tally is not None
        return self.tally.get((node_id, status), 0)


_TIMED = frozenset({NodeStatus.RUNNING, NodeStatus.WAITING})


def _keys(node: NodeRun, required: frozenset[str]) -> tuple[tuple[str, NodeStatus], ...]:
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


@dataclass(frozen=True)
class Event:
    """A run event to append (the store assigns its sequence number)."""

    kind: str
    node_uid: str = ""
    payload: Mapping[str, values.JsonValue] = field(default_factory=dict)


# --- commands -------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """Create a run."""

    run_id: str
    definition: Definition
    revision: int = 0


@dataclass(frozen=True)
class Dispatch:
    """Lease a READY node to a worker, within the run's allowance (if it has one)."""

    uid: str
    worker_id: str
    lease_ms: int
    allowance: contract.Allowance | None = None
    principal_id: str = ""
    """The claiming principal, recorded on the attempt."""
    input_bytes: int = 0
    """The size of the node's gathered input; over ``Limits.max_input_bytes`` the node
    fails with INPUT_TOO_LARGE instead of being leased."""


@dataclass(frozen=True)
class Heartbeat:
    """Extend the lease of a live attempt."""

    attempt: Attempt
    worker_id: str
    lease_ms: int


@dataclass(frozen=True)
class Complete:
    """Settle an attempt with a result."""

    attempt: Attempt
    worker_id: str
    result: values.JsonValue
    effect: Effect
    cost_microcredits: str = "0"


@dataclass(frozen=True)
class Fail:
    """Settle an attempt as failed."""

    attempt: Attempt
    worker_id: str
    error: str
    retryable: bool
    effect: Effect
    cost_microcredits: str = "0"


@dataclass(frozen=True)
class Expire:
    """Expire leases and timeouts that are due at ``now``."""


@dataclass(frozen=True)
class Stop:
    """Cancel the run and its live attempts."""

    reason: str


@dataclass(frozen=True)
class Revise:
    """Apply a new revision to the nodes not yet dispatched.

    Attributes:
        source_results: Results of finished nodes that new fan-outs read
            (see :func:`revision_sources`).
    """

    definition: Definition
    revision: int
    source_results: Mapping[str, values.JsonValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Reconcile:
    """Record a reviewed decision about the uncertain effect of a BLOCKED node's attempt.

    Attributes:
        uid: The blocked node.
        attempt_id: The attempt whose effect was uncertain.
        applied: The decision: the effect was applied (settle) or not (retry).
        result: The attempt's result when it completed; ``None`` when it failed.
        completed: Whether the attempt completed (``True``) or failed.
    """

    uid: str
    attempt_id: str
    applied: bool
    result: values.JsonValue = None
    completed: bool = False


@dataclass(frozen=True)
class SatisfyWait:
    """Satisfy a WAITING node with a payload (validated against the wait's schema)."""

    uid: str
    payload: values.JsonValue


Command = (
    Start
    | Dispatch
    | Heartbeat
    | Complete
    | Fail
    | Expire
    | Stop
    | Revise
    | Reconcile
    | SatisfyWait
)


@dataclass(frozen=True)
class Reply:
    """What the caller of a command learns beyond the new state."""

    replayed: bool = False
    will_retry: bool = False
    cancelled: bool = False
    lease_expires_at_ms: int = 0


@dataclass(frozen=True)
class Outcome:
    """Everything one command writes."""

    state: RunState
    events: tuple[Event, ...] = ()
    changed: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    attempts: tuple[Attempt, ...] = ()
    result: tuple[str, values.JsonValue] | None = None
    reply: Reply = Reply()
    noop: bool = False


# --- ids ------------------------------------------------------------------------------


def attempt_id(run_id: str, uid: str, number: int) -> str:
    """The deterministic id of attempt ``number`` of node ``uid`` in ``run_id``."""
    text = f"attempt\x00{run_id}\x00{uid}\x00{number}"
    return "att_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def operation_id(run_id: str, uid: str) -> str:
    """The operation id of node ``uid``: stable across its retries."""
    text = f"operation\x00{run_id}\x00{uid}"
    return "op_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def item_uid(node_id: str, index: int) -> str:
    """The uid of fan-out item ``index`` of ``node_id``."""
    return f"{node_id}#{index}"


# --- the working copy -----------------------------------------------------------------


class _Work:
    """A mutable copy of a state while one command is applied."""

    def __init__(self, state: RunState, now: int, limits: Limits) -> None:
        self.state = state
        self.definition = state.definition
        self.nodes = state.nodes.mutate()
        assert state.tally is not None and state.timed is not None
        self.tally = state.tally.mutate()
        self.timed = state.timed.mutate()
        assert state.reserved is not None
        self.reserved = state.reserved
        self.status = state.status
        self.result_error = state.result_error
        self.finished_at = state.finished_at_ms
        self.revision = state.revision
        self.now = now
        self.limits = limits
        self.events: list[Event] = []
        self.changed: set[str] = set()
        self.removed: set[str] = set()
        self.attempts: list[Attempt] = []
        self.result: tuple[str, values.JsonValue] | None = None
        self.reason = state.result_reason

    def set(self, node: NodeRun) -> None:
        old = self.nodes.get(node.uid)
        if old is not None:
            if old.status is node.status:
                self.nodes[node.uid] = node
                self.changed.add(node.uid)
                return
            self._count(old, -1)
        node = self._timed(node)
        self._count(node, 1)
        self.nodes[node.uid] = node
        self.changed.add(node.uid)

    def _timed(self, node: NodeRun) -> NodeRun:
        """The node with its start and end times after a change of status."""
        started = node.started_at_ms or (self.now if node.status in _STARTING else 0)
        finished = 0 if node.status in LIVE else node.finished_at_ms or self.now
        if started == node.started_at_ms and finished == node.finished_at_ms:
            return node
        return replace(node, started_at_ms=started, finished_at_ms=finished)

    def remove(self, uid: str) -> None:
        old = self.nodes.get(uid)
        if old is not None:
            self._count(old, -1)
            del self.nodes[uid]
            self.removed.add(uid)

    def _count(self, node: NodeRun, delta: int) -> None:
        for key in _keys(node, self.definition.required):
            self._add(key, delta)
        if node.status in _TIMED:
            if delta > 0:
                self.timed[node.uid] = True
            else:
                del self.timed[node.uid]
        if node.status is NodeStatus.RUNNING:
            # A running node's spec never changes (a revision that would is refused), so
            # what it reserved is what it releases.
            amount = reservation(self.definition, node.node_id)
            if delta > 0:
                self.reserved = money.add(self.reserved, amount)
            else:
                self.reserved = money.subtract(self.reserved, amount)

    def _add(self, key: tuple[str, NodeStatus], delta: int) -> None:
        total = self.tally.get(key, 0) + delta
        if total:
            self.tally[key] = total
        else:
            del self.tally[key]

    def recount_required(self) -> None:
        """Recounts the :data:`REQUIRED` tally after the definition changed (O(nodes))."""
        for status in NodeStatus:
            if (REQUIRED, status) in self.tally:
                del self.tally[(REQUIRED, status)]
        required = self.definition.required
        for uid in ordered_uids(self.definition, self.nodes):
            node = self.nodes[uid]
            if node.node_id in required:
                self._add((REQUIRED, node.status), 1)

    def count(self, status: NodeStatus, node_id: str = "") -> int:
        return self.tally.get((node_id, status), 0)

    def emit(self, kind: str, uid: str = "", **payload: values.JsonValue) -> None:
        self.events.append(Event(kind, uid, payload))

    def spec(self, node: NodeRun) -> Node:
        return self.definition.nodes[node.node_id]

    def outcome(self, reply: Reply = Reply()) -> Outcome:
        state = RunState(
            run_id=self.state.run_id,
            definition=self.definition,
            revision=self.revision,
            nodes=self.nodes.finish(),
            status=self.status,
            result_error=self.result_error,
            created_at_ms=self.state.created_at_ms or self.now,
            updated_at_ms=max(self.now, self.state.updated_at_ms),
            finished_at_ms=self.finished_at,
            version=self.state.version + 1,
            result_reason=self.reason if self.status is RunStatus.FAILED else "",
            tally=self.tally.finish(),
            timed=self.timed.finish(),
            reserved=self.reserved,
        )
        return Outcome(
            state,
            tuple(self.events),
            frozenset(self.changed - self.removed),
            frozenset(self.removed),
            tuple(self.attempts),
            self.result,
            reply,
        )


def apply(
    state: RunState | None, command: Command, now_ms: int, limits: Limits = DEFAULT_LIMITS
) -> Outcome | Rejection:
    """Decides one command.

    Args:
        state: The run's snapshot (``None`` only for :class:`Start`).
        command: The command.
        now_ms: The current time.
        limits: Caps on fan-outs and run size.

    Returns:
        The writes of the command, or why it is refused.
    """
    if isinstance(command, Start):
        return _start(command, now_ms, limits)
    if state is None:
        return not_found("RUN_NOT_FOUND", "no such run")
    work = _Work(state, now_ms, limits)
    return _HANDLERS[type(command)](work, command)


def _start(command: Start, now: int, limits: Limits) -> Outcome:
    nodes = immutables.Map(
        (node_id, NodeRun(node_id, node_id, revision=command.revision))
        for node_id in command.definition.nodes
    )
    state = RunState(command.run_id, command.definition, command.revision, nodes)
    work = _Work(state, now, limits)
    work.emit("RUN_STARTED", revision=command.revision, digest=command.definition.digest)
    _promote(work, [n for n, spec in command.definition.nodes.items() if not spec.depends_on])
    _settle(work)
    return work.outcome()


# --- handlers -------------------------------------------------------------------------


def _dispatch(work: _Work, command: Dispatch) -> Outcome | Rejection:
    if work.status in TERMINAL:
        return precondition("RUN_TERMINAL", "the run has ended")
    node = work.nodes.get(command.uid)
    if node is None or node.status is not NodeStatus.READY or node.not_before_ms > work.now:
        return precondition("ATTEMPT_SUPERSEDED", f"node {command.uid!r} is not ready")
    spec = work.spec(node)
    refused = _refusal(work, command, spec)
    if refused is not None:
        reason, message = refused
        work.emit("DISPATCH_REFUSED", node.uid, reason=reason, message=message)
        work.reason = work.reason or reason
        _retry_or_fail(work, node, f"{reason}: {message}", retryable=False)
        _settle(work)
        return work.outcome()
    number = node.attempts + 1
    base = lease_base(work)
    dispatched = replace(
        node,
        status=NodeStatus.RUNNING,
        attempts=number,
        attempt_id=attempt_id(work.state.run_id, node.uid, number),
        worker_id=command.worker_id,
        lease_expires_at_ms=base + command.lease_ms,
        deadline_ms=base + spec.timeout_ms if spec.timeout_ms else 0,
        not_before_ms=0,
    )
    work.set(dispatched)
    work.attempts.append(
        Attempt(
            dispatched.attempt_id,
            work.state.run_id,
            node.uid,
            number,
            command.worker_id,
            at_ms=work.now,
            principal_id=command.principal_id,
        )
    )
    work.emit(
        "NODE_DISPATCHED",
        node.uid,
        attempt=number,
        attempt_id=dispatched.attempt_id,
        worker_id=command.worker_id,
    )
    _settle(work)
    return work.outcome(Reply(lease_expires_at_ms=dispatched.lease_expires_at_ms))


def lease_base(work: _Work) -> int:
    """When a lease or timeout granted now starts: the later of now and the run's last
    update (the clock's high-water mark for this run), so that a lease granted while the
    clock reads behind does not expire early once the clock is corrected."""
    return max(work.now, work.state.updated_at_ms)


def _refusal(work: _Work, command: Dispatch, spec: Node) -> tuple[str, str] | None:
    """Why this dispatch is refused: an input over the cap, or the allowance (counting
    the run's running reserves)."""
    if command.input_bytes > work.limits.max_input_bytes:
        return (
            "INPUT_TOO_LARGE",
            f"the node's gathered input is {command.input_bytes} bytes; the cap is "
            f"{work.limits.max_input_bytes}",
        )
    if command.allowance is None:
        return None
    reserve = reservation(work.definition, spec.node_id)
    return contract.refusal(command.allowance, reserve, work.reserved, spec.timeout_ms, work.now)


def reservation(definition: Definition, node_id: str) -> Decimal:
    """What an attempt of ``node_id`` reserves while it runs: its declared maximum cost.

    The store keeps the same amount per running attempt, against the run's contract and
    against the principal that started the run (:mod:`praxis.store.runtime.reservations`), so
    that dispatch counts other runs' reserves too.
    """
    return Decimal(definition.nodes[node_id].max_cost or "0")


def _live_attempt(work: _Work, attempt: Attempt, worker_id: str) -> NodeRun | Rejection:
    """The node an unsettled attempt may still act on, or why it may not."""
    if attempt.worker_id != worker_id:
        return precondition("WORKER_MISMATCH", "the attempt is held by another worker")
    if attempt.status in (AttemptStatus.EXPIRED, AttemptStatus.TIMED_OUT):
        return precondition("LEASE_EXPIRED", f"the attempt {attempt.status.name.lower()}")
    node = work.nodes.get(attempt.node_uid)
    if (
        attempt.status is AttemptStatus.CANCELLED
        or work.status in TERMINAL
        or node is None
        or node.status is not NodeStatus.RUNNING
        or node.attempt_id != attempt.attempt_id
    ):
        return precondition("ATTEMPT_SUPERSEDED", "the attempt was superseded or cancelled")
    if node.lease_expires_at_ms <= work.now:
        return precondition("LEASE_EXPIRED", "the attempt's lease expired")
    return node


def _noop(work: _Work, reply: Reply = Reply()) -> Outcome:
    return Outcome(work.state, reply=reply, noop=True)


def _heartbeat(work: _Work, command: Heartbeat) -> Outcome | Rejection:
    if command.attempt.status in (AttemptStatus.COMPLETED, AttemptStatus.FAILED):
        return _noop(work, Reply(cancelled=True))  # settled: nothing left to do
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        if node.reason == "ATTEMPT_SUPERSEDED":
            return _noop(work, Reply(cancelled=True))
        return node
    lease = max(node.lease_expires_at_ms, lease_base(work) + command.lease_ms)
    work.set(replace(node, lease_expires_at_ms=lease))
    return work.outcome(Reply(lease_expires_at_ms=lease))


def _settled(attempt: Attempt, status: AttemptStatus, digest: str) -> Reply | Rejection | None:
    """A replay for the same settlement, a refusal for another, ``None`` if unsettled."""
    if attempt.status not in (AttemptStatus.COMPLETED, AttemptStatus.FAILED):
        return None
    if attempt.status is status and attempt.payload_digest == digest:
        return Reply(replayed=True, will_retry=attempt.will_retry)
    return Rejection(
        Code.ALREADY_EXISTS,
        "ATTEMPT_ALREADY_SETTLED",
        f"the attempt was already settled as {attempt.status.name.lower()}",
    )


def _complete(work: _Work, command: Complete) -> Outcome | Rejection:
    digest = values.digest(
        {
            "result": command.result,
            "effect": command.effect.value,
            "cost": command.cost_microcredits,
        }
    )
    settled = _settled(command.attempt, AttemptStatus.COMPLETED, digest)
    if isinstance(settled, Reply):
        return _noop(work, settled)
    if settled is not None:
        return settled
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        return node
    problem = check_result(work.spec(node), command.result)
    if problem:
        return problem
    work.attempts.append(
        replace(
            command.attempt,
            status=AttemptStatus.COMPLETED,
            payload_digest=digest,
            effect=command.effect.value,
            cost_microcredits=command.cost_microcredits,
            at_ms=work.now,
        )
    )
    mark = len(work.events)
    if command.effect is Effect.UNCERTAIN:
        _block(work, node, "the attempt completed with an uncertain effect")
    else:
        work.result = (node.uid, command.result)
        _node_done(work, node, command.result)
    _tag_effect(work, mark, node.uid, command.effect)
    _settle(work)
    return work.outcome()


_SETTLING_EVENTS = frozenset({"NODE_COMPLETED", "NODE_FAILED", "NODE_BLOCKED"})


def _tag_effect(work: _Work, mark: int, uid: str, effect: Effect) -> None:
    """Adds the attempt's reported ``effect`` to the event(s) its settlement wrote for
    its node (``NODE_COMPLETED``, ``NODE_FAILED`` or ``NODE_BLOCKED``)."""
    for index in range(mark, len(work.events)):
        event = work.events[index]
        if event.node_uid == uid and event.kind in _SETTLING_EVENTS:
            work.events[index] = replace(event, payload={**event.payload, "effect": effect.value})


def _block(work: _Work, node: NodeRun, why: str) -> None:
    """Blocks a node until a reviewed reconciliation decides its uncertain effect."""
    work.set(
        replace(
            node,
            status=NodeStatus.BLOCKED,
            lease_expires_at_ms=0,
            deadline_ms=0,
            error=f"RECONCILIATION_REQUIRED: {why}",
        )
    )
    work.emit("NODE_BLOCKED", node.uid, attempt_id=node.attempt_id, attempt=node.attempts)


def _fail(work: _Work, command: Fail) -> Outcome | Rejection:
    digest = values.digest(
        {
            "error": command.error,
            "retryable": command.retryable,
            "effect": command.effect.value,
            "cost": command.cost_microcredits,
        }
    )
    settled = _settled(command.attempt, AttemptStatus.FAILED, digest)
    if isinstance(settled, Reply):
        return _noop(work, settled)
    if settled is not None:
        return settled
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        return node
    # An uncertain effect is never retried automatically: the execution model requires a
    # reviewed reconciliation first, so the node blocks instead of repeating the effect.
    will_retry = False
    mark = len(work.events)
    if command.effect is Effect.UNCERTAIN:
        _block(work, node, f"the attempt failed with an uncertain effect: {command.error}")
    else:
        will_retry = _retry_or_fail(work, node, command.error, command.retryable)
    _tag_effect(work, mark, node.uid, command.effect)
    work.attempts.append(
        replace(
            command.attempt,
            status=AttemptStatus.FAILED,
            payload_digest=digest,
            will_retry=will_retry,
            effect=command.effect.value,
            cost_microcredits=command.cost_microcredits,
            at_ms=work.now,
        )
    )
    _settle(work)
    return work.outcome(Reply(will_retry=will_retry))


def _expire(work: _Work, _command: Expire) -> Outcome | Rejection:
    if work.status in TERMINAL:
        return _noop(work)
    # Only RUNNING and WAITING nodes have timers (``timed``); no command makes a node
    # RUNNING here, so the running candidates are among those timed before the sweep.
    assert work.state.timed is not None
    timed = sorted(work.state.timed.keys(), key=order_key(work.definition))
    waits = [
        node
        for node in (work.nodes[uid] for uid in timed)
        if node.status is NodeStatus.WAITING and node.deadline_ms <= work.now
    ]
    expired = [node for node in waits if _expire_wait(work, node)]
    due = [
        node
        for node in (work.nodes[uid] for uid in timed)
        if node.status is NodeStatus.RUNNING and timer_due(node) <= work.now
    ]
    for node in due:
        current = work.nodes[node.uid]
        if current.status is not NodeStatus.RUNNING:
            continue  # cancelled by an earlier expiry in this sweep
        if current.lease_expires_at_ms <= work.now:
            status, error = AttemptStatus.EXPIRED, "lease expired"
        else:
            status = AttemptStatus.TIMED_OUT
            error = f"timed out after {work.spec(current).timeout_ms} ms"
        work.attempts.append(_ended_attempt(work, current, status))
        _retry_or_fail(work, current, error, retryable=True)
    if not due and not expired:
        return _noop(work)
    _settle(work)
    return work.outcome()


def _expire_wait(work: _Work, node: NodeRun) -> bool:
    """Expires one due wait: it fails, or takes its default. False when deferred.

    An outcome stores at most one result, so a second default in the same command is
    deferred: its timer row stays due and the next sweep takes it.
    """
    if work.status in TERMINAL or work.nodes[node.uid].status is not NodeStatus.WAITING:
        return False
    wait = work.spec(node).wait
    assert wait is not None
    if wait.on_expiry == "default":
        if work.result is not None:
            return False
        work.emit("WAIT_EXPIRED", node.uid, on_expiry="default")
        work.result = (node.uid, wait.default)
        _node_done(work, replace(node, error="wait expired; took the default"), wait.default)
        return True
    work.emit("WAIT_EXPIRED", node.uid, on_expiry="fail")
    work.reason = work.reason or "WAIT_EXPIRED"
    _retry_or_fail(work, node, "WAIT_EXPIRED: the wait expired", retryable=False)
    return True


def _satisfy(work: _Work, command: SatisfyWait) -> Outcome | Rejection:
    node = work.nodes.get(command.uid)
    if node is None or work.spec(node).wait is None:
        return not_found("WAIT_NOT_FOUND", f"node {command.uid!r} is not a wait")
    wait = work.spec(node).wait
    assert wait is not None
    if node.status is NodeStatus.DONE and not node.error:
        return precondition("WAIT_ALREADY_SATISFIED", "the wait was already satisfied")
    if node.status in (NodeStatus.DONE, NodeStatus.FAILED) or (
        node.status is NodeStatus.WAITING and node.deadline_ms <= work.now
    ):
        return precondition("WAIT_EXPIRED", "the wait expired")
    if work.status in TERMINAL or node.status is NodeStatus.CANCELLED:
        return precondition("RUN_TERMINAL", "the run has ended")
    if node.status is not NodeStatus.WAITING:
        return precondition("WAIT_NOT_OPEN", "the wait's dependencies have not finished")
    problems = jsonschema.validate(command.payload, wait.schema)
    if problems:
        return Rejection(
            Code.INVALID_ARGUMENT,
            "WAIT_PAYLOAD_INVALID",
            f"the payload does not match the wait's schema: {problems[0]}",
            tuple(FieldViolation("payload_json", problem) for problem in problems),
        )
    work.emit("WAIT_SATISFIED", node.uid)
    work.result = (node.uid, command.payload)
    _node_done(work, node, command.payload)
    _settle(work)
    return work.outcome()


def _reconcile(work: _Work, command: Reconcile) -> Outcome | Rejection:
    node = work.nodes.get(command.uid)
    if (
        node is None
        or node.status is not NodeStatus.BLOCKED
        or node.attempt_id != command.attempt_id
    ):
        return precondition(
            "RECONCILIATION_NOT_PENDING", f"attempt {command.attempt_id!r} awaits no decision"
        )
    work.emit("NODE_RECONCILED", node.uid, attempt_id=command.attempt_id, applied=command.applied)
    unblocked = replace(node, error="")
    if command.applied and command.completed:
        work.result = (node.uid, command.result)
        _node_done(work, unblocked, command.result)
    elif command.applied:
        _retry_or_fail(work, unblocked, "the effect was applied but the attempt failed", False)
    elif work.status in TERMINAL:
        _cancel(work, unblocked, "the effect was not applied; the run had ended")
    else:
        _retry_or_fail(work, unblocked, "the effect was not applied; retrying", True)
    _settle(work)
    return work.outcome()


def _stop(work: _Work, command: Stop) -> Outcome | Rejection:
    if work.status in TERMINAL:
        return _noop(work)
    _finish(work, RunStatus.CANCELLED, command.reason or "stopped")
    return work.outcome()


def _revise(work: _Work, command: Revise) -> Outcome | Rejection:
    if work.status in TERMINAL:
        return _noop(work)
    new = command.definition
    plain = [work.nodes[node_id] for node_id in work.definition.nodes if node_id in work.nodes]
    conflicts = [
        FieldViolation(
            f"nodes.{node.node_id}",
            f"node {node.node_id!r} is {node.status.name.lower()} and the revision "
            + ("removes it" if node.node_id not in new.nodes else "changes it"),
        )
        for node in plain
        if node.dispatched
        and (
            node.node_id not in new.nodes
            or new.nodes[node.node_id].spec_digest != work.spec(node).spec_digest
        )
    ]
    if conflicts:
        return Rejection(
            Code.FAILED_PRECONDITION,
            "REVISION_CONFLICT",
            "the activation would change nodes already dispatched or finished: "
            + ", ".join(sorted(v.field[6:] for v in conflicts)),
            tuple(conflicts),
        )
    old_revision = work.revision
    for node in plain:
        if not node.dispatched:
            if node.node_id in new.nodes:
                work.set(NodeRun(node.uid, node.node_id, revision=command.revision))
            else:
                work.remove(node.uid)
    for node_id in new.nodes:
        if node_id not in work.nodes:
            work.set(NodeRun(node_id, node_id, revision=command.revision))
    work.definition, work.revision = new, command.revision
    work.recount_required()  # which nodes decide the outcome may have changed
    _reprobe(work, command.source_results)
    work.emit("RUN_REVISED", revision=command.revision, previous_revision=old_revision)
    _promote(
        work,
        [
            node_id
            for node_id in new.nodes
            if node_id in work.nodes and work.nodes[node_id].status is NodeStatus.PENDING
        ],
    )
    _settle(work)
    return work.outcome()


_HANDLERS: dict[type, Callable[[_Work, Any], Outcome | Rejection]] = {
    Dispatch: _dispatch,
    Heartbeat: _heartbeat,
    Complete: _complete,
    Fail: _fail,
    Expire: _expire,
    Stop: _stop,
    Revise: _revise,
    Reconcile: _reconcile,
    SatisfyWait: _satisfy,
}


# --- transitions ----------------------------------------------------------------------


def check_result(spec: Node, result: values.JsonValue) -> Rejection | None:
    """A RESULT_CONTRACT_VIOLATION when ``result`` breaks the node's output contract."""
    contract = spec.agent.output
    if contract.kind == "text":
        problems = [] if isinstance(result, str) else ["$: a text output must be a JSON string"]
    else:
        problems = jsonschema.validate(result, contract.schema)
    if not problems:
        return None
    return Rejection(
        Code.INVALID_ARGUMENT,
        "RESULT_CONTRACT_VIOLATION",
        f"the result breaks node {spec.node_id!r}'s output contract: {problems[0]}",
        tuple(FieldViolation("result_json", problem) for problem in problems),
    )


def _ended_attempt(work: _Work, node: NodeRun, status: AttemptStatus) -> Attempt:
    return Attempt(
        node.attempt_id,
        work.state.run_id,
        node.uid,
        node.attempts,
        node.worker_id,
        status=status,
        at_ms=work.now,
    )


def _retry_or_fail(work: _Work, node: NodeRun, error: str, retryable: bool) -> bool:
    """Schedules the next attempt within the budget, or fails the node. True on retry."""
    retry = work.spec(node).retry
    cleared = replace(node, lease_expires_at_ms=0, deadline_ms=0, error=error)
    if retryable and node.attempts < retry.attempts:
        not_before = work.now + retry.delay_ms(node.attempts)
        work.set(replace(cleared, status=NodeStatus.READY, not_before_ms=not_before))
        work.emit("NODE_FAILED", node.uid, error=error, will_retry=True, attempt=node.attempts)
        return True
    work.set(replace(cleared, status=NodeStatus.FAILED))
    work.emit("NODE_FAILED", node.uid, error=error, will_retry=False, attempt=node.attempts)
    _node_failed(work, work.nodes[node.uid])
    return False


def _node_failed(work: _Work, node: NodeRun) -> None:
    """Propagates a node's failure: to its fan-out group, its dependents, the run."""
    if work.status in TERMINAL:
        return  # a decision recorded after the run ended changes only the node
    if node.item >= 0:
        parent = work.nodes[node.node_id]
        if parent.status is not NodeStatus.EXPANDED:
            return
        _cancel_items(work, parent, f"item {node.item} failed")
        failed = replace(parent, status=NodeStatus.FAILED, error=f"{node.uid}: {node.error}")
        work.set(failed)
        work.emit("NODE_FAILED", failed.uid, error=failed.error, will_retry=False)
        node = failed
    if node.node_id in work.definition.required:
        work.reason = work.reason or "NODE_FAILED"
        _finish(work, RunStatus.FAILED, _failure_summary(work))
        return
    pending = list(work.definition.dependents.get(node.node_id, ()))
    while pending:
        dependent = work.nodes.get(pending.pop())
        if dependent is not None and dependent.status is NodeStatus.PENDING:
            work.set(
                replace(
                    dependent,
                    status=NodeStatus.CANCELLED,
                    error=f"dependency {node.node_id!r} failed",
                )
            )
            pending.extend(work.definition.dependents.get(dependent.node_id, ()))


def _failure_summary(work: _Work) -> str:
    errors = [
        f"{node.uid}: {node.error}"
        for node in (work.nodes[n] for n in work.definition.nodes if n in work.nodes)
        if node.status is NodeStatus.FAILED
    ]
    return "required node failed: " + "; ".join(errors)


def _cancel_items(work: _Work, parent: NodeRun, why: str) -> None:
    for index in range(parent.items):
        item = work.nodes[item_uid(parent.node_id, index)]
        if item.status in LIVE:
            _cancel(work, item, why)


def _cancel(work: _Work, node: NodeRun, why: str) -> None:
    if node.status is NodeStatus.RUNNING:
        work.attempts.append(_ended_attempt(work, node, AttemptStatus.CANCELLED))
    work.set(
        replace(
            node,
            status=NodeStatus.CANCELLED,
            error=node.error or why,
            lease_expires_at_ms=0,
            deadline_ms=0,
            not_before_ms=0,
        )
    )


def _node_done(work: _Work, node: NodeRun, result: values.JsonValue) -> None:
    done = replace(
        node,
        status=NodeStatus.DONE,
        has_result=True,
        lease_expires_at_ms=0,
        deadline_ms=0,
        arrays=_probes(work.definition, node.node_id, result) if node.item < 0 else {},
    )
    work.set(done)
    work.emit("NODE_COMPLETED", node.uid, attempt_id=node.attempt_id, attempt=node.attempts)
    if node.item < 0:
        _promote(work, list(work.definition.dependents.get(node.node_id, ())))
        return
    parent = work.nodes[node.node_id]
    if parent.status is not NodeStatus.EXPANDED:
        return
    parent = replace(parent, items_done=parent.items_done + 1)
    work.set(parent)
    if parent.items_done == parent.items:
        work.set(replace(parent, status=NodeStatus.DONE, has_result=True))
        work.emit("NODE_COMPLETED", parent.uid, items=parent.items)
        _promote(work, list(work.definition.dependents.get(parent.node_id, ())))


def _probes(definition: Definition, node_id: str, result: values.JsonValue) -> dict[str, int | str]:
    """Array lengths (or why there is none) at each path a fan-out reads from a result."""
    probes: dict[str, int | str] = {}
    for consumer in definition.fanout_consumers.get(node_id, ()):
        fanout = definition.nodes[consumer].fanout
        assert fanout is not None
        probes[fanout.path_text] = probe(node_id, fanout.path, result)
    return probes


def probe(node_id: str, path: tuple[str, ...], result: values.JsonValue) -> int | str:
    """The length of the array at ``path`` in ``result``, or why there is none."""
    where = f"node:{node_id}" + "".join(f".{key}" for key in path)
    value = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return f"fan-out over {where}: the path does not exist in the result"
        value = value[key]
    if not isinstance(value, list):
        kind = "object" if isinstance(value, dict) else type(value).__name__
        if value is None:
            kind = "null"
        return f"fan-out over {where}: the value is {kind}, not an array"
    return len(value)


def revision_sources(state: RunState, definition: Definition) -> list[str]:
    """Finished fan-out sources whose results a revision needs for new fan-out paths."""
    needed = []
    for node_id, consumers in definition.fanout_consumers.items():
        node = state.nodes.get(node_id)
        if node is None or node.status is not NodeStatus.DONE:
            continue
        for consumer in consumers:
            fanout = definition.nodes[consumer].fanout
            assert fanout is not None
            if fanout.path_text not in node.arrays:
                needed.append(node_id)
                break
    return needed


def _reprobe(work: _Work, results: Mapping[str, values.JsonValue]) -> None:
    for node_id in revision_sources(work.state, work.definition):
        node = work.nodes[node_id]
        arrays = dict(node.arrays)
        for path, found in _probes(work.definition, node_id, results.get(node_id)).items():
            arrays.setdefault(path, found)
        work.set(replace(node, arrays=arrays))


def _promote(work: _Work, candidates: list[str]) -> None:
    """Makes each PENDING candidate whose dependencies are all done READY (or expands it)."""
    pending = list(dict.fromkeys(candidates))
    while pending:
        node = work.nodes.get(pending.pop(0))
        if node is None or node.status is not NodeStatus.PENDING or work.status in TERMINAL:
            continue
        spec = work.spec(node)
        if any(work.nodes[dep].status is not NodeStatus.DONE for dep in spec.depends_on):
            continue
        if spec.wait is not None:
            expires = work.now + spec.wait.expires_in_ms
            work.set(replace(node, status=NodeStatus.WAITING, deadline_ms=expires))
            work.emit("NODE_WAITING", node.uid, expires_at_ms=expires)
        elif spec.fanout is None:
            work.set(replace(node, status=NodeStatus.READY, not_before_ms=0))
        elif _expand(work, node, spec):
            pending.extend(work.definition.dependents.get(node.node_id, ()))


def _expand(work: _Work, node: NodeRun, spec: Node) -> bool:
    """Expands a fan-out node into its items. True when it finished at once (empty)."""
    assert spec.fanout is not None
    found = work.nodes[spec.fanout.node].arrays.get(spec.fanout.path_text)
    if found is None:
        found = f"fan-out over node:{spec.fanout.node}: the source result was not probed"
    limits = work.limits
    if isinstance(found, int) and found > limits.max_fanout_items:
        found = f"fan-out of {found} items exceeds the cap of {limits.max_fanout_items}"
    elif isinstance(found, int) and len(work.nodes) + found > limits.max_run_nodes:
        found = f"fan-out of {found} items exceeds the run's cap of {limits.max_run_nodes} nodes"
    if isinstance(found, str):
        failed = replace(node, status=NodeStatus.FAILED, error=found)
        work.set(failed)
        work.emit("NODE_FAILED", node.uid, error=found, will_retry=False)
        _node_failed(work, failed)
        return False
    work.emit("NODE_EXPANDED", node.uid, items=found)
    if found == 0:
        work.set(replace(node, status=NodeStatus.DONE, has_result=True))
        work.emit("NODE_COMPLETED", node.uid, items=0)
        return True
    work.set(replace(node, status=NodeStatus.EXPANDED, items=found))
    for index in range(found):
        uid = item_uid(node.node_id, index)
        work.set(NodeRun(uid, node.node_id, index, NodeStatus.READY, revision=node.revision))
    return False


def _settle(work: _Work) -> None:
    """Completes the run when its output is done; otherwise recomputes RUNNING/AWAITING."""
    if work.status in TERMINAL:
        return
    output = work.nodes[work.definition.output]
    blocked = work.count(NodeStatus.BLOCKED) > 0
    if output.status is NodeStatus.DONE and not blocked:
        _finish(work, RunStatus.COMPLETED, "")
        return
    waiting = work.count(NodeStatus.PENDING, REQUIRED) + work.count(NodeStatus.READY, REQUIRED) > 0
    work.status = RunStatus.RUNNING if waiting else RunStatus.AWAITING_NODES


def _finish(work: _Work, status: RunStatus, error: str) -> None:
    """Ends the run and cancels every live node and attempt outside its outcome."""
    work.status, work.result_error, work.finished_at = status, error, work.now
    why = "run ended" if status is not RunStatus.CANCELLED else f"run cancelled: {error}"
    for node in [work.nodes[uid] for uid in ordered_uids(work.definition, work.nodes)]:
        # A blocked node keeps its pending reconciliation: an uncertain effect is never
        # forgotten, even when the run fails or is cancelled.
        if node.status in LIVE and node.status is not NodeStatus.BLOCKED:
            _cancel(work, node, why)
    kind = {
        RunStatus.COMPLETED: "RUN_COMPLETED",
        RunStatus.FAILED: "RUN_FAILED",
        RunStatus.CANCELLED: "RUN_CANCELLED",
    }[status]
    work.emit(kind, status=status.value, result_error=error)


# --- queue rows -----------------------------------------------------------------------


def timer_due(node: NodeRun) -> int:
    """When a RUNNING node's lease or timeout falls due."""
    if node.deadline_ms:
        return min(node.lease_expires_at_ms, node.deadline_ms)
    return node.lease_expires_at_ms


def ready_entry(state: RunState, uid: str) -> tuple[str, int] | None:
    """``(model, not_before_ms)`` when the node is claimable; otherwise ``None``."""
    node = state.nodes.get(uid)
    if node is None or node.status is not NodeStatus.READY or state.status in TERMINAL:
        return None
    return state.definition.nodes[node.node_id].agent.model, node.not_before_ms


def timer_entry(state: RunState, uid: str) -> int | None:
    """When the node's running attempt or open wait falls due, or ``None``."""
    node = state.nodes.get(uid)
    if node is None:
        return None
    if node.status is NodeStatus.WAITING:
        return node.deadline_ms
    if node.status is not NodeStatus.RUNNING:
        return None
    return timer_due(node)
