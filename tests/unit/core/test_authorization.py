"""Approvals bound to actions: the material of an authorization wait, grant purposes and
validity windows (pure decisions and the built-in authority, without a server)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from praxis.authority import guard
from praxis.authority.principals import (
    EVIDENCE_TTL_MS,
    Grant,
    PrincipalRecord,
    PrincipalsAuthority,
    parse_principals,
)
from praxis.core import authorization as authz
from praxis.core import definition as definitions
from praxis.core import registry, values
from praxis.core.records import (
    ApprovalEvidence,
    ApprovalRecord,
    Epochs,
    Principal,
    PrincipalKind,
)
from praxis.core.rejection import Rejection, not_found

NOW = 1_800_000_000_000
BOB = Principal("bob", PrincipalKind.HUMAN)


def authority(*grants: Grant, expires_at_ms: int = 0) -> PrincipalsAuthority:
    return PrincipalsAuthority([PrincipalRecord(BOB, "0" * 64, grants, expires_at_ms)])


def reason(found: object) -> str:
    return found.reason if isinstance(found, Rejection) else "OK"


def test_a_grant_with_purposes_applies_only_to_those_purposes() -> None:
    paying = authority(Grant(("wait.*",), ("*",), purposes=("payments",)))
    assert reason(paying.authorize(BOB, "wait.satisfy", "wo", NOW, "payments")) == "OK"
    refused = paying.authorize(BOB, "wait.satisfy", "wo", NOW, "travel")
    assert reason(refused) == "PURPOSE_NOT_GRANTED"
    assert isinstance(refused, Rejection) and dict(refused.metadata) == {"purpose": "travel"}
    assert reason(paying.authorize(BOB, "wait.satisfy", "wo", NOW)) == "PURPOSE_NOT_GRANTED"
    assert reason(paying.authorize(BOB, "run.read", "wo", NOW)) == "ACTION_NOT_GRANTED"
    # A grant without purposes covers every purpose, and none.
    anything = authority(Grant(("wait.*",), ("*",)))
    for purpose in ("", "payments", "travel"):
        assert reason(anything.authorize(BOB, "wait.satisfy", "wo", NOW, purpose)) == "OK"


def test_a_grant_applies_only_within_its_window_and_evidence_ends_with_it() -> None:
    windowed = authority(Grant(("*",), ("*",), not_before_ms=NOW, not_after_ms=NOW + 10_000))
    early = windowed.authorize(BOB, "run.start", "wo", NOW - 1)
    assert reason(early) == "GRANT_OUTSIDE_WINDOW"
    assert isinstance(early, Rejection)
    assert dict(early.metadata) == {"not_before_ms": str(NOW), "not_after_ms": str(NOW + 10_000)}
    evidence = windowed.authorize(BOB, "run.start", "wo", NOW)
    assert not isinstance(evidence, Rejection)
    assert evidence.expires_at_ms == NOW + 10_000  # not NOW + EVIDENCE_TTL_MS
    assert reason(windowed.authorize(BOB, "run.start", "wo", NOW + 10_000)) == (
        "GRANT_OUTSIDE_WINDOW"
    )
    # An open window, and another grant in its window, apply.
    opened = authority(Grant(("*",), ("*",), not_before_ms=NOW))
    found = opened.authorize(BOB, "run.start", "wo", NOW + 10**9)
    assert not isinstance(found, Rejection)
    assert found.expires_at_ms == NOW + 10**9 + EVIDENCE_TTL_MS
    both = authority(
        Grant(("*",), ("*",), not_after_ms=NOW), Grant(("run.*",), ("*",), not_before_ms=NOW)
    )
    assert reason(both.authorize(BOB, "run.start", "wo", NOW)) == "OK"


def test_an_approval_is_verified_for_its_purpose_within_the_approvers_window() -> None:
    record = ApprovalRecord(
        "ap", "sha256:" + "1" * 64, "bob", "sha256:" + "2" * 64, NOW, NOW + 60_000
    )
    limited = authority(
        Grant(("approval.create",), ("*",), purposes=("payments",), not_after_ms=NOW + 5_000)
    )
    assert reason(limited.verify_approval(record, "wo", NOW)) == "PURPOSE_NOT_GRANTED"
    paying = replace(record, purpose="payments")
    evidence = limited.verify_approval(paying, "wo", NOW)
    assert isinstance(evidence, ApprovalEvidence)
    assert (evidence.purpose, evidence.expires_at_ms) == ("payments", NOW + 5_000)
    assert reason(limited.verify_approval(paying, "wo", NOW + 5_000)) == "GRANT_OUTSIDE_WINDOW"


def test_the_registry_rule_requires_the_consuming_actions_purpose() -> None:
    digest = "sha256:" + "1" * 64
    record = ApprovalRecord("ap", digest, "bob", "p", NOW, NOW + 60_000, "payments")
    evidence = ApprovalEvidence(
        "ap", "bob", PrincipalKind.HUMAN, digest, "p", NOW + 30_000, "payments"
    )
    state = registry.State(Epochs("i", 1, 1), None, None, record, False)
    assert registry.check_approval(state, evidence, digest, NOW, "payments") is None
    assert reason(registry.check_approval(state, evidence, digest, NOW)) == (
        "APPROVAL_PURPOSE_MISMATCH"
    )
    # The authority's evidence must carry the stored approval's purpose.
    other = replace(evidence, purpose="")
    assert reason(registry.check_approval(state, other, digest, NOW, "payments")) == (
        "EVIDENCE_INVALID"
    )


def test_purpose_and_window_refusals_do_not_reveal_a_subject() -> None:
    missing = not_found("RUN_NOT_FOUND", "no run")
    for grant in (
        Grant(("run.*",), ("wo-a*",), purposes=("payments",)),
        Grant(("run.*",), ("wo-a*",), not_after_ms=NOW),
    ):
        bob = authority(grant)
        absent = guard.authorize_subject(bob, BOB, "run.read", None, NOW, missing)
        present = guard.authorize_subject(bob, BOB, "run.read", "wo-a1", NOW, missing)
        assert absent == present == guard.hidden("run.read")


def test_the_principals_file_carries_purposes_and_windows() -> None:
    entry = {"id": "bob", "kind": "HUMAN", "token_sha256": "0" * 64}
    grant = {"actions": ["*"], "purposes": ["payments"], "not_before_ms": 5, "not_after_ms": 9}
    [parsed] = parse_principals({"version": 1, "principals": [{**entry, "grants": [grant]}]})
    assert parsed.grants[0] == Grant(("*",), ("*",), None, ("payments",), 5, 9)
    for bad in (
        {"actions": ["*"], "purposes": ["not one"]},
        {"actions": ["*"], "purposes": "payments"},
        {"actions": ["*"], "not_before_ms": 9, "not_after_ms": 9},
        {"actions": ["*"], "not_after_ms": -1},
        {"actions": ["*"], "not_before_ms": True},
    ):
        with pytest.raises(ValueError):
            parse_principals({"version": 1, "principals": [{**entry, "grants": [bad]}]})


SCHEMA = {"type": "object", "properties": {"items": {"type": "array"}}}


def wait(kind: str = "authorization", **extra: object) -> dict[str, object]:
    block = {"expires_in_ms": 1_000, "schema": SCHEMA, "on_expiry": "fail", **extra}
    return {"kind": kind, "wait": block}


def parse(**nodes: dict[str, object]) -> definitions.Definition | Rejection:
    output = next(iter(reversed(nodes)))
    return definitions.parse(
        {"version": 1, "nodes": nodes, "output": {"from": f"node:{output}"}}, frozenset({"echo"})
    )


def agent(source: object, *deps: str, **extra: object) -> dict[str, object]:
    out = {"type": "json", "schema": {"type": "object"}}
    body = {"agent": {"model": "echo", "output": out}, "input": {"from": source}, **extra}
    return body | ({"depends_on": list(deps)} if deps else {})


def test_only_an_authorization_wait_declares_a_purpose() -> None:
    plain = parse(ask=wait())
    declared = parse(ask=wait(purpose="payments"))
    assert isinstance(plain, definitions.Definition)
    assert isinstance(declared, definitions.Definition)
    assert declared.nodes["ask"].wait.purpose == "payments"  # type: ignore[union-attr]
    # Declared, the purpose is part of the node's digest; undeclared, the digest is the
    # one written before purposes existed.
    assert plain.nodes["ask"].spec_digest != declared.nodes["ask"].spec_digest
    before = {
        "kind": "authorization",
        "source": {"kind": "none", "nodes": []},
        "template": "",
        "depends_on": [],
        "wait": [1_000, SCHEMA, "fail", None],
    }
    assert plain.nodes["ask"].spec_digest == values.digest(before)
    for bad in (wait("human_input", purpose="payments"), wait(purpose="not one"), wait(purpose=7)):
        found = parse(ask=bad)
        assert isinstance(found, Rejection) and found.reason == "DEFINITION_INVALID"


def test_the_authorised_actions_are_the_direct_agent_dependents() -> None:
    found = parse(
        ask=wait(),
        later=wait("human_input"),
        fan={"agent": {"model": "echo", "output": {"type": "json", "schema": SCHEMA}},
             "input": {"from": "fanout_item"},
             "depends_on": ["ask"], "fanout": {"over": "node:ask.items"}},
        use=agent(["node:ask", "node:later"], "ask", "later"),
        after=agent("node:use", "use"),
        out=agent(["node:fan", "node:after"], "fan", "after"),
    )  # fmt: skip
    assert isinstance(found, definitions.Definition), found
    assert [n.node_id for n in authz.authorised(found, "ask")] == ["fan", "use"]


def test_the_authorised_actions_do_not_follow_the_definitions_text_order() -> None:
    # A definition as submitted and as stored (canonical JSON, keys sorted) order their
    # nodes differently: every process must compute the same material from either.
    submitted = parse(ask=wait(), zeta=agent("node:ask", "ask"), alpha=agent("node:ask", "ask"),
                      out=agent(["node:zeta", "node:alpha"], "zeta", "alpha"))  # fmt: skip
    assert isinstance(submitted, definitions.Definition), submitted
    assert list(submitted.nodes)[:3] == ["ask", "zeta", "alpha"]
    assert [n.node_id for n in authz.authorised(submitted, "ask")] == ["alpha", "zeta"]


def test_the_material_digest_covers_every_field() -> None:
    action = authz.Action("use", "echo", "op_1", "sha256:s", "sha256:i", False)
    material = authz.Material(
        Epochs("inst", 1, 1), "wo", "run", "wait_1", "ask", NOW, "", "sha256:p", (action,)
    )
    changes = [
        {"epochs": Epochs("inst", 1, 2)},
        {"work_order_id": "wo-2"},
        {"run_id": "run-2"},
        {"wait_id": "wait_2"},
        {"node_uid": "ask2"},
        {"expires_at_ms": NOW + 1},
        {"purpose": "payments"},
        {"payload_digest": "sha256:q"},
        {"actions": ()},
        {"actions": (replace(action, input_digest=""),)},
        {"actions": (replace(action, spec_digest="sha256:t"),)},
        {"actions": (replace(action, operation_id="op_2"),)},
        {"actions": (replace(action, model="other"),)},
        {"actions": (replace(action, fanout=True),)},
    ]
    digests = {replace(material, **change).digest() for change in changes}  # type: ignore[arg-type]
    assert len(digests | {material.digest()}) == len(changes) + 1
    assert material.document()["action"] == "AUTHORIZE"
