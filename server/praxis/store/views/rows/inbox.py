"""The inbox's statements (:mod:`praxis.store.views.inbox`): runs with open waits and
their waits, pending proposals and pending reconciliations, each oldest first, and their
counts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, Select, func, select
from sqlalchemy.engine import Connection

from praxis.core import registry
from praxis.core import run as core
from praxis.store.execution.tables import reconciliations, waits
from praxis.store.registry.tables import proposals
from praxis.store.runtime.tables import runs

_LIVE = [status.value for status in core.RunStatus if status not in core.TERMINAL]


def runs_waiting(connection: Connection, work_order_id: str, limit: int) -> list[str]:
    """The live runs with an unsatisfied wait (of ``work_order_id`` only, when given),
    oldest first, at most ``limit``."""
    query = (
        select(waits.c.run_id)
        .join(runs, runs.c.run_id == waits.c.run_id)
        .where(waits.c.satisfied_at_ms == 0, runs.c.status.in_(_LIVE))
        .group_by(waits.c.run_id, runs.c.created_at_ms)
        .order_by(runs.c.created_at_ms, waits.c.run_id)
        .limit(limit)
    )
    if work_order_id:
        query = query.where(runs.c.work_order_id == work_order_id)
    return list(connection.execute(query).scalars())


def waits_of(connection: Connection, run_id: str) -> list[Row[Any]]:
    """Every wait row of ``run_id``."""
    return list(connection.execute(select(waits).where(waits.c.run_id == run_id)).all())


def pending_proposals(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[Row[Any]]:
    """The pending proposals created at ``since`` or later (without their definition),
    oldest first, at most ``limit``."""
    query = select(*(column for column in proposals.c if column.name != "definition_json")).where(
        proposals.c.status == registry.ProposalStatus.PENDING.value
    )
    if work_order_id:
        query = query.where(proposals.c.work_order_id == work_order_id)
    query = query.where(proposals.c.created_at_ms >= since).order_by(
        proposals.c.created_at_ms, proposals.c.work_order_id, proposals.c.run_id,
        proposals.c.proposal_id,
    ).limit(limit)  # fmt: skip
    return list(connection.execute(query))


def count_proposals(connection: Connection, work_order_id: str) -> int:
    """How many proposals are pending."""
    query = select(func.count()).where(proposals.c.status == registry.ProposalStatus.PENDING.value)
    if work_order_id:
        query = query.where(proposals.c.work_order_id == work_order_id)
    return int(connection.execute(query).scalar_one())


def _pending_reconciliations(work_order_id: str) -> Select[Any]:
    query = select(reconciliations, runs.c.work_order_id).join(
        runs, runs.c.run_id == reconciliations.c.run_id
    ).where(reconciliations.c.state == "PENDING")  # fmt: skip
    if work_order_id:
        query = query.where(runs.c.work_order_id == work_order_id)
    return query


def pending_reconciliations(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[Row[Any]]:
    """The pending reconciliations opened at ``since`` or later with their run's work
    order, oldest first, at most ``limit``."""
    query = (
        _pending_reconciliations(work_order_id)
        .where(reconciliations.c.opened_at_ms >= since)
        .order_by(reconciliations.c.opened_at_ms, reconciliations.c.attempt_id)
        .limit(limit)
    )
    return list(connection.execute(query))


def count_reconciliations(connection: Connection, work_order_id: str) -> int:
    """How many reconciliations are pending."""
    inner = _pending_reconciliations(work_order_id).subquery()
    return int(connection.execute(select(func.count()).select_from(inner)).scalar_one())
