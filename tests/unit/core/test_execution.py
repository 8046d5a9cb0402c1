"""The execution model's pure core: rules in isolation, and replay of random histories."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from praxis.core import assessment, contract, handoff, journal, money, segments
from praxis.core import definition as d
from praxis.core import run as core
from praxis.core.records import PrincipalKind
from praxis.core.rejection import Rejection
from tests.support.runtime import definition, json_out, node

T0 = 1_000_000
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
DOCUMENT = definition(
    "b",
    a=node(output=json_out(), max_cost_microcredits="10", retry={"attempts": 3, "backoff_ms": 5}),
    w={"kind": "human_input",
       "wait": {"expires_in_ms": 500, "schema": SCHEMA, "on_expiry": "default",
                "default": {"ok": False}}},
    b=node(["node:a", "node:w"], ("a", "w"), json_out()),
    side=node(output=json_out(), timeout_ms=300),
)  # fmt: skip


class Sim:
    """The reducer plus the records a store keeps, writing a journal as JSON text."""

    def __init__(self) -> None:
        parsed = d.parse(DOCUMENT, None)
        assert isinstance(parsed, d.Definition), parsed
        self.definition = parsed
        self.now = T0
        self.state: core.RunState | None = None
        self.attempts: dict[str, core.Attempt] = {}
        self.pending: dict[str, tuple[bool, Any]] = {}
        self.spent = Decimal(0)
        self.log: list[str] = []
        self.apply(core.Start("run-1", parsed))

    def apply(self, command: core.Command) -> core.Outcome | Rejection:
        before = self.state
        outcome = core.apply(self.state, command, self.now)
        if isinstance(outcome, Rejection):
            assert self.state is before
            return outcome
        self.log.append(values_text(journal.Entry(self.now, journal.encode(command))))
        if outcome.noop:
            return outcome
        self.state = outcome.state
        for attempt in outcome.attempts:
            self.attempts[attempt.attempt_id] = attempt
            if attempt.status in (core.AttemptStatus.COMPLETED, core.AttemptStatus.FAILED):
                self.spent = money.add(self.spent, Decimal(attempt.cost_microcredits))
        return outcome

    def nodes(self, *statuses: core.NodeStatus) -> list[core.NodeRun]:
        assert self.state is not None
        return sorted(
            (n for n in self.state.nodes.values() if n.status in statuses), key=lambda n: n.uid
        )

    def step(self, action: tuple[Any, ...]) -> None:
        kind, pick = action[0], action[1]
        if kind == "advance":
            self.now += pick
            self.apply(core.Expire())
            return
        if kind == "stop":
            self.apply(core.Stop("stopped"))
            return
        if kind == "satisfy":
            self.apply(core.SatisfyWait("w", {"ok": True} if pick % 2 else {"ok": "x"}))
            return
        handler = getattr(self, f"_{kind}")
        handler(pick, *action[2:])

    def _dispatch(self, pick: int, limited: bool) -> None:
        ready = self.nodes(core.NodeStatus.READY)
        if ready:
            allowance = contract.Allowance(money.subtract(Decimal(25), self.spent), T0 + 2_000)
            uid = ready[pick % len(ready)].uid
            self.apply(core.Dispatch(uid, "w1", 200, allowance if limited else None))

    def _settle(self, pick: int, effect: core.Effect, cost: str, completed: bool) -> None:
        running = self.nodes(core.NodeStatus.RUNNING)
        if not running:
            return
        node = running[pick % len(running)]
        attempt = self.attempts[node.attempt_id]
        if completed:
            command: core.Command = core.Complete(attempt, "w1", {"n": pick}, effect, cost)
        else:
            command = core.Fail(attempt, "w1", "boom", pick % 2 == 0, effect, cost)
        outcome = self.apply(command)
        if isinstance(outcome, core.Outcome) and effect is core.Effect.UNCERTAIN:
            self.pending[attempt.attempt_id] = (completed, {"n": pick} if completed else None)

    def _heartbeat(self, pick: int) -> None:
        running = self.nodes(core.NodeStatus.RUNNING)
        if running:
            node = running[pick % len(running)]
            self.apply(core.Heartbeat(self.attempts[node.attempt_id], "w1", 200))

    def _reconcile(self, pick: int, applied: bool) -> None:
        blocked = self.nodes(core.NodeStatus.BLOCKED)
        if blocked:
            node = blocked[pick % len(blocked)]
            # An attempt that ended without a report (lease lost, stopped) failed.
            completed, result = self.pending.get(node.attempt_id, (False, None))
            self.apply(core.Reconcile(node.uid, node.attempt_id, applied, result, completed))


def values_text(entry: journal.Entry) -> str:
    return json.dumps({"now_ms": entry.now_ms, "command": entry.command}, sort_keys=True)


EFFECTS = st.sampled_from(list(core.Effect))
ACTIONS = st.one_of(
    st.tuples(st.just("dispatch"), st.integers(0, 5), st.booleans()),
    st.tuples(st.just("settle"), st.integers(0, 5), EFFECTS,
              st.sampled_from(["0", "1", "2.5", "7"]), st.booleans()),
    st.tuples(st.just("heartbeat"), st.integers(0, 5)),
    st.tuples(st.just("reconcile"), st.integers(0, 5), st.booleans()),
    st.tuples(st.just("advance"), st.sampled_from([1, 5, 100, 250, 600])),
    st.tuples(st.just("satisfy"), st.integers(0, 1)),
    st.tuples(st.just("stop"), st.just(0)),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(ACTIONS, max_size=40))
@example(  # a failed node while another attempt runs: FAILING until it settles
    [("dispatch", 0, False), ("dispatch", 0, False),
     ("settle", 0, core.Effect.UNCERTAIN, "0", False), ("reconcile", 0, True)]
)  # fmt: skip
def test_replaying_the_journal_rebuilds_the_same_snapshot(actions: list[tuple[Any, ...]]) -> None:
    sim = Sim()
    for action in actions:
        sim.step(action)
    assert sim.state is not None
    entries = [journal.Entry(**json.loads(line)) for line in sim.log]
    rebuilt = journal.replay(entries, {sim.definition.digest: sim.definition})
    assert journal.snapshot(rebuilt) == journal.snapshot(sim.state)
    if sim.state.status is core.RunStatus.COMPLETED:
        assert not sim.nodes(core.NodeStatus.BLOCKED)  # nothing unsettled at completion
    if sim.state.result_reason:  # a decided failure ends once nothing asked to stop runs
        stopping = sim.nodes(core.NodeStatus.STOPPING)
        assert sim.state.status is (core.RunStatus.FAILING if stopping else core.RunStatus.FAILED)


def test_money_is_exact_and_refuses_bad_amounts() -> None:
    assert money.text(money.add(Decimal("0.1"), Decimal("0.2"))) == "0.3"
    big = Decimal("999999999999999999.999999")
    assert money.text(money.add(big, big)) == "1999999999999999999.999998"
    for text, reason in [("1.0", "DECIMAL_NOT_CANONICAL"), ("-1", "COST_INVALID"),
                         ("1" + "0" * 19, "COST_INVALID"), ("1" * 70, "COST_INVALID")]:  # fmt: skip
        found = money.parse_amount(text, "cost")
        assert isinstance(found, Rejection) and found.reason == reason, text


def test_refusal_names_the_first_limit_that_binds() -> None:
    allowance = contract.Allowance(Decimal(10), 1_000, Decimal(5))
    assert contract.refusal(allowance, Decimal(0), Decimal(0), 0, 999) is None
    assert contract.refusal(allowance, Decimal(0), Decimal(0), 0, 1_000)[0] == "DEADLINE_EXCEEDED"  # type: ignore[index]
    assert contract.refusal(allowance, Decimal(0), Decimal(0), 2, 999)[0] == "DEADLINE_EXCEEDED"  # type: ignore[index]
    assert contract.refusal(allowance, Decimal(11), Decimal(0), 0, 0)[0] == "BUDGET_EXCEEDED"  # type: ignore[index]
    assert contract.refusal(allowance, Decimal(6), Decimal(0), 0, 0)[0] == "SPEND_CAP_EXCEEDED"  # type: ignore[index]
    assert contract.refusal(allowance, Decimal(1), Decimal(10), 0, 0)[0] == "BUDGET_EXCEEDED"  # type: ignore[index]
    assert contract.refusal(contract.Allowance(), Decimal(99), Decimal(0), 0, 0) is None


def test_dispatch_refused_by_the_budget_fails_the_run_with_the_reason() -> None:
    sim = Sim()
    empty = contract.Allowance(Decimal(5), 0)  # a needs up to 10
    outcome = sim.apply(core.Dispatch("a", "w1", 200, empty))
    assert isinstance(outcome, core.Outcome)
    assert outcome.state.status is core.RunStatus.FAILED
    assert outcome.state.result_reason == "BUDGET_EXCEEDED"
    assert next(e.kind for e in outcome.events) == "DISPATCH_REFUSED"


def test_acceptance_uses_only_current_assessments() -> None:
    def make(kind: assessment.Kind, verdict: assessment.Verdict, subject: str) -> Any:
        return assessment.Assessment("x", "r", kind, verdict, subject, "", None, "alice", 0)

    accept, verify = assessment.Kind.ACCEPTANCE, assessment.Kind.VERIFICATION
    ok, bad = assessment.Verdict.PASS, assessment.Verdict.FAIL
    history = [make(accept, ok, "s1"), make(verify, bad, "s0")]
    assert assessment.accepted(history, "s1")
    assert not assessment.accepted(history, "s2")  # the subject changed
    assert not assessment.accepted([*history, make(verify, bad, "s1")], "s1")
    problem = assessment.check_record(accept, PrincipalKind.AGENT, True, "s", "s")
    assert problem is not None and problem.reason == "HUMAN_REQUIRED"
    problem = assessment.check_record(verify, PrincipalKind.AGENT, False, "", "s")
    assert problem is not None and problem.reason == "RUN_NOT_COMPLETED"


def test_a_handoff_is_acknowledged_once_by_its_receiver() -> None:
    offered = handoff.Handoff(handoff.delivery_id("a", "r"), "run", "n", "a", "b", "sha256:x", "")
    assert offered.delivery_id.startswith("dlv_")
    refused = handoff.acknowledge(offered, "a", 5)
    assert isinstance(refused, Rejection) and refused.reason == "HANDOFF_NOT_ADDRESSED"
    done = handoff.acknowledge(offered, "b", 5)
    assert isinstance(done, handoff.Handoff) and done.acknowledged_at_ms == 5
    twice = handoff.acknowledge(done, "b", 6)
    assert isinstance(twice, Rejection) and twice.reason == "HANDOFF_ALREADY_ACKNOWLEDGED"


def test_segments_begin_once_per_incarnation_and_epoch() -> None:
    first = segments.begin([], segments.Reason.START, 1, 1, "p1")
    assert first is not None and first.number == 1
    assert segments.begin([first], segments.Reason.RECOVERY, 2, 1, "p1") is None
    second = segments.begin([first], segments.Reason.RECOVERY, 2, 1, "p2")
    assert second is not None and second.number == 2
    assert segments.begin([first, second], segments.Reason.OWNER_CHANGE, 3, 1, "p2") is None
    owner = segments.begin([first, second], segments.Reason.OWNER_CHANGE, 3, 2, "p2")
    assert owner is not None and owner.number == 3
