"""Handoffs of a node's outputs and responsibility, acknowledged once by the receiver."""

from __future__ import annotations

import json

import grpc
import pytest

from aiws.engine.v1 import handoff_pb2 as pb
from aiws.engine.v1 import registry_pb2, run_pb2
from tests.support.execution import settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, proposed, ref
from tests.support.runtime import (
    GOVERNED_PLAN,
    claim,
    complete,
    definition,
    get_run,
    governed,
    json_out,
    node,
)

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


def test_an_ad_hoc_handoff_names_its_runs_definition(model: Harness) -> None:
    run = start_run(model, CHAIN)
    [a] = claim(model)
    settle(model, a, {"draft": "text"})
    handoff = offer(model, run.run_id, "a").handoff
    assert not handoff.HasField("ref") and handoff.revision == 0
    assert handoff.definition_digest == run.definition_digest


def test_a_governed_handoff_names_the_revision_its_node_ran_under(model: Harness) -> None:
    """A node finished under revision 1 is handed off after the run moved to revision 2:
    the handoff names revision 1 and its digest, as the registry's history has them."""
    run = governed(model)
    [research] = claim(model)
    complete(model, research, {})
    revised = json.loads(json.dumps(GOVERNED_PLAN))
    revised["nodes"]["report"]["agent"]["system_prompt"] = "cite sources"
    proposed(model, ref(), "p1", 1, revised)
    command = activate_cmd(ref(), "p1", 1, "ap-p1")
    approve(model, command, "ap-p1")
    execute(model, "alice", "act-p1", command)
    revised_run = get_run(model, run.run_id)
    assert revised_run.revision == 2
    handoff = offer(model, run.run_id, "research").handoff
    assert (handoff.ref.work_order_id, handoff.ref.run_id) == ("wo-1", "run-1")
    assert handoff.revision == 1
    assert handoff.definition_digest == run.definition_digest  # revision 1's
    head = model.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref())).head
    assert head.definition_digest == revised_run.definition_digest != run.definition_digest
    [draft] = claim(model)
    complete(model, draft, {})
    later = offer(model, run.run_id, "draft", request_id="h-2").handoff
    assert (later.revision, later.definition_digest) == (2, head.definition_digest)
    read = model.client("agent2").handoffs.GetHandoff(
        pb.GetHandoffRequest(delivery_id=handoff.delivery_id)
    )
    assert (read.handoff.revision, read.handoff.definition_digest) == (
        1,
        handoff.definition_digest,
    )


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


def listed(h: Harness, principal: str = "agent2", **fields: object) -> pb.ListHandoffsResponse:
    return h.client(principal).handoffs.ListHandoffs(  # type: ignore[no-any-return]
        pb.ListHandoffsRequest(**fields)  # type: ignore[arg-type]
    )


def test_a_receiver_lists_the_handoffs_addressed_to_it(model: Harness) -> None:
    offered = []
    for number in range(3):
        run = start_run(model, CHAIN)
        [a] = [task for task in claim(model) if task.run_id == run.run_id]
        settle(model, a, {"draft": number})
        offered.append(offer(model, run.run_id, "a", request_id=f"h-{number}").handoff)
        model.clock.advance(10)
    ids = [handoff.delivery_id for handoff in offered]
    assert [h.delivery_id for h in listed(model).handoffs] == ids  # oldest first
    assert listed(model, "agent").handoffs == []  # the sender is not the receiver
    acknowledge(model, ids[0])
    pending = listed(model, state=pb.HANDOFF_STATE_OFFERED)
    assert [h.delivery_id for h in pending.handoffs] == ids[1:]
    done = listed(model, state=pb.HANDOFF_STATE_ACKNOWLEDGED).handoffs
    assert [(h.delivery_id, h.state) for h in done] == [(ids[0], pb.HANDOFF_STATE_ACKNOWLEDGED)]
    first = listed(model, page_size=2)
    assert [h.delivery_id for h in first.handoffs] == ids[:2] and first.next_page_token
    rest = listed(model, page_size=2, page_token=first.next_page_token)
    assert [h.delivery_id for h in rest.handoffs] == ids[2:] and not rest.next_page_token
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        listed(model, state=pb.HANDOFF_STATE_OFFERED, page_token=first.next_page_token)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        listed(model, page_size=501)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        listed(model, state=7)


def test_a_handoff_on_a_run_the_receiver_may_not_read_is_not_listed(model: Harness) -> None:
    for number, work_order in enumerate(("wo-a1", "wo-b1")):
        run = start_run(model, CHAIN, work_order_id=work_order)
        [a] = [task for task in claim(model) if task.run_id == run.run_id]
        settle(model, a, {"draft": number})
        offer(model, run.run_id, "a", request_id=f"s-{number}", to="scoped")
    [shown] = listed(model, "scoped").handoffs  # `scoped` reads wo-a* only
    assert shown.run_id and shown.to_principal_id == "scoped"
    read = model.client("alice").runs
    assert read.GetRun(run_pb2.GetRunRequest(run_id=shown.run_id)).run.work_order_id == "wo-a1"
