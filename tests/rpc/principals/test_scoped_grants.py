"""Grants scoped to some work orders cover those work orders only."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import admin_pb2, approval_pb2, event_pb2, registry_pb2, run_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import (
    activate_cmd,
    approve,
    execute,
    proposed,
    ref,
    register_cmd,
    registered,
)

DENIED = grpc.StatusCode.PERMISSION_DENIED


def test_a_scoped_human_acts_inside_its_work_orders(harness: Harness) -> None:
    r = ref("wo-a1")
    command = register_cmd(r, "ap-a1")
    approve(harness, command, "ap-a1", approver="scoped")
    assert execute(harness, "scoped", "req-a1", command).receipt.head_revision == 1
    outside = register_cmd(ref("wo-b1"), "ap-b1")
    approve(harness, outside, "ap-b1", approver="alice")
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):
        execute(harness, "scoped", "req-b1", outside)


def test_an_approval_counts_only_where_the_approver_may_approve(harness: Harness) -> None:
    r = registered(harness, ref("wo-b2"))
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-scoped")
    review = harness.client("alice").registry.Review(
        registry_pb2.ReviewRequest(epochs=harness.epochs("wo-b2"), command=command)
    )
    scoped = harness.client("scoped").approvals
    request = approval_pb2.CreateApprovalRequest(
        approval_id="ap-scoped",
        material_digest=review.material_digest,
        expires_at_ms=harness.clock.now_ms() + 60_000,
    )
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):  # installation-wide: not granted
        scoped.CreateApproval(request)
    request.work_order_id = "wo-a9"  # claims a work order it may approve on ...
    scoped.CreateApproval(request)
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):  # ... but the command's is wo-b2
        execute(harness, "alice", "req-act", command)


def test_installation_wide_reads_need_a_grant_over_every_work_order(harness: Harness) -> None:
    client = harness.client("scoped")
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):
        client.runs.ListRuns(run_pb2.ListRunsRequest())
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):
        client.events.ListEvents(event_pb2.ListEventsRequest())
    with expect_error(DENIED, "ACTION_NOT_GRANTED"):
        client.admin.ListHolds(admin_pb2.ListHoldsRequest())
    harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest())  # "*" covers it
