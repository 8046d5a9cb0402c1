"""Bad input gets its reason and changes nothing stored."""

from __future__ import annotations

import hashlib

import grpc
import pytest

from aiws.engine.v1 import registry_pb2
from tests.support.harness import Harness, expect_error
from tests.support.registry import execute, propose_cmd, ref, register_cmd, registered

INVALID = grpc.StatusCode.INVALID_ARGUMENT


def db_fingerprint(h: Harness) -> str:
    """A digest of every stored row except the clock high-water mark."""
    digest = hashlib.sha256()
    with h.server.engine.db.read() as connection:
        for table in (
            "work_orders",
            "holds",
            "heads",
            "revisions",
            "proposals",
            "approvals",
            "consumed_proofs",
            "receipts",
            "registry_events",
        ):
            rows = connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY 1, 2").all()
            digest.update(repr(rows).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("definition_json", "reason"),
    [
        ('{"version": 1, "a": 1, "a": 2}', "DOCUMENT_DUPLICATE_KEY"),
        ('{"version": 1, "cost": 0.5}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"version": 1, "n": 12345678901234567890}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"version": 2}', "DOCUMENT_VERSION_UNSUPPORTED"),
        ('{"nodes": {}}', "DOCUMENT_VERSION_UNSUPPORTED"),
        ("[1, 2]", "DOCUMENT_MALFORMED"),
        ('{"version": 1', "DOCUMENT_MALFORMED"),
        ('{"version": 1, "deep": ' + "[" * 70 + "]" * 70 + "}", "DOCUMENT_TOO_DEEP"),
        ('{"version": 1, "big": "' + "x" * (1024 * 1024) + '"}', "DOCUMENT_TOO_LARGE"),
        ("", "FIELD_REQUIRED"),
    ],
)
def test_bad_definitions(harness: Harness, definition_json: str, reason: str) -> None:
    r = registered(harness)
    before = db_fingerprint(harness)
    command = propose_cmd(r, "p1", 1)
    command.propose.definition_json = definition_json
    with expect_error(INVALID, reason):
        execute(harness, "agent", "req-bad", command)
    assert db_fingerprint(harness) == before


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("work_order_id", "", "FIELD_REQUIRED"),
        ("work_order_id", "has space", "IDENTIFIER_INVALID"),
        ("run_id", "a/b", "IDENTIFIER_INVALID"),
        ("run_id", "x" * 129, "IDENTIFIER_INVALID"),
        ("proposal_id", "bad\nid", "IDENTIFIER_INVALID"),
        ("request_id", "", "FIELD_REQUIRED"),
        ("base_revision", 0, "FIELD_REQUIRED"),
    ],
)
def test_malformed_ids(harness: Harness, field: str, value: object, reason: str) -> None:
    r = registered(harness)
    before = db_fingerprint(harness)
    command = propose_cmd(r, "p1", 1)
    request_id = "req-x"
    if field in ("work_order_id", "run_id"):
        setattr(command.propose.ref, field, value)
    elif field == "request_id":
        request_id = str(value)
    else:
        setattr(command.propose, field, value)
    with expect_error(INVALID, reason):
        execute(harness, "agent", request_id, command, epochs=harness.epochs())
    assert db_fingerprint(harness) == before


def test_empty_command_and_bad_policy_digest(harness: Harness) -> None:
    with expect_error(INVALID, "FIELD_REQUIRED"):
        harness.client("alice").registry.Execute(
            registry_pb2.ExecuteRequest(
                epochs=harness.epochs(), request_id="r", command=registry_pb2.RegistryCommand()
            )
        )
    command = propose_cmd(ref(), "p1", 1)
    command.propose.policy_digests["safety"] = "md5:abc"
    with expect_error(INVALID, "DIGEST_INVALID"):
        execute(harness, "agent", "req", command)


def test_utf8_identifiers_are_accepted(harness: Harness) -> None:
    r = registered(harness, ref("commande-été", "exécution-1"))
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    assert head.ref.work_order_id == "commande-été"


def test_unknown_reads(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.NOT_FOUND, "REF_NOT_FOUND"):
        harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=ref()))
    with expect_error(grpc.StatusCode.NOT_FOUND, "PROPOSAL_NOT_FOUND"):
        harness.client("alice").registry.GetProposal(
            registry_pb2.GetProposalRequest(ref=ref(), proposal_id="nope")
        )
    from aiws.engine.v1 import approval_pb2

    with expect_error(grpc.StatusCode.NOT_FOUND, "APPROVAL_NOT_FOUND"):
        harness.client("alice").approvals.GetApproval(
            approval_pb2.GetApprovalRequest(approval_id="nope")
        )


@pytest.mark.parametrize(
    ("definition", "reason"),
    [
        (
            {
                "version": 1,
                "nodes": {
                    "a": {"agent": {"model": "nobody-serves-it"}, "input": {"from": "run_input"}}
                },
                "output": {"from": "node:a"},
            },
            "MODEL_UNKNOWN",
        ),
        (
            {
                "version": 1,
                "nodes": {
                    "a": {"agent": {"model": "echo"}, "depends_on": ["b"]},
                    "b": {"agent": {"model": "echo"}, "depends_on": ["a"]},
                },
                "output": {"from": "node:a"},
            },
            "DEFINITION_INVALID",
        ),
    ],
)
def test_review_refuses_a_definition_execute_would_refuse(
    harness: Harness, definition: dict[str, object], reason: str
) -> None:
    """Issue 25: a REGISTER's material was shown (and could be approved) for a definition
    the server refused only at Execute, after the human's approval."""
    command = register_cmd(ref(), "ap-1", definition)
    request = registry_pb2.ReviewRequest(epochs=harness.epochs(), command=command)
    with expect_error(INVALID, reason):
        harness.client("alice").registry.Review(request)
    with expect_error(INVALID, reason):  # the same answer Execute gives
        execute(harness, "alice", "req-1", command)
