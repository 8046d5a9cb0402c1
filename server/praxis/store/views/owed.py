"""What else a human owes, for the inbox: assessments of completed runs, handoffs to
acknowledge and approvals about to expire, each read from an index in the inbox's order
(oldest first), at most ``limit`` rows.

- An assessment is owed by a completed run under a contract, of each kind it has no
  current assessment of (``assessments_due``, kept by
  :class:`praxis.store.execution.assessments.AssessmentStore`).
- A handoff is owed while OFFERED: its receiver acknowledges it.
- An approval is about to expire when it is unconsumed and expires within
  :data:`EXPIRING_MS`: whoever asked for it should use it, or renew it (approve the same
  material again). It is no longer owed once another active approval of the same
  material digest and purpose expires after the window (it was renewed), as well as
  when it is consumed or expired. Approvals name no work order, so they are listed only
  in the installation-wide inbox. The read walks ``approvals_expiry`` from now, past the
  consumed and renewed ones: at most the approvals of the next seven days (their longest
  lifetime).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.core import handoff
from praxis.store.execution.rows.handoffs import handoff_of
from praxis.store.registry.rows import ApprovalView, approval_view
from praxis.store.views.rows import owed as rows

EXPIRING_MS = 3_600_000
"""An unconsumed approval enters the inbox an hour before it expires."""


@dataclass(frozen=True)
class AssessmentDue:
    """A completed run under a contract that has no current assessment of ``kind``
    (``VERIFICATION`` or ``ACCEPTANCE``) since ``since_ms`` (its completion, or the change
    of its subject)."""

    run_id: str
    kind: str
    work_order_id: str
    contract_id: str
    since_ms: int


@dataclass(frozen=True)
class ExpiringApproval:
    """An unconsumed approval that expires within :data:`EXPIRING_MS`."""

    approval: ApprovalView
    since_ms: int
    """When it entered the window: ``expires_at_ms - EXPIRING_MS``."""


def assessments(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[AssessmentDue]:
    """The assessments owed since ``since`` or later, oldest first."""
    return [
        AssessmentDue(row.run_id, row.kind, row.work_order_id, row.contract_id, row.since_ms)
        for row in rows.assessments(connection, work_order_id, since, limit)
    ]


def offered_handoffs(
    connection: Connection, work_order_id: str, since: int, limit: int
) -> list[tuple[handoff.Handoff, str]]:
    """The handoffs awaiting acknowledgement offered at ``since`` or later, oldest first,
    with their run's work order."""
    return [
        (handoff_of(row), row.work_order_id)
        for row in rows.offered_handoffs(connection, work_order_id, since, limit)
    ]


def expiring_approvals(
    connection: Connection, now_ms: int, limit: int
) -> tuple[list[ExpiringApproval], int]:
    """The unconsumed approvals expiring within :data:`EXPIRING_MS` and not renewed,
    soonest first, and when the inbox next changes by the clock alone: the earliest of
    the listed ones' expiry and the next approval's entry into the window (0: none known;
    a renewal entering the window is such an approval, so the one it renewed comes back
    then too)."""
    found: list[ExpiringApproval] = []
    entering = 0
    for row in rows.unconsumed_approvals(connection, now_ms, now_ms + EXPIRING_MS, limit + 1):
        if row.expires_at_ms > now_ms + EXPIRING_MS or len(found) == limit:
            entering = row.expires_at_ms - EXPIRING_MS
            break
        found.append(ExpiringApproval(approval_view(row), row.expires_at_ms - EXPIRING_MS))
    leaving = found[0].approval.record.expires_at_ms if found else 0
    return found, min((t for t in (leaving, entering) if t), default=0)
