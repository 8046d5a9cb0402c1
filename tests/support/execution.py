"""Helpers for execution-model tests: principals with grants and caps, and shortcuts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from aiws.engine.v1 import (
    approval_pb2,
    common_pb2,
    contract_pb2,
    reconciliation_pb2,
    run_pb2,
    task_pb2,
    wait_pb2,
)
from praxis.app import Server, Settings
from praxis.authority.principals import PrincipalsAuthority, hash_token, parse_principals
from praxis.clock import TestClock
from tests.support.harness import PRINCIPALS, SCOPES, T0, Harness, token_of

MODEL_AGENT = [
    "registry.read",
    "registry.propose",
    "approval.read",
    "run.*",
    "task.*",
    "event.*",
    "contract.read",
    "reconcile.read",
    "wait.read",
    "wait.satisfy",
    "assess.read",
    "assess.verify",
    "handoff.*",
]
# Reads everywhere; everything else only for the purpose "payments".
PAYER_GRANTS: list[dict[str, Any]] = [
    {"actions": ["*"], "work_orders": ["*"], "purposes": ["payments"]},
    {"actions": ["registry.read", "run.read", "wait.read", "approval.read", "inbox.read"]},
]
# Reads everywhere; everything else by a grant whose window ended at T0 (exclusive).
LAPSED_GRANTS: list[dict[str, Any]] = [
    {"actions": ["*"], "work_orders": ["*"], "not_before_ms": 1, "not_after_ms": T0},
    {"actions": ["registry.read", "run.read", "wait.read", "approval.read", "inbox.read"]},
]
_ids = itertools.count()


def model_principals() -> dict[str, Any]:
    """The test principals plus a capped agent, a second agent, ``payer`` (a human whose
    grants beyond reads are only for the purpose ``payments``) and ``lapsed`` (a human
    whose grant beyond reads ended at T0), with model grants."""
    entries = []
    for pid, kind, actions, expires in PRINCIPALS:
        scope = SCOPES.get(pid, ["*"])  # `scoped`: work orders wo-a* only
        grants: list[dict[str, Any]] = [{"actions": actions, "work_orders": scope}]
        if pid == "agent":
            grants = [{"actions": MODEL_AGENT, "work_orders": ["*"]}]
        entries.append((pid, kind, grants, expires))
    entries.append(
        (
            "capped",
            "AGENT",
            [{"actions": MODEL_AGENT, "work_orders": ["*"], "max_spend_microcredits": "100"}],
            0,
        )
    )
    entries.append(("agent2", "AGENT", [{"actions": MODEL_AGENT, "work_orders": ["*"]}], 0))
    entries.append(("payer", "HUMAN", PAYER_GRANTS, 0))
    entries.append(("lapsed", "HUMAN", LAPSED_GRANTS, 0))
    return {
        "version": 1,
        "principals": [
            {
                "id": pid,
                "kind": kind,
                "token_sha256": hash_token(token_of(pid)),
                "expires_at_ms": expires,
                "grants": grants,
            }
            for pid, kind, grants, expires in entries
        ],
    }


def start_model_server(database: Path | str, clock: TestClock | None = None) -> Harness:
    """A server with the model principals on a SQLite file or a database URL (no
    background sweeper)."""
    clock = clock or TestClock(T0)
    server = Server(
        Settings(
            database_url=database if isinstance(database, str) else f"sqlite:///{database}",
            authority=PrincipalsAuthority(parse_principals(model_principals())),
            clock=clock,
            listen="127.0.0.1:0",
            sweep_interval_s=3600.0,  # tests sweep explicitly
        )
    )
    server.start()
    return Harness(server, clock, f"127.0.0.1:{server.port}")


def start_model_harness(database: Path | str, backend: str) -> Harness:
    """A running server with the model principals (on the ``backend`` database; two
    replicas with round-robin clients on ``postgres-2``): the ``model`` fixture's."""
    if backend != "postgres-2":
        return start_model_server(database)
    clock = TestClock(T0)
    first = start_model_server(database, clock)
    try:
        second = start_model_server(database, clock)
    except BaseException:
        first.close()
        raise
    replicas = [first.server, second.server]
    address = "ipv4:" + ",".join(f"127.0.0.1:{server.port}" for server in replicas)
    return Harness(first.server, clock, address, replicas=replicas)


def create_contract(
    h: Harness,
    contract_id: str = "c-1",
    budget: str = "100",
    deadline_in_ms: int = 3_600_000,
    principal: str = "alice",
    work_order_id: str = "wo-1",
) -> contract_pb2.CreateContractResponse:
    """Creates a contract."""
    return h.client(principal).contracts.CreateContract(  # type: ignore[no-any-return]
        contract_pb2.CreateContractRequest(
            contract_id=contract_id,
            work_order_id=work_order_id,
            criteria_json=json.dumps({"must": ["be correct"]}),
            deadline_ms=h.clock.now_ms() + deadline_in_ms,
            budget_microcredits=budget,
            profile="aiws.v1",
        )
    )


def get_contract(h: Harness, contract_id: str = "c-1") -> contract_pb2.Contract:
    """A contract with its spend."""
    return (
        h.client("alice")
        .contracts.GetContract(contract_pb2.GetContractRequest(contract_id=contract_id))
        .contract
    )


def settle(
    h: Harness,
    task: task_pb2.Task,
    result: Any = None,
    cost: str = "",
    effect: int = common_pb2.EFFECT_OUTCOME_APPLIED,
    worker: str = "w1",
    principal: str = "agent",
) -> task_pb2.CompleteTaskResponse:
    """Completes a task with an effect and a cost."""
    return h.client(principal).tasks.CompleteTask(  # type: ignore[no-any-return]
        task_pb2.CompleteTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            result_json=json.dumps(result if result is not None else {"ok": True}),
            effect=effect,
            cost_microcredits=cost,
        )
    )


def fail_task(
    h: Harness,
    task: task_pb2.Task,
    effect: int,
    retryable: bool = True,
    worker: str = "w1",
) -> task_pb2.FailTaskResponse:
    """Fails a task with an effect."""
    return h.client("agent").tasks.FailTask(  # type: ignore[no-any-return]
        task_pb2.FailTaskRequest(
            attempt_id=task.attempt_id,
            worker_id=worker,
            error="timeout talking to the provider",
            retryable=retryable,
            effect=effect,
        )
    )


def start_run(
    h: Harness, document: dict[str, Any], principal: str = "agent", **fields: Any
) -> run_pb2.Run:
    """Starts an ad hoc run."""
    return (
        h.client(principal)
        .runs.StartRun(
            run_pb2.StartRunRequest(
                request_id=f"req-{next(_ids)}",
                definition_json=json.dumps(document),
                input_json="null",
                **fields,
            )
        )
        .run
    )


def run_of(h: Harness, run_id: str) -> run_pb2.Run:
    """A run snapshot (with segments)."""
    return h.client("alice").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run


def reconcile(
    h: Harness,
    attempt_id: str,
    decision: int,
    evidence: Any,
    approval_id: str,
    request_id: str | None = None,
    approver: str = "alice",
    caller: str = "alice",
    approve: bool = True,
    result_json: str = "",
) -> reconciliation_pb2.ReconcileResponse:
    """Reviews a decision, has ``approver`` approve it and ``caller`` record it."""
    epochs = common_pb2.Epochs(
        installation_id=h.installation_id, ownership_epoch=1, authority_epoch=1
    )  # an ad hoc run's work order ("") is never touched by admin controls
    evidence_json = json.dumps(evidence)
    if approve:
        review = h.client(approver).reconciliations.ReviewReconciliation(
            reconciliation_pb2.ReviewReconciliationRequest(
                epochs=epochs, attempt_id=attempt_id, decision=decision,
                evidence_json=evidence_json, result_json=result_json,
            )
        )  # fmt: skip
        h.client(approver).approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=review.material_digest,
                expires_at_ms=h.clock.now_ms() + 600_000,
            )
        )
    return h.client(caller).reconciliations.Reconcile(  # type: ignore[no-any-return]
        reconciliation_pb2.ReconcileRequest(
            epochs=epochs,
            request_id=request_id or f"rec-{next(_ids)}",
            attempt_id=attempt_id,
            decision=decision,
            evidence_json=evidence_json,
            approval_id=approval_id,
            result_json=result_json,
        )
    )


def review_wait(
    h: Harness, wait_id: str, payload: Any, principal: str = "alice"
) -> wait_pb2.ReviewWaitResponse:
    """The material of satisfying an authorization wait with ``payload``."""
    return h.client(principal).waits.ReviewWait(  # type: ignore[no-any-return]
        wait_pb2.ReviewWaitRequest(wait_id=wait_id, payload_json=json.dumps(payload))
    )


def approve_wait(
    h: Harness,
    wait_id: str,
    payload: Any,
    approval_id: str,
    approver: str = "alice",
    ttl_ms: int = 600_000,
) -> approval_pb2.Approval:
    """Reviews satisfying an authorization wait with ``payload`` and has ``approver``
    approve the material (naming the material's purpose)."""
    review = review_wait(h, wait_id, payload, approver)
    return (
        h.client(approver)
        .approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=review.material_digest,
                expires_at_ms=h.clock.now_ms() + ttl_ms,
                work_order_id=review.material.work_order_id,
                purpose=review.material.purpose,
            )
        )
        .approval
    )


def satisfy_wait(
    h: Harness,
    wait_id: str,
    payload: Any,
    approval_id: str = "",
    request_id: str | None = None,
    principal: str = "alice",
) -> wait_pb2.SatisfyWaitResponse:
    """SatisfyWait, naming ``approval_id`` when given."""
    return h.client(principal).waits.SatisfyWait(  # type: ignore[no-any-return]
        wait_pb2.SatisfyWaitRequest(
            request_id=request_id or f"sat-{next(_ids)}",
            wait_id=wait_id,
            payload_json=json.dumps(payload),
            approval_id=approval_id,
        )
    )


def authorize_wait(
    h: Harness, wait_id: str, payload: Any, approval_id: str, principal: str = "alice"
) -> wait_pb2.SatisfyWaitResponse:
    """Reviews, approves (as ``principal``) and satisfies an authorization wait."""
    approve_wait(h, wait_id, payload, approval_id, principal)
    return satisfy_wait(h, wait_id, payload, approval_id, principal=principal)
