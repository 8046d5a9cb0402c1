"""Migration 7 converts a database written before it (one JSON snapshot per run).

``tests/fixtures/pre_run_nodes.json`` holds every table's rows as the server of commit
1049d2e wrote them (see ``tests/fixtures/make_pre_run_nodes.py``) and each run's GetRun
answer then. The test rebuilds that database at schema version 6 (``runs.state_json``,
no summary columns), starts today's server on it, and checks that every run reads the
same, rebuilds from its command log, and carries on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from sqlalchemy import (
    BigInteger,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis.clock import TestClock
from praxis.core import journal
from praxis.core import run as core
from praxis.store.db.metadata import schema_migrations
from praxis.store.runtime import log as run_log
from praxis.store.runtime.rows import loading
from praxis.store.runtime.tables import RUNS_ADDED_COLUMNS, RUNS_LABEL_COLUMNS, runs
from praxis.store.schema import MIGRATIONS
from tests.support.execution import run_of, start_model_server
from tests.support.paths import FIXTURES
from tests.support.runtime import claim, complete

FIXTURE = FIXTURES / "pre_run_nodes.json"


def _old_database(url: str, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Creates the tables of migrations 1 to 6 as they were, and fills them."""

    old = MetaData()
    shapes: dict[str, Table] = {}
    for migration in MIGRATIONS:
        if migration.version > 6:
            continue
        for table in migration.tables:
            if table.name == runs.name:
                added = RUNS_ADDED_COLUMNS + RUNS_LABEL_COLUMNS  # migrations 7 and 15
                columns = [c._copy() for c in runs.c if c.name not in added]
                columns.append(Column("state_json", Text, nullable=False))
                shapes[table.name] = Table(table.name, old, *columns)
            else:
                shapes[table.name] = table.to_metadata(old)
    shapes[schema_migrations.name] = schema_migrations.to_metadata(old)
    # Migration 2 also created known_models, which nothing read (migration 13 drops it).
    shapes["known_models"] = Table(
        "known_models",
        old,
        Column("model", String(128), primary_key=True),
        Column("first_seen_ms", BigInteger, nullable=False),
    )
    assert set(shapes) == set(tables), set(shapes) ^ set(tables)
    engine = create_engine(url)
    with engine.begin() as connection:
        old.create_all(connection)
        for name, rows in tables.items():
            if rows:
                connection.execute(shapes[name].insert(), rows)
        if engine.dialect.name == "postgresql":
            for table in shapes.values():
                for column in table.c:
                    if (
                        column.primary_key
                        and isinstance(column.type, Integer)
                        and column.autoincrement is True
                    ):
                        connection.execute(
                            text(
                                f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                                f"'{column.name}'), (SELECT COALESCE(MAX({column.name}), 1) "
                                f"FROM {table.name}))"
                            )
                        )
    engine.dispose()


def _without_new_fields(run: run_pb2.Run) -> dict[str, Any]:
    found = json_format.MessageToDict(run, preserving_proto_field_name=True)
    found.pop("node_count")
    found.pop("items_omitted", None)
    found.pop("failed_node_ids", None)  # issue 13 item 15, derived from the nodes
    for node in found["nodes"]:
        node.pop("fanout_items_done", None)
    return found


def _untimed(snapshot: str) -> Any:
    found = json.loads(snapshot)
    for node in found["nodes"].values():
        node.pop("started_at_ms")
        node.pop("finished_at_ms")
        # Migration 14's node fields were never recorded by an older server: the effect of
        # a node's last settled attempt, and the schedule-to-start deadline of a node it
        # made ready; a rebuild from the log under today's reducer computes them.
        node.pop("effect")
        if node["status"] == "READY":
            node.pop("deadline_ms")
    return found


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_an_old_database_is_converted_to_node_rows(database: Path | str) -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    _old_database(url, fixture["tables"])
    clock = TestClock(fixture["clock_ms"])
    h = start_model_server(database, clock)
    try:
        engine = h.server.engine.runs.db.engine
        columns = {c["name"] for c in inspect(engine).get_columns("runs")}
        assert "state_json" not in columns and set(RUNS_ADDED_COLUMNS) <= columns
        assert "known_models" not in inspect(engine).get_table_names()  # migration 13
        store = h.server.engine.runs
        total = 0
        for run_id, before in fixture["runs"].items():
            after = run_of(h, run_id)
            found = _without_new_fields(after)
            # Migration 16: an old ad hoc run belongs to the default work order (these
            # name no contract), and says who started it.
            assert (found.pop("work_order_id"), found.pop("started_by")) == ("default", "agent")
            # A restart opens a recovery segment for each live run; the rest is unchanged.
            segments, old_segments = found.pop("segments"), before.pop("segments")
            assert segments[: len(old_segments)] == old_segments
            assert found == before
            assert after.node_count == len(after.nodes) and not after.items_omitted
            total += after.node_count
            with store.db.read() as connection:
                live = loading.load(connection, run_id, store.definition)
                rebuilt = run_log.rebuild(connection, run_id, store.definition, store.limits)
            assert live is not None and rebuilt is not None
            # Node times (migration 12) were never recorded for these old nodes; a
            # rebuild from the log computes them.
            assert _untimed(journal.snapshot(rebuilt)) == _untimed(journal.snapshot(live.state))
        with engine.connect() as connection:
            assert connection.execute(text("SELECT COUNT(*) FROM run_nodes")).scalar() == total
            reasons = dict(connection.execute(text("SELECT run_id, result_reason FROM runs")).all())
        assert sorted(reasons.values()) == ["", "", "", "WAIT_EXPIRED"]
        # The half-done fan-out carries on: its retry, its ready item, the join.
        [fanned] = [r for r, run in fixture["runs"].items() if len(run["nodes"]) == 9]
        parent = next(n for n in run_of(h, fanned).nodes if n.node_uid == "each")
        assert parent.fanout_items == 6 and parent.fanout_items_done == 2
        # The two items running when the old server stopped are settled by their worker
        # (a lost lease on a node that declares no effects would wait for a human).
        with store.db.read() as connection:
            loaded = loading.load(connection, fanned, store.definition)
        assert loaded is not None
        for item in loaded.state.nodes.values():
            if item.status is core.NodeStatus.RUNNING:
                h.client("agent").tasks.CompleteTask(
                    task_pb2.CompleteTaskRequest(
                        attempt_id=item.attempt_id,
                        worker_id=item.worker_id,
                        result_json=json.dumps({"i": item.item}),
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )
        clock.advance(60_000)  # the retry is due
        joined: list[Any] = []
        for _ in range(10):
            tasks = claim(h)
            if not tasks:
                clock.advance(5_000)  # the expired items retry after their backoff
                continue
            for task in tasks:
                if task.node_uid == "join":
                    joined.append(json.loads(task.input_json))
                    complete(h, task, {"ok": 1})
                else:
                    complete(h, task, {"i": int(task.node_uid.partition("#")[2])})
        assert joined == [[{"i": index} for index in range(6)]]  # item order, across formats
        run = run_of(h, fanned)
        assert run.state == run_pb2.RUN_STATE_COMPLETED, run
        with store.db.read() as connection:
            live = loading.load(connection, fanned, store.definition)
            rebuilt = run_log.rebuild(connection, fanned, store.definition, store.limits)
        assert live is not None and rebuilt is not None
        assert _untimed(journal.snapshot(rebuilt)) == _untimed(journal.snapshot(live.state))
    finally:
        h.close()
    # A restart finds a complete schema at version 7 and migrates nothing.
    again = start_model_server(database, clock)
    again.close()
