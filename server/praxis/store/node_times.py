"""Migration 12: each node records when it started and when it ended.

``run_nodes.started_at_ms`` is set when a node first becomes RUNNING, WAITING or
EXPANDED, ``finished_at_ms`` when it becomes DONE, FAILED or CANCELLED (the pure core
sets both, :class:`praxis.core.run.NodeRun`). Nodes written before the migration keep 0
in both: their times were never recorded.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.store import migrations
from praxis.store.runtime_schema import RUN_NODES_ADDED_COLUMNS, run_nodes

VERSION = 12


def add_times(connection: Connection) -> None:
    """Adds ``run_nodes.started_at_ms`` and ``finished_at_ms`` where they are missing."""
    migrations.add_columns(connection, run_nodes, RUN_NODES_ADDED_COLUMNS)


migrations.register(
    migrations.Migration(
        VERSION,
        "node_times",
        (),
        add_times,
        adds=(("run_nodes", RUN_NODES_ADDED_COLUMNS),),
    )
)
