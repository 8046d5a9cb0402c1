"""Issue 25 item 1, in-process: client certificates map to the stored principals, as they
are on each call (revoked, expired, created at runtime), never to the principals file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from praxis.app import Engine, Settings
from praxis.authority.certificates import CertificateMappingError
from praxis.clock import TestClock
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Code, Rejection
from praxis.store.principals.grants import GrantSpec
from tests.support.harness import T0, authority

ALICE, BOB, EXPIRED, LATER, STRANGER = ("a1" * 32, "b0" * 32, "e0" * 32, "1a" * 32, "5e" * 32)
HUMAN = Principal("alice", PrincipalKind.HUMAN)


def _engine(tmp_path: Path, certificates: dict[str, str]) -> Engine:
    return Engine(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'praxis.db'}",
            authority=authority(),
            clock=TestClock(T0),
            client_certificates=certificates,
        )
    )


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    mapped = {ALICE.upper(): "alice", BOB: "bob", EXPIRED: "expired"}
    engine = _engine(tmp_path, mapped)
    yield engine
    engine.close()


def _certify(engine: Engine, fingerprint: str) -> Principal | Rejection:
    certify = engine.settings.authority.authenticate_certificate  # type: ignore[attr-defined]
    found: Principal | Rejection = certify(fingerprint, engine.clock.now_ms())
    return found


def _refusal(found: Principal | Rejection) -> tuple[Code, str] | None:
    return (found.code, found.reason) if isinstance(found, Rejection) else None


def test_a_certificate_follows_its_stored_principal(engine: Engine) -> None:
    assert _certify(engine, ALICE) == HUMAN  # fingerprints in either case
    assert _refusal(_certify(engine, STRANGER)) == (Code.UNAUTHENTICATED, "CREDENTIAL_INVALID")
    assert _refusal(_certify(engine, EXPIRED)) == (Code.UNAUTHENTICATED, "CREDENTIAL_EXPIRED")
    assert engine.principals.authority is not None  # the stored principals are managed
    assert _certify(engine, BOB) == Principal("bob", PrincipalKind.HUMAN)
    revoked = engine.principals.revoke(HUMAN, "bob", "left", 0)
    assert not isinstance(revoked, Rejection)
    assert _refusal(_certify(engine, BOB)) == (Code.UNAUTHENTICATED, "CREDENTIAL_REVOKED")


def test_a_principal_created_at_runtime_can_be_mapped_at_the_next_start(tmp_path: Path) -> None:
    first = _engine(tmp_path, {})
    grants = [GrantSpec(("registry.read",), ("*",))]
    assert not isinstance(
        first.principals.create(HUMAN, "later", PrincipalKind.AGENT, grants, 0), Rejection
    )
    first.close()
    again = _engine(tmp_path, {LATER: "later"})
    assert _certify(again, LATER) == Principal("later", PrincipalKind.AGENT)
    again.close()


def test_a_certificate_of_an_unknown_principal_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(CertificateMappingError, match="'nobody'"):
        _engine(tmp_path, {STRANGER: "nobody"})
