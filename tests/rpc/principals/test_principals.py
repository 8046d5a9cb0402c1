"""PrincipalService: principals administered while the server runs, audited, versioned."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import common_pb2, registry_pb2
from aiws.engine.v1 import principal_pb2 as pb
from praxis.store.principals.lookups import CACHE_TTL_S
from praxis_client import connect
from tests.support.harness import Harness, expect_error, start_server

pytestmark = pytest.mark.backends("sqlite", "postgres")

READER = [pb.Grant(actions=["registry.read"], work_orders=["*"])]


def create(h: Harness, pid: str, kind: int = common_pb2.PRINCIPAL_KIND_HUMAN, **extra: object):  # type: ignore[no-untyped-def]
    return h.client("alice").principals.CreatePrincipal(
        pb.CreatePrincipalRequest(
            principal_id=pid,
            kind=kind,
            grants=extra.pop("grants", READER),
            **extra,  # type: ignore[arg-type]
        )
    )


def epochs_as(h: Harness, token: str) -> registry_pb2.GetEpochsResponse:
    with connect(h.address, token) as client:
        return client.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo-1"))


def test_a_created_principal_can_call_with_its_token_shown_once(harness: Harness) -> None:
    created = create(harness, "carol")
    assert created.token.startswith("prx_")
    principal = created.principal
    assert (principal.principal_id, principal.version) == ("carol", 1)
    assert principal.state == pb.PRINCIPAL_STATE_ACTIVE
    assert principal.created_by == "alice"
    assert principal.token_fingerprint == hashlib.sha256(created.token.encode()).hexdigest()[:8]
    assert epochs_as(harness, created.token).epochs.ownership_epoch == 1
    got = harness.client("alice").principals.GetPrincipal(
        pb.GetPrincipalRequest(principal_id="carol")
    )
    assert got.principal == principal
    assert created.token not in str(got)
    listed = harness.client("alice").principals.ListPrincipals(pb.ListPrincipalsRequest())
    ids = [p.principal_id for p in listed.principals]
    assert "carol" in ids and "alice" in ids and ids == sorted(ids)
    with expect_error(grpc.StatusCode.ALREADY_EXISTS, "PRINCIPAL_ALREADY_EXISTS"):
        create(harness, "carol")


def test_revocation_refuses_the_token_at_once_and_is_audited(harness: Harness) -> None:
    token = create(harness, "carol").token
    epochs_as(harness, token)
    revoked = harness.client("alice").principals.RevokePrincipal(
        pb.RevokePrincipalRequest(principal_id="carol", reason="left the team")
    )
    assert revoked.principal.state == pb.PRINCIPAL_STATE_REVOKED
    assert (revoked.principal.version, revoked.principal.revoked_by) == (2, "alice")
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
        epochs_as(harness, token)
    again = harness.client("alice").principals.RevokePrincipal(
        pb.RevokePrincipalRequest(principal_id="carol")
    )
    assert again.principal.version == 2  # unchanged
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "PRINCIPAL_REVOKED"):
        harness.client("alice").principals.RotatePrincipalToken(
            pb.RotatePrincipalTokenRequest(principal_id="carol")
        )
    listed = harness.client("alice").principals.ListPrincipals(pb.ListPrincipalsRequest())
    assert "carol" not in [p.principal_id for p in listed.principals]
    with_revoked = harness.client("alice").principals.ListPrincipals(
        pb.ListPrincipalsRequest(include_revoked=True)
    )
    assert "carol" in [p.principal_id for p in with_revoked.principals]
    history = harness.client("alice").principals.ListPrincipalHistory(
        pb.ListPrincipalHistoryRequest(principal_id="carol")
    )
    assert [(e.kind, e.version, e.actor_id) for e in history.events] == [
        (pb.PRINCIPAL_EVENT_KIND_CREATED, 1, "alice"),
        (pb.PRINCIPAL_EVENT_KIND_REVOKED, 2, "alice"),
    ]
    assert history.events[1].reason == "left the team"


def test_rotation_replaces_the_token_under_a_version_check(harness: Harness) -> None:
    old = create(harness, "carol").token
    with expect_error(grpc.StatusCode.ABORTED, "VERSION_CONFLICT"):
        harness.client("alice").principals.RotatePrincipalToken(
            pb.RotatePrincipalTokenRequest(principal_id="carol", expected_version=7)
        )
    rotated = harness.client("alice").principals.RotatePrincipalToken(
        pb.RotatePrincipalTokenRequest(principal_id="carol", expected_version=1)
    )
    assert rotated.principal.version == 2 and rotated.token != old
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID"):
        epochs_as(harness, old)
    assert epochs_as(harness, rotated.token).epochs.ownership_epoch == 1
    with expect_error(grpc.StatusCode.ABORTED, "VERSION_CONFLICT"):  # a retried rotation
        harness.client("alice").principals.RotatePrincipalToken(
            pb.RotatePrincipalTokenRequest(principal_id="carol", expected_version=1)
        )


def test_who_may_administer(harness: Harness) -> None:
    request = pb.CreatePrincipalRequest(
        principal_id="x", kind=common_pb2.PRINCIPAL_KIND_AGENT, grants=READER
    )
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("agent").principals.CreatePrincipal(request)
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        harness.client("rogue").principals.CreatePrincipal(request)  # an agent granted "*"
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("reader").principals.ListPrincipals(pb.ListPrincipalsRequest())
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        harness.client("scoped").principals.ListPrincipals(pb.ListPrincipalsRequest())
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        harness.client(None).principals.ListPrincipals(pb.ListPrincipalsRequest())


@pytest.mark.parametrize(
    ("fields", "code", "reason"),
    [
        ({"principal_id": ""}, grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"),
        ({"principal_id": "a b"}, grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"),
        ({"kind": 0}, grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        ({"kind": 99}, grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        ({"grants": []}, grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"),
        (
            {"grants": [pb.Grant(actions=["a*b"])]},
            grpc.StatusCode.INVALID_ARGUMENT,
            "GRANT_INVALID",
        ),
        ({"grants": [pb.Grant()]}, grpc.StatusCode.INVALID_ARGUMENT, "GRANT_INVALID"),
        (
            {"grants": [pb.Grant(actions=["x"])] * 33},
            grpc.StatusCode.INVALID_ARGUMENT,
            "GRANT_INVALID",
        ),
        (
            {"grants": [pb.Grant(actions=["x"], max_spend_microcredits="1.50")]},
            grpc.StatusCode.INVALID_ARGUMENT,
            "GRANT_INVALID",
        ),
        ({"expires_at_ms": 5}, grpc.StatusCode.INVALID_ARGUMENT, "TIME_INVALID"),
        ({"expires_at_ms": -1}, grpc.StatusCode.INVALID_ARGUMENT, "TIME_INVALID"),
    ],
)
def test_bad_create_requests_are_refused_and_store_nothing(
    harness: Harness, fields: dict[str, object], code: grpc.StatusCode, reason: str
) -> None:
    request = pb.CreatePrincipalRequest(
        principal_id="dave", kind=common_pb2.PRINCIPAL_KIND_HUMAN, grants=READER
    )
    for name, value in fields.items():
        if name == "grants":
            del request.grants[:]
            request.grants.extend(value)  # type: ignore[arg-type]
        else:
            setattr(request, name, value)
    with expect_error(code, reason):
        harness.client("alice").principals.CreatePrincipal(request)
    with expect_error(grpc.StatusCode.NOT_FOUND, "PRINCIPAL_NOT_FOUND"):
        harness.client("alice").principals.GetPrincipal(pb.GetPrincipalRequest(principal_id="dave"))


def test_reads_validate_paging(harness: Harness) -> None:
    client = harness.client("alice").principals
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListPrincipals(pb.ListPrincipalsRequest(page_size=1001))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListPrincipals(pb.ListPrincipalsRequest(page_token="!!"))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListPrincipalHistory(pb.ListPrincipalHistoryRequest(limit=-1))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "FIELD_REQUIRED"):
        client.RevokePrincipal(pb.RevokePrincipalRequest(principal_id="bob", reason="x" * 1025))
    with expect_error(grpc.StatusCode.NOT_FOUND, "PRINCIPAL_NOT_FOUND"):
        client.RevokePrincipal(pb.RevokePrincipalRequest(principal_id="nobody"))
    seen, token = [], ""
    while True:
        page = client.ListPrincipals(pb.ListPrincipalsRequest(page_size=3, page_token=token))
        assert len(page.principals) <= 3
        seen += [p.principal_id for p in page.principals]
        token = page.next_page_token
        if not token:
            break
    assert (
        seen == sorted(seen)
        and "alice" in seen
        and "scoped" in seen
        and len(seen) == len(set(seen))
    )
    imported = client.ListPrincipalHistory(pb.ListPrincipalHistoryRequest(principal_id="alice"))
    assert [(e.kind, e.actor_id) for e in imported.events] == [
        (pb.PRINCIPAL_EVENT_KIND_IMPORTED, "principals-file")
    ]


def test_the_file_is_only_a_bootstrap(tmp_path: Path) -> None:
    database = tmp_path / "praxis.db"
    first = start_server(database)
    try:
        first.client("alice").principals.RevokePrincipal(
            pb.RevokePrincipalRequest(principal_id="bob", reason="gone")
        )
        token = create(first, "carol").token
    finally:
        first.close()
    second = start_server(database)  # the same principals file is imported again
    try:
        with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
            second.client("bob").registry.GetEpochs(
                registry_pb2.GetEpochsRequest(work_order_id="w")
            )
        assert epochs_as(second, token).epochs.ownership_epoch == 1  # kept across restarts
        history = second.client("alice").principals.ListPrincipalHistory(
            pb.ListPrincipalHistoryRequest(principal_id="bob")
        )
        assert [e.kind for e in history.events] == [
            pb.PRINCIPAL_EVENT_KIND_IMPORTED,
            pb.PRINCIPAL_EVENT_KIND_REVOKED,
        ]
    finally:
        second.close()


def test_another_server_process_on_the_database_refuses_a_revoked_token_quickly(
    tmp_path: Path,
) -> None:
    database = tmp_path / "praxis.db"
    first, second = start_server(database), start_server(database)
    try:
        token = create(first, "carol").token
        assert epochs_as(second, token).epochs.ownership_epoch == 1  # now cached by the second
        first.client("alice").principals.RevokePrincipal(
            pb.RevokePrincipalRequest(principal_id="carol")
        )
        with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
            epochs_as(first, token)  # the process that revoked: at once
        time.sleep(CACHE_TTL_S + 0.05)
        with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
            epochs_as(second, token)  # another process: within the cache's lifetime
    finally:
        first.close()
        second.close()
