"""Dry runs of a definition: the run reducer driven by a script of outcomes, without I/O.

:func:`simulate` starts a run of a definition at a given time and plays it forward with
the same reducer the server applies to real runs (:mod:`praxis.core.run`): it leases
each ready node in definition order (fan-out items in item order) to one simulated
worker, settles the attempt with the next scripted outcome for that node, answers open
waits and reconciles blocked nodes where the script says so, and lets time run to the
next timer (a retry's backoff, a wait's expiry, a lease or a deadline) when nothing else
can happen. Attempts run one after another; each takes its outcome's ``duration_ms``.

A node's outcomes are looked up by its uid (a fan-out item's uid is ``node#index``)
and then by its node id, and used in order, one per attempt. The simulation ends when
the run ends, when a ready or blocked node has no scripted outcome left (a human's or a
worker's behaviour the script does not say: :attr:`End.NEEDS_SCRIPT`, naming the node),
or after :data:`MAX_MOVES` moves. A wait without a scripted answer is left unanswered:
time runs to its expiry. A result the reducer refuses (one that breaks the node's
output contract) is recorded as a refused step, and the attempt's lease then runs out,
as it would for a worker whose report was refused.

Everything the simulation reads is in its arguments, so the same script gives the same
steps, events and result in any process and from any language's client.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass

from praxis.core import run as core
from praxis.core import values
from praxis.core.definition import Definition
from praxis.core.rejection import Rejection, invalid
from praxis.core.run.inputs import node_input

MAX_SCRIPT = 1000
"""Outcomes a script may hold."""
MAX_MOVES = 10_000
"""Moves (a lease and its settlement, an answer, a reconciliation, time running to the
next timer) a simulation makes at most before it ends with :attr:`End.STEP_LIMIT`."""
DEFAULT_LEASE_MS = 60_000
RUN_ID = "run_simulated"
"""The run id of every simulated run (its attempt and operation ids derive from it)."""
WORKER_ID = "simulated-worker"


class Kind(enum.Enum):
    """What a scripted outcome does."""

    COMPLETE = "COMPLETE"
    """The attempt completes with ``result``; its effect was applied."""
    FAIL = "FAIL"
    """The attempt fails with ``error`` (``retryable`` or not); no effect was applied."""
    UNCERTAIN = "UNCERTAIN"
    """The worker cannot tell whether the effect happened: it completes with ``result``
    (or fails, when ``result`` is ``None``) with an UNCERTAIN effect."""
    LEASE_LOST = "LEASE_LOST"
    """The worker never reports: the attempt's lease (or timeout) runs out."""
    ANSWER = "ANSWER"
    """A human (or a service) satisfies the wait with ``result`` as its payload."""
    RECONCILE = "RECONCILE"
    """A human decides a blocked node's uncertain effect: ``applied`` or not."""


WORKER_KINDS = frozenset({Kind.COMPLETE, Kind.FAIL, Kind.UNCERTAIN, Kind.LEASE_LOST})


@dataclass(frozen=True)
class Scripted:
    """One scripted outcome for node ``node`` (a uid or a node id)."""

    node: str
    kind: Kind
    result: values.JsonValue = None
    error: str = ""
    retryable: bool = True
    cost_microcredits: str = "0"
    duration_ms: int = 0
    applied: bool = False


class Action(enum.Enum):
    """What one step of a simulation did."""

    START = "START"
    DISPATCH = "DISPATCH"
    COMPLETE = "COMPLETE"
    FAIL = "FAIL"
    EXPIRE = "EXPIRE"
    ANSWER = "ANSWER"
    RECONCILE = "RECONCILE"
    REFUSED = "REFUSED"
    """The reducer refused a scripted settlement (``refusal`` says why); nothing changed."""


@dataclass(frozen=True)
class Step:
    """One command applied (or refused) and what it produced."""

    at_ms: int
    action: Action
    node_uid: str
    attempt: int
    status: core.RunStatus
    events: tuple[core.Event, ...] = ()
    input: values.JsonValue = None
    """A DISPATCH's: the input the attempt receives."""
    refusal: Rejection | None = None


class End(enum.Enum):
    """Why a simulation stopped."""

    RUN_ENDED = "RUN_ENDED"
    NEEDS_SCRIPT = "NEEDS_SCRIPT"
    STEP_LIMIT = "STEP_LIMIT"


@dataclass(frozen=True)
class Simulation:
    """Everything a simulation observed."""

    steps: tuple[Step, ...]
    state: core.RunState
    attempts: tuple[core.Attempt, ...]
    end: End
    waiting_on: str
    """The node a NEEDS_SCRIPT end lacks an outcome for ("" otherwise)."""
    result: values.JsonValue
    """The run's result (the output node's value) when it completed, else ``None``."""


def check_script(definition: Definition, script: list[Scripted]) -> Rejection | None:
    """Why a script cannot drive ``definition``, or ``None``."""
    if len(script) > MAX_SCRIPT:
        return invalid("SCRIPT_INVALID", "script", f"a script holds at most {MAX_SCRIPT} outcomes")
    for index, entry in enumerate(script):
        path = f"script[{index}]"
        node_id = entry.node.split("#", 1)[0]
        spec = definition.nodes.get(node_id)
        if spec is None:
            return invalid("SCRIPT_INVALID", f"{path}.node", f"no node {entry.node!r}")
        is_wait = spec.wait is not None
        if entry.kind is Kind.ANSWER and not is_wait:
            return invalid("SCRIPT_INVALID", f"{path}.kind", "only a wait node is answered")
        if entry.kind is not Kind.ANSWER and is_wait:
            return invalid("SCRIPT_INVALID", f"{path}.kind", "a wait node is only answered")
        if entry.duration_ms < 0:
            return invalid("SCRIPT_INVALID", f"{path}.duration_ms", "must not be negative")
        problem = values.check_text(entry.error, f"{path}.error")
        if problem:
            return problem
    return None


def simulate(
    definition: Definition,
    script: list[Scripted],
    start_ms: int,
    *,
    run_input: values.JsonValue = None,
    revision: int = 0,
    deadline_ms: int = 0,
    lease_ms: int = DEFAULT_LEASE_MS,
) -> Simulation:
    """Plays a run of ``definition`` forward from ``start_ms`` under ``script`` (checked
    first with :func:`check_script`)."""
    return _Simulator(definition, script, start_ms, run_input, lease_ms).run(revision, deadline_ms)


class _Simulator:
    """The state of one simulation: the run, its clock, results and remaining script."""

    def __init__(
        self,
        definition: Definition,
        script: list[Scripted],
        start_ms: int,
        run_input: values.JsonValue,
        lease_ms: int,
    ) -> None:
        self.definition = definition
        self.now = start_ms
        self.run_input = run_input
        self.lease_ms = lease_ms
        self.script: dict[str, deque[Scripted]] = {}
        for entry in script:
            self.script.setdefault(entry.node, deque()).append(entry)
        self.steps: list[Step] = []
        self.attempts: dict[str, core.Attempt] = {}
        self.results: dict[str, values.JsonValue] = {}
        self.settled: dict[str, tuple[bool, values.JsonValue]] = {}
        """Per attempt id: whether it completed, and its result (for a reconciliation)."""
        self.state: core.RunState

    def run(self, revision: int, deadline_ms: int) -> Simulation:
        start = core.Start(RUN_ID, self.definition, revision, deadline_ms)
        outcome = core.apply(None, start, self.now)
        assert isinstance(outcome, core.Outcome), outcome  # a parsed definition starts
        self.state = outcome.state
        self._record(Action.START, "", 0, outcome)
        end, waiting_on = End.STEP_LIMIT, ""
        for _ in range(MAX_MOVES):
            if self.state.status in core.TERMINAL:
                end = End.RUN_ENDED
                break
            waiting_on = self._advance()
            if waiting_on:
                end = End.NEEDS_SCRIPT
                break
        return Simulation(
            tuple(self.steps),
            self.state,
            tuple(self.attempts.values()),
            end,
            waiting_on if end is End.NEEDS_SCRIPT else "",
            self._value(self.definition.output)
            if self.state.status is core.RunStatus.COMPLETED
            else None,
        )

    # --- one move ---------------------------------------------------------------------

    def _advance(self) -> str:
        """Makes one move; answers the uid that needs a scripted outcome when no move is
        left, else ""."""
        uids = core.ordered_uids(self.state.definition, self.state.nodes)
        for uid in uids:
            node = self.state.nodes[uid]
            if node.status is core.NodeStatus.WAITING and self._peek(node, {Kind.ANSWER}):
                self._answer(node)
                return ""
            if node.status is core.NodeStatus.BLOCKED and self._peek(node, {Kind.RECONCILE}):
                self._reconcile(node)
                return ""
        unscripted = ""
        for uid in uids:
            entry = core.ready_entry(self.state, uid)
            if entry is None or entry[1] > self.now:
                continue
            node = self.state.nodes[uid]
            if self._peek(node, WORKER_KINDS) is None:
                unscripted = unscripted or uid
                continue
            self._attempt(node)
            return ""
        if unscripted:  # no worker's behaviour is scripted for it: the script must say
            return unscripted
        due = self._next_due(uids)
        if due is not None:
            moved, self.now = due > self.now, max(self.now, due)
            expired = self._apply(Action.EXPIRE, "", 0, core.Expire())
            if moved or (expired is not None and not expired.noop):
                return ""
        stuck = [u for u in uids if self.state.nodes[u].status is core.NodeStatus.BLOCKED]
        return stuck[0] if stuck else RUN_ID

    def _attempt(self, node: core.NodeRun) -> None:
        """Leases ``node`` and settles the attempt with its next scripted outcome."""
        given = self._input(node)
        dispatched = self._apply(
            Action.DISPATCH,
            node.uid,
            node.attempts + 1,
            core.Dispatch(node.uid, WORKER_ID, self.lease_ms),
            given,
        )
        running = self.state.nodes[node.uid]
        if dispatched is None or running.status is not core.NodeStatus.RUNNING:
            return  # refused by a deadline or a limit: the reducer decided what happens
        attempt = self.attempts[running.attempt_id]
        entry = self._take(node)
        if entry.kind is Kind.LEASE_LOST or entry.duration_ms >= core.timer_due(running) - self.now:
            self.now = core.timer_due(running)  # the worker is silent past its lease
            self._apply(Action.EXPIRE, node.uid, attempt.number, core.Expire())
            return
        self.now += entry.duration_ms
        command, action = _settlement(entry, attempt)
        if isinstance(command, core.Complete):
            self.settled[attempt.attempt_id] = (True, command.result)
        else:
            self.settled[attempt.attempt_id] = (False, None)
        if self._apply(action, node.uid, attempt.number, command) is None:
            self.now = max(self.now, core.timer_due(running))
            self._apply(Action.EXPIRE, node.uid, attempt.number, core.Expire())

    def _answer(self, node: core.NodeRun) -> None:
        entry = self._take(node)
        self.now += entry.duration_ms
        # A refused answer is a REFUSED step, gone from the script; the wait stays open.
        self._apply(Action.ANSWER, node.uid, 0, core.SatisfyWait(node.uid, entry.result))

    def _reconcile(self, node: core.NodeRun) -> None:
        entry = self._take(node)
        self.now += entry.duration_ms
        completed, result = self.settled.get(node.attempt_id, (False, None))
        command = core.Reconcile(node.uid, node.attempt_id, entry.applied, result, completed)
        self._apply(Action.RECONCILE, node.uid, node.attempts, command)

    # --- the script ---------------------------------------------------------------------

    def _queue(self, node: core.NodeRun) -> deque[Scripted] | None:
        for key in (node.uid, node.node_id):
            found = self.script.get(key)
            if found:
                return found
        return None

    def _peek(self, node: core.NodeRun, kinds: set[Kind] | frozenset[Kind]) -> Scripted | None:
        queue = self._queue(node)
        return queue[0] if queue and queue[0].kind in kinds else None

    def _take(self, node: core.NodeRun) -> Scripted:
        queue = self._queue(node)
        assert queue, "peeked before taking"
        return queue.popleft()

    # --- the reducer --------------------------------------------------------------------

    def _apply(
        self,
        action: Action,
        uid: str,
        attempt: int,
        command: core.Command,
        given: values.JsonValue = None,
    ) -> core.Outcome | None:
        """Applies ``command`` now; records the step (or the refusal) and its results."""
        outcome = core.apply(self.state, command, self.now)
        if isinstance(outcome, Rejection):
            status = self.state.status
            self.steps.append(Step(self.now, Action.REFUSED, uid, attempt, status, refusal=outcome))
            return None
        if outcome.noop:
            return outcome
        self.state = outcome.state
        for record in outcome.attempts:
            self.attempts[record.attempt_id] = record
        if outcome.result is not None:
            self.results[outcome.result[0]] = outcome.result[1]
        self._record(action, uid, attempt, outcome, given)
        return outcome

    def _record(
        self,
        action: Action,
        uid: str,
        attempt: int,
        outcome: core.Outcome,
        given: values.JsonValue = None,
    ) -> None:
        status = outcome.state.status
        self.steps.append(Step(self.now, action, uid, attempt, status, outcome.events, given))

    def _next_due(self, uids: list[str]) -> int | None:
        """The earliest time a timer falls due or a waiting retry becomes claimable."""
        found = [core.timer_entry(self.state, uid) for uid in [core.RUN_TIMER, *uids]]
        for uid in uids:
            entry = core.ready_entry(self.state, uid)
            if entry is not None and self._peek(self.state.nodes[uid], WORKER_KINDS):
                found.append(entry[1])
        due = [at for at in found if at is not None and at > 0]
        return min(due) if due else None

    def _value(self, node_id: str) -> values.JsonValue:
        spec = self.state.definition.nodes[node_id]
        node = self.state.nodes.get(node_id)
        if spec.fanout is not None and node is not None:
            return [self.results.get(core.item_uid(node_id, i)) for i in range(node.items)]
        return self.results.get(node_id)

    def _input(self, node: core.NodeRun) -> values.JsonValue:
        return node_input(self.state, node, lambda: self.run_input, self._value)


def _settlement(entry: Scripted, attempt: core.Attempt) -> tuple[core.Command, Action]:
    """The settlement a worker's scripted outcome reports."""
    cost = entry.cost_microcredits
    if entry.kind is Kind.COMPLETE:
        done = core.Complete(attempt, WORKER_ID, entry.result, core.Effect.APPLIED, cost)
        return done, Action.COMPLETE
    if entry.kind is Kind.UNCERTAIN and entry.result is not None:
        unsure = core.Complete(attempt, WORKER_ID, entry.result, core.Effect.UNCERTAIN, cost)
        return unsure, Action.COMPLETE
    effect = core.Effect.UNCERTAIN if entry.kind is Kind.UNCERTAIN else core.Effect.NOT_APPLIED
    error = entry.error or ("the effect is uncertain" if entry.kind is Kind.UNCERTAIN else "")
    failed = core.Fail(attempt, WORKER_ID, error, entry.retryable, effect, cost)
    return failed, Action.FAIL
