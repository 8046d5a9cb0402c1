"""Registry: proposal review and decisions, heads, history, work-order controls, holds.

A decision is made on the exact material the page showed: the page carries the epochs
and material digest it rendered, the approval binds to that digest, and the command is
executed under those epochs. When the material changed in between, the server refuses
and the page shows its reason.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from aiws.engine.v1 import (
    admin_pb2,
    approval_pb2,
    common_pb2,
    registry_pb2,
    run_pb2,
    work_order_pb2,
)
from praxis_client.conventions import enum_name
from praxis_console import approvals, diff, graph, web
from praxis_console.api import ApiError, Engine
from praxis_console.sessions import Session

HISTORY_PAGE = 100
REFS_PAGE = 100


def _ref(work_order_id: str, run_id: str) -> common_pb2.WorkflowRef:
    return common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id)


def _ref_of(request: Request) -> common_pb2.WorkflowRef:
    return _ref(request.path_params["work_order_id"], request.path_params["ref_run_id"])


def _epochs_of(form: FormData) -> common_pb2.Epochs:
    return common_pb2.Epochs(
        installation_id=web.field_text(form, "installation_id", 128),
        ownership_epoch=web.field_int(form, "ownership_epoch"),
        authority_epoch=web.field_int(form, "authority_epoch"),
    )


async def _epochs(engine: Engine, session: Session, work_order_id: str) -> common_pb2.Epochs:
    found = await engine.call(
        session.token,
        engine.registry.GetEpochs,
        registry_pb2.GetEpochsRequest(work_order_id=work_order_id),
    )
    epochs: common_pb2.Epochs = found.epochs
    return epochs


def _activate(proposal: registry_pb2.Proposal, approval_id: str = "") -> Any:
    return registry_pb2.RegistryCommand(
        activate=registry_pb2.ActivateCommand(
            ref=proposal.ref,
            proposal_id=proposal.proposal_id,
            base_revision=proposal.base_revision,
            next_revision=proposal.base_revision + 1,
            approval_id=approval_id,
        )
    )


async def proposal_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    ref = _ref_of(request)
    proposal_id = request.path_params["proposal_id"]
    try:
        proposal = (
            await engine.call(
                session.token,
                engine.registry.GetProposal,
                registry_pb2.GetProposalRequest(ref=ref, proposal_id=proposal_id),
            )
        ).proposal
        epochs = await _epochs(engine, session, ref.work_order_id)
    except ApiError as error:
        return web.error_page(request, error)
    review: Any = None
    review_error: ApiError | None = None
    request_id = web.new_request_id()
    pending = proposal.state == registry_pb2.PROPOSAL_STATE_PENDING
    if pending:
        # The approval id is not part of the material, but Review checks it is named.
        command = _activate(proposal, f"{request_id}-approval")
        try:
            review = await engine.call(
                session.token,
                engine.registry.Review,
                registry_pb2.ReviewRequest(epochs=epochs, command=command),
            )
        except ApiError as error:
            review_error = error
    approval = await _approval(engine, session, request.query_params.get("approval", ""))
    # The base as GetProposal recorded it: the revision the proposal was made against,
    # whether it is pending, superseded by another activation, activated or rejected.
    base_json = proposal.base_definition_json
    candidate_json = proposal.definition_json
    if review:
        base_json = review.material.base_definition_json
        candidate_json = review.material.candidate_definition_json
    superseded = await _superseded(engine, session, proposal) if pending and not review else 0
    base_nodes = graph.parse_nodes(base_json)
    candidate_nodes = graph.parse_nodes(candidate_json)
    change = graph.change(base_nodes, candidate_nodes)
    return web.render(
        request,
        "proposal.html",
        {
            "ref": ref,
            "proposal": proposal,
            "proposal_state": enum_name(
                registry_pb2.ProposalState.Name(proposal.state), "PROPOSAL_STATE_"
            ),
            "pending": pending,
            "superseded": superseded,
            "epochs": epochs,
            "review": review,
            "review_error": review_error,
            "warnings": [
                {
                    "kind": enum_name(
                        common_pb2.DefinitionWarningKind.Name(w.kind), "DEFINITION_WARNING_KIND_"
                    ),
                    "message": w.message,
                    "node_ids": list(w.node_ids),
                    "node_count": w.node_count,
                }
                for w in (review.warnings if review else [])
            ],
            "diff": diff.side_by_side(base_json, candidate_json),
            "change": change,
            "before": graph.layout(base_nodes, _marks(change, before=True)),
            "after": graph.layout(candidate_nodes, _marks(change, before=False)),
            "approval": approval,
            "approval_state": (
                enum_name(approval_pb2.ApprovalState.Name(approval.state), "APPROVAL_STATE_")
                if approval
                else ""
            ),
            "request_id": request_id,
            "outcome": request.query_params.get("outcome", ""),
        },
    )


async def _superseded(engine: Engine, session: Session, proposal: Any) -> int:
    """The head's revision when it moved past the proposal's base (0: it did not)."""
    try:
        head = await engine.call(
            session.token,
            engine.registry.GetHead,
            registry_pb2.GetHeadRequest(ref=proposal.ref),
        )
    except ApiError:
        return 0
    revision: int = head.head.revision
    return revision if revision > proposal.base_revision else 0


def _marks(change: graph.Change, *, before: bool) -> dict[str, str]:
    if before:
        return {n: "removed" for n in change.removed} | {n: "changed" for n in change.changed}
    return {n: "added" for n in change.added} | {n: "changed" for n in change.changed}


async def _approval(engine: Engine, session: Session, approval_id: str) -> Any:
    if not approval_id:
        return None
    try:
        found = await engine.call(
            session.token,
            engine.approvals.GetApproval,
            approval_pb2.GetApprovalRequest(approval_id=approval_id[:128]),
        )
    except ApiError:
        return None
    return found.approval


async def approve(request: Request) -> Response:
    """Approves the material digest the page showed (nothing else)."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    ref = _ref_of(request)
    approval_id = web.field_text(form, "approval_id", 128)
    create = approval_pb2.CreateApprovalRequest(
        approval_id=approval_id,
        material_digest=web.field_text(form, "material_digest", 128),
        expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
        work_order_id=ref.work_order_id,
    )
    try:
        await approvals.create(engine, session, create)
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(
        f"{_proposal_url(ref, request.path_params['proposal_id'])}?approval={approval_id}"
    )


async def activate(request: Request) -> Response:
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    ref = _ref_of(request)
    proposal = registry_pb2.Proposal(
        ref=ref,
        proposal_id=request.path_params["proposal_id"],
        base_revision=web.field_int(form, "base_revision"),
    )
    execute = registry_pb2.ExecuteRequest(
        epochs=_epochs_of(form),
        request_id=web.field_text(form, "request_id", 128),
        command=_activate(proposal, web.field_text(form, "approval_id", 128)),
    )
    try:
        await engine.call(session.token, engine.registry.Execute, execute)
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"{_proposal_url(ref, proposal.proposal_id)}?outcome=activated")


async def reject(request: Request) -> Response:
    """Reviews the rejection with its reason, approves that material, executes it."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    ref = _ref_of(request)
    proposal_id = request.path_params["proposal_id"]
    reason = web.field_text(form, "reason", 1024)
    epochs = _epochs_of(form)
    request_id = web.field_text(form, "request_id", 128)

    approval_id = f"{request_id}-approval"
    command = registry_pb2.RegistryCommand(
        reject=registry_pb2.RejectCommand(
            ref=ref, proposal_id=proposal_id, reason=reason, approval_id=approval_id
        )
    )
    try:
        review = await engine.call(
            session.token,
            engine.registry.Review,
            registry_pb2.ReviewRequest(epochs=epochs, command=command),
        )
        await approvals.create(
            engine,
            session,
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id,
                material_digest=review.material_digest,
                expires_at_ms=int(time.time() * 1000) + approvals.TTL_MS,
                work_order_id=ref.work_order_id,
            ),
        )
        await engine.call(
            session.token,
            engine.registry.Execute,
            registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command),
        )
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"{_proposal_url(ref, proposal_id)}?outcome=rejected")


def _proposal_url(ref: common_pb2.WorkflowRef, proposal_id: str) -> str:
    return f"/registry/{ref.work_order_id}/{ref.run_id}/proposals/{proposal_id}"


async def registry_page(request: Request) -> Response:
    """Look up a ref or a work order; lists the holds placed."""
    session = web.require_session(request)
    engine = web.console_of(request).engine
    work_order_id = request.query_params.get("work_order_id", "").strip()[:128]
    run_id = request.query_params.get("run_id", "").strip()[:128]
    if work_order_id and run_id:
        return web.redirect(f"/registry/{work_order_id}/{run_id}")
    if work_order_id:
        return web.redirect(f"/workorders/{work_order_id}")
    holds, holds_error = await engine.read(
        session.token, engine.admin.ListHolds, admin_pb2.ListHoldsRequest()
    )
    token = request.query_params.get("page_token", "")[:512]
    refs, refs_error = await engine.read(
        session.token,
        engine.registry.ListRefs,
        registry_pb2.ListRefsRequest(page_size=REFS_PAGE, page_token=token),
    )
    return web.render(
        request,
        "registry.html",
        {
            "heads": refs.heads if refs else [],
            "refs_next": refs.next_page_token if refs else "",
            "refs_error": refs_error,
            "first_page": not token,
            "holds": holds.holds if holds else [],
            "holds_error": holds_error,
            "hold_kind": admin_pb2.HoldKind.Name,
        },
    )


async def ref_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    ref = _ref_of(request)
    try:
        after = max(0, int(request.query_params.get("after", "0")))
    except ValueError:
        after = 0
    try:
        head = (
            await engine.call(
                session.token, engine.registry.GetHead, registry_pb2.GetHeadRequest(ref=ref)
            )
        ).head
        history = await engine.call(
            session.token,
            engine.registry.ListHistory,
            registry_pb2.ListHistoryRequest(ref=ref, after=after, limit=HISTORY_PAGE),
        )
    except ApiError as error:
        return web.error_page(request, error)
    return web.render(
        request,
        "ref.html",
        {
            "ref": ref,
            "head": head,
            "history": history,
            "graph": graph.layout(graph.parse_nodes(head.definition_json)),
            "definition": diff.pretty(head.definition_json),
            "binding": enum_name(
                registry_pb2.ExecutionBinding.Name(head.execution_binding), "EXECUTION_BINDING_"
            ),
            "kind_name": lambda k: enum_name(
                registry_pb2.HistoryEventKind.Name(k), "HISTORY_EVENT_KIND_"
            ),
            "request_id": web.new_request_id(),
        },
    )


async def work_order_page(request: Request) -> Response:
    session = web.require_session(request)
    engine = web.console_of(request).engine
    work_order_id = request.path_params["work_order_id"]
    try:
        found = await engine.call(
            session.token,
            engine.admin.GetWorkOrder,
            admin_pb2.GetWorkOrderRequest(work_order_id=work_order_id),
        )
    except ApiError as error:
        return web.error_page(request, error)
    order = found.work_order
    record, record_problem = await _work_order_record(engine, session.token, work_order_id)
    runs, runs_problem = await _work_order_runs(engine, session.token, work_order_id)
    return web.render(
        request,
        "workorder.html",
        {
            "order": order,
            "control": enum_name(
                admin_pb2.ControlState.Name(order.control_state), "CONTROL_STATE_"
            ),
            "hold_kind": admin_pb2.HoldKind.Name,
            "record": record,
            "record_problem": record_problem,
            "runs": runs,
            "runs_problem": runs_problem,
            "tree_state": _tree_state,
            "run_state": lambda state: enum_name(run_pb2.RunState.Name(state), "RUN_STATE_"),
        },
    )


RUNS_SHOWN = 20
"""The work order page lists its newest runs, at most this many."""


def _tree_state(state: int) -> str:
    return enum_name(work_order_pb2.WorkOrderState.Name(state), "WORK_ORDER_STATE_")


async def _work_order_record(engine: Any, token: str, work_order_id: str) -> tuple[Any, str]:
    """The work order's record with its children, or ``None`` and why it is not shown
    (a work order that nothing has named yet has none)."""
    try:
        return (
            await engine.call(
                token,
                engine.work_orders.GetWorkOrderRecord,
                work_order_pb2.GetWorkOrderRecordRequest(work_order_id=work_order_id),
            ),
            "",
        )
    except ApiError as error:
        return None, str(error)


async def _work_order_runs(engine: Any, token: str, work_order_id: str) -> tuple[list[Any], str]:
    """The work order's newest runs (at most :data:`RUNS_SHOWN`), or why not."""
    try:
        listed = await engine.call(
            token,
            engine.runs.ListRuns,
            run_pb2.ListRunsRequest(work_order_id=work_order_id, page_size=RUNS_SHOWN),
        )
    except ApiError as error:
        return [], str(error)
    return list(listed.runs), ""


async def work_order_control(request: Request) -> Response:
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    work_order_id = request.path_params["work_order_id"]
    action = web.field_text(form, "action", 16)
    reason = web.field_text(form, "reason", 1024)
    calls: dict[str, tuple[Any, Any]] = {
        "pause": (
            engine.admin.PauseWorkOrder,
            admin_pb2.PauseWorkOrderRequest(work_order_id=work_order_id, reason=reason),
        ),
        "resume": (
            engine.admin.ResumeWorkOrder,
            admin_pb2.ResumeWorkOrderRequest(work_order_id=work_order_id),
        ),
        "cancel": (
            engine.admin.CancelWorkOrder,
            admin_pb2.CancelWorkOrderRequest(work_order_id=work_order_id, reason=reason),
        ),
    }
    if action not in calls:
        return web.render(
            request,
            "error.html",
            {"error": ApiError("INVALID_ARGUMENT", "", "action must be pause, resume or cancel")},
            400,
        )
    try:
        await engine.call(session.token, *calls[action])
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"/workorders/{work_order_id}")


async def work_order_decide(request: Request) -> Response:
    """Approve or decline a proposed child work order (a human's decision, one step)."""
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    work_order_id = request.path_params["work_order_id"]
    action = web.field_text(form, "action", 16)
    decisions = {
        "approve": work_order_pb2.PROPOSAL_DECISION_APPROVE,
        "decline": work_order_pb2.PROPOSAL_DECISION_DECLINE,
    }
    if action not in decisions:
        return web.render(
            request,
            "error.html",
            {"error": ApiError("INVALID_ARGUMENT", "", "action must be approve or decline")},
            400,
        )
    decide = work_order_pb2.DecideWorkOrderProposalRequest(
        work_order_id=work_order_id,
        decision=decisions[action],
        reason=web.field_text(form, "reason", 1000),
    )
    try:
        await engine.call(session.token, engine.work_orders.DecideWorkOrderProposal, decide)
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"/workorders/{work_order_id}")


async def hold_control(request: Request) -> Response:
    session, form = await web.checked_form(request)
    engine = web.console_of(request).engine
    action = web.field_text(form, "action", 16)
    work_order_id = web.field_text(form, "work_order_id", 128)
    kind_name = web.field_text(form, "kind", 64) or "HOLD_KIND_RESTORE"
    known = admin_pb2.HoldKind.keys()  # a proto enum wrapper has keys(), no __contains__
    if kind_name not in known or action not in ("place", "clear"):
        return web.render(
            request,
            "error.html",
            {"error": ApiError("INVALID_ARGUMENT", "", "unknown hold kind or action")},
            400,
        )
    try:
        if action == "place":
            await engine.call(
                session.token,
                engine.admin.PlaceHold,
                admin_pb2.PlaceHoldRequest(
                    kind=kind_name,
                    work_order_id=work_order_id,
                    reason=web.field_text(form, "reason", 1024),
                ),
            )
        else:
            await engine.call(
                session.token,
                engine.admin.ClearHold,
                admin_pb2.ClearHoldRequest(kind=kind_name, work_order_id=work_order_id),
            )
    except ApiError as error:
        return web.error_page(request, error)
    return web.redirect(f"/workorders/{work_order_id}" if work_order_id else "/registry")


ROUTES = [
    Route("/registry", registry_page, methods=["GET"]),
    Route("/registry/{work_order_id}/{ref_run_id}", ref_page, methods=["GET"]),
    Route(
        "/registry/{work_order_id}/{ref_run_id}/proposals/{proposal_id}",
        proposal_page,
        methods=["GET"],
    ),
    Route(
        "/registry/{work_order_id}/{ref_run_id}/proposals/{proposal_id}/approve",
        approve,
        methods=["POST"],
    ),
    Route(
        "/registry/{work_order_id}/{ref_run_id}/proposals/{proposal_id}/activate",
        activate,
        methods=["POST"],
    ),
    Route(
        "/registry/{work_order_id}/{ref_run_id}/proposals/{proposal_id}/reject",
        reject,
        methods=["POST"],
    ),
    Route("/workorders/{work_order_id}", work_order_page, methods=["GET"]),
    Route("/workorders/{work_order_id}/control", work_order_control, methods=["POST"]),
    Route("/workorders/{work_order_id}/decide", work_order_decide, methods=["POST"]),
    Route("/holds", hold_control, methods=["POST"]),
]
