"""The reads the web console needs: run definitions, node times, effect outcomes in
events, the inbox watch, and paged lists of refs and contracts."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import (
    admin_pb2,
    common_pb2,
    contract_pb2,
    event_pb2,
    principal_pb2,
    registry_pb2,
    run_pb2,
)
from aiws.engine.v1 import inbox_pb2 as pb
from praxis_client import connect
from tests.support.execution import create_contract, fail_task, settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.inbox import Watcher, counted
from tests.support.registry import proposed, ref, registered
from tests.support.runtime import claim, definition, diamond, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")


def scoped_token(h: Harness, principal_id: str, actions: list[str], work_orders: list[str]) -> str:
    """A human principal with one grant; its token."""
    created = (
        h.client("alice")
        .principals.CreatePrincipal(
            principal_pb2.CreatePrincipalRequest(
                principal_id=principal_id,
                kind=common_pb2.PRINCIPAL_KIND_HUMAN,
                grants=[principal_pb2.Grant(actions=actions, work_orders=work_orders)],
            )
        )
        .token
    )
    return str(created)


# --- GetRun.include_definition and node times -------------------------------------------


def test_get_run_returns_the_definition_only_when_asked(model: Harness) -> None:
    document = diamond()
    run = start_run(model, document)
    runs = model.client("alice").runs
    plain = runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id))
    assert plain.definition_json == ""
    full = runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id, include_definition=True))
    assert json.loads(full.definition_json) == document
    assert full.run.definition_digest == run.definition_digest
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        runs.GetRun(run_pb2.GetRunRequest(run_id="run_missing", include_definition=True))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        runs.GetRun(run_pb2.GetRunRequest(run_id="a b", include_definition=True))


def test_a_governed_run_returns_its_head_definition(model: Harness) -> None:
    head = registered(model, ref("wo-1"))
    started = (
        model.client("alice")
        .runs.StartRun(run_pb2.StartRunRequest(request_id="gov-1", ref=head, input_json="null"))
        .run
    )
    got = model.client("alice").runs.GetRun(
        run_pb2.GetRunRequest(run_id=started.run_id, include_definition=True)
    )
    stored = model.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=head)).head
    assert json.loads(got.definition_json) == json.loads(stored.definition_json)


def test_nodes_carry_their_start_and_end_times(model: Harness) -> None:
    run = start_run(model, definition("b", a=node(output=json_out()), b=node("node:a", ("a",))))
    before = {n.node_id: n for n in run.nodes}
    assert (before["a"].started_at_ms, before["a"].finished_at_ms) == (0, 0)
    model.clock.advance(1_000)
    [task] = claim(model)
    started = model.clock.now_ms()
    model.clock.advance(2_000)
    settle(model, task)
    ended = model.clock.now_ms()
    nodes = {n.node_id: n for n in model.client("alice").runs.GetRun(
        run_pb2.GetRunRequest(run_id=run.run_id)).run.nodes}  # fmt: skip
    assert (nodes["a"].started_at_ms, nodes["a"].finished_at_ms) == (started, ended)
    assert (nodes["b"].started_at_ms, nodes["b"].finished_at_ms) == (0, 0)
    listed = model.client("alice").runs.ListRunNodes(
        run_pb2.ListRunNodesRequest(run_id=run.run_id, node_id="a")
    )
    assert (listed.nodes[0].started_at_ms, listed.nodes[0].finished_at_ms) == (started, ended)


def test_settling_events_carry_the_effect_outcome(model: Harness) -> None:
    run = start_run(model, definition("a", a=node()))
    [task] = claim(model)
    fail_task(model, task, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)
    model.clock.advance(120_000)
    [retry] = claim(model)
    fail_task(model, retry, common_pb2.EFFECT_OUTCOME_UNCERTAIN)
    events = model.client("alice").events.ListEvents(event_pb2.ListEventsRequest(run_id=run.run_id))
    effects = [
        (event_pb2.EventKind.Name(e.kind), json.loads(e.payload_json).get("effect"))
        for e in events.events
        if e.kind in (event_pb2.EVENT_KIND_NODE_FAILED, event_pb2.EVENT_KIND_NODE_BLOCKED)
    ]
    assert effects == [
        ("EVENT_KIND_NODE_FAILED", "NOT_APPLIED"),
        ("EVENT_KIND_NODE_BLOCKED", "UNCERTAIN"),
    ]
    done = start_run(model, definition("a", a=node()))
    [task] = claim(model)
    settle(model, task, result="done")
    events = model.client("alice").events.ListEvents(
        event_pb2.ListEventsRequest(run_id=done.run_id)
    )
    [completed] = [e for e in events.events if e.kind == event_pb2.EVENT_KIND_NODE_COMPLETED]
    assert json.loads(completed.payload_json)["effect"] == "APPLIED"


# --- WatchInbox ---------------------------------------------------------------------------


@pytest.fixture
def watching(model: Harness) -> Iterator[Watcher]:
    watcher = Watcher(model)
    yield watcher
    watcher.close()


def test_watch_inbox_sends_counts_at_once_and_on_each_change(
    model: Harness, watching: Watcher
) -> None:
    first = watching.wait_for(1)
    kinds = len(pb.InboxItemKind.values()) - 1  # every kind but UNSPECIFIED, counted at 0
    assert (first.total, counted(first), len(first.counts)) == (0, {}, kinds)
    registered(model, ref("wo-1"))
    proposed(model, ref("wo-1"), "p-1")
    second = watching.wait_for(2)
    assert (second.total, counted(second)) == (1, {"INBOX_ITEM_KIND_PROPOSAL": 1})
    model.client("alice").admin.PlaceHold(  # on wo-1: the run below is in another work order
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-1", reason="restored"
        )
    )
    third = watching.wait_for(3)
    assert counted(third) == {"INBOX_ITEM_KIND_PROPOSAL": 1, "INBOX_ITEM_KIND_HOLD": 1}
    start_run(model, definition("a", a=node()))
    [task] = claim(model)
    fail_task(model, task, common_pb2.EFFECT_OUTCOME_UNCERTAIN)
    fourth = watching.wait_for(4)
    assert fourth.total == 3 and counted(fourth)["INBOX_ITEM_KIND_RECONCILIATION"] == 1
    assert len({m.fingerprint for m in watching.messages}) == 4


def test_watch_inbox_sends_nothing_when_nothing_it_counts_changed(
    model: Harness, watching: Watcher
) -> None:
    watching.wait_for(1)
    run = start_run(model, definition("a", a=node()))  # a run change wakes the watch...
    [task] = claim(model)
    settle(model, task, result="done")
    time.sleep(1.0)
    assert len(watching.messages) == 1  # ...but the inbox did not change: no message
    assert run.run_id


def test_watch_inbox_validates_and_honours_authority(model: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        next(
            iter(model.client("alice").inbox.WatchInbox(pb.WatchInboxRequest(work_order_id="a b")))
        )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        next(iter(model.client("agent").inbox.WatchInbox(pb.WatchInboxRequest())))
    token = scoped_token(model, "triager", ["inbox.read"], ["wo-a*"])
    with connect(model.address, token) as triager:
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            next(iter(triager.inbox.WatchInbox(pb.WatchInboxRequest())))
        stream = triager.inbox.WatchInbox(pb.WatchInboxRequest(work_order_id="wo-a1"))
        assert next(iter(stream)).total == 0
        stream.cancel()


# --- ListRefs -----------------------------------------------------------------------------


def list_refs(
    h: Harness, principal_id: str = "alice", **fields: Any
) -> registry_pb2.ListRefsResponse:
    return h.client(principal_id).registry.ListRefs(registry_pb2.ListRefsRequest(**fields))  # type: ignore[no-any-return]


def test_list_refs_pages_heads_in_order(model: Harness) -> None:
    assert list(list_refs(model).heads) == []
    for work_order_id, run_id in [("wo-2", "r-1"), ("wo-1", "r-2"), ("wo-1", "r-1")]:
        registered(model, ref(work_order_id, run_id))
    full = list_refs(model)
    keys = [(h.ref.work_order_id, h.ref.run_id) for h in full.heads]
    assert keys == [("wo-1", "r-1"), ("wo-1", "r-2"), ("wo-2", "r-1")]
    assert full.next_page_token == ""
    assert all(
        h.revision == 1 and h.definition_digest and not h.definition_json for h in full.heads
    )
    pages, token = [], ""
    while True:
        page = list_refs(model, page_size=2, page_token=token)
        pages.append([(h.ref.work_order_id, h.ref.run_id) for h in page.heads])
        token = page.next_page_token
        if not token:
            break
    assert pages == [keys[:2], keys[2:]]
    scoped = list_refs(model, work_order_id="wo-1")
    assert [h.ref.run_id for h in scoped.heads] == ["r-1", "r-2"]


def test_list_refs_validates_and_honours_authority(model: Harness) -> None:
    registered(model, ref("wo-1", "r-1"))
    registered(model, ref("wo-1", "r-2"))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_refs(model, page_size=501)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_refs(model, page_size=-1)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_refs(model, page_token="nonsense")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        list_refs(model, work_order_id="a b")
    token = list_refs(model, page_size=1).next_page_token
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):  # another query
        list_refs(model, page_size=1, page_token=token, work_order_id="wo-1")
    reader = scoped_token(model, "ref-reader", ["registry.read"], ["wo-a*"])
    with connect(model.address, reader) as client:
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            client.registry.ListRefs(registry_pb2.ListRefsRequest())
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            client.registry.ListRefs(registry_pb2.ListRefsRequest(work_order_id="wo-1"))
        allowed = client.registry.ListRefs(registry_pb2.ListRefsRequest(work_order_id="wo-a1"))
        assert list(allowed.heads) == []


# --- ListContracts ------------------------------------------------------------------------


def list_contracts(
    h: Harness, principal_id: str = "alice", **fields: Any
) -> contract_pb2.ListContractsResponse:
    return h.client(principal_id).contracts.ListContracts(  # type: ignore[no-any-return]
        contract_pb2.ListContractsRequest(**fields)
    )


def test_list_contracts_pages_with_spend(model: Harness) -> None:
    assert list(list_contracts(model).contracts) == []
    create_contract(model, "c-2", budget="50", work_order_id="wo-2")
    create_contract(model, "c-1", budget="100")
    create_contract(model, "c-3", budget="7")
    run = start_run(model, definition("a", a=node()), contract_id="c-1")
    [task] = claim(model)
    settle(model, task, result="done", cost="12.5")
    full = list_contracts(model)
    assert [c.contract_id for c in full.contracts] == ["c-1", "c-2", "c-3"]
    first = full.contracts[0]
    assert (first.budget_microcredits, first.spent_microcredits) == ("100", "12.5")
    assert first.remaining_microcredits == "87.5" and run.contract_id == "c-1"
    page = list_contracts(model, page_size=2)
    assert [c.contract_id for c in page.contracts] == ["c-1", "c-2"] and page.next_page_token
    rest = list_contracts(model, page_size=2, page_token=page.next_page_token)
    assert [c.contract_id for c in rest.contracts] == ["c-3"] and rest.next_page_token == ""
    assert [c.contract_id for c in list_contracts(model, work_order_id="wo-2").contracts] == ["c-2"]


def test_list_contracts_validates_and_honours_authority(model: Harness) -> None:
    create_contract(model, "c-1")
    create_contract(model, "c-2")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_contracts(model, page_size=501)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_contracts(model, page_token="bm9wZQ==")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        list_contracts(model, work_order_id="a b")
    token = list_contracts(model, page_size=1).next_page_token
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        list_contracts(model, page_size=1, page_token=token, work_order_id="wo-1")
    reader = scoped_token(model, "contract-reader", ["contract.read"], ["wo-a*"])
    with connect(model.address, reader) as client:
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            client.contracts.ListContracts(contract_pb2.ListContractsRequest())
        allowed = client.contracts.ListContracts(
            contract_pb2.ListContractsRequest(work_order_id="wo-a1")
        )
        assert list(allowed.contracts) == []
