"""The run reducer driven by hand, without I/O: ``Sim`` keeps the attempt records and
results a store would keep; its clock starts at ``T0`` and leases last ``LEASE``."""

from __future__ import annotations

from typing import Any

from praxis.core import definition as d
from praxis.core import run as core
from praxis.core.rejection import Rejection

T0 = 1_000_000
LEASE = 10_000


class Sim:
    """A run driven by hand: the reducer plus the attempt records a store would keep."""

    def __init__(self, document: dict[str, Any], limits: d.Limits = d.DEFAULT_LIMITS) -> None:
        parsed = d.parse(document, None, limits)
        assert isinstance(parsed, d.Definition), parsed
        self.limits = limits
        self.now = T0
        self.attempts: dict[str, core.Attempt] = {}
        self.results: dict[str, Any] = {}
        self.events: list[core.Event] = []
        outcome = core.apply(None, core.Start("run-1", parsed), self.now, limits)
        assert isinstance(outcome, core.Outcome)
        self.state = outcome.state
        self.events += outcome.events

    def apply(self, command: core.Command) -> core.Outcome | Rejection:
        outcome = core.apply(self.state, command, self.now, self.limits)
        if isinstance(outcome, core.Outcome) and not outcome.noop:
            self.state = outcome.state
            self.events += outcome.events
            for attempt in outcome.attempts:
                self.attempts[attempt.attempt_id] = attempt
            if outcome.result is not None:
                assert outcome.result[0] not in self.results, "a node completed twice"
                self.results[outcome.result[0]] = outcome.result[1]
        return outcome

    def ok(self, command: core.Command) -> core.Outcome:
        outcome = self.apply(command)
        assert isinstance(outcome, core.Outcome), outcome
        return outcome

    def ready(self) -> list[str]:
        return [
            uid
            for uid in core.ordered_uids(self.state.definition, self.state.nodes)
            if core.ready_entry(self.state, uid) is not None
            and self.state.nodes[uid].not_before_ms <= self.now
        ]

    def dispatch(self, uid: str, worker: str = "w") -> core.Attempt:
        self.ok(core.Dispatch(uid, worker, LEASE))
        return self.attempts[self.state.nodes[uid].attempt_id]

    def complete(self, uid: str, result: Any = None) -> core.Outcome:
        attempt = self.dispatch(uid)
        if result is None:
            text = self.state.definition.nodes[uid.split("#")[0]].agent.output.kind == "text"
            result = "done" if text else {}
        return self.ok(core.Complete(attempt, "w", result, core.Effect.APPLIED))

    def fail(self, uid: str, retryable: bool = True) -> core.Outcome:
        attempt = self.dispatch(uid)
        return self.ok(core.Fail(attempt, "w", "boom", retryable, core.Effect.NOT_APPLIED))

    def status(self, uid: str) -> core.NodeStatus:
        return self.state.nodes[uid].status
