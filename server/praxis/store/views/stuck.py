"""Stuck runs: live runs whose ready node no worker has claimed for too long.

A run is stuck when its work order is active (not paused, canceling or canceled, and no
hold applies to it: those stop dispatch on purpose and are inbox items of their own) and
one of its READY nodes has been claimable for longer than :data:`STUCK_AFTER_MS`: since
the later of when it became ready (``ready_nodes.ready_at_ms``) and its earliest
dispatch time (``not_before_ms``, a retry's backoff). A run with a pending
reconciliation is left out: it is already in the inbox as that reconciliation.

The scan reads the oldest ``limit`` ready rows of active work orders in ``seq`` order
(the primary key: rows are appended as nodes become ready, so the oldest come first),
then, by primary key, the node rows of the one node per stuck run it names: no index
beyond the claim's own, and a cost bounded by ``limit`` whatever the queue's length. A
stuck node past those rows is not seen until the ones before it are claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.store.runtime import worker_models
from praxis.store.views.rows import stuck as rows

STUCK_AFTER_MS = 5 * 60_000
"""How long a claimable node may wait for a worker before its run is stuck."""


@dataclass(frozen=True)
class StuckRun:
    """Why one run is stuck: the ready node that became claimable first.

    Attributes:
        run_id: The run.
        work_order_id: Its work order ('' for an ad hoc run outside one).
        node_uid: The node (or fan-out item) that has waited longest.
        model: The model it needs a worker for.
        ready_since_ms: When it became claimable.
        served: Whether a worker claimed tasks of ``model`` lately (a live registration).
        schedule_to_start_deadline_ms: When it fails unclaimed (0: never).
        stuck_nodes: How many of the run's scanned ready nodes are stuck.
    """

    run_id: str
    work_order_id: str
    node_uid: str
    model: str
    ready_since_ms: int
    served: bool
    schedule_to_start_deadline_ms: int
    stuck_nodes: int


@dataclass(frozen=True)
class StuckScan:
    """The stuck runs seen, oldest first, and when the next scanned node becomes stuck
    (``next_ms``; 0 when none will without a write)."""

    runs: list[StuckRun]
    next_ms: int


def scan(connection: Connection, work_order_id: str, now_ms: int, limit: int) -> StuckScan:
    """The stuck runs among the oldest ``limit`` ready nodes of active work orders (of
    ``work_order_id`` only, when given)."""
    if rows.installation_held(connection):
        return StuckScan([], 0)
    cutoff = now_ms - STUCK_AFTER_MS
    waiting: dict[str, list[tuple[int, str, str, str]]] = {}
    next_ms = 0
    for row in rows.ready_rows(connection, work_order_id, limit):
        since = max(row.ready_at_ms, row.not_before_ms)
        if since > cutoff:
            due = since + STUCK_AFTER_MS
            next_ms = due if not next_ms else min(next_ms, due)
            continue
        entry = (since, row.node_uid, row.model, row.work_order_id)
        waiting.setdefault(row.run_id, []).append(entry)
    for run_id in rows.reconciling(connection, waiting):
        del waiting[run_id]
    oldest = {run_id: min(entries) for run_id, entries in waiting.items()}
    deadlines = rows.ready_deadlines(connection, [(r, e[1]) for r, e in oldest.items()])
    served = worker_models.served(connection, now_ms) if oldest else frozenset()
    runs = []
    for run_id, (since, node_uid, model, work_order) in oldest.items():
        deadline = deadlines.get((run_id, node_uid))
        if deadline is None:
            continue  # the row outlived its node (a claim drops such rows)
        runs.append(
            StuckRun(
                run_id, work_order, node_uid, model, since, model in served, deadline,
                len(waiting[run_id]),
            )
        )  # fmt: skip
    runs.sort(key=lambda stuck: (stuck.ready_since_ms, stuck.run_id))
    return StuckScan(runs, next_ms)
