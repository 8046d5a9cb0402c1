"""Resuming failed and cancelled runs (ResumeRun), and the review of a governed resume.

A resume is one transaction: replay a repeated request, lock the run, check who may
resume it and that its work order still takes work, verify and consume the human
approval of its exact material when the run is governed, and apply
:class:`praxis.core.run.Resume`. An ad hoc run needs only the ``run.resume`` grant; a
governed run (one that executes a registry ref) also needs a human's approval of the
:class:`praxis.core.resume.Material` that ReviewResume returns, which pins the run at its
current version.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.core import gates, values
from praxis.core import resume as resumes
from praxis.core import run as core
from praxis.core.records import Epochs, Principal
from praxis.core.rejection import Rejection, invalid, precondition
from praxis.store.controls import rows as controls
from praxis.store.db.database import Rollback
from praxis.store.execution import approved, requests
from praxis.store.registry.store import RegistryStore
from praxis.store.runtime.rows import Effects, RunRecord
from praxis.store.runtime.runs import MAX_RUN_TIMEOUT_MS, RunStore, admit


@dataclass(frozen=True)
class ResumeRequest:
    """A ReviewResume or ResumeRun request after wire decoding."""

    run_id: str
    reason: str
    run_timeout_ms: int = 0
    epochs: Epochs | None = None
    request_id: str = ""
    approval_id: str = ""


class ResumeStore:
    """Resumes over the run store and the registry's approvals."""

    def __init__(self, runs: RunStore, registry: RegistryStore) -> None:
        self.runs = runs
        self.registry = registry
        self.clock = runs.clock

    def review(self, principal: Principal, request: ResumeRequest) -> resumes.Material | Rejection:
        """The material a human approves before a governed run resumes. Writes nothing."""
        problem = _check(request)
        if problem:
            return problem
        with self.runs.db.read() as connection:
            found = self._material(connection, principal, request)
        return found[0] if not isinstance(found, Rejection) else found

    def _material(
        self, connection: Connection, principal: Principal, request: ResumeRequest
    ) -> tuple[resumes.Material, RunRecord] | Rejection:
        record = self.runs.unit.load(connection, request.run_id)
        denied = self.runs.authorize_run(principal, "run.resume", record, request.run_id)
        if denied or record is None:
            return denied  # type: ignore[return-value]  # set when the run is missing
        if record.state.status not in (core.RunStatus.FAILED, core.RunStatus.CANCELLED):
            return _not_resumable(record)
        epochs = request.epochs
        work_order = controls.load_work_order(connection, record.work_order_id)
        if epochs is None:
            epochs = Epochs(
                self.registry.installation_id,
                work_order.ownership_epoch,
                work_order.authority_epoch,
            )
        problem = gates.check_epochs(epochs, self.registry.installation_id, work_order)
        if problem:
            return problem
        state = record.state
        material = resumes.Material(
            epochs=epochs,
            work_order_id=record.work_order_id,
            ref_run_id=record.ref_run_id,
            run_id=state.run_id,
            run_version=state.version,
            revision=state.revision,
            definition_digest=state.definition.digest,
            nodes=tuple(resumes.again(state)),
            reason=request.reason,
            run_timeout_ms=request.run_timeout_ms,
        )
        return material, record

    def resume(
        self, principal: Principal, request: ResumeRequest
    ) -> tuple[RunRecord, bool] | Rejection:
        """Resumes a run; ``(run, replayed)``."""
        problem = _check(request) or values.check_identifier(request.request_id, "request_id")
        if problem:
            return problem
        digest = values.digest(
            {
                "run_id": request.run_id,
                "reason": request.reason,
                "run_timeout_ms": request.run_timeout_ms,
                "approval_id": request.approval_id,
            }
        )

        def transaction(connection: Connection, effects: Effects) -> tuple[RunRecord, bool]:
            scope = ("resume", principal.principal_id, request.request_id)
            key = requests.replayed(
                connection, scope[1], scope[0], scope[2], digest,
                lambda run_id: self._granted(connection, principal, run_id),
            )  # fmt: skip
            if key is not None:
                replay = self.runs.unit.load(connection, key)
                assert replay is not None
                return replay, True
            self.runs.unit.lock_load(connection, request.run_id)
            found = self._material(connection, principal, request)
            if isinstance(found, Rejection):
                raise Rollback(found)
            material, record = found
            now = self.clock.now_ms()
            admit(connection, record.work_order_id)
            if record.ref_run_id:
                self._approve(connection, principal, request, material, record, now)
            deadline = self.runs.deadline(
                connection, record.contract_id, request.run_timeout_ms, now
            )
            command = core.Resume(request.reason, principal.principal_id, deadline)
            outcome = core.apply(record.state, command, now, self.runs.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            saved = self.runs.unit.save(connection, record, outcome, effects, command, now)
            requests.append(
                connection,
                "RUN_RESUMED",
                record.state.run_id,
                now,
                by=principal.principal_id,
                reason=request.reason,
                approval_id=request.approval_id,
                material_digest=material.digest(),
            )
            requests.remember(connection, scope[1], scope[0], scope[2], digest, record.state.run_id)
            return saved, False

        result: tuple[RunRecord, bool] | Rejection = self.runs.unit.transact(transaction)
        return result

    def _granted(
        self, connection: Connection, principal: Principal, run_id: str
    ) -> Rejection | None:
        """Whether ``run.resume`` on the run is still granted (a replay's check)."""
        record = self.runs.unit.load(connection, run_id)
        return self.runs.authorize_run(principal, "run.resume", record, run_id)

    def _approve(
        self,
        connection: Connection,
        principal: Principal,
        request: ResumeRequest,
        material: resumes.Material,
        record: RunRecord,
        now: int,
    ) -> None:
        """Verifies and consumes the human approval a governed resume needs."""
        if not request.approval_id:
            raise Rollback(
                precondition(
                    "APPROVAL_REQUIRED",
                    "resuming a governed run needs a human's approval of its material: "
                    "ReviewResume, then CreateApproval of the material digest",
                )
            )
        approval, _evidence = approved.verify(
            connection,
            self.runs.authority,
            request.approval_id,
            material.digest(),
            material.epochs,
            record.work_order_id,
            now,
        )
        approved.consume(connection, approval, request.request_id, principal.principal_id, now)


def _not_resumable(record: RunRecord) -> Rejection:
    status = record.state.status.name
    return precondition(
        "RUN_NOT_RESUMABLE",
        f"only a failed or cancelled run can be resumed; run {record.state.run_id!r} is {status}",
    )


def _check(request: ResumeRequest) -> Rejection | None:
    problem = values.check_identifier(request.run_id, "run_id") or values.check_text(
        request.reason, "reason"
    )
    if problem:
        return problem
    if not request.reason:
        return invalid("FIELD_REQUIRED", "reason", "say why the run is resumed")
    if not 0 <= request.run_timeout_ms <= MAX_RUN_TIMEOUT_MS:
        return invalid(
            "TIME_INVALID", "run_timeout_ms", f"run_timeout_ms must be in [0, {MAX_RUN_TIMEOUT_MS}]"
        )
    if request.approval_id:
        return values.check_identifier(request.approval_id, "approval_id")
    return None
