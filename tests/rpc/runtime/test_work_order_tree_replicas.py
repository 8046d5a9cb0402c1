"""Two replicas on one PostgreSQL database learn what a new work order imposes (issue 42,
item 1): a replica that has authorised in a work order before it had a record applies
the record's actions once another replica creates it (the ``workorder:`` wake-up)."""

from __future__ import annotations

import json
import time

import grpc
import pytest

from aiws.engine.v1 import run_pb2
from aiws.engine.v1 import work_order_pb2 as pb
from praxis_client import Client, connect, error_details
from tests.support.harness import Harness, token_of
from tests.support.runtime import definition, json_out, node

pytestmark = pytest.mark.backends("postgres-2")

ONE = json.dumps(definition("a", a=node(output=json_out())))


def _start(client: Client, request_id: str) -> run_pb2.StartRunResponse:
    request = run_pb2.StartRunRequest(
        request_id=request_id, definition_json=ONE, input_json="{}", work_order_id="late"
    )
    return client.runs.StartRun(request)  # type: ignore[no-any-return]


def test_a_record_made_on_one_replica_narrows_the_actions_on_the_other(
    harness: Harness,
) -> None:
    first, second = harness.replicas
    with (
        connect(f"127.0.0.1:{first.port}", token_of("alice")) as alice_first,
        connect(f"127.0.0.1:{second.port}", token_of("agent")) as agent_second,
    ):
        _start(agent_second, "before")  # the second replica knows "late" without a record
        alice_first.work_orders.CreateWorkOrder(
            pb.CreateWorkOrderRequest(work_order_id="late", actions=["run.read"])
        )
        deadline = time.monotonic() + 5
        while True:
            try:
                _start(agent_second, f"after-{time.monotonic()}")
            except grpc.RpcError as error:
                details = error_details(error)
                assert (details.code, details.reason) == (
                    grpc.StatusCode.PERMISSION_DENIED,
                    "ACTION_NOT_GRANTED",
                )
                break
            assert time.monotonic() < deadline, "the second replica never learned the record"
            time.sleep(0.05)
