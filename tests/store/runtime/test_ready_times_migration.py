"""Migration 15 adds ``ready_nodes.ready_at_ms`` and fills it on the rows written before.

A database is written by today's server, then taken back to migration 14 (the column
dropped, the migration unrecorded), as an older server would have left it. Today's
server migrates it again: each old ready row takes its run's last update, when the node
was ready at the latest, so the inbox never overstates how long a node has waited.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete, inspect, select

from aiws.engine.v1 import inbox_pb2 as pb
from praxis.store.db import migrations
from praxis.store.db.metadata import schema_migrations
from praxis.store.runtime.tables import ready_nodes
from praxis.store.schema import MIGRATIONS
from praxis.store.views.stuck import STUCK_AFTER_MS
from tests.support.execution import start_run
from tests.support.harness import T0, start_server
from tests.support.runtime import claim, definition, json_out, node

VERSION = next(m.version for m in MIGRATIONS if m.name == "ready_times")


def _back_to_the_previous_version(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            assert migrations.drop_column(connection, "ready_nodes", "ready_at_ms")
            # The later migrations are undone too, and applied again after this one.
            for later in (m for m in MIGRATIONS if m.version > VERSION):
                for created in later.tables:
                    created.drop(connection)
                for name, columns in later.adds:
                    for added in columns:
                        migrations.drop_column(connection, name, added)
            connection.execute(
                delete(schema_migrations).where(schema_migrations.c.version >= VERSION)
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_old_ready_rows_take_their_runs_last_update(database: Path | str) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    h = start_server(database)
    try:
        assert claim(h, models=("llama",)) == []  # the engine learns the model
        alone = start_run(h, definition("a", a=node()))
        pair = start_run(
            h,
            definition(
                "c",
                a=node(output=json_out(), model="llama"),
                b=node(output=json_out()),
                c=node(["node:a", "node:b"], ("a", "b")),
            ),
        )
        h.clock.advance(1_000)
        claim(h, models=("llama",))  # pair's a leased: its run updated at T0 + 1 s
    finally:
        h.close()
    _back_to_the_previous_version(url)

    h = start_server(database)
    try:
        engine = h.server.engine.runs.db.engine
        assert "ready_at_ms" in {c["name"] for c in inspect(engine).get_columns("ready_nodes")}
        with engine.connect() as connection:
            found = dict(
                connection.execute(select(ready_nodes.c.run_id, ready_nodes.c.ready_at_ms)).all()
            )
        assert found == {alone.run_id: T0, pair.run_id: T0 + 1_000}
        h.clock.set(T0 + 1_000 + STUCK_AFTER_MS)
        items = (
            h.client("alice")
            .inbox.ListInbox(pb.ListInboxRequest(kinds=[pb.INBOX_ITEM_KIND_STUCK_RUN]))
            .items
        )
        assert [(i.run_id, i.since_ms) for i in items] == [
            (alone.run_id, T0),
            (pair.run_id, T0 + 1_000),
        ]
    finally:
        h.close()
