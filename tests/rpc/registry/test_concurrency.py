"""Commands racing from separate clients."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, registry_pb2
from praxis_client import connect, error_details
from tests.support.harness import Harness, token_of
from tests.support.registry import activate_cmd, approve, proposed, registered, variant

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Runs the calls at once (released by one barrier); returns results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = calls[index]()
        except grpc.RpcError as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_approved_proposals_on_one_base_exactly_one_wins(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    proposed(harness, r, "p2", definition=variant("two"))
    commands = [activate_cmd(r, "p1", 1, "ap-1"), activate_cmd(r, "p2", 1, "ap-2")]
    approve(harness, commands[0], "ap-1")
    approve(harness, commands[1], "ap-2", approver="bob")
    epochs = harness.epochs()
    clients = [
        connect(harness.address, token_of("alice")),
        connect(harness.address, token_of("bob")),
    ]
    results = race(
        [
            lambda i=i: clients[i].registry.Execute(
                registry_pb2.ExecuteRequest(
                    epochs=epochs, request_id=f"act-{i}", command=commands[i]
                )
            )
            for i in range(2)
        ]
    )
    winners = [r for r in results if isinstance(r, registry_pb2.ExecuteResponse)]
    losers = [r for r in results if isinstance(r, grpc.RpcError)]
    assert len(winners) == 1 and len(losers) == 1
    assert error_details(losers[0]).reason == "BASE_REVISION_STALE"
    loser_id = "p2" if winners[0].receipt.proposal_id == "p1" else "p1"
    loser = (
        harness.client("alice")
        .registry.GetProposal(registry_pb2.GetProposalRequest(ref=r, proposal_id=loser_id))
        .proposal
    )
    assert loser.state == registry_pb2.PROPOSAL_STATE_PENDING
    loser_approval = "ap-2" if loser_id == "p2" else "ap-1"
    approval = (
        harness.client("alice")
        .approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id=loser_approval))
        .approval
    )
    assert approval.state == approval_pb2.APPROVAL_STATE_ACTIVE
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    assert head.revision == 2
    for client in clients:
        client.close()


def test_one_request_id_from_many_clients_has_one_effect(harness: Harness) -> None:
    r = registered(harness)
    proposed(harness, r, "p1")
    command = activate_cmd(r, "p1", 1, "ap-1")
    approve(harness, command, "ap-1")
    epochs = harness.epochs()
    clients = [connect(harness.address, token_of("alice")) for _ in range(12)]
    request = registry_pb2.ExecuteRequest(epochs=epochs, request_id="same", command=command)
    results = race([lambda c=c: c.registry.Execute(request) for c in clients])
    assert all(isinstance(x, registry_pb2.ExecuteResponse) for x in results), results
    receipts = {x.receipt.SerializeToString() for x in results}
    assert len(receipts) == 1
    assert sum(not x.replayed for x in results) == 1
    history = harness.client("alice").registry.ListHistory(registry_pb2.ListHistoryRequest(ref=r))
    assert [e.kind for e in history.events].count(registry_pb2.HISTORY_EVENT_KIND_ACTIVATED) == 1
    for client in clients:
        client.close()
