"""Waits: durable records of a run's wait nodes and their satisfaction.

A wait row is written for every wait node when its run starts; its state is read from
the run's snapshot (WAITING, DONE, FAILED, ...) together with the recorded satisfaction,
so that the snapshot stays the one source of truth. Expiry is the sweeper's
:class:`praxis.core.run.Expire` on the node's timer row, which survives restarts.
"""

from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection

from praxis.core import kinds, values
from praxis.core import run as core
from praxis.core.definition import Node
from praxis.core.records import Principal
from praxis.core.registry import Head
from praxis.core.rejection import Rejection, not_found
from praxis.store.db.database import Rollback
from praxis.store.execution import requests
from praxis.store.execution.tables import waits
from praxis.store.runtime.rows import Effects, RunRecord
from praxis.store.runtime.runs import RunStore
from praxis.store.runtime.tables import run_events


class WaitState(enum.Enum):
    """What a wait's node and satisfaction say about it."""

    NOT_OPEN = "NOT_OPEN"
    PENDING = "PENDING"
    SATISFIED = "SATISFIED"
    EXPIRED = "EXPIRED"
    DEFAULTED = "DEFAULTED"
    CANCELLED = "CANCELLED"


@dataclass(frozen=True)
class WaitView:
    """One wait as a caller sees it."""

    wait_id: str
    run_id: str
    node_uid: str
    spec: Node
    state: WaitState
    opened_at_ms: int
    expires_at_ms: int
    payload_json: str
    satisfied_by: str
    satisfied_at_ms: int


def wait_id(run_id: str, uid: str) -> str:
    """The engine-assigned id of the wait of node ``uid`` in ``run_id``."""
    text = f"wait\x00{run_id}\x00{uid}"
    return "wait_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class WaitStore:
    """Waits over the run store."""

    def __init__(self, runs: RunStore) -> None:
        self.runs = runs
        self.clock = runs.clock
        self.authority = runs.authority

    def on_start(self, connection: Connection, _principal: Principal, record: RunRecord) -> None:
        """Writes the wait rows of a new run (a start hook of the run store)."""
        rows = [
            {
                "wait_id": wait_id(record.state.run_id, node_id),
                "run_id": record.state.run_id,
                "node_uid": node_id,
                "payload_json": "",
                "satisfied_by": "",
                "satisfied_at_ms": 0,
            }
            for node_id, spec in record.state.definition.nodes.items()
            if spec.wait is not None
        ]
        if rows:
            connection.execute(waits.insert(), rows)

    def on_new_head(self, connection: Connection, head: Head, _now: int) -> Rejection | None:
        """Writes rows for wait nodes an activated revision adds to its bound run."""
        nodes = head.definition.get("nodes") if isinstance(head.definition, dict) else None
        if not head.bound_run_id or not isinstance(nodes, dict):
            return None
        present = set(
            connection.execute(
                select(waits.c.node_uid).where(waits.c.run_id == head.bound_run_id)
            ).scalars()
        )
        rows = [
            {"wait_id": wait_id(head.bound_run_id, node_id), "run_id": head.bound_run_id,
             "node_uid": node_id, "payload_json": "", "satisfied_by": "", "satisfied_at_ms": 0}
            for node_id, spec in nodes.items()
            if isinstance(spec, dict) and spec.get("kind", "agent") != "agent"
            and node_id not in present
        ]  # fmt: skip
        if rows:
            connection.execute(waits.insert(), rows)
        return None

    def get(self, principal: Principal, wait: str) -> WaitView | Rejection:
        """One wait."""
        problem = values.check_identifier(wait, "wait_id")
        if problem:
            return problem
        with self.runs.db.read() as connection:
            row = _row(connection, wait)
            if row is None:
                missing = not_found("WAIT_NOT_FOUND", f"no wait {wait!r}")
                denied = self.runs.authorize_run(principal, "run.read", None, wait, missing)
                return denied or missing
            record = self.runs.get_run(principal, row.run_id)
            if isinstance(record, Rejection):
                return record
            return self._view(connection, record, row, self.clock.now_ms())

    def list(self, principal: Principal, run_id: str) -> list[WaitView] | Rejection:
        """The waits of a run, in definition order."""
        record = self.runs.get_run(principal, run_id)
        if isinstance(record, Rejection):
            return record
        with self.runs.db.read() as connection:
            rows = {
                row.node_uid: row
                for row in connection.execute(select(waits).where(waits.c.run_id == run_id))
            }
            now = self.clock.now_ms()
            return [
                self._view(connection, record, rows[node_id], now)
                for node_id in record.state.definition.nodes
                if node_id in rows
            ]

    def _view(self, connection: Connection, record: RunRecord, row: Any, now: int) -> WaitView:
        node = record.state.nodes.get(row.node_uid)
        spec = record.state.definition.nodes[row.node_uid]
        assert spec.wait is not None
        state = _state(node, bool(row.satisfied_by), spec.wait.on_expiry == "default", now)
        expires = 0
        if node is not None and node.status is core.NodeStatus.WAITING:
            expires = node.deadline_ms
        elif state is not WaitState.NOT_OPEN:  # settled: the snapshot no longer keeps it
            expires = _opened_expiry(connection, record.state.run_id, row.node_uid)
        opened = expires - spec.wait.expires_in_ms if expires else 0
        return WaitView(
            wait_id=row.wait_id,
            run_id=record.state.run_id,
            node_uid=spec.node_id,
            spec=spec,
            state=state,
            opened_at_ms=opened,
            expires_at_ms=expires,
            payload_json=row.payload_json,
            satisfied_by=row.satisfied_by,
            satisfied_at_ms=row.satisfied_at_ms,
        )

    def satisfy(
        self, principal: Principal, request_id: str, wait: str, payload_json: str
    ) -> tuple[WaitView, bool] | Rejection:
        """Satisfies a pending wait with a payload that matches its schema."""
        problem = values.check_identifier(request_id, "request_id") or values.check_identifier(
            wait, "wait_id"
        )
        if problem:
            return problem
        payload = values.parse_document(payload_json or "null", "payload_json", self.runs.profile)
        if isinstance(payload, Rejection):
            return payload
        digest = values.digest({"wait_id": wait, "payload": payload})

        def transaction(connection: Connection, effects: Effects) -> tuple[WaitView, bool]:
            now = self.clock.now_ms()
            replay = requests.replayed(
                connection, principal.principal_id, "wait", request_id, digest
            )
            row = _row(connection, wait)
            if row is None:
                missing = not_found("WAIT_NOT_FOUND", f"no wait {wait!r}")
                raise Rollback(
                    self.runs.authorize_run(principal, "wait.satisfy", None, wait, missing)
                    or missing
                )
            record = self.runs.unit.lock_load(connection, row.run_id)
            assert record is not None
            if replay is not None:
                return self._view(connection, record, row, now), True
            self._authorize(principal, record, row.node_uid, now)
            command = core.SatisfyWait(row.node_uid, payload)
            outcome = core.apply(record.state, command, now, self.runs.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            saved = self.runs.unit.save(connection, record, outcome, effects, command, now)
            text = values.canonical_json(payload)
            connection.execute(
                update(waits)
                .where(waits.c.wait_id == wait)
                .values(payload_json=text, satisfied_by=principal.principal_id, satisfied_at_ms=now)
            )
            requests.append(
                connection, "WAIT_SATISFIED", row.run_id, now, wait_id=wait,
                principal_id=principal.principal_id, payload_digest=values.digest(payload),
            )  # fmt: skip
            requests.remember(connection, principal.principal_id, "wait", request_id, digest, wait)
            return self._view(connection, saved, _row(connection, wait), now), False

        result: tuple[WaitView, bool] | Rejection = self.runs.unit.transact(transaction)
        return result

    def _authorize(self, principal: Principal, record: RunRecord, uid: str, now: int) -> None:
        evidence = self.authority.authorize(principal, "wait.satisfy", record.work_order_id, now)
        if isinstance(evidence, Rejection):
            raise Rollback(evidence)
        kind = record.state.definition.nodes[uid].kind
        if kind == "authorization":
            problem = kinds.check_kind("wait.authorize", evidence.kind)
            if problem:
                raise Rollback(problem)


def _row(connection: Connection, wait: str) -> Any:
    return connection.execute(select(waits).where(waits.c.wait_id == wait)).first()


_OPENED = (
    select(run_events.c.payload_json)
    .where(
        run_events.c.run_id == bindparam("rid"),
        run_events.c.node_uid == bindparam("uid"),
        run_events.c.kind == "NODE_WAITING",
    )
    .order_by(run_events.c.seq.desc())
    .limit(1)
)


def _opened_expiry(connection: Connection, run_id: str, uid: str) -> int:
    """The expiry a settled wait had, from the event written when it opened (0 if none)."""
    text = connection.execute(_OPENED, {"rid": run_id, "uid": uid}).scalar()
    return int(json.loads(text).get("expires_at_ms", 0)) if text else 0


def _state(node: core.NodeRun | None, satisfied: bool, defaults: bool, now: int) -> WaitState:
    if node is None or node.status in (core.NodeStatus.PENDING, core.NodeStatus.READY):
        return WaitState.NOT_OPEN
    if node.status is core.NodeStatus.WAITING:
        if node.deadline_ms > now:
            return WaitState.PENDING
        # Past its expiry, before the sweep applies it: report what the sweep will do.
        return WaitState.DEFAULTED if defaults else WaitState.EXPIRED
    if node.status is core.NodeStatus.DONE:
        return WaitState.SATISFIED if satisfied else WaitState.DEFAULTED
    if node.status is core.NodeStatus.FAILED:
        return WaitState.EXPIRED
    return WaitState.CANCELLED


def schema_json(spec: Node) -> str:
    """The wait's schema as JSON text."""
    assert spec.wait is not None
    return values.canonical_json(spec.wait.schema)
