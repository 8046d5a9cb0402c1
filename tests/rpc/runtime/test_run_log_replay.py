"""Store-level replay: random command sequences through the real server, then every run's
snapshot rebuilt from the stored command log equals the live stored snapshot, byte for byte.

The same histories check the reservations: with every attempt reporting at most its
node's declared maximum cost, ``spent + reserved`` never exceeds a contract's budget, and
the reservation rows, of the contract and of the starter, are exactly the running
attempts' maximum costs.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aiws.engine.v1 import common_pb2, reconciliation_pb2, run_pb2, task_pb2
from praxis.core import journal, money
from praxis.core import run as core
from praxis.store.execution.rows import contracts
from praxis.store.runtime import log as run_log
from praxis.store.runtime.rows import loading, reservations
from tests.support.execution import create_contract, fail_task, reconcile, settle, start_run
from tests.support.harness import Harness
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")


ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}
RETRY = {"attempts": 3, "backoff_ms": 10}
DOCUMENTS = [
    definition(
        "b",
        a=node(output=json_out(ITEMS), max_cost_microcredits="10", retry=RETRY),
        b=node("node:a", ("a",), json_out(), max_cost_microcredits="7.5", timeout_ms=3_000),
    ),
    definition(
        "join",
        split=node(output=json_out(ITEMS), max_cost_microcredits="4"),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"},
                  max_cost_microcredits="3", retry=RETRY),
        join=node("node:each", ("each",), json_out(), max_cost_microcredits="1"),
    ),
    definition(
        "z",
        x=node(output=json_out(), max_cost_microcredits="12", retry=RETRY),
        y=node(output=json_out(), max_cost_microcredits="12"),
        z=node(["node:x", "node:y"], ("x", "y"), json_out(), max_cost_microcredits="0.5"),
    ),
]  # fmt: skip
MAX_COST = {
    node_id: body["max_cost_microcredits"]
    for document in DOCUMENTS
    for node_id, body in document["nodes"].items()
}
EFFECTS = [
    common_pb2.EFFECT_OUTCOME_APPLIED,
    common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
    common_pb2.EFFECT_OUTCOME_UNCERTAIN,
]
DECISIONS = [
    reconciliation_pb2.RECONCILIATION_DECISION_APPLIED,
    reconciliation_pb2.RECONCILIATION_DECISION_NOT_APPLIED,
]
EXPECTED = {  # refusals a random history runs into; anything else is a defect
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ALREADY_EXISTS,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ABORTED,
}
_ids = itertools.count()


class Driver:
    """Issues RPCs for random actions and remembers the runs and tasks it saw."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.contract_id = f"c-{next(_ids)}"
        create_contract(h, self.contract_id, budget="20")
        self.runs: list[str] = []
        self.tasks: list[task_pb2.Task] = []
        self.workers: dict[str, str] = {}
        self.uncertain: list[str] = []

    def act(self, action: tuple[Any, ...]) -> None:
        try:
            getattr(self, f"_{action[0]}")(*action[1:])
        except grpc.RpcError as error:
            assert error.code() in EXPECTED, error

    def _start(self, which: int, governed: bool) -> None:
        fields = {"contract_id": self.contract_id} if governed else {}
        self.runs.append(start_run(self.h, DOCUMENTS[which], **fields).run_id)

    def _claim(self, worker: int, many: int) -> None:
        for task in claim(self.h, f"w{worker}", max_tasks=many, lease_ms=1_000):
            self.tasks.append(task)
            self.workers[task.attempt_id] = f"w{worker}"

    def _task(self, pick: int, settling: bool = False) -> task_pb2.Task | None:
        """A task not settled yet (its lease may have expired); a settled one at times."""
        if not self.tasks:
            return None
        task = self.tasks[pick % len(self.tasks)]
        if settling and pick % 5:
            self.tasks.remove(task)  # and one in five is settled twice
        return task

    def _complete(self, pick: int, effect: int, share: int) -> None:
        task = self._task(pick, settling=True)
        if task is not None:
            cost = money.text(Decimal(MAX_COST[task.node_id]) * share / 4)
            items = list(range(pick % 4))
            settle(self.h, task, {"items": items}, cost, effect, self.workers[task.attempt_id])
            if effect == common_pb2.EFFECT_OUTCOME_UNCERTAIN:
                self.uncertain.append(task.attempt_id)

    def _fail(self, pick: int, effect: int, retryable: bool) -> None:
        task = self._task(pick, settling=True)
        if task is not None:
            fail_task(self.h, task, effect, retryable, self.workers[task.attempt_id])
            if effect == common_pb2.EFFECT_OUTCOME_UNCERTAIN:
                self.uncertain.append(task.attempt_id)

    def _heartbeat(self, pick: int) -> None:
        task = self._task(pick)
        if task is not None:
            self.h.client("agent").tasks.Heartbeat(
                task_pb2.HeartbeatRequest(
                    attempt_id=task.attempt_id,
                    worker_id=self.workers[task.attempt_id],
                    lease_ms=1_500,
                )
            )

    def _advance(self, ms: int) -> None:
        self.h.clock.advance(ms)
        while self.h.server.engine.runs.sweep():
            pass

    def _stop(self, pick: int) -> None:
        if self.runs:
            run_id = self.runs[pick % len(self.runs)]
            self.h.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id))

    def _reconcile(self, pick: int, decision: int) -> None:
        if self.uncertain:
            attempt_id = self.uncertain.pop(pick % len(self.uncertain))
            reconcile(self.h, attempt_id, decision, {"seen": pick}, f"ap-{next(_ids)}")

    def stop_all(self) -> None:
        for run_id in self.runs:
            self.h.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id))
        # The attempts asked to stop hold their runs open until they report or their
        # leases run out: no worker reports here, so let the leases run out.
        self._advance(3_600_000)


ACTIONS = st.one_of(
    st.tuples(st.just("start"), st.integers(0, len(DOCUMENTS) - 1), st.booleans()),
    st.tuples(st.just("claim"), st.integers(0, 2), st.integers(1, 4)),
    st.tuples(st.just("claim"), st.integers(0, 2), st.integers(1, 4)),
    st.tuples(st.just("complete"), st.integers(0, 9), st.sampled_from(EFFECTS),
              st.integers(0, 4)),
    st.tuples(st.just("complete"), st.integers(0, 9), st.just(EFFECTS[0]), st.integers(0, 4)),
    st.tuples(st.just("fail"), st.integers(0, 9), st.sampled_from(EFFECTS), st.booleans()),
    st.tuples(st.just("heartbeat"), st.integers(0, 9)),
    st.tuples(st.just("advance"), st.sampled_from([5, 600, 1_200, 4_000])),
    st.tuples(st.just("stop"), st.integers(0, 9)),
    st.tuples(st.just("reconcile"), st.integers(0, 9), st.sampled_from(DECISIONS)),
)  # fmt: skip


def check_replay(h: Harness, run_ids: list[str]) -> None:
    """Every run's log rebuilds its stored snapshot, byte for byte."""
    store = h.server.engine.runs
    with store.db.read() as connection:
        for run_id in run_ids:
            live = loading.load(connection, run_id, store.definition)
            rebuilt = run_log.rebuild(connection, run_id, store.definition, store.limits)
            assert live is not None and rebuilt is not None
            assert journal.snapshot(rebuilt) == journal.snapshot(live.state)


def check_budget(h: Harness, contract_id: str, run_ids: list[str]) -> None:
    """Reservations are the live attempts' maximum costs (running, or asked to stop and
    not yet settled) and stay within the budget; the starter's are those of all its
    runs, under the contract or not."""
    store = h.server.engine.runs
    with store.db.read() as connection:
        held, started = money.ZERO, money.ZERO
        for run_id in run_ids:
            record = loading.load(connection, run_id, store.definition)
            assert record is not None
            running = money.ZERO
            for found in record.state.nodes.values():
                if found.status in core.HOLDING:
                    amount = core.reservation(record.state.definition, found.node_id)
                    running = money.add(running, amount)
            started = money.add(started, running)
            if record.contract_id == contract_id:
                held = money.add(held, running)
        view = contracts.load(connection, contract_id)
        assert view is not None
        assert reservations.reserved(connection, contract_id) == held
        assert money.add(view.spent, held) <= view.contract.budget
        assert reservations.principal_reserved(connection, "agent") == started


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(ACTIONS, min_size=20, max_size=40))
def test_the_stored_log_rebuilds_every_live_snapshot(
    model: Harness, actions: list[tuple[Any, ...]]
) -> None:
    driver = Driver(model)
    driver.act(("start", 0, True))
    for action in actions:
        driver.act(action)
        check_budget(model, driver.contract_id, driver.runs)  # overspending is transient
    check_replay(model, driver.runs)
    driver.stop_all()  # the next example starts with an empty queue
    check_replay(model, driver.runs)
    check_budget(model, driver.contract_id, driver.runs)
