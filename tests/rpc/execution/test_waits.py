"""Wait nodes: explicit satisfaction validated against a schema, expiry never early."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import run_pb2
from aiws.engine.v1 import wait_pb2 as pb
from praxis.clock import TestClock
from tests.support.execution import (
    authorize_wait,
    run_of,
    settle,
    start_model_server,
    start_run,
)
from tests.support.harness import T0, Harness, expect_error
from tests.support.runtime import claim, definition, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


APPROVAL = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def wait_node(kind: str = "human_input", on_expiry: str = "fail", **extra: Any) -> dict[str, Any]:
    wait: dict[str, Any] = {"expires_in_ms": 60_000, "schema": APPROVAL, "on_expiry": on_expiry}
    wait.update(extra)
    return {"kind": kind, "wait": wait}


def waiting(kind: str = "human_input", on_expiry: str = "fail", **extra: Any) -> dict[str, Any]:
    """ask (a wait) -> use (an agent reading the wait's payload)."""
    return definition(
        "use",
        ask=wait_node(kind, on_expiry, **extra),
        use=node("node:ask", ("ask",), json_out()),
    )


def waits(h: Harness, run_id: str) -> list[pb.Wait]:
    return list(h.client("agent").waits.ListWaits(pb.ListWaitsRequest(run_id=run_id)).waits)


def satisfy(h: Harness, wait_id: str, payload: Any, request_id: str = "s-1",
            principal: str = "agent") -> pb.SatisfyWaitResponse:  # fmt: skip
    return h.client(principal).waits.SatisfyWait(  # type: ignore[no-any-return]
        pb.SatisfyWaitRequest(
            request_id=request_id, wait_id=wait_id, payload_json=json.dumps(payload)
        )
    )


def sweep(h: Harness) -> None:
    while h.server.engine.runs.sweep():
        pass


def test_a_wait_is_satisfied_by_a_valid_payload_once(model: Harness) -> None:
    run = start_run(model, waiting())
    [wait] = waits(model, run.run_id)
    assert wait.state == pb.WAIT_STATE_PENDING and wait.kind == pb.WAIT_KIND_HUMAN_INPUT
    assert wait.expires_at_ms == T0 + 60_000 and wait.opened_at_ms == T0
    assert wait.wait_id.startswith("wait_")
    assert states(run_of(model, run.run_id))["ask"] == "WAITING"
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WAIT_PAYLOAD_INVALID"):
        satisfy(model, wait.wait_id, {"ok": "yes"})
    assert waits(model, run.run_id)[0].state == pb.WAIT_STATE_PENDING
    done = satisfy(model, wait.wait_id, {"ok": True})
    assert done.wait.state == pb.WAIT_STATE_SATISFIED and done.wait.satisfied_by == "agent"
    assert (done.wait.opened_at_ms, done.wait.expires_at_ms) == (T0, T0 + 60_000)
    assert satisfy(model, wait.wait_id, {"ok": True}).replayed
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WAIT_ALREADY_SATISFIED"):
        satisfy(model, wait.wait_id, {"ok": False}, request_id="s-2")
    [use] = claim(model)
    assert json.loads(use.input_json) == {"ok": True}
    settle(model, use)
    assert run_of(model, run.run_id).state == run_pb2.RUN_STATE_COMPLETED


def test_a_wait_never_expires_early_and_then_fails_the_run(model: Harness) -> None:
    run = start_run(model, waiting())
    [wait] = waits(model, run.run_id)
    model.clock.set(wait.expires_at_ms - 1)
    sweep(model)
    assert states(run_of(model, run.run_id))["ask"] == "WAITING"
    model.clock.set(wait.expires_at_ms)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WAIT_EXPIRED"):
        satisfy(model, wait.wait_id, {"ok": True})
    sweep(model)
    failed = run_of(model, run.run_id)
    assert failed.state == run_pb2.RUN_STATE_FAILED
    assert failed.result_reason == "WAIT_EXPIRED"
    assert waits(model, run.run_id)[0].state == pb.WAIT_STATE_EXPIRED
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WAIT_EXPIRED"):
        satisfy(model, wait.wait_id, {"ok": True}, request_id="s-late")


def test_an_expired_timer_takes_its_default(model: Harness) -> None:
    run = start_run(model, waiting("timer", "default", default={"ok": False}))
    model.clock.advance(60_000)
    # Before the sweep applies it, the wait already reports what it will do.
    assert waits(model, run.run_id)[0].state == pb.WAIT_STATE_DEFAULTED
    sweep(model)
    [wait] = waits(model, run.run_id)
    assert wait.state == pb.WAIT_STATE_DEFAULTED and wait.kind == pb.WAIT_KIND_TIMER
    assert (wait.opened_at_ms, wait.expires_at_ms) == (T0, T0 + 60_000)  # kept once settled
    [use] = claim(model)
    assert json.loads(use.input_json) == {"ok": False}


def test_two_defaults_due_together_are_both_taken(model: Harness) -> None:
    document = definition(
        "join",
        t1=wait_node("timer", "default", default={"ok": True}),
        t2=wait_node("timer", "default", default={"ok": False}),
        join=node(["node:t1", "node:t2"], ("t1", "t2"), json_out()),
    )
    run = start_run(model, document)
    model.clock.advance(60_000)
    sweep(model)
    assert [w.state for w in waits(model, run.run_id)] == [pb.WAIT_STATE_DEFAULTED] * 2
    [join] = claim(model)
    assert json.loads(join.input_json) == {"t1": {"ok": True}, "t2": {"ok": False}}


def test_an_authorization_needs_a_human(model: Harness) -> None:
    run = start_run(model, waiting("authorization"))
    [wait] = waits(model, run.run_id)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        satisfy(model, wait.wait_id, {"ok": True})
    # A human satisfies it with the approval of its material (test_wait_approvals.py).
    assert authorize_wait(model, wait.wait_id, {"ok": True}, "ap-1").wait.satisfied_by == "alice"


def test_a_wait_opens_only_after_its_dependencies(model: Harness) -> None:
    document = definition(
        "ask",
        draft=node(output=json_out()),
        ask={**wait_node(), "depends_on": ["draft"], "input": {"from": "node:draft"}},
    )
    run = start_run(model, document)
    [wait] = waits(model, run.run_id)
    assert wait.state == pb.WAIT_STATE_NOT_OPEN and wait.expires_at_ms == 0
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "WAIT_NOT_OPEN"):
        satisfy(model, wait.wait_id, {"ok": True})
    model.clock.advance(1_000)
    [draft] = claim(model)
    settle(model, draft)
    assert waits(model, run.run_id)[0].expires_at_ms == T0 + 61_000


def test_bad_wait_requests(model: Harness) -> None:
    run = start_run(model, waiting())
    [wait] = waits(model, run.run_id)
    with expect_error(grpc.StatusCode.NOT_FOUND, "WAIT_NOT_FOUND"):
        satisfy(model, "wait_missing", {"ok": True})
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DOCUMENT_NUMBER_FORBIDDEN"):
        model.client("agent").waits.SatisfyWait(
            pb.SatisfyWaitRequest(request_id="s-9", wait_id=wait.wait_id, payload_json="1.5")
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        satisfy(model, wait.wait_id, {"ok": True}, request_id="bad id")
    assert waits(model, run.run_id)[0].state == pb.WAIT_STATE_PENDING


def test_wait_definitions_are_validated(model: Harness) -> None:
    bad = [
        {"kind": "human_input"},
        {"kind": "pager", "wait": {}},
        wait_node(on_expiry="later"),
        wait_node(on_expiry="default"),
        wait_node(on_expiry="default", default={"ok": "no"}),
        {**wait_node(), "agent": {"model": "echo"}},
        wait_node(expires_in_ms=0),
    ]
    for ask in bad:
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
            start_run(model, definition("ask", ask=ask))


def test_waits_survive_a_restart(tmp_path: Path) -> None:
    clock = TestClock(T0)
    first = start_model_server(tmp_path / "praxis.db", clock)
    run = start_run(first, waiting())
    [wait] = waits(first, run.run_id)
    first.close()
    second = start_model_server(tmp_path / "praxis.db", clock)
    try:
        assert waits(second, run.run_id)[0].state == pb.WAIT_STATE_PENDING
        satisfy(second, wait.wait_id, {"ok": True})
        assert states(run_of(second, run.run_id))["ask"] == "DONE"
    finally:
        second.close()


def test_a_wait_added_by_an_activated_revision_can_be_satisfied(model: Harness) -> None:
    from aiws.engine.v1 import event_pb2
    from tests.support.registry import (
        DEFINITION,
        activate_cmd,
        approve,
        execute,
        proposed,
        registered,
    )

    ref = registered(model)
    started = model.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=ref, input_json="null")
    )
    revised = {**DEFINITION, "nodes": {**DEFINITION["nodes"], "w": wait_node()},  # type: ignore[dict-item]
               "output": {"from": "node:w"}}  # fmt: skip
    proposed(model, ref, "p-w", definition=revised)
    command = activate_cmd(ref, "p-w", 1, "ap-w")
    approve(model, command, "ap-w")
    execute(model, "alice", "act-w", command)
    run_id = started.run.run_id
    [wait] = waits(model, run_id)
    assert wait.state == pb.WAIT_STATE_PENDING
    satisfy(model, wait.wait_id, {"ok": True})
    assert run_of(model, run_id).state == run_pb2.RUN_STATE_COMPLETED
    events = model.client("agent").events.ListEvents(event_pb2.ListEventsRequest(run_id=run_id))
    kinds = [event_pb2.EventKind.Name(e.kind) for e in events.events]
    assert "EVENT_KIND_NODE_WAITING" in kinds and "EVENT_KIND_WAIT_SATISFIED" in kinds
