"""The scrape-time gauges: one query each, on an index (SQLite's query plans)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.sql import ClauseElement

from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS
from praxis.store.views.rows import gauges


def plan(db: Database, query: ClauseElement, **params: object) -> str:
    """SQLite's plan of ``query``, one line per step."""
    with db.read() as connection:
        compiled = query.compile(connection, compile_kwargs={"render_postcompile": True})
        values = compiled.construct_params(params)
        ordered = tuple(values[name] for name in compiled.positiontup or ())
        rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", ordered)
        return "\n".join(str(row[-1]) for row in rows)


def test_runs_by_state_and_ready_tasks_read_an_index_only(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        db.migrate(0, MIGRATIONS)
        # Runs by state: one scan of the covering index, never the runs table's rows.
        assert plan(db, gauges._RUNS) == "SCAN runs USING COVERING INDEX runs_status_created"
        # Ready tasks: grouped along the model index (the live queue, not history).
        ready = plan(db, gauges._READY, now=0)
        assert "ready_by_model" in ready and "SCAN ready_nodes\n" not in ready + "\n"
        # Leases: the timer rows (live work), each checked in run_nodes by primary key.
        leases = plan(db, gauges._LEASES)
        assert "SCAN run_timers" in leases and "SEARCH run_nodes USING" in leases
        assert "SCAN run_nodes" not in leases
    finally:
        db.close()
