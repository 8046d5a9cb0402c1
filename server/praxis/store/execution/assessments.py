"""Assessments of completed runs and their acceptance (:mod:`praxis.core.assessment`)."""

from __future__ import annotations

import json

from sqlalchemy.engine import Connection

from praxis.core import assessment as core
from praxis.core import run as runs
from praxis.core import values
from praxis.core.records import Principal, Ref
from praxis.core.rejection import Rejection, invalid
from praxis.store.db.database import Database, Rollback
from praxis.store.execution.rows import assessments as rows
from praxis.store.execution.rows import contracts, requests
from praxis.store.registry.emits import HeadChanged
from praxis.store.registry.rows import load_head
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.emits import RunSaved
from praxis.store.runtime.records import RunRecord
from praxis.store.wake.hub import INBOX


class AssessmentStore:
    """Assessments over the runtime context."""

    def __init__(self, runtime: RuntimeContext) -> None:
        self.runtime = runtime
        self.clock = runtime.clock
        self.authority = runtime.authority

    def subject(self, connection: Connection, record: RunRecord) -> str:
        """The run's current subject digest (empty until it completed)."""
        state = record.state
        if state.status is not runs.RunStatus.COMPLETED:
            return ""
        contract = contracts.load(connection, record.contract_id) if record.contract_id else None
        head = None
        if record.ref_run_id:
            found = load_head(connection, Ref(record.work_order_id, record.ref_run_id))
            head = (found.revision, found.definition_digest) if found else None
        return core.subject_digest(
            state.run_id,
            json.loads(record.result_json) if record.result_json else None,
            state.definition.digest,
            contract.contract.digest() if contract else "",
            head,
        )

    def on_save(self, event: RunSaved) -> None:
        """A run under a contract that completes owes a verification and an acceptance:
        both enter the inbox (``assessments_due``) until assessed."""
        connection, record, outcome = event.connection, event.record, event.outcome
        completed = runs.RunStatus.COMPLETED
        if (
            record.contract_id
            and outcome.state.status is completed
            and record.state.status is not completed
        ):
            since = outcome.state.finished_at_ms or self.clock.now_ms()
            rows.owe(connection, record.state.run_id, record.work_order_id, since)

    def on_new_head(self, event: HeadChanged) -> None:
        """A new head of a completed governed run's ref changes the run's subject: its
        assessments are no longer current, so both are owed again."""
        connection, head, now = event.connection, event.head, event.now
        if not head.bound_run_id:
            return
        record = self.runtime.unit.load(connection, head.bound_run_id)
        if (
            record is not None
            and record.contract_id
            and record.state.status is runs.RunStatus.COMPLETED
        ):
            rows.forgive(connection, record.state.run_id)
            rows.owe(connection, record.state.run_id, record.work_order_id, now)

    def _wake_inbox(self) -> None:
        self.runtime.signals.publish({INBOX: 0})

    def record(
        self,
        principal: Principal,
        request_id: str,
        run_id: str,
        kind: core.Kind | None,
        verdict: core.Verdict | None,
        subject_digest: str,
        findings_json: str,
    ) -> tuple[core.Assessment, bool] | Rejection:
        """Records an assessment of a completed run's current subject."""
        problem = values.check_identifier(request_id, "request_id") or values.check_identifier(
            run_id, "run_id"
        )
        if problem:
            return problem
        if kind is None or verdict is None:
            field = "kind" if kind is None else "verdict"
            return invalid("ENUM_INVALID", field, f"{field} must be set")
        if not values.is_digest(subject_digest):
            return invalid("DIGEST_INVALID", "subject_digest", "must be sha256:<64 hex>")
        findings = values.parse_document(findings_json or "null", "findings_json")
        if isinstance(findings, Rejection):
            return findings
        digest = values.digest(
            {"run_id": run_id, "kind": kind.name, "verdict": verdict.name,
             "subject": subject_digest, "findings": findings}
        )  # fmt: skip
        identifier = core.assessment_id(principal.principal_id, request_id)

        def transaction(connection: Connection) -> tuple[core.Assessment, bool]:
            key = requests.replayed(
                connection, principal.principal_id, "assess", request_id, digest,
                lambda _key: self.runtime.authorize_run(
                    principal, kind.value, self.runtime.unit.load(connection, run_id), run_id
                ),
            )  # fmt: skip
            if key is not None:
                return rows.load(connection, key), True
            record = self.runtime.unit.load(connection, run_id)
            denied = self.runtime.authorize_run(principal, kind.value, record, run_id)
            if denied or record is None:
                raise Rollback(denied)
            now = self.clock.now_ms()
            actor = self.authority.authorize(principal, kind.value, record.work_order_id, now)
            if isinstance(actor, Rejection):
                raise Rollback(actor)
            completed = record.state.status is runs.RunStatus.COMPLETED
            current = self.subject(connection, record)
            problem = core.check_record(kind, actor.kind, completed, current, subject_digest)
            if problem:
                raise Rollback(problem)
            rows.add(
                connection, identifier, run_id, kind, verdict, subject_digest,
                record.contract_id, values.canonical_json(findings), principal.principal_id, now,
            )  # fmt: skip
            rows.forgive(connection, run_id, kind)
            Database.after_commit(connection, self._wake_inbox, once=True)
            requests.append(
                connection, "ASSESSED", run_id, now, assessment_id=identifier,
                assessment_kind=kind.name, verdict=verdict.name,
                subject_digest=subject_digest,
            )  # fmt: skip
            requests.remember(
                connection, principal.principal_id, "assess", request_id, digest, identifier
            )
            return rows.load(connection, identifier), False

        result: tuple[core.Assessment, bool] | Rejection = self.runtime.db.transact(transaction)
        return result

    def list(
        self, principal: Principal, run_id: str
    ) -> tuple[list[core.Assessment], str] | Rejection:
        """A run's assessments (oldest first) and its current subject digest."""
        found = self.runtime.get_run(principal, run_id)
        if isinstance(found, Rejection):
            return found
        denied = self.authority.authorize(
            principal, "assess.read", found.work_order_id, self.clock.now_ms()
        )
        if isinstance(denied, Rejection):
            return denied
        with self.runtime.db.read() as connection:
            found_assessments = rows.of_run(connection, run_id)
            subject = self.subject(connection, found)
        return found_assessments, subject
