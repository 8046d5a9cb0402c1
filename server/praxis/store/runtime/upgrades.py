"""The runtime's upgrade steps: the extra work of migrations 7, 9, 12, 14, 15, 17 and 26.

Migration 7: run nodes move from one JSON snapshot per run to one row each.

Before it, ``runs.state_json`` held every node and fan-out item of a run, rewritten on
every command. The migration creates ``run_nodes``, adds the summary columns
``runs.result_reason`` and ``runs.node_count``, converts every stored snapshot into
node rows (in batches of runs, so its memory does not grow with the database), then
drops ``runs.state_json``. It runs in one transaction like every migration: a failure
leaves the database as it was. The command log (``run_commands``) is unchanged, so a
converted run still rebuilds from its log to the same state.

Migration 9 (:func:`add_principal`): each attempt records the principal whose claim
leased it. Before it, an attempt was bound only to the worker id the claimant chose;
attempts leased before the migration have an empty principal and stay bound to their
worker id only.

Migration 12 (:func:`add_times`): each node records when it started
(``run_nodes.started_at_ms``) and ended (``finished_at_ms``). Nodes written before the
migration keep 0 in both: their times were never recorded.

Migration 15 (:func:`add_ready_times`): each ready row records when the command that
wrote it ran (``ready_nodes.ready_at_ms``), so that the inbox can tell how long a node has
waited for a worker. Rows written before the migration take their run's last update
(``runs.updated_at_ms``): the node became ready at or before it, so a wait is never
overstated.
Migration 17 (:func:`run_work_orders`): every run belongs to a work order, and runs
carry labels. It adds ``runs.labels_json`` and the indexes of ListRuns' filters, then
gives each ad hoc run recorded without a work order (``work_order_id = ''``) the work
order of its contract, or the default work order when it has none
(:data:`praxis.core.membership.DEFAULT_WORK_ORDER`), and its ready rows the same, so
that the work order's controls act on it from then on.

Migration 26 (:func:`own_subscriptions`): every subscription has an owner. A subscriber
name that runs were started with before it belongs to the principal that started the
earliest of them; a name only acknowledged (AckEvents) and never started with stays
unowned until its next use makes it the user's.

Each step is correct on a table created at any version: it adds a column only where it
is missing (a table created after the migration was written already has it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, column, func, inspect, select, table, update
from sqlalchemy.engine import Connection

from praxis.core.membership import DEFAULT_WORK_ORDER
from praxis.store.db import migrations
from praxis.store.runtime import codec as run_codec
from praxis.store.runtime.tables import (
    ATTEMPTS_ADDED_COLUMNS,
    READY_NODES_ADDED_COLUMNS,
    RUN_NODES_ADDED_COLUMNS,
    RUN_NODES_GOVERNED_COLUMNS,
    RUNS_ADDED_COLUMNS,
    RUNS_GOVERNED_COLUMNS,
    RUNS_LABEL_COLUMNS,
    RUNS_LISTING_INDEXES,
    attempts,
    ready_nodes,
    run_nodes,
    runs,
    subscriptions,
)

_BATCH = 200


def run_node_rows(connection: Connection) -> None:
    """Adds the summary columns, converts snapshots to rows, drops ``state_json``."""
    migrations.add_columns(connection, runs, RUNS_ADDED_COLUMNS)
    present = {c["name"] for c in inspect(connection).get_columns("runs")}
    if "state_json" not in present:
        return  # created at this version: nothing to convert
    legacy = table("runs", column("run_id"), column("state_json"))
    summary = (
        update(runs)
        .where(runs.c.run_id == bindparam("b_run_id"))
        .values(result_reason=bindparam("reason"), node_count=bindparam("count"))
    )
    after = ""
    while True:
        batch = connection.execute(
            select(legacy.c.run_id, legacy.c.state_json)
            .where(legacy.c.run_id > after)
            .order_by(legacy.c.run_id)
            .limit(_BATCH)
        ).all()
        if not batch:
            break
        rows: list[dict[str, Any]] = []
        summaries: list[dict[str, Any]] = []
        for run_id, state_json in batch:
            reason, nodes = run_codec.legacy_snapshot(run_id, state_json)
            rows.extend(run_codec.node_row(run_id, node) for node in nodes)
            summaries.append({"b_run_id": run_id, "reason": reason, "count": len(nodes)})
        if rows:
            connection.execute(run_nodes.insert(), rows)
        connection.execute(summary, summaries)
        after = batch[-1][0]
    migrations.drop_column(connection, "runs", "state_json")


def add_principal(connection: Connection) -> None:
    """Adds ``attempts.principal_id`` where it is missing."""
    migrations.add_columns(connection, attempts, ATTEMPTS_ADDED_COLUMNS)


def add_times(connection: Connection) -> None:
    """Adds ``run_nodes.started_at_ms`` and ``finished_at_ms`` where they are missing."""
    migrations.add_columns(connection, run_nodes, RUN_NODES_ADDED_COLUMNS)


def add_governed(connection: Connection) -> None:
    """Adds ``runs.deadline_ms`` and ``run_nodes.operation``, ``attempt_base`` and
    ``effect`` where they are missing (their defaults are right for every older row)."""
    migrations.add_columns(connection, runs, RUNS_GOVERNED_COLUMNS)
    migrations.add_columns(connection, run_nodes, RUN_NODES_GOVERNED_COLUMNS)


def add_ready_times(connection: Connection) -> None:
    """Adds ``ready_nodes.ready_at_ms`` where it is missing and sets it, on rows that have
    none, to their run's last update."""
    migrations.add_columns(connection, ready_nodes, READY_NODES_ADDED_COLUMNS)
    last_update = (
        select(runs.c.updated_at_ms).where(runs.c.run_id == ready_nodes.c.run_id).scalar_subquery()
    )
    connection.execute(
        update(ready_nodes)
        .where(ready_nodes.c.ready_at_ms == 0)
        .values(ready_at_ms=func.coalesce(last_update, 0))
    )


def run_work_orders(connection: Connection) -> None:
    """Adds ``runs.labels_json`` and the listing indexes where they are missing, and
    gives every run without a work order its contract's, or the default one."""
    migrations.add_columns(connection, runs, RUNS_LABEL_COLUMNS)
    for index in RUNS_LISTING_INDEXES:
        index.create(connection, checkfirst=True)
    # The execution slice's contracts table, named here without importing the slice
    # (which sits above the runtime): only its two columns are read.
    contracts = table("contracts", column("contract_id"), column("work_order_id"))
    of_contract = (
        select(contracts.c.work_order_id)
        .where(contracts.c.contract_id == runs.c.contract_id)
        .scalar_subquery()
    )
    connection.execute(
        update(runs)
        .where(runs.c.work_order_id == "")
        .values(work_order_id=func.coalesce(of_contract, DEFAULT_WORK_ORDER))
    )
    of_run = (
        select(runs.c.work_order_id).where(runs.c.run_id == ready_nodes.c.run_id).scalar_subquery()
    )
    connection.execute(
        update(ready_nodes)
        .where(ready_nodes.c.work_order_id == "")
        .values(work_order_id=func.coalesce(of_run, DEFAULT_WORK_ORDER))
    )


def own_subscriptions(connection: Connection) -> None:
    """Gives each subscriber name already used by runs the starter of its earliest run."""
    earliest = (
        select(runs.c.subscriber, func.min(runs.c.created_at_ms).label("at"))
        .where(runs.c.subscriber != "")
        .group_by(runs.c.subscriber)
        .subquery()
    )
    first = (
        select(runs.c.subscriber, func.min(runs.c.principal_id), earliest.c.at)
        .join(
            earliest,
            (runs.c.subscriber == earliest.c.subscriber) & (runs.c.created_at_ms == earliest.c.at),
        )
        .group_by(runs.c.subscriber, earliest.c.at)
    )
    connection.execute(
        subscriptions.insert().from_select(["subscriber", "principal_id", "created_at_ms"], first)
    )
