"""Reconciliation of uncertain effects, and contracts."""

from __future__ import annotations

import json
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import (
    approval_pb2,
    common_pb2,
    contract_pb2,
    reconciliation_pb2,
    registry_pb2,
    run_pb2,
)
from praxis_client.conventions import enum_name
from praxis_console import approvals, diff, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

DECISIONS = ("RECONCILIATION_DECISION_APPLIED", "RECONCILIATION_DECISION_NOT_APPLIED")
CONTRACTS_PAGE = 100


async def _find(engine: Engine, session: Session, run_id: str, attempt_id: str) -> Any:
    found = await engine.call(
        session.token,
        engine.reconciliations.ListReconciliations,
        reconciliation_pb2.ListReconciliationsRequest(run_id=run_id),
    )
    for reconciliation in found.reconciliations:
        if reconciliation.attempt_id == attempt_id:
            return reconciliation
    raise ApiError(
        "NOT_FOUND",
        "RECONCILIATION_NOT_FOUND",
        f"run {run_id} has no reconciliation for attempt {attempt_id}",
    )


async def _run_epochs(engine: Engine, session: Session, run_id: str) -> Any:
    run = (
        await engine.call(session.token, engine.runs.GetRun, run_pb2.GetRunRequest(run_id=run_id))
    ).run
    work_order_id = run.ref.work_order_id
    found = await engine.call(
        session.token,
        engine.registry.GetEpochs,
        registry_pb2.GetEpochsRequest(work_order_id=work_order_id or "-"),
    )
    if not work_order_id:
        # An ad hoc run has no work order: its decisions bind to the installation with
        # epochs 1 and 1 (any work order's epochs name the installation).
        return run, common_pb2.Epochs(
            installation_id=found.epochs.installation_id, ownership_epoch=1, authority_epoch=1
        )
    return run, found.epochs


async def reconciliation_page(request: Request) -> Response:
    """The uncertain effect, and (after "Review") the exact material to approve."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    run_id, attempt_id = request.path_params["run_id"], request.path_params["attempt_id"]
    try:
        reconciliation = await _find(engine, session, run_id, attempt_id)
        run, epochs = await _run_epochs(engine, session, run_id)
        result = await engine.call(
            session.token,
            engine.runs.GetNodeResult,
            run_pb2.GetNodeResultRequest(run_id=run_id, node_uid=reconciliation.node_uid),
        )
    except ApiError as error:
        return web.error_page(request, error)
    return web.render(
        request,
        "reconciliation.html",
        {
            "run": run,
            "reconciliation": reconciliation,
            "epochs": epochs,
            "review": None,
            "pending": reconciliation.state == reconciliation_pb2.RECONCILIATION_STATE_PENDING,
            "result": diff.pretty(result.result_json) if result.present else "",
            "state": enum_name(
                reconciliation_pb2.ReconciliationState.Name(reconciliation.state),
                "RECONCILIATION_STATE_",
            ),
            "decided": enum_name(
                reconciliation_pb2.ReconciliationDecision.Name(reconciliation.decision),
                "RECONCILIATION_DECISION_",
            ),
            "decision": "",
            "evidence": '{"checked": ""}',
            "request_id": web.new_request_id(),
        },
    )


async def review(request: Request) -> Response:
    """Shows the material of a decision (a read, posted because it carries the evidence)."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id, attempt_id = request.path_params["run_id"], request.path_params["attempt_id"]
    decision = web.field_text(form, "decision", 64)
    evidence = web.field_text(form, "evidence_json", 64 * 1024)
    if decision not in DECISIONS:
        return web.render(
            request,
            "error.html",
            {"error": ApiError("INVALID_ARGUMENT", "", "choose APPLIED or NOT_APPLIED")},
            400,
        )
    try:
        reconciliation = await _find(engine, session, run_id, attempt_id)
        run, epochs = await _run_epochs(engine, session, run_id)
        reviewed = await engine.call(
            session.token,
            engine.reconciliations.ReviewReconciliation,
            reconciliation_pb2.ReviewReconciliationRequest(
                epochs=epochs,
                attempt_id=attempt_id,
                evidence_json=evidence,
                decision=decision,
            ),
        )
    except ApiError as error:
        return web.error_page(request, error)
    return web.render(
        request,
        "reconciliation.html",
        {
            "run": run,
            "reconciliation": reconciliation,
            "epochs": epochs,
            "review": reviewed,
            "pending": True,
            "result": "",
            "state": "PENDING",
            "decided": "",
            "decision": decision,
            "evidence": evidence,
            "request_id": web.new_request_id(),
            "material": json.dumps(_material(reviewed.material), indent=2),
        },
    )


def _material(material: Any) -> dict[str, Any]:
    return {
        "work_order_id": material.work_order_id,
        "run_id": material.run_id,
        "node_uid": material.node_uid,
        "operation_id": material.operation_id,
        "attempt_id": material.attempt_id,
        "completed": material.completed,
        "decision": reconciliation_pb2.ReconciliationDecision.Name(material.decision),
        "evidence_digest": material.evidence_digest,
        "result_digest": material.result_digest,
        "epochs": {
            "installation_id": material.epochs.installation_id,
            "ownership_epoch": material.epochs.ownership_epoch,
            "authority_epoch": material.epochs.authority_epoch,
        },
    }


async def reconcile(request: Request) -> Response:
    """Approves the reviewed material digest and records the decision with it."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    run_id, attempt_id = request.path_params["run_id"], request.path_params["attempt_id"]
    decision = web.field_text(form, "decision", 64)
    if decision not in DECISIONS:
        return web.render(
            request,
            "error.html",
            {"error": ApiError("INVALID_ARGUMENT", "", "choose APPLIED or NOT_APPLIED")},
            400,
        )
    request_id = web.field_text(form, "request_id", 128)
    approval_id = f"{request_id}-approval"
    try:
        _run, epochs = await _run_epochs(engine, session, run_id)
        await approvals.create(
            engine,
            session,
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=web.field_text(form, "material_digest", 128),
                expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
                work_order_id=web.field_text(form, "work_order_id", 128),
            ),
        )
        await engine.call(
            session.token,
            engine.reconciliations.Reconcile,
            reconciliation_pb2.ReconcileRequest(
                epochs=epochs,
                request_id=request_id,
                attempt_id=attempt_id,
                decision=decision,
                evidence_json=web.field_text(form, "evidence_json", 64 * 1024),
                approval_id=approval_id,
            ),
        )
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"/runs/{run_id}/reconciliations/{attempt_id}")


async def contracts_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    contract_id = request.query_params.get("contract_id", "").strip()[:128]
    contract: Any = None
    problem: ApiError | None = None
    if contract_id:
        try:
            contract = (
                await engine.call(
                    session.token,
                    engine.contracts.GetContract,
                    contract_pb2.GetContractRequest(contract_id=contract_id),
                )
            ).contract
        except ApiError as error:
            problem = error
    spending, _ = await engine.read(
        session.token, engine.contracts.GetSpending, contract_pb2.GetSpendingRequest()
    )
    token = request.query_params.get("page_token", "")[:512]
    listed, list_error = await engine.read(
        session.token,
        engine.contracts.ListContracts,
        contract_pb2.ListContractsRequest(page_size=CONTRACTS_PAGE, page_token=token),
    )
    return web.render(
        request,
        "contracts.html",
        {
            "contract_id": contract_id,
            "contracts": listed.contracts if listed else [],
            "contracts_next": listed.next_page_token if listed else "",
            "list_error": list_error,
            "first_page": not token,
            "contract": contract,
            "problem": problem,
            "spending": spending,
            "criteria": diff.pretty(contract.criteria_json) if contract else "",
            "now_ms": int(time.time() * 1000),
        },
    )


ROUTES = [
    Route("/runs/{run_id}/reconciliations/{attempt_id}", reconciliation_page, methods=["GET"]),
    Route("/runs/{run_id}/reconciliations/{attempt_id}/review", review, methods=["POST"]),
    Route("/runs/{run_id}/reconciliations/{attempt_id}/reconcile", reconcile, methods=["POST"]),
    Route("/contracts", contracts_page, methods=["GET"]),
]
