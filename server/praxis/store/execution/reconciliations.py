"""Reconciliations: open on an uncertain effect, decided by a reviewed human approval.

The RunSaved reaction :meth:`ReconciliationStore.on_save` opens a reconciliation in the
transaction that blocks the node. :meth:`ReconciliationStore.reconcile` is one
transaction: check holds and epochs, replay a repeated request, verify and consume the
approval of the exact material (the registry's approvals and proofs), apply
:class:`praxis.core.run.Reconcile` to the run and record the decision and its event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlalchemy.engine import Connection

from praxis.core import effects, gates, values
from praxis.core import run as core
from praxis.core.records import ApprovalRecord, Epochs, Principal
from praxis.core.rejection import Rejection, invalid, not_found, precondition
from praxis.store.controls import rows as controls
from praxis.store.db.database import Rollback
from praxis.store.execution import approved
from praxis.store.execution.rows import reconciliations as rows
from praxis.store.execution.rows import requests
from praxis.store.execution.rows.reconciliations import ReconciliationView
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.emits import RunSaved
from praxis.store.runtime.records import Effects, RunRecord

__all__ = ["Decision", "ReconciliationStore", "ReconciliationView"]  # rpc/


@dataclass(frozen=True)
class Decision:
    """A Review or Reconcile request after wire validation."""

    epochs: Epochs
    attempt_id: str
    decision: effects.Decision | None
    evidence_json: str
    request_id: str = ""
    approval_id: str = ""
    result_json: str = ""
    """APPLIED only, for an attempt that reported no result (it failed, or ended without
    a report): the result the human established, with which the node completes."""


_BLOCKED_PREFIX = "RECONCILIATION_REQUIRED: "


class ReconciliationStore:
    """Reconciliations over the runtime context and the registry's approvals."""

    def __init__(self, runtime: RuntimeContext, installation_id: str) -> None:
        self.runtime = runtime
        self.installation_id = installation_id
        self.authority = runtime.authority
        self.clock = runtime.clock

    # --- hook -------------------------------------------------------------------------

    def on_save(self, event: RunSaved) -> None:
        """Opens a reconciliation for each attempt a command left with an uncertain effect
        and its node blocked: a worker's UNCERTAIN report, or an attempt that ended without
        the worker's report on a node whose effects are not retry-safe (lease lost,
        timeout, run stopped under it)."""
        connection, command, outcome = event.connection, event.command, event.outcome
        for attempt in outcome.attempts:
            if attempt.effect != core.Effect.UNCERTAIN.value:
                continue
            node = outcome.state.nodes.get(attempt.node_uid)
            if (
                node is None
                or node.status is not core.NodeStatus.BLOCKED
                or node.attempt_id != attempt.attempt_id
            ):
                continue
            report = (
                command
                if isinstance(command, core.Complete | core.Fail)
                and command.attempt.attempt_id == attempt.attempt_id
                else None
            )
            self._open(connection, attempt, node, report, outcome)

    def _open(
        self,
        connection: Connection,
        attempt: core.Attempt,
        node: core.NodeRun,
        report: core.Complete | core.Fail | None,
        outcome: core.Outcome,
    ) -> None:
        completed = isinstance(report, core.Complete)
        if isinstance(report, core.Fail):
            error = report.error
        elif report is None:
            error = node.error.removeprefix(_BLOCKED_PREFIX)
        else:
            error = ""
        now = outcome.state.updated_at_ms
        result_json = (
            values.canonical_json(report.result) if isinstance(report, core.Complete) else ""
        )
        rows.open_pending(
            connection, attempt.attempt_id, attempt.run_id, attempt.node_uid, completed,
            result_json, error, now,
        )  # fmt: skip
        requests.append(
            connection,
            "RECONCILIATION_OPENED",
            attempt.run_id,
            now,
            attempt_id=attempt.attempt_id,
            node_uid=attempt.node_uid,
        )

    # --- reads ------------------------------------------------------------------------

    def list(self, principal: Principal, run_id: str) -> list[ReconciliationView] | Rejection:
        """A run's reconciliations, oldest first."""
        record = self.runtime.get_run(principal, run_id)
        if isinstance(record, Rejection):
            return record
        with self.runtime.db.read() as connection:
            found = rows.of_run(connection, run_id)
        return [_of_node(view, record) for view in found]

    def review(
        self, principal: Principal, request: Decision
    ) -> tuple[effects.Material, str] | Rejection:
        """The material of a decision and its digest. Writes nothing."""
        problem = _check(request)
        if problem:
            return problem
        with self.runtime.db.read() as connection:
            found = self._material(connection, principal, request, "reconcile.read")
        if isinstance(found, Rejection):
            return found
        material = found[0]
        return material, material.digest()

    def _material(
        self, connection: Connection, principal: Principal, request: Decision, action: str
    ) -> tuple[effects.Material, ReconciliationView, RunRecord] | Rejection:
        view = rows.load(connection, request.attempt_id)
        record = None if view is None else self.runtime.unit.load(connection, view.run_id)
        if view is not None and record is not None:
            view = _of_node(view, record)
        denied = self.runtime.authorize_run(
            principal,
            action,
            record,
            request.attempt_id,
        )
        if denied is not None and denied.reason == "RUN_NOT_FOUND":
            denied = not_found("ATTEMPT_NOT_FOUND", f"no reconciliation of {request.attempt_id!r}")
        if denied or record is None or view is None:
            return denied  # type: ignore[return-value]  # set when nothing was found
        work_order = controls.load_work_order(connection, record.work_order_id)
        problem = gates.check_epochs(request.epochs, self.installation_id, work_order)
        if problem:
            return problem
        assert request.decision is not None
        evidence = values.parse_document(request.evidence_json, "evidence_json")
        assert not isinstance(evidence, Rejection)  # checked by _check
        result_digest = values.digest(json.loads(view.result_json)) if view.completed else ""
        if request.result_json:
            supplied = self._supplied(view, record, request.result_json)
            if isinstance(supplied, Rejection):
                return supplied
            result_digest = values.digest(supplied)
        material = effects.Material(
            epochs=request.epochs,
            work_order_id=record.work_order_id,
            pending=effects.Pending(
                view.attempt_id,
                view.run_id,
                view.node_uid,
                view.completed,
                result_digest,
            ),
            operation_id=view.operation_id,
            decision=request.decision,
            evidence_digest=values.digest(evidence),
        )
        return material, view, record

    def _granted(
        self, connection: Connection, principal: Principal, attempt_id: str
    ) -> Rejection | None:
        """Whether ``reconcile.decide`` on the attempt's run is still granted (a replay's
        check: the answer a fresh decision gets for the caller's grants)."""
        run_id = rows.run_of(connection, attempt_id)
        record = None if run_id is None else self.runtime.unit.load(connection, run_id)
        return self.runtime.authorize_run(principal, "reconcile.decide", record, attempt_id)

    def _supplied(
        self, view: ReconciliationView, record: RunRecord, text: str
    ) -> values.JsonValue | Rejection:
        """The result a human supplied with an APPLIED decision, checked against the
        node's output contract; refused for an attempt that reported its own."""
        if view.completed:
            return invalid(
                "RESULT_NOT_EXPECTED",
                "result_json",
                "the attempt completed with its own result: the decision takes none",
            )
        result = values.parse_document(text, "result_json", self.runtime.profile)
        if isinstance(result, Rejection):
            return result
        node_id = view.node_uid.partition("#")[0]
        problem = core.check_result(record.state.definition.nodes[node_id], result)
        return problem or result

    # --- the command ------------------------------------------------------------------

    def reconcile(
        self, principal: Principal, request: Decision
    ) -> tuple[ReconciliationView, bool] | Rejection:
        """Records a reviewed decision, consuming its approval."""
        problem = (
            values.check_identifier(request.request_id, "request_id")
            or _check(request)
            or values.check_identifier(request.approval_id, "approval_id")
        )
        if problem:
            return problem
        digest = values.digest(
            {
                "attempt_id": request.attempt_id,
                "decision": request.decision.value if request.decision else "",
                "evidence": request.evidence_json,
                "approval_id": request.approval_id,
                **({"result": request.result_json} if request.result_json else {}),
            }
        )

        def transaction(
            connection: Connection, signals: Effects
        ) -> tuple[ReconciliationView, bool]:
            scope = ("reconcile", principal.principal_id, request.request_id)
            key = requests.replayed(
                connection, scope[1], scope[0], scope[2], digest,
                lambda _key: self._granted(connection, principal, request.attempt_id),
            )  # fmt: skip
            if key is not None:
                return self._load_view(connection, key), True
            now = self.clock.now_ms()
            problem = gates.check_holds(controls.active_holds(connection), "")
            found = self._material(connection, principal, request, "reconcile.decide")
            if isinstance(found, Rejection) or problem:
                raise Rollback(problem or found)
            material, view, record = found
            if view.state is not effects.ReconciliationState.PENDING:
                raise Rollback(
                    precondition("RECONCILIATION_NOT_PENDING", "the reconciliation was decided")
                )
            approval, evidence = approved.verify(
                connection,
                self.authority,
                request.approval_id,
                material.digest(),
                material.epochs,
                record.work_order_id,
                now,
            )
            applied = request.decision is effects.Decision.APPLIED
            result = json.loads(view.result_json) if view.completed else None
            if request.result_json:  # checked by _material
                result = json.loads(request.result_json)
            command = core.Reconcile(
                view.node_uid,
                view.attempt_id,
                applied,
                result,
                view.completed or bool(request.result_json),
            )
            outcome = core.apply(record.state, command, now, self.runtime.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            if evidence.expires_at_ms <= self.clock.now_ms():
                raise Rollback(precondition("APPROVAL_EXPIRED", "the approval expired"))
            self.runtime.unit.save(connection, record, outcome, signals, command, now)
            self._record(connection, principal, request, approval, material, now)
            requests.remember(connection, scope[1], scope[0], scope[2], digest, view.attempt_id)
            return self._load_view(connection, view.attempt_id), False

        result: tuple[ReconciliationView, bool] | Rejection = self.runtime.unit.transact(
            transaction, scoped=False
        )
        return result

    def _record(
        self,
        connection: Connection,
        principal: Principal,
        request: Decision,
        approval: ApprovalRecord,
        material: effects.Material,
        now: int,
    ) -> None:
        assert request.decision is not None
        approved.consume(connection, approval, request.request_id, principal.principal_id, now)
        rows.resolve(
            connection, request.attempt_id, request.decision.value, request.evidence_json,
            request.approval_id, principal.principal_id, now,
        )  # fmt: skip
        requests.append(
            connection,
            "RECONCILED",
            material.pending.run_id,
            now,
            attempt_id=request.attempt_id,
            decision=request.decision.value,
            material_digest=material.digest(),
            result_digest=material.pending.result_digest,
            approval_id=request.approval_id,
        )

    def _load_view(self, connection: Connection, attempt_id: str) -> ReconciliationView:
        view = rows.load(connection, attempt_id)
        assert view is not None  # recorded in this transaction
        record = self.runtime.unit.load(connection, view.run_id)
        return _of_node(view, record) if record is not None else view


def _check(request: Decision) -> Rejection | None:
    problem = values.check_identifier(request.attempt_id, "attempt_id")
    if problem:
        return problem
    if request.decision is None:
        return invalid("ENUM_INVALID", "decision", "decision must be APPLIED or NOT_APPLIED")
    if not request.evidence_json:
        return invalid("FIELD_REQUIRED", "evidence_json", "evidence_json is required")
    evidence = values.parse_document(request.evidence_json, "evidence_json")
    if isinstance(evidence, Rejection):
        return evidence
    if request.result_json and request.decision is not effects.Decision.APPLIED:
        return invalid(
            "RESULT_NOT_EXPECTED",
            "result_json",
            "a result goes only with an APPLIED decision (NOT_APPLIED runs the node again)",
        )
    return None


def _of_node(view: ReconciliationView, record: RunRecord) -> ReconciliationView:
    """The view with its node's operation generation."""
    node = record.state.nodes.get(view.node_uid)
    return replace(view, operation=node.operation) if node is not None else view
