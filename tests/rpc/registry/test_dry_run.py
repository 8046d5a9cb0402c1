"""Execute's dry run: every check and the receipt a command would get, nothing stored."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import common_pb2, registry_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import (
    activate_cmd,
    approve,
    command_ref,
    execute,
    propose_cmd,
    ref,
    register_cmd,
    registered,
    variant,
)

pytestmark = pytest.mark.backends("sqlite", "postgres")


def dry(
    h: Harness, principal_id: str, request_id: str, command: registry_pb2.RegistryCommand
) -> registry_pb2.ExecuteResponse:
    return h.client(principal_id).registry.Execute(  # type: ignore[no-any-return]
        registry_pb2.ExecuteRequest(
            epochs=h.epochs(command_ref(command).work_order_id),
            request_id=request_id,
            command=command,
            dry_run=True,
        )
    )


def head(h: Harness, r: common_pb2.WorkflowRef) -> registry_pb2.Head:
    return h.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head


def test_a_dry_run_register_answers_its_receipt_and_stores_nothing(harness: Harness) -> None:
    command = register_cmd(ref(), "ap-1")
    approve(harness, command, "ap-1")
    answer = dry(harness, "alice", "req-1", command)
    assert answer.dry_run and not answer.replayed
    assert answer.receipt.head_revision == 1
    with expect_error(grpc.StatusCode.NOT_FOUND, "REF_NOT_FOUND"):
        head(harness, ref())
    real = execute(harness, "alice", "req-1", command)  # approval and request id unused
    assert not real.replayed and not real.dry_run and real.receipt.head_revision == 1
    again = dry(harness, "alice", "req-1", command)
    assert again.replayed and again.dry_run
    assert again.receipt.event_seq == real.receipt.event_seq


def test_a_dry_run_is_refused_exactly_like_the_command(harness: Harness) -> None:
    r = registered(harness)
    proposal = propose_cmd(r, "p1", 1, variant("x"))
    execute(harness, "agent", "req-p1", proposal)
    activate = activate_cmd(r, "p1", 1, "ap-act")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "APPROVAL_NOT_FOUND"):
        dry(harness, "alice", "req-act", activate)
    approve(harness, activate, "ap-act")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        dry(harness, "agent", "req-act", activate)  # agents cannot activate
    stale = activate_cmd(r, "p1", 2, "ap-act", next_revision=3)
    with expect_error(grpc.StatusCode.ABORTED, "BASE_REVISION_STALE"):
        dry(harness, "alice", "req-stale", stale)
    assert dry(harness, "alice", "req-act", activate).receipt.head_revision == 2
    assert head(harness, r).revision == 1  # the activation did not happen
    assert execute(harness, "alice", "req-act", activate).receipt.head_revision == 2
