"""Helpers for runtime tests: definitions, starting runs, claiming and settling tasks."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

from aiws.engine.v1 import common_pb2, event_pb2, run_pb2, task_pb2
from tests.support.harness import Harness
from tests.support.registry import approve, execute, ref, register_cmd

OBJECT = {"type": "object"}
_ids = itertools.count()


def json_out(schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON output contract."""
    return {"type": "json", "schema": OBJECT if schema is None else schema}


def node(
    source: Any = "run_input",
    deps: tuple[str, ...] = (),
    output: dict[str, Any] | None = None,
    model: str = "echo",
    **extra: Any,
) -> dict[str, Any]:
    """A node document."""
    agent: dict[str, Any] = {"model": model}
    if output is not None:
        agent["output"] = output
    body: dict[str, Any] = {"agent": agent, "input": {"from": source}, **extra}
    if deps:
        body["depends_on"] = list(deps)
    return body


def definition(output: str, **nodes: dict[str, Any]) -> dict[str, Any]:
    """A definition document."""
    return {"version": 1, "nodes": nodes, "output": {"from": f"node:{output}"}}


def diamond() -> dict[str, Any]:
    """a -> (b, c) -> d, each reading JSON objects."""
    return definition(
        "d",
        a=node(output=json_out()),
        b=node("node:a", ("a",), json_out()),
        c=node("node:a", ("a",), json_out()),
        d=node(["node:b", "node:c"], ("b", "c"), json_out()),
    )


def start(
    h: Harness,
    document: dict[str, Any] | None = None,
    run_input: Any = None,
    request_id: str | None = None,
    principal: str = "agent",
    **fields: Any,
) -> run_pb2.StartRunResponse:
    """Starts an ad hoc run."""
    request = run_pb2.StartRunRequest(
        request_id=request_id or f"req-{next(_ids)}",
        input_json=json.dumps(run_input),
        **fields,
    )
    if document is not None:
        request.definition_json = json.dumps(document)
    return h.client(principal).runs.StartRun(request)  # type: ignore[no-any-return]


def get_run(h: Harness, run_id: str) -> run_pb2.Run:
    """A run snapshot."""
    return h.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run


def claim(
    h: Harness,
    worker: str = "w1",
    models: tuple[str, ...] = ("echo",),
    max_tasks: int = 100,
    lease_ms: int = 30_000,
    wait_ms: int = 0,
) -> list[task_pb2.Task]:
    """Claims ready tasks."""
    response = h.client("agent").tasks.ClaimTasks(
        task_pb2.ClaimTasksRequest(
            worker_id=worker,
            models=list(models),
            max_tasks=max_tasks,
            lease_ms=lease_ms,
            wait_ms=wait_ms,
        )
    )
    return list(response.tasks)


def complete(
    h: Harness, task: task_pb2.Task, result: Any, worker: str = "w1"
) -> task_pb2.CompleteTaskResponse:
    """Completes a task with a JSON result."""
    return h.client("agent").tasks.CompleteTask(  # type: ignore[no-any-return]
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            result_json=json.dumps(result),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )


def fail(
    h: Harness, task: task_pb2.Task, error: str = "boom", retryable: bool = True, worker: str = "w1"
) -> task_pb2.FailTaskResponse:
    """Fails a task."""
    return h.client("agent").tasks.FailTask(  # type: ignore[no-any-return]
        task_pb2.FailTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            error=error,
            retryable=retryable,
            effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
        )
    )


def echo(task: task_pb2.Task) -> Any:
    """A handler that returns the node id and its input (``done:<uid>`` for text outputs)."""
    if json.loads(task.agent.output_json)["type"] == "text":
        return f"done:{task.node_uid}"
    return {"node": task.node_uid, "input": json.loads(task.input_json)}


def drive(
    h: Harness,
    run_id: str,
    handler: Callable[[task_pb2.Task], Any] = echo,
    rounds: int = 50,
) -> run_pb2.Run:
    """Claims and completes tasks until the run ends."""
    for _ in range(rounds):
        run = get_run(h, run_id)
        if run.state in TERMINAL:
            return run
        for task in claim(h):
            complete(h, task, handler(task))
    raise AssertionError(f"run {run_id} did not end: {get_run(h, run_id)}")


TERMINAL = (
    run_pb2.RUN_STATE_COMPLETED,
    run_pb2.RUN_STATE_FAILED,
    run_pb2.RUN_STATE_CANCELLED,
)


def event_kinds(h: Harness, run_id: str) -> list[str]:
    """The kinds of a run's events, in order, without the ``EVENT_KIND_`` prefix."""
    page = h.client("agent").events.ListEvents(
        event_pb2.ListEventsRequest(run_id=run_id, limit=1000)
    )
    return [event_pb2.EventKind.Name(e.kind).removeprefix("EVENT_KIND_") for e in page.events]


def states(run: run_pb2.Run) -> dict[str, str]:
    """Node uid -> node state name."""
    return {n.node_uid: run_pb2.NodeState.Name(n.state)[len("NODE_STATE_") :] for n in run.nodes}


ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}


def fanout() -> dict[str, Any]:
    """split -> each (fan-out over split.items) -> join."""
    return definition(
        "join",
        split=node(output=json_out(ITEMS), model="splitter"),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
        join=node("node:each", ("each",), json_out()),
    )


def expanded(h: Harness, items: int) -> str:
    """A started fan-out run whose source completed with ``items`` items."""
    assert not claim(h, models=("splitter",))  # makes the source's model known
    run = start(h, fanout()).run
    [task] = claim(h, models=("splitter",), max_tasks=1)
    complete(h, task, {"items": list(range(items))})
    return run.run_id


def completion(task: task_pb2.Task, result: object, worker: str = "w1") -> task_pb2.Settlement:
    """A SettleTasks item completing ``task`` with a JSON result."""
    return task_pb2.Settlement(
        complete=task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            result_json=json.dumps(result),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )


def failure(task: task_pb2.Task, retryable: bool, worker: str = "w1") -> task_pb2.Settlement:
    """A SettleTasks item failing ``task``."""
    return task_pb2.Settlement(
        fail=task_pb2.FailTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            error="boom",
            retryable=retryable,
            effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
        )
    )


GOVERNED_PLAN = definition(
    "report",
    research=node(output=json_out()),
    draft=node("node:research", ("research",), json_out()),
    report=node("node:draft", ("draft",)),
)


def governed(h: Harness, name: str = "run-1") -> run_pb2.Run:
    """Registers ``GOVERNED_PLAN`` at ref ``wo-1``/``name`` (approved by alice) and starts
    that governed run."""
    r = ref(run_id=name)
    command = register_cmd(r, f"ap-{name}", GOVERNED_PLAN)
    approve(h, command, f"ap-{name}")
    execute(h, "alice", f"reg-{name}", command)
    return (
        h.client("agent")
        .runs.StartRun(run_pb2.StartRunRequest(request_id=f"start-{name}", ref=r))
        .run
    )
