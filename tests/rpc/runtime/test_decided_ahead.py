"""Settlements decided ahead of the writers' turn (SQLite, :mod:`praxis.store.runtime.ahead`):
a decision is used when its run is still at the version it read, and made again inside
the turn when the run moved on, with the same answers and rows either way. The server
here decides ahead as one of ``praxis serve --processes N`` does."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from aiws.engine.v1 import run_pb2, task_pb2
from praxis.core import run as core
from praxis.core.records import Principal, PrincipalKind
from praxis.observability import metrics
from praxis.store.runtime.tasks import Settlement
from tests.support.harness import Harness, start_server
from tests.support.runtime import (
    claim,
    complete,
    completion,
    definition,
    expanded,
    get_run,
    json_out,
    node,
    start,
    states,
)

AGENT = Principal("agent", PrincipalKind.AGENT)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Harness]:
    h = start_server(
        tmp_path / "praxis.db", metrics=True, models=("echo", "splitter"), decide_ahead=True
    )
    try:
        yield h
    finally:
        h.close()


def counted(outcome: str) -> Callable[[], float]:
    """How many committed commands used (``current``) or dropped (``stale``) their
    decision made ahead since this call."""

    def value() -> float:
        found = metrics.REGISTRY.get_sample_value(
            "praxis_decisions_ahead_total", {"outcome": outcome}
        )
        return found or 0.0

    before = value()
    return lambda: value() - before


def wide(n: int) -> dict[str, object]:
    nodes = {f"n{i}": node(output=json_out()) for i in range(n)}
    nodes["out"] = node([f"node:n{i}" for i in range(n)], tuple(nodes), json_out())
    return definition("out", **nodes)


def build(
    served: Harness, task: task_pb2.Task, result: object
) -> Callable[[core.Attempt], core.Command]:
    """How the task store completes ``task`` with ``result`` (as CompleteTask builds it)."""
    made = served.server.engine.tasks._completion(
        Settlement(
            attempt_id=task.attempt_id,
            worker_id="w1",
            effect=core.Effect.APPLIED,
            cost_microcredits="0",
            result_json=json.dumps(result),
        )
    )
    assert callable(made)
    return made


def test_a_fan_outs_items_settled_together_all_use_their_decisions(served: Harness) -> None:
    expanded(served, 8)
    items = claim(served)
    assert len(items) == 8
    current, stale = counted("current"), counted("stale")
    response = served.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[completion(task, {"i": task.node_uid}) for task in items]
        )
    )
    assert [r.WhichOneof("result") for r in response.results] == ["complete"] * 8
    # Each item was decided on the state the one before it decided, and each was current.
    assert (current(), stale()) == (8, 0)
    [join] = claim(served)
    assert json.loads(join.input_json) == [{"i": task.node_uid} for task in items]


def test_a_decision_whose_run_moved_on_is_made_again_inside_the_turn(served: Harness) -> None:
    run = start(served, wide(3)).run
    tasks = {t.node_uid: t for t in claim(served)}
    store = served.server.engine.tasks
    commands = [
        (tasks[uid].attempt_id, build(served, tasks[uid], {"ok": uid})) for uid in ("n0", "n1")
    ]
    decided = store._decide_ahead(AGENT, commands)
    assert all(d is not None for d in decided)
    assert decided[1] is not None and decided[1].follows  # n1 decided on n0's outcome
    complete(served, tasks["n2"], {"ok": "n2"})  # the run moves on before the turn
    current, stale = counted("current"), counted("stale")
    replies = store.unit.transact_many(
        [
            store._attempt_body(AGENT, attempt_id, made, None, found)
            for (attempt_id, made), found in zip(commands, decided, strict=True)
        ]
    )
    # n0's run is no longer at the version it read; n1 followed n0's decision, which was
    # not the state n0 wrote: both decided again, and nothing of n2's completion is lost.
    assert (current(), stale()) == (0, 2)
    assert all(isinstance(reply, core.Reply) for reply in replies)
    after = get_run(served, run.run_id)
    assert states(after) == {"n0": "DONE", "n1": "DONE", "n2": "DONE", "out": "READY"}
    [out] = claim(served)
    assert json.loads(out.input_json) == {uid: {"ok": uid} for uid in ("n0", "n1", "n2")}


def test_a_decision_still_current_is_used_and_answers_as_deciding_in_the_turn(
    served: Harness,
) -> None:
    run = start(served, wide(2)).run
    first, _second = sorted(claim(served), key=lambda task: task.node_uid)
    current, stale = counted("current"), counted("stale")
    assert complete(served, first, {"ok": 1}).replayed is False
    assert complete(served, first, {"ok": 1}).replayed is True  # a no-op outcome, ahead too
    assert (current(), stale()) == (2, 0)
    refused = served.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(settlements=[completion(first, {"ok": "other"})])
    )
    # A refusal decided ahead is given again by the turn (not counted as a decision).
    assert refused.results[0].error.reason == "ATTEMPT_ALREADY_SETTLED"
    assert (current(), stale()) == (2, 0)
    after = get_run(served, run.run_id)
    assert after.state == run_pb2.RUN_STATE_RUNNING
    assert states(after) == {"n0": "DONE", "n1": "RUNNING", "out": "PENDING"}


def test_a_lone_process_decides_inside_the_turn(tmp_path: Path) -> None:
    h = start_server(tmp_path / "lone.db", metrics=True)  # decide_ahead: off by default
    try:
        start(h, wide(1))
        current, stale = counted("current"), counted("stale")
        [task] = claim(h)
        complete(h, task, {"ok": 1})
        assert (current(), stale()) == (0, 0)
    finally:
        h.close()


def test_a_replay_in_a_batch_leaves_the_next_decision_of_its_run_current(
    served: Harness,
) -> None:
    start(served, wide(3))
    tasks = {t.node_uid: t for t in claim(served)}
    complete(served, tasks["n0"], {"ok": "n0"})
    current, stale = counted("current"), counted("stale")
    response = served.client("agent").tasks.SettleTasks(
        task_pb2.SettleTasksRequest(
            settlements=[
                completion(tasks["n0"], {"ok": "n0"}),  # a replay: a no-op outcome
                completion(tasks["n1"], {"ok": "n1"}),
                completion(tasks["n2"], {"ok": "n2"}),
            ]
        )
    )
    assert [r.complete.replayed for r in response.results] == [True, False, False]
    assert (current(), stale()) == (3, 0)
