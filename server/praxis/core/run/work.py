"""The working copy one command mutates: the state being built, the events, the nodes
changed and the attempts recorded, turned into an :class:`Outcome` at the end."""

from __future__ import annotations

from praxis.core import money, values
from praxis.core.definition import Limits, Node
from praxis.core.frozen import evolve
from praxis.core.run.commands import Outcome, Reply
from praxis.core.run.state import (
    HOLDING,
    LIVE,
    REQUIRED,
    STARTING,
    TIMED,
    Attempt,
    Event,
    NodeRun,
    NodeStatus,
    RunState,
    RunStatus,
    node_keys,
    ordered_uids,
    reservation,
)

# The ended states that keep a ``result_reason``: a failure's rule, or a cancellation's
# (WORK_ORDER_CANCELED); a run that completes has none.
_REASONED = (RunStatus.FAILED, RunStatus.CANCELLED, RunStatus.FAILING, RunStatus.CANCELLING)


class Work:
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
        self.deadline = state.deadline_ms

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
        """The node with its start and end times after a change of status, and on
        entering READY its schedule-to-start deadline."""
        if node.status is NodeStatus.READY and not node.deadline_ms:
            wait = self.definition.nodes[node.node_id].schedule_to_start_ms
            if wait:
                node = evolve(node, deadline_ms=max(self.now, node.not_before_ms) + wait)
        started = node.started_at_ms or (self.now if node.status in STARTING else 0)
        finished = 0 if node.status in LIVE else node.finished_at_ms or self.now
        if started == node.started_at_ms and finished == node.finished_at_ms:
            return node
        return evolve(node, started_at_ms=started, finished_at_ms=finished)

    def remove(self, uid: str) -> None:
        old = self.nodes.get(uid)
        if old is not None:
            self._count(old, -1)
            del self.nodes[uid]
            self.removed.add(uid)

    def _count(self, node: NodeRun, delta: int) -> None:
        for key in node_keys(node, self.definition.required):
            self._add(key, delta)
        if node.status in TIMED:
            if delta > 0:
                self.timed[node.uid] = True
            else:
                del self.timed[node.uid]
        if node.status in HOLDING:
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

    def note_effect(self, uid: str, effect: str) -> None:
        """Records the effect of a node's last settled attempt (``NodeRun.effect``)."""
        node = self.nodes[uid]
        if node.effect != effect:
            self.set(evolve(node, effect=effect))

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
            result_reason=self.reason if self.status in _REASONED else "",
            deadline_ms=self.deadline,
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
