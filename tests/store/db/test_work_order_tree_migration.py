"""Migration 27 makes every existing work order a root record of the work-order tree.

A database is written by today's server (a work order paused by an admin, one only runs
named, one cancelled), then taken back to migration 26 (the record columns and the
children index dropped, the migration unrecorded, the rows a migration-26 server would
not have written deleted), as an older server would have left it. Today's server
migrates it again: each work order is a root record that keeps its controls and epochs,
and a new child can be created under it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete

from aiws.engine.v1 import admin_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from praxis.store.controls.tables import (
    WORK_ORDER_PROPOSAL_COLUMNS,
    WORK_ORDER_TREE_COLUMNS,
    work_order_reservations,
    work_orders,
)
from praxis.store.db import migrations
from praxis.store.db.metadata import schema_migrations
from praxis.store.schema import MIGRATIONS
from tests.support.harness import start_server
from tests.support.runtime import definition, json_out, node, start

VERSION = next(m.version for m in MIGRATIONS if m.name == "work_order_tree")
PROPOSALS = next(m.version for m in MIGRATIONS if m.name == "work_order_proposals")
ONE = definition("a", a=node(output=json_out()))


def _back_before_proposals(url: str) -> None:
    """Migration 28 undone: no proposal columns, no work-order reservations."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for column in WORK_ORDER_PROPOSAL_COLUMNS:
                assert migrations.drop_column(connection, "work_orders", column)
            work_order_reservations.drop(connection)
            connection.execute(
                delete(schema_migrations).where(schema_migrations.c.version >= PROPOSALS)
            )
    finally:
        engine.dispose()


def _back_to_the_previous_version(url: str) -> None:
    _back_before_proposals(url)
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            # A migration-26 server writes a row only for a work order an admin touched.
            connection.execute(delete(work_orders).where(work_orders.c.work_order_id == "ran"))
            for column in WORK_ORDER_TREE_COLUMNS:
                assert migrations.drop_column(connection, "work_orders", column)
            connection.execute(
                delete(schema_migrations).where(schema_migrations.c.version >= VERSION)
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_every_existing_work_order_becomes_a_root_record(database: Path | str) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    h = start_server(database)
    try:
        admin = h.client("alice").admin
        admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="paused", reason="r"))
        admin.CancelWorkOrder(admin_pb2.CancelWorkOrderRequest(work_order_id="gone", reason="r"))
        start(h, ONE, work_order_id="ran")
        before = admin.GetWorkOrder(admin_pb2.GetWorkOrderRequest(work_order_id="paused"))
    finally:
        h.close()
    _back_to_the_previous_version(url)

    h = start_server(database)
    try:
        client = h.client("alice").work_orders
        roots = client.ListWorkOrders(pb.ListWorkOrdersRequest()).work_orders
        states = {r.work_order_id: (r.state, r.parent_id, r.creator) for r in roots}
        assert states == {
            "gone": (pb.WORK_ORDER_STATE_CANCELLED, "", ""),
            "paused": (pb.WORK_ORDER_STATE_PAUSED, "", ""),
            "ran": (pb.WORK_ORDER_STATE_OPEN, "", ""),
        }
        ran = client.GetWorkOrderRecord(pb.GetWorkOrderRecordRequest(work_order_id="ran"))
        assert [(c.state, c.count) for c in ran.run_counts] == [("RUNNING", 1)]
        assert ran.work_order.created_at_ms > 0
        after = h.client("alice").admin.GetWorkOrder(
            admin_pb2.GetWorkOrderRequest(work_order_id="paused")
        )
        assert after == before  # controls and epochs kept
        client.CreateWorkOrder(pb.CreateWorkOrderRequest(work_order_id="part", parent_id="ran"))
        h.client("alice").admin.ResumeWorkOrder(
            admin_pb2.ResumeWorkOrderRequest(work_order_id="paused")
        )
    finally:
        h.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_migration_28_adds_proposals_to_every_existing_work_order(database: Path | str) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    h = start_server(database)
    try:
        h.client("alice").work_orders.CreateWorkOrder(
            pb.CreateWorkOrderRequest(work_order_id="mission", budget_microcredits="10")
        )
    finally:
        h.close()
    _back_before_proposals(url)

    h = start_server(database)
    try:
        client = h.client("alice").work_orders
        got = client.GetWorkOrderRecord(pb.GetWorkOrderRecordRequest(work_order_id="mission"))
        record = got.work_order
        assert (record.state, record.proposed, record.reserved_microcredits) == (
            pb.WORK_ORDER_STATE_OPEN,
            False,
            "0",
        )
        proposed = h.client("rogue").work_orders.ProposeWorkOrder(
            pb.ProposeWorkOrderRequest(work_order_id="part", parent_id="mission")
        )
        assert proposed.work_order.state == pb.WORK_ORDER_STATE_PROPOSED
    finally:
        h.close()
