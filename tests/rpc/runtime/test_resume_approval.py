"""Resumes that need a fresh human approval (issue 37, items 3 and 8).

Item 3: a resume never offers a new attempt of a node whose earlier effect was APPLIED or
whose action an authorization wait's approval covered, without a fresh human approval of
that exact action (its node, operation and input digest); ReviewResume lists them.

Item 8 (agent replacement): a governed run whose node failed resumes onto its ref's head
when the head changes only nodes that are not DONE and keeps the graph's shape; the
material carries the node-level diff, a human approves it, the replaced nodes run under
the new spec and new operation ids, and DONE nodes keep their results.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, run_pb2, wait_pb2
from aiws.engine.v1 import common_pb2 as cpb
from praxis.core import journal
from praxis.store.runtime import log as run_log
from praxis.store.runtime.rows import loading
from praxis_client import error_details
from tests.support.execution import authorize_wait, fail_task, run_of, start_run
from tests.support.harness import Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, proposed, ref, register_cmd
from tests.support.runtime import claim, complete, definition, json_out, node, states

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")

OK = {"ok": True}
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
HOUR = 3_600_000


def gated() -> dict[str, Any]:
    """ask (an authorization wait) -> charge (an agent with external effects)."""
    ask = {
        "kind": "authorization",
        "wait": {"expires_in_ms": HOUR, "schema": SCHEMA, "on_expiry": "fail"},
    }
    charge = node("node:ask", ("ask",), json_out(), effects="external", retry={"attempts": 1})
    return definition("charge", ask=ask, charge=charge)


def wait_id(h: Harness, run_id: str) -> str:
    found = h.client("alice").waits.ListWaits(wait_pb2.ListWaitsRequest(run_id=run_id)).waits
    return next(w.wait_id for w in found if w.node_uid == "ask")


def review(h: Harness, run_id: str, reason: str = "again", **fields: Any) -> Any:
    request = run_pb2.ReviewResumeRequest(run_id=run_id, reason=reason, **fields)
    return h.client("alice").runs.ReviewResume(request)


def approve_resume(h: Harness, material: Any, approval_id: str) -> None:
    h.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id=approval_id,
            material_digest=material.material_digest,
            expires_at_ms=h.clock.now_ms() + 600_000,
            work_order_id=material.material.work_order_id,
        )
    )


def resume(
    h: Harness, run_id: str, request_id: str, principal: str = "agent", **fields: Any
) -> run_pb2.ResumeRunResponse:
    request = run_pb2.ResumeRunRequest(
        run_id=run_id, request_id=request_id, reason=fields.pop("reason", "again"), **fields
    )
    return h.client(principal).runs.ResumeRun(request)  # type: ignore[no-any-return]


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def authorised_then_failed(h: Harness, effect: int) -> tuple[run_pb2.Run, Any]:
    """A run whose `charge` was authorised by alice, ran, and failed with ``effect``."""
    run = start_run(h, gated())
    authorize_wait(h, wait_id(h, run.run_id), OK, "ap-ask")
    [task] = claim(h)
    assert task.node_uid == "charge"
    fail_task(h, task, effect, retryable=False)
    assert run_of(h, run.run_id).state == run_pb2.RUN_STATE_FAILED
    return run, task


def test_an_applied_authorised_action_does_not_run_again_on_an_agents_resume(
    model: Harness,
) -> None:
    run, task = authorised_then_failed(model, cpb.EFFECT_OUTCOME_APPLIED)
    before = run_of(model, run.run_id)
    with pytest.raises(grpc.RpcError) as raised:
        resume(model, run.run_id, "agent-resume")
    details = error_details(raised.value)
    assert (details.code, details.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "REAPPROVAL_REQUIRED",
    )
    assert [field for field, _ in details.field_violations] == ["nodes.charge"]
    after = run_of(model, run.run_id)  # nothing changed, nothing is offered
    assert (after.state, after.version) == (run_pb2.RUN_STATE_FAILED, before.version)
    assert claim(model) == []
    # The review lists the exact action a human approves running again.
    material = review(model, run.run_id)
    [again] = material.material.reapprove
    assert material.material.reapprove_count == 1
    assert (again.node_uid, again.needs_approval) == ("charge", True)
    assert again.effect_applied and again.authorized and again.new_operation
    assert again.operation_id != task.operation_id
    assert again.input_digest == digest(OK)  # the wait's payload is charge's input
    assert [n.needs_approval for n in material.material.nodes] == [True]
    # An agent cannot approve it; a human's approval of that material lets the agent resume.
    with pytest.raises(grpc.RpcError) as refused:
        model.client("agent").approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-by-agent",
                material_digest=material.material_digest,
                expires_at_ms=model.clock.now_ms() + 600_000,
            )
        )
    denied = error_details(refused.value)
    assert (denied.code, denied.reason) == (grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_NOT_FOUND"):
        resume(model, run.run_id, "agent-resume-2", approval_id="ap-by-agent")
    approve_resume(model, material, "ap-again")
    resumed = resume(model, run.run_id, "agent-resume-3", approval_id="ap-again")
    assert resumed.run.state == run_pb2.RUN_STATE_RUNNING
    [retry] = claim(model)
    assert (retry.node_uid, retry.operation_id) == ("charge", again.operation_id)


def test_an_authorised_action_needs_a_fresh_approval_even_when_it_did_not_apply(
    model: Harness,
) -> None:
    run, task = authorised_then_failed(model, cpb.EFFECT_OUTCOME_NOT_APPLIED)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "REAPPROVAL_REQUIRED"):
        resume(model, run.run_id, "agent-resume")
    material = review(model, run.run_id)
    [again] = material.material.reapprove
    assert again.authorized and not again.effect_applied and not again.new_operation
    assert again.operation_id == task.operation_id  # not applied: the same operation
    approve_resume(model, material, "ap-again")
    # The approval is of this exact material: another reason is another material.
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_MISMATCH"):
        resume(model, run.run_id, "r-other", reason="other", approval_id="ap-again")
    resume(model, run.run_id, "r-ok", approval_id="ap-again")
    [retry] = claim(model)
    assert retry.operation_id == task.operation_id


def test_a_failed_node_that_neither_applied_nor_was_authorised_resumes_without_approval(
    model: Harness,
) -> None:
    plan = definition("a", a=node(output=json_out(), retry={"attempts": 1}))
    run = start_run(model, plan)
    [task] = claim(model)
    fail_task(model, task, cpb.EFFECT_OUTCOME_NOT_APPLIED, retryable=False)
    material = review(model, run.run_id)
    assert material.material.reapprove_count == 0 and not material.material.reapprove
    assert resume(model, run.run_id, "plain").run.state == run_pb2.RUN_STATE_RUNNING


# --- agent replacement ---------------------------------------------------------------

PLAN = definition(
    "report",
    research=node(output=json_out(), retry={"attempts": 1}),
    draft=node("node:research", ("research",), json_out(), retry={"attempts": 1}),
    report=node("node:draft", ("draft",), retry={"attempts": 1}),
)


def failed_governed(h: Harness, name: str) -> tuple[run_pb2.Run, cpb.WorkflowRef, Any]:
    """A governed run of PLAN whose `research` is DONE and whose `draft` failed."""
    r = ref(run_id=name)
    command = register_cmd(r, f"ap-{name}", PLAN)
    approve(h, command, f"ap-{name}")
    execute(h, "alice", f"reg-{name}", command)
    request = run_pb2.StartRunRequest(request_id=f"start-{name}", ref=r)
    run = h.client("agent").runs.StartRun(request).run
    [research] = claim(h)
    complete(h, research, {"facts": 3})
    [draft] = claim(h)
    fail_task(h, draft, cpb.EFFECT_OUTCOME_NOT_APPLIED, retryable=False)
    assert run_of(h, run.run_id).state == run_pb2.RUN_STATE_FAILED
    return run, r, draft


def activate(h: Harness, r: cpb.WorkflowRef, document: dict[str, Any], tag: str) -> None:
    proposed(h, r, f"p-{tag}", definition=document)
    command = activate_cmd(r, f"p-{tag}", 1, f"ap-act-{tag}")
    approve(h, command, f"ap-act-{tag}")
    execute(h, "alice", f"act-{tag}", command)


def fixed() -> dict[str, Any]:
    document = json.loads(json.dumps(PLAN))
    document["nodes"]["draft"]["agent"]["model"] = "echo2"
    document["nodes"]["draft"]["agent"]["system_prompt"] = "Draft from the facts, briefly."
    return document  # type: ignore[no-any-return]


def test_a_failed_node_is_replaced_by_the_heads_spec_on_a_resume_to_the_head(
    model: Harness,
) -> None:
    claim(model, models=("echo2",))  # teach the engine the replacement's model
    run, r, draft = failed_governed(model, "replace-1")
    activate(model, r, fixed(), "1")
    assert run_of(model, run.run_id).revision == 1  # an activation leaves a failed run be
    material = review(model, run.run_id, "new drafter", to_head=True)
    m = material.material
    assert (m.revision, m.to_revision) == (1, 2)
    [change] = m.changes
    assert (change.node_id, change.state) == ("draft", run_pb2.NODE_STATE_FAILED)
    assert change.old_spec_digest != change.new_spec_digest
    assert json.loads(change.old_node_json)["agent"]["model"] == "echo"  # what a human compares
    assert json.loads(change.new_node_json)["agent"]["model"] == "echo2"
    assert [(n.node_uid, n.new_operation) for n in m.nodes] == [
        ("draft", True),
        ("report", False),
    ]
    # The plain review is another material: approving it does not approve the head.
    assert review(model, run.run_id, "new drafter").material_digest != material.material_digest
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_REQUIRED"):
        resume(model, run.run_id, "to-head-0", reason="new drafter", to_head=True)
    approve_resume(model, material, "ap-head")
    resumed = resume(
        model, run.run_id, "to-head-1", reason="new drafter", to_head=True, approval_id="ap-head"
    )
    assert resumed.run.revision == 2 and states(resumed.run)["research"] == "DONE"
    assert claim(model) == []  # the old spec's model is no longer offered the node
    [again] = claim(model, models=("echo2",))
    assert again.node_uid == "draft" and again.operation_id == m.nodes[0].operation_id
    assert again.operation_id != draft.operation_id
    assert json.loads(again.input_json) == {"facts": 3}  # research kept its result
    complete(model, again, {"text": "ok"})
    [report] = claim(model)
    complete(model, report, "done")
    done = run_of(model, run.run_id)
    assert done.state == run_pb2.RUN_STATE_COMPLETED and done.revision == 2
    # The same request replays; the run's log rebuilds the same snapshot.
    replay = resume(
        model, run.run_id, "to-head-1", reason="new drafter", to_head=True, approval_id="ap-head"
    )
    assert replay.replayed
    store = model.server.engine.runs
    with store.db.read() as connection:
        live = loading.load(connection, run.run_id, store.definition)
        rebuilt = run_log.rebuild(connection, run.run_id, store.definition, store.limits)
        assert live is not None and rebuilt is not None
        assert journal.snapshot(rebuilt) == journal.snapshot(live.state)


def test_a_head_that_changes_a_done_node_or_the_shape_is_refused_naming_the_nodes(
    model: Harness,
) -> None:
    run, r, _draft = failed_governed(model, "replace-2")
    document = fixed()
    document["nodes"]["research"]["agent"]["system_prompt"] = "Research again."  # DONE
    document["nodes"]["extra"] = node("node:research", ("research",))  # a new node
    claim(model, models=("echo2",))
    activate(model, r, document, "2")
    before = run_of(model, run.run_id)
    for call in (
        lambda: review(model, run.run_id, to_head=True),
        lambda: resume(model, run.run_id, "to-head-x", to_head=True, approval_id="ap-x"),
    ):
        with pytest.raises(grpc.RpcError) as raised:
            call()
        details = error_details(raised.value)
        assert (details.code, details.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "REPLACEMENT_CONFLICT",
        )
        assert sorted(field for field, _ in details.field_violations) == [
            "nodes.extra",
            "nodes.research",
        ]
    after = run_of(model, run.run_id)
    assert (after.version, after.revision) == (before.version, 1)


def test_to_head_needs_a_governed_run_and_a_newer_head(model: Harness) -> None:
    run, _r, _draft = failed_governed(model, "replace-3")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_AT_HEAD"):
        review(model, run.run_id, to_head=True)
    plan = definition("a", a=node(output=json_out(), retry={"attempts": 1}))
    ad_hoc = start_run(model, plan)
    [task] = claim(model)
    fail_task(model, task, cpb.EFFECT_OUTCOME_NOT_APPLIED, retryable=False)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_GOVERNED"):
        resume(model, ad_hoc.run_id, "to-head-ad-hoc", to_head=True)
