"""Waits' SQL, and a wait as a caller sees it (:class:`WaitView`)."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection

from praxis.core import authorization as authz
from praxis.core import run as core
from praxis.core.definition import Node
from praxis.store.execution.rows import authorizations
from praxis.store.execution.tables import waits
from praxis.store.runtime.records import RunRecord
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
    """One wait as a caller sees it.

    ``actions`` are what an ``authorization`` wait authorises: from the current
    definition (no input digests) while it is open, as approved once satisfied, when
    ``approval_id`` and ``material_digest`` name the approval consumed.
    """

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
    actions: tuple[authz.Action, ...] = ()
    approval_id: str = ""
    material_digest: str = ""

    @property
    def purpose(self) -> str:
        """The purpose the wait declares (authorization waits; empty: none)."""
        return self.spec.wait.purpose if self.spec.wait else ""


def wait_view(connection: Connection, record: RunRecord, row: Any, now: int) -> WaitView:
    """One stored wait (``row``, of the loaded run ``record``) as a caller sees it."""
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
    actions: tuple[authz.Action, ...] = ()
    approval_id = material_digest = ""
    if spec.kind == authz.KIND:
        if row.satisfied_by:
            approval_id, material_digest, actions = authorizations.approved(connection, row.wait_id)
        if not material_digest:  # open, expired, or satisfied before approvals
            actions = authz.actions(record.state, row.node_uid, {})
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
        actions=actions,
        approval_id=approval_id,
        material_digest=material_digest,
    )


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


def insert_unsatisfied(
    connection: Connection, run_id: str, opened: Iterable[tuple[str, str]]
) -> None:
    """Adds a row, not satisfied, for each ``(wait_id, node_uid)`` of a run."""
    rows = [
        {"wait_id": wait, "run_id": run_id, "node_uid": node_uid, "payload_json": "",
         "satisfied_by": "", "satisfied_at_ms": 0}
        for wait, node_uid in opened
    ]  # fmt: skip
    if rows:
        connection.execute(waits.insert(), rows)


def node_uids(connection: Connection, run_id: str) -> set[str]:
    """The nodes of a run that have a wait row."""
    return set(
        connection.execute(select(waits.c.node_uid).where(waits.c.run_id == run_id)).scalars()
    )


def by_id(connection: Connection, wait_id: str) -> Any:
    """The wait row of this id, or ``None``."""
    return connection.execute(select(waits).where(waits.c.wait_id == wait_id)).first()


def of_run(connection: Connection, run_id: str) -> Sequence[Any]:
    """The wait rows of a run."""
    return connection.execute(select(waits).where(waits.c.run_id == run_id)).all()


def satisfy(
    connection: Connection, wait_id: str, payload_json: str, satisfied_by: str, now: int
) -> None:
    """Records a wait's satisfaction."""
    connection.execute(
        update(waits)
        .where(waits.c.wait_id == wait_id)
        .values(payload_json=payload_json, satisfied_by=satisfied_by, satisfied_at_ms=now)
    )
