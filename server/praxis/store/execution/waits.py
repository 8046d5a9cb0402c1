"""Waits: durable records of a run's wait nodes and their satisfaction.

A wait row is written for every wait node when its run starts; its state is read from
the run's snapshot (WAITING, DONE, FAILED, ...) together with the recorded satisfaction,
so that the snapshot stays the one source of truth. Expiry is the sweeper's
:class:`praxis.core.run.Expire` on the node's timer row, which survives restarts.

An ``authorization`` wait is satisfied only with the approval of its exact material
(:mod:`praxis.core.authorization`): :meth:`WaitStore.review` returns the material,
:meth:`WaitStore.satisfy` recomputes it in its transaction, verifies the named approval
against it and consumes it (:mod:`praxis.store.execution.authorizations`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy.engine import Connection

from praxis.core import authorization as authz
from praxis.core import kinds, values
from praxis.core import run as core
from praxis.core.definition import Node
from praxis.core.records import ApprovalRecord, Principal
from praxis.core.rejection import Rejection, invalid, not_found, precondition
from praxis.store.db.database import Rollback
from praxis.store.execution import authorizations
from praxis.store.execution.rows import requests
from praxis.store.execution.rows import waits as rows
from praxis.store.execution.rows.waits import WaitState, WaitView, wait_view
from praxis.store.registry.emits import HeadChanged
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.emits import RunStarted
from praxis.store.runtime.records import Effects, RunRecord

__all__ = ["WaitState", "WaitStore", "WaitView", "schema_json", "wait_id"]  # rpc/waits.py


def wait_id(run_id: str, uid: str) -> str:
    """The engine-assigned id of the wait of node ``uid`` in ``run_id``."""
    text = f"wait\x00{run_id}\x00{uid}"
    return "wait_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class WaitStore:
    """Waits over the runtime context (and, for authorization waits, the registry's approvals
    of this installation)."""

    def __init__(self, runtime: RuntimeContext, installation_id: str) -> None:
        self.runtime = runtime
        self.clock = runtime.clock
        self.authority = runtime.authority
        self.installation_id = installation_id

    def on_start(self, event: RunStarted) -> None:
        """Writes the wait rows of a new run."""
        record = event.record
        opened = [
            (wait_id(record.state.run_id, node_id), node_id)
            for node_id, spec in record.state.definition.nodes.items()
            if spec.wait is not None
        ]
        rows.insert_unsatisfied(event.connection, record.state.run_id, opened)

    def on_new_head(self, event: HeadChanged) -> None:
        """Writes rows for wait nodes an activated revision adds to its bound run."""
        connection, head = event.connection, event.head
        nodes = head.definition.get("nodes") if isinstance(head.definition, dict) else None
        if not head.bound_run_id or not isinstance(nodes, dict):
            return
        present = rows.node_uids(connection, head.bound_run_id)
        added = [
            (wait_id(head.bound_run_id, node_id), node_id)
            for node_id, spec in nodes.items()
            if isinstance(spec, dict) and spec.get("kind", "agent") != "agent"
            and node_id not in present
        ]  # fmt: skip
        rows.insert_unsatisfied(connection, head.bound_run_id, added)

    def get(self, principal: Principal, wait: str) -> WaitView | Rejection:
        """One wait."""
        problem = values.check_identifier(wait, "wait_id")
        if problem:
            return problem
        with self.runtime.db.read() as connection:
            row = rows.by_id(connection, wait)
            if row is None:
                missing = not_found("WAIT_NOT_FOUND", f"no wait {wait!r}")
                denied = self.runtime.authorize_run(principal, "run.read", None, wait, missing)
                return denied or missing
            record = self.runtime.get_run(principal, row.run_id)
            if isinstance(record, Rejection):
                return record
            return wait_view(connection, record, row, self.clock.now_ms())

    def list(self, principal: Principal, run_id: str) -> list[WaitView] | Rejection:
        """The waits of a run, in definition order."""
        record = self.runtime.get_run(principal, run_id)
        if isinstance(record, Rejection):
            return record
        with self.runtime.db.read() as connection:
            stored = {row.node_uid: row for row in rows.of_run(connection, run_id)}
            now = self.clock.now_ms()
            return [
                wait_view(connection, record, stored[node_id], now)
                for node_id in record.state.definition.nodes
                if node_id in stored
            ]

    def review(
        self, principal: Principal, wait: str, payload_json: str
    ) -> tuple[authz.Material, str] | Rejection:
        """The material of satisfying an authorization wait with a payload, and its
        digest. Checks what SatisfyWait would; writes nothing."""
        problem = values.check_identifier(wait, "wait_id")
        if problem:
            return problem
        payload = values.parse_document(
            payload_json or "null", "payload_json", self.runtime.profile
        )
        if isinstance(payload, Rejection):
            return payload
        with self.runtime.db.read() as connection:
            row = rows.by_id(connection, wait)
            record = None if row is None else self.runtime.unit.load(connection, row.run_id)
            missing = not_found("WAIT_NOT_FOUND", f"no wait {wait!r}")
            denied = self.runtime.authorize_run(principal, "wait.read", record, wait, missing)
            if denied or record is None:
                return denied or missing
            if record.state.definition.nodes[row.node_uid].kind != authz.KIND:
                return _not_applicable("only an authorization wait is reviewed")
            outcome = core.apply(
                record.state, core.SatisfyWait(row.node_uid, payload), self.clock.now_ms(),
                self.runtime.limits,
            )  # fmt: skip
            if isinstance(outcome, Rejection):
                return outcome
            found = authorizations.material(
                connection, record, wait, row.node_uid, payload, self.installation_id
            )
        return found, found.digest()

    def satisfy(
        self,
        principal: Principal,
        request_id: str,
        wait: str,
        payload_json: str,
        approval_id: str = "",
    ) -> tuple[WaitView, bool] | Rejection:
        """Satisfies a pending wait with a payload that matches its schema; an
        authorization wait with the approval of its exact material, consumed here."""
        problem = (
            values.check_identifier(request_id, "request_id")
            or values.check_identifier(wait, "wait_id")
            or (values.check_identifier(approval_id, "approval_id") if approval_id else None)
        )
        if problem:
            return problem
        payload = values.parse_document(
            payload_json or "null", "payload_json", self.runtime.profile
        )
        if isinstance(payload, Rejection):
            return payload
        named = {"approval_id": approval_id} if approval_id else {}
        digest = values.digest({"wait_id": wait, "payload": payload, **named})

        def transaction(connection: Connection, effects: Effects) -> tuple[WaitView, bool]:
            now = self.clock.now_ms()
            row = rows.by_id(connection, wait)
            if row is None:
                missing = not_found("WAIT_NOT_FOUND", f"no wait {wait!r}")
                raise Rollback(
                    self.runtime.authorize_run(principal, "wait.satisfy", None, wait, missing)
                    or missing
                )
            record = self.runtime.unit.lock_load(connection, row.run_id)
            assert record is not None
            spec = record.state.definition.nodes[row.node_uid]
            replay = requests.replayed(
                connection, principal.principal_id, "wait", request_id, digest,
                lambda _key: self._refusal(principal, record, spec, now),
            )  # fmt: skip
            if replay is not None:
                return wait_view(connection, record, row, now), True
            self._authorize(principal, record, spec, now)
            if approval_id and spec.kind != authz.KIND:
                raise Rollback(_not_applicable("only an authorization wait takes an approval"))
            command = core.SatisfyWait(row.node_uid, payload)
            outcome = core.apply(record.state, command, now, self.runtime.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            approval = None
            if spec.kind == authz.KIND:
                approval = self._approval(connection, record, row, payload, approval_id, now)
            saved = self.runtime.unit.save(connection, record, outcome, effects, command, now)
            _record(connection, principal, row, payload, approval, request_id, now)
            requests.remember(connection, principal.principal_id, "wait", request_id, digest, wait)
            return wait_view(connection, saved, rows.by_id(connection, wait), now), False

        result: tuple[WaitView, bool] | Rejection = self.runtime.unit.transact(transaction)
        return result

    def _authorize(self, principal: Principal, record: RunRecord, spec: Node, now: int) -> None:
        problem = self._refusal(principal, record, spec, now)
        if problem:
            raise Rollback(problem)

    def _refusal(
        self, principal: Principal, record: RunRecord, spec: Node, now: int
    ) -> Rejection | None:
        """Why the caller may not satisfy this wait now (``None``: it may)."""
        purpose = spec.wait.purpose if spec.wait else ""
        evidence = self.authority.authorize(
            principal, "wait.satisfy", record.work_order_id, now, purpose
        )
        if isinstance(evidence, Rejection):
            return evidence
        if spec.kind == authz.KIND:
            return kinds.check_kind("wait.authorize", evidence.kind)
        return None

    def _approval(
        self,
        connection: Connection,
        record: RunRecord,
        row: Any,
        payload: values.JsonValue,
        approval_id: str,
        now: int,
    ) -> tuple[ApprovalRecord, authz.Material]:
        """The approval of the material of this satisfaction, verified (raises
        :class:`Rollback` with the reason when there is none or it does not hold)."""
        if not approval_id:
            raise Rollback(
                precondition(
                    "AUTHORIZATION_APPROVAL_REQUIRED",
                    "an authorization wait is satisfied with the approval of its material: "
                    "ReviewWait, then CreateApproval, then SatisfyWait with approval_id",
                )
            )
        found = authorizations.material(
            connection, record, row.wait_id, row.node_uid, payload, self.installation_id
        )
        approval, evidence = authorizations.verify(
            connection, self.authority, approval_id, found, now
        )
        if evidence.expires_at_ms <= self.clock.now_ms():
            raise Rollback(precondition("APPROVAL_EXPIRED", "the approval expired"))
        return approval, found


def _record(
    connection: Connection,
    principal: Principal,
    row: Any,
    payload: values.JsonValue,
    approval: tuple[ApprovalRecord, authz.Material] | None,
    request_id: str,
    now: int,
) -> None:
    """Records the satisfaction on the wait row and in the model's log, consuming the
    approval of an authorization wait."""
    approved: dict[str, str] = {}
    if approval is not None:
        authorizations.consume(
            connection, approval[0], approval[1], request_id, principal.principal_id, now
        )
        approved = {"approval_id": approval[0].approval_id, "material_digest": approval[1].digest()}
    rows.satisfy(
        connection, row.wait_id, values.canonical_json(payload), principal.principal_id, now
    )
    requests.append(
        connection, "WAIT_SATISFIED", row.run_id, now, wait_id=row.wait_id,
        principal_id=principal.principal_id, payload_digest=values.digest(payload), **approved,
    )  # fmt: skip


def _not_applicable(message: str) -> Rejection:
    return invalid("APPROVAL_NOT_APPLICABLE", "approval_id", message)


def schema_json(spec: Node) -> str:
    """The wait's schema as JSON text."""
    assert spec.wait is not None
    return values.canonical_json(spec.wait.schema)
