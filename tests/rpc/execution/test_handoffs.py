"""Handoffs of a node's outputs and responsibility, acknowledged once by the receiver."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import handoff_pb2 as pb
from tests.support.execution import settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))


def offer(h: Harness, run_id: str, uid: str, request_id: str = "h-1", to: str = "agent2",
          note: str = "yours now") -> pb.CreateHandoffResponse:  # fmt: skip
    return h.client("agent").handoffs.CreateHandoff(  # type: ignore[no-any-return]
        pb.CreateHandoffRequest(
            request_id=request_id, run_id=run_id, node_uid=uid, to_principal_id=to, note=note
        )
    )


def acknowledge(h: Harness, delivery_id: str, principal: str = "agent2") -> pb.Handoff:
    return (
        h.client(principal)
        .handoffs.AcknowledgeHandoff(pb.AcknowledgeHandoffRequest(delivery_id=delivery_id))
        .handoff
    )


def test_a_handoff_is_offered_then_acknowledged_once(model: Harness) -> None:
    run = start_run(model, CHAIN)
    [a] = claim(model)
    settle(model, a, {"draft": "text"})
    created = offer(model, run.run_id, "a")
    handoff = created.handoff
    assert handoff.state == pb.HANDOFF_STATE_OFFERED and not created.replayed
    assert handoff.delivery_id.startswith("dlv_")
    assert handoff.delivery_id not in (a.attempt_id, a.operation_id)
    assert handoff.operation_id == a.operation_id
    assert (handoff.from_principal_id, handoff.to_principal_id) == ("agent", "agent2")
    assert offer(model, run.run_id, "a").replayed
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED"):
        offer(model, run.run_id, "a", note="another note")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HANDOFF_NOT_ADDRESSED"):
        acknowledge(model, handoff.delivery_id, principal="agent")
    done = acknowledge(model, handoff.delivery_id)
    assert done.state == pb.HANDOFF_STATE_ACKNOWLEDGED
    acknowledged_at = done.acknowledged_at_ms
    model.clock.advance(5)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "HANDOFF_ALREADY_ACKNOWLEDGED"):
        acknowledge(model, handoff.delivery_id)
    read = model.client("agent").handoffs.GetHandoff(
        pb.GetHandoffRequest(delivery_id=handoff.delivery_id)
    )
    assert read.handoff.acknowledged_at_ms == acknowledged_at


def test_bad_handoffs(model: Harness) -> None:
    run = start_run(model, CHAIN)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "NODE_NOT_DONE"):
        offer(model, run.run_id, "a")
    with expect_error(grpc.StatusCode.NOT_FOUND, "NODE_NOT_FOUND"):
        offer(model, run.run_id, "zzz")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ATTRIBUTION_MISMATCH"):
        offer(model, run.run_id, "a", to="agent")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        offer(model, run.run_id, "a", to="not a principal")
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        offer(model, "run_missing", "a")
    with expect_error(grpc.StatusCode.NOT_FOUND, "HANDOFF_NOT_FOUND"):
        acknowledge(model, "dlv_missing")
    with expect_error(grpc.StatusCode.NOT_FOUND, "HANDOFF_NOT_FOUND"):
        model.client("agent").handoffs.GetHandoff(pb.GetHandoffRequest(delivery_id="dlv_x"))
