"""Migration 25 adds the revision a handoff names and fills it on the handoffs offered before.

A database is written by today's server (a governed run revised after its first node
finished, that node handed off, and an ad hoc run's node handed off), then taken back to
migration 24 (the columns dropped, the migration unrecorded), as an older server would
have left it. Today's server migrates it again: each old handoff names its node's
revision, its run's ref and that revision's digest, exactly as a new offer would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete

from aiws.engine.v1 import handoff_pb2 as pb
from praxis.store.db import migrations
from praxis.store.db.metadata import schema_migrations
from praxis.store.execution.tables import HANDOFFS_REVISION_COLUMNS
from praxis.store.schema import MIGRATIONS
from tests.support.execution import settle, start_model_server, start_run
from tests.support.harness import Harness
from tests.support.registry import activate_cmd, approve, execute, proposed, ref
from tests.support.runtime import GOVERNED_PLAN, claim, complete, definition, governed, node

VERSION = next(m.version for m in MIGRATIONS if m.name == "handoff_revisions")


def _back_to_the_previous_version(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for column in HANDOFFS_REVISION_COLUMNS:
                assert migrations.drop_column(connection, "handoffs", column)
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


def _offer(h: Harness, run_id: str, uid: str, request_id: str) -> pb.Handoff:
    request = pb.CreateHandoffRequest(
        request_id=request_id, run_id=run_id, node_uid=uid, to_principal_id="agent2"
    )
    return h.client("agent").handoffs.CreateHandoff(request).handoff  # type: ignore[no-any-return]


def _read(h: Harness, delivery_id: str) -> pb.Handoff:
    request = pb.GetHandoffRequest(delivery_id=delivery_id)
    return h.client("agent").handoffs.GetHandoff(request).handoff  # type: ignore[no-any-return]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_old_handoffs_name_the_revision_their_node_ran_under(database: Path | str) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    h = start_model_server(database)
    try:
        run = governed(h)
        [research] = claim(h)
        complete(h, research, {})
        revised = json.loads(json.dumps(GOVERNED_PLAN))
        revised["nodes"]["report"]["agent"]["system_prompt"] = "cite sources"
        proposed(h, ref(), "p1", 1, revised)
        command = activate_cmd(ref(), "p1", 1, "ap-p1")
        approve(h, command, "ap-p1")
        execute(h, "alice", "act-p1", command)
        governed_offer = _offer(h, run.run_id, "research", "h-gov")
        assert claim(h, models=("solo",)) == []  # the engine learns the model
        ad_hoc = start_run(h, definition("x", x=node(model="solo")))
        [x] = claim(h, models=("solo",))
        settle(h, x, "text")
        ad_hoc_offer = _offer(h, ad_hoc.run_id, "x", "h-adhoc")
    finally:
        h.close()
    assert governed_offer.revision == 1 and ad_hoc_offer.definition_digest
    _back_to_the_previous_version(url)

    h = start_model_server(database)
    try:
        for offered in (governed_offer, ad_hoc_offer):
            assert _read(h, offered.delivery_id) == offered
    finally:
        h.close()
