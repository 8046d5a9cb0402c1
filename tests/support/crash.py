"""The workload of the crash tests (``tests/e2e/test_runtime_crash.py``,
``tests/e2e/test_pg_replicas_crash.py``): ``RUNS`` runs of a fan-out ``PLAN`` whose
nodes retry, the workers' handler, and calls retried while the server restarts."""

from __future__ import annotations

import time

import grpc

from praxis_client.worker import Task
from tests.support.runtime import definition, json_out, node

RUNS = 50
RETRY = {"attempts": 20, "backoff_ms": 50}
ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}
# The handler has no external effect: a lease lost in a crash is simply retried.
PLAN = definition(
    "join",
    split=node(output=json_out(ITEMS), retry=RETRY, effects="none"),
    each=node(
        "fanout_item",
        ("split",),
        json_out(),
        fanout={"over": "node:split.items"},
        retry=RETRY,
        effects="none",
    ),
    join=node("node:each", ("each",), retry=RETRY, effects="none"),
)
NODES_PER_RUN = 1 + 1 + 3 + 1  # split, each (group), each#0..2, join


def handle(task: Task) -> object:
    time.sleep(0.005)
    if task.proto.node_id == "split":
        return {"items": [1, 2, 3]}
    if task.proto.node_id == "each":
        return {"square": task.input * task.input}
    return "sum=" + str(sum(item["square"] for item in task.input))


def retrying(call: object, stop_at: float) -> object:
    while True:
        try:
            return call()  # type: ignore[operator]
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > stop_at:
                raise
            time.sleep(0.1)
