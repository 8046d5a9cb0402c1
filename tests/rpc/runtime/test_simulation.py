"""SimulationService: dry runs served by the pure core, writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format

from aiws.engine.v1 import common_pb2, event_pb2, run_pb2
from aiws.engine.v1 import simulation_pb2 as pb
from tests.support.harness import Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, proposed, ref
from tests.support.runtime import GOVERNED_PLAN, definition, governed, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

START = 1_700_000_000_000
CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",)))


def outcome(node_id: str, kind: int, result: object = None, **fields: object) -> pb.ScriptedOutcome:
    text = "" if result is None else json.dumps(result)
    return pb.ScriptedOutcome(node=node_id, kind=kind, result_json=text, **fields)  # type: ignore[arg-type]


COMPLETE = pb.SCRIPTED_OUTCOME_KIND_COMPLETE


def simulate(h: Harness, principal: str = "agent", **fields: object) -> pb.SimulateRunResponse:
    fields.setdefault("start_at_ms", START)
    request = pb.SimulateRunRequest(**fields)  # type: ignore[arg-type]
    return h.client(principal).simulations.SimulateRun(request)  # type: ignore[no-any-return]


def test_a_definition_is_played_to_its_end_and_nothing_is_stored(harness: Harness) -> None:
    before = harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs
    done = simulate(
        harness,
        definition_json=json.dumps(CHAIN),
        input_json='{"topic": "tides"}',
        script=[
            outcome("a", COMPLETE, {"x": 1}, duration_ms=500, cost_microcredits="0.5"),
            outcome("b", COMPLETE, "report", duration_ms=250),
        ],
    )
    assert done.end == pb.SIMULATION_END_RUN_ENDED and done.result_json == '"report"'
    assert done.run.state == run_pb2.RUN_STATE_COMPLETED and done.run.run_id == "run_simulated"
    dispatches = [s for s in done.steps if s.action == pb.SIMULATION_STEP_ACTION_DISPATCH]
    assert [(s.node_uid, s.input_json, s.at_ms) for s in dispatches] == [
        ("a", '{"topic":"tides"}', START),
        ("b", '{"x":1}', START + 500),
    ]
    events = [e for s in done.steps for e in s.events]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].kind == event_pb2.EVENT_KIND_RUN_STARTED
    assert events[-1].kind == event_pb2.EVENT_KIND_RUN_COMPLETED
    assert json.loads(events[-1].payload_json)["result"] == "report"
    after = harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs
    assert list(after) == list(before)
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        harness.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id="run_simulated"))


def test_a_missing_outcome_ends_the_simulation_naming_the_node(harness: Harness) -> None:
    stopped = simulate(
        harness, definition_json=json.dumps(CHAIN), script=[outcome("a", COMPLETE, {})]
    )
    assert (stopped.end, stopped.waiting_on) == (pb.SIMULATION_END_NEEDS_SCRIPT, "b")
    assert stopped.run.state == run_pb2.RUN_STATE_RUNNING and not stopped.result_json


def test_a_refs_head_and_an_earlier_revision_are_simulated(harness: Harness) -> None:
    governed(harness)  # revision 1 registered (and a real run of it started)
    revised = json.loads(json.dumps(GOVERNED_PLAN))
    revised["nodes"]["report"]["agent"]["output"] = {"type": "json", "schema": {"type": "object"}}
    proposed(harness, ref(), "p1", 1, revised)
    command = activate_cmd(ref(), "p1", 1, "ap-p1")
    approve(harness, command, "ap-p1")
    execute(harness, "alice", "act-p1", command)
    script = [outcome("research", COMPLETE, {}), outcome("draft", COMPLETE, {})]
    text_report = [*script, outcome("report", COMPLETE, "done")]
    head = simulate(harness, ref=ref(), script=text_report)
    refused = [s.refusal_reason for s in head.steps if s.refusal_reason]
    assert refused[0] == "RESULT_CONTRACT_VIOLATION"  # revision 2 wants an object
    assert head.run.revision == 2 and head.run.ref.run_id == "run-1"
    first = simulate(harness, ref=ref(), revision=1, script=text_report)
    assert first.end == pb.SIMULATION_END_RUN_ENDED and first.result_json == '"done"'
    assert first.run.revision == 1


def test_bad_requests_are_refused_with_their_reason(harness: Harness) -> None:
    chain = json.dumps(CHAIN)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        simulate(harness, definition_json=chain, start_at_ms=0)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        simulate(harness)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "SCRIPT_INVALID"):
        simulate(harness, definition_json=chain, script=[outcome("zzz", COMPLETE, {})])
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        simulate(harness, definition_json=chain, script=[pb.ScriptedOutcome(node="a")])
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DECIMAL_NOT_CANONICAL"):
        simulate(
            harness,
            definition_json=chain,
            script=[outcome("a", COMPLETE, {}, cost_microcredits="1.50")],
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DOCUMENT_MALFORMED"):
        simulate(harness, definition_json=chain, input_json="{")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        simulate(harness, definition_json='{"version": 1, "nodes": {}}')
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TIME_INVALID"):
        simulate(harness, definition_json=chain, lease_ms=10)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "SIMULATION_INVALID"):
        simulate(harness, definition_json=chain, revision=2)
    with expect_error(grpc.StatusCode.NOT_FOUND, "REF_NOT_FOUND"):
        simulate(harness, "alice", ref=common_pb2.WorkflowRef(work_order_id="wo-1", run_id="no"))


def test_simulating_needs_a_read_grant_on_the_work_order(harness: Harness) -> None:
    chain = json.dumps(CHAIN)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        simulate(harness, "reader", definition_json=chain)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        simulate(harness, "scoped", definition_json=chain, work_order_id="wo-b")
    assert simulate(harness, "scoped", definition_json=chain, work_order_id="wo-a1").steps
    governed(harness)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        simulate(harness, "scoped", ref=ref())  # wo-1: the same answer as a missing ref
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        simulate(harness, "scoped", ref=common_pb2.WorkflowRef(work_order_id="wo-1", run_id="x"))


def test_the_request_in_the_docs_runs_as_documented(harness: Harness) -> None:
    """docs/core.md's proto-JSON request: a's first attempt fails, the retry completes."""
    page = (Path(__file__).parents[3] / "docs" / "core.md").read_text(encoding="utf-8")
    section = page.split("## Simulating from any language", 1)[1]
    block = section.split("```json\n", 1)[1].split("```", 1)[0]
    request = json_format.Parse(block, pb.SimulateRunRequest())
    done = harness.client("agent").simulations.SimulateRun(request)
    assert done.end == pb.SIMULATION_END_RUN_ENDED and done.result_json == '"done"'
    dispatched = [s for s in done.steps if s.action == pb.SIMULATION_STEP_ACTION_DISPATCH]
    assert [(s.attempt, s.input_json) for s in dispatched] == [(1, '"tides"'), (2, '"tides"')]
