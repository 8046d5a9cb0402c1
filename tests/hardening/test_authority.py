"""Issue 13 items 8, 9, 12 and 14: no existence oracle, one human-only list, the true
state of an approval, and EFFECT_OUTCOME_UNSPECIFIED refused as documented."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, common_pb2, contract_pb2, run_pb2, task_pb2
from praxis.authority.guard import HumanOnly
from praxis.authority.principals import PrincipalsAuthority, hash_token, parse_principals
from praxis.core import kinds
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Rejection
from tests.support.execution import create_contract, reconcile, settle, start_run
from tests.support.harness import T0, Harness, expect_error
from tests.support.paths import ROOT
from tests.support.registry import approve, ref, register_cmd
from tests.support.runtime import claim, definition, json_out, node

# --- item 8: authorise before NOT_FOUND -------------------------------------------------


def test_get_run_does_not_tell_a_stranger_whether_a_run_exists(harness: Harness) -> None:
    run = start_run_in(harness, "wo-b")
    scoped = harness.client("scoped")  # run.read on wo-a* only
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        scoped.runs.GetRun(run_pb2.GetRunRequest(run_id=run))
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        scoped.runs.GetRun(run_pb2.GetRunRequest(run_id="run_absent"))
    reader = harness.client("reader")  # no run.read at all
    for run_id in (run, "run_absent"):
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            reader.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id))
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            reader.runs.StopRun(run_pb2.StopRunRequest(run_id=run_id))
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            reader.runs.GetNodeResult(run_pb2.GetNodeResultRequest(run_id=run_id, node_uid="a"))
    # A caller allowed to read every work order still learns that a run is absent.
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        harness.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id="run_absent"))


def start_run_in(h: Harness, work_order_id: str) -> str:
    from tests.support.registry import execute

    r = ref(work_order_id)
    command = register_cmd(r, f"ap-{work_order_id}")
    approve(h, command, f"ap-{work_order_id}")
    execute(h, "alice", f"req-{work_order_id}", command)
    started = h.client("alice").runs.StartRun(run_pb2.StartRunRequest(request_id="s1", ref=r))
    return started.run.run_id  # type: ignore[no-any-return]


def test_get_contract_does_not_tell_a_stranger_whether_it_exists(model: Harness) -> None:
    create_contract(model, "c-1")
    for contract_id in ("c-1", "c-absent"):
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            model.client("reader").contracts.GetContract(
                contract_pb2.GetContractRequest(contract_id=contract_id)
            )
    with expect_error(grpc.StatusCode.NOT_FOUND, "CONTRACT_NOT_FOUND"):
        model.client("alice").contracts.GetContract(
            contract_pb2.GetContractRequest(contract_id="c-absent")
        )


# --- item 9: one human-only list ---------------------------------------------------------


def _authority() -> HumanOnly:
    document = {
        "version": 1,
        "principals": [
            {"id": pid, "kind": kind, "token_sha256": hash_token(pid), "grants": [
                {"actions": ["*"], "work_orders": ["*"]}]}
            for pid, kind in (("h", "HUMAN"), ("a", "AGENT"), ("s", "SERVICE"))
        ],
    }  # fmt: skip
    return HumanOnly(PrincipalsAuthority(parse_principals(document)))


@pytest.mark.parametrize("action", sorted(kinds.HUMAN_ONLY_ACTIONS))
def test_every_human_only_action_is_refused_to_agents_and_services(action: str) -> None:
    authority = _authority()
    for pid, kind in (("a", PrincipalKind.AGENT), ("s", PrincipalKind.SERVICE)):
        denied = authority.authorize(Principal(pid, kind), action, "wo-1", T0)
        assert isinstance(denied, Rejection) and denied.reason == "HUMAN_REQUIRED", action
    allowed = authority.authorize(Principal("h", PrincipalKind.HUMAN), action, "wo-1", T0)
    assert not isinstance(allowed, Rejection)


def test_other_actions_stay_grant_based() -> None:
    evidence = _authority().authorize(Principal("a", PrincipalKind.AGENT), "run.start", "", T0)
    assert not isinstance(evidence, Rejection)


def test_an_agent_granted_reconcile_decide_cannot_reconcile(model: Harness) -> None:
    start_run(model, definition("a", a=node(output=json_out())))
    [task] = claim(model)
    settle(model, task, effect=common_pb2.EFFECT_OUTCOME_UNCERTAIN)
    from aiws.engine.v1 import reconciliation_pb2

    applied = reconciliation_pb2.RECONCILIATION_DECISION_APPLIED
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        # alice (a human) approves; "rogue" (an AGENT granted "*") records the decision.
        reconcile(model, task.attempt_id, applied, {"seen": True}, "ap-r", caller="rogue")


def test_the_documented_human_actions_are_the_list() -> None:
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    for action in kinds.HUMAN_ONLY_ACTIONS:
        assert f"`{action}`" in text, action


# --- item 12: CreateApproval answers the true state ----------------------------------------


def test_create_approval_reports_a_proof_consumed_under_another_id(harness: Harness) -> None:
    from tests.support.registry import execute

    command = register_cmd(ref(), "ap-1")
    digest = approve(harness, command, "ap-1")
    execute(harness, "alice", "req-1", command)
    again = harness.client("alice").approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id="ap-2",
            material_digest=digest,
            expires_at_ms=T0 + 600_000,
            work_order_id="wo-1",
        )
    )
    got = harness.client("alice").approvals.GetApproval(
        approval_pb2.GetApprovalRequest(approval_id="ap-2")
    )
    assert again.approval.state == got.approval.state == approval_pb2.APPROVAL_STATE_CONSUMED


# --- item 14: EFFECT_OUTCOME_UNSPECIFIED --------------------------------------------------


def test_unspecified_effect_is_refused_as_documented(harness: Harness) -> None:
    start_run(harness, definition("a", a=node(output=json_out())))
    [task] = claim(harness)
    tasks = harness.client("agent").tasks
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id, worker_id="w1", result_json=json.dumps({})
            )
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        tasks.FailTask(task_pb2.FailTaskRequest(attempt_id=task.attempt_id, worker_id="w1"))
    proto = (ROOT / "proto" / "aiws" / "engine" / "v1" / "common.proto").read_text()
    comment = proto.split("EFFECT_OUTCOME_UNSPECIFIED = 0;")[0].rsplit("{", 1)[1]
    assert "refuse" in comment and "ENUM_INVALID" in comment
    assert "treated as UNCERTAIN" not in comment


def test_waits_and_handoffs_do_not_tell_a_stranger_whether_they_exist(model: Harness) -> None:
    from aiws.engine.v1 import handoff_pb2, wait_pb2

    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        model.client("reader").waits.GetWait(wait_pb2.GetWaitRequest(wait_id="wait_absent"))
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        model.client("reader").handoffs.GetHandoff(
            handoff_pb2.GetHandoffRequest(delivery_id="dlv_absent")
        )
    with expect_error(grpc.StatusCode.NOT_FOUND, "WAIT_NOT_FOUND"):
        model.client("alice").waits.GetWait(wait_pb2.GetWaitRequest(wait_id="wait_absent"))
    with expect_error(grpc.StatusCode.NOT_FOUND, "HANDOFF_NOT_FOUND"):
        model.client("alice").handoffs.GetHandoff(
            handoff_pb2.GetHandoffRequest(delivery_id="dlv_absent")
        )
