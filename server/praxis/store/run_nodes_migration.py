"""Migration 7: run nodes move from one JSON snapshot per run to one row each.

Before it, ``runs.state_json`` held every node and fan-out item of a run, rewritten on
every command. The migration creates ``run_nodes``, adds the summary columns
``runs.result_reason`` and ``runs.node_count``, converts every stored snapshot into
node rows (in batches of runs, so its memory does not grow with the database), then
drops ``runs.state_json``. It runs in one transaction like every migration: a failure
leaves the database as it was. The command log (``run_commands``) is unchanged, so a
converted run still rebuilds from its log to the same state.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, column, inspect, select, table, update
from sqlalchemy.engine import Connection

from praxis.store import migrations, run_codec
from praxis.store.runtime_schema import RUNS_ADDED_COLUMNS, run_nodes, runs

VERSION = 7
_BATCH = 200


def convert(connection: Connection) -> None:
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


migrations.register(
    migrations.Migration(
        VERSION,
        "run_nodes",
        (run_nodes,),
        convert,
        adds=(("runs", RUNS_ADDED_COLUMNS),),
    )
)
