"""THE ordered list of schema migrations, 1 to the newest.

Each slice declares its tables beside its store (``<slice>/tables.py``) and the extra
steps of the migrations that change a table created earlier (``runtime/upgrades.py``,
``registry/upgrades.py``, ``execution/upgrades.py``);
this list says which migration creates what, in order. Nothing registers itself by
being imported: a migration exists when it is written here, and
:mod:`praxis.store.db.migrations` applies and checks exactly this list.

To add a migration, append it with the next version number: new tables go in their
slice's ``tables.py`` (a migration creates them from the current table objects); columns
added to an existing table are declared in ``adds`` and added by an ``extra`` step that
is correct on a table created at any version (see
:func:`praxis.store.db.migrations.add_columns`). A fixture of the previous version
belongs under ``tests/fixtures/upgrades/`` (``scripts/build_upgrade_fixtures.py``).
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

from praxis.store.controls import upgrades as control_upgrades
from praxis.store.controls.tables import (
    WORK_ORDER_PROPOSAL_COLUMNS,
    WORK_ORDER_TREE_COLUMNS,
    holds,
    work_order_reservations,
    work_orders,
)
from praxis.store.db.metadata import meta
from praxis.store.db.migrations import Migration
from praxis.store.execution import upgrades as execution_upgrades
from praxis.store.execution.tables import (
    EXECUTION_TABLES,
    HANDOFFS_REVISION_COLUMNS,
    assessments_due,
    wait_approvals,
)
from praxis.store.notifications.tables import deliveries, run_notifications
from praxis.store.principals.tables import principal_events, principals
from praxis.store.registry import upgrades as registry_upgrades
from praxis.store.registry.tables import (
    APPROVALS_ADDED_COLUMNS,
    approvals,
    consumed_proofs,
    heads,
    proposals,
    receipts,
    registry_events,
    revisions,
)
from praxis.store.retention.tables import archived_runs
from praxis.store.runtime import upgrades
from praxis.store.runtime.tables import (
    ATTEMPTS_ADDED_COLUMNS,
    READY_NODES_ADDED_COLUMNS,
    RUN_NODES_ADDED_COLUMNS,
    RUN_NODES_GOVERNED_COLUMNS,
    RUNS_ADDED_COLUMNS,
    RUNS_GOVERNED_COLUMNS,
    RUNS_LABEL_COLUMNS,
    RUNTIME_TABLES,
    attempt_progress,
    contract_reservations,
    model_registrations,
    principal_reservations,
    run_commands,
    run_labels,
    run_nodes,
    run_trace_spans,
    run_traces,
    subscriptions,
)
from praxis.store.schedules.tables import schedules


def _runs_finished_index(connection: Connection) -> None:
    """The archiver's scan of finished runs in finish order (``retention/rows.py``)."""
    connection.execute(
        text("CREATE INDEX IF NOT EXISTS runs_finished ON runs (finished_at_ms, run_id)")
    )


def _drop_known_models(connection: Connection) -> None:
    """Drops ``known_models``, which migration 2 created and nothing ever read."""
    connection.execute(text("DROP TABLE IF EXISTS known_models"))


REGISTRY_TABLES = (
    meta,
    work_orders,
    holds,
    heads,
    revisions,
    proposals,
    approvals,
    consumed_proofs,
    receipts,
    registry_events,
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "registry", REGISTRY_TABLES),
    Migration(2, "runtime", RUNTIME_TABLES),
    Migration(3, "execution_model", EXECUTION_TABLES),
    Migration(4, "run_commands", (run_commands,)),
    Migration(5, "contract_reservations", (contract_reservations,)),
    Migration(6, "principal_reservations", (principal_reservations,)),
    Migration(
        7, "run_nodes", (run_nodes,), upgrades.run_node_rows, adds=(("runs", RUNS_ADDED_COLUMNS),)
    ),
    Migration(8, "model_registrations", (model_registrations,)),
    Migration(
        9,
        "attempt_claimants",
        (),
        upgrades.add_principal,
        adds=(("attempts", ATTEMPTS_ADDED_COLUMNS),),
    ),
    Migration(10, "principals", (principals, principal_events)),
    Migration(11, "run_traces", (run_traces, run_trace_spans)),
    Migration(
        12, "node_times", (), upgrades.add_times, adds=(("run_nodes", RUN_NODES_ADDED_COLUMNS),)
    ),
    Migration(13, "drop_known_models", (), _drop_known_models),
    Migration(
        14,
        "governed_execution",
        (),
        upgrades.add_governed,
        adds=(("runs", RUNS_GOVERNED_COLUMNS), ("run_nodes", RUN_NODES_GOVERNED_COLUMNS)),
    ),
    Migration(
        15,
        "ready_times",
        (),
        upgrades.add_ready_times,
        adds=(("ready_nodes", READY_NODES_ADDED_COLUMNS),),
    ),
    Migration(16, "run_labels", (run_labels,)),
    Migration(
        17,
        "run_work_orders",
        (),
        upgrades.run_work_orders,
        adds=(("runs", RUNS_LABEL_COLUMNS),),
    ),
    Migration(18, "wait_approvals", (wait_approvals,)),
    Migration(
        19,
        "approval_purposes",
        (),
        registry_upgrades.add_purpose,
        adds=(("approvals", APPROVALS_ADDED_COLUMNS),),
    ),
    Migration(20, "inbox_due", (assessments_due,), execution_upgrades.add_inbox_due),
    Migration(21, "schedules", (schedules,)),
    Migration(22, "archived_runs", (archived_runs,), _runs_finished_index),
    Migration(23, "notifications", (run_notifications, deliveries)),
    Migration(24, "attempt_progress", (attempt_progress,)),
    Migration(
        25,
        "handoff_revisions",
        (),
        execution_upgrades.add_handoff_revisions,
        adds=(("handoffs", HANDOFFS_REVISION_COLUMNS),),
    ),
    Migration(26, "subscriptions", (subscriptions,), upgrades.own_subscriptions),
    Migration(
        27,
        "work_order_tree",
        (),
        control_upgrades.work_order_tree,
        adds=(("work_orders", WORK_ORDER_TREE_COLUMNS),),
    ),
    Migration(
        28,
        "work_order_proposals",
        (work_order_reservations,),
        control_upgrades.work_order_proposals,
        adds=(("work_orders", WORK_ORDER_PROPOSAL_COLUMNS),),
    ),
)
