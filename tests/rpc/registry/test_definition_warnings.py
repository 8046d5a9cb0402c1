"""RegisterRef, Propose and StartRun answer a warning, never an error, naming the agent
nodes that declare no ``effects`` (Praxis treats them as external: UNCERTAIN, not retried)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from aiws.engine.v1 import common_pb2, registry_pb2, run_pb2
from tests.support.harness import Harness
from tests.support.registry import (
    activate_cmd,
    approve,
    execute,
    propose_cmd,
    ref,
    register_cmd,
    reject_cmd,
)
from tests.support.runtime import definition, json_out, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres")

EFFECTS_UNDECLARED = common_pb2.DEFINITION_WARNING_KIND_EFFECTS_UNDECLARED
WAIT = {"kind": "human_input", "wait": {"expires_in_ms": 60_000, "on_expiry": "fail"}}


def mixed() -> dict[str, Any]:
    """z and a declare nothing; b declares none; the wait node has no effects to declare."""
    return definition(
        "a",
        z=node(output=json_out()),
        b={**node(output=json_out()), "effects": "none"},
        ask={**WAIT, "depends_on": ["z"]},
        a=node(["node:z", "node:b"], ("z", "b")),
    )


def declared() -> dict[str, Any]:
    document = mixed()
    for node_id in ("z", "a"):
        document["nodes"][node_id]["effects"] = "external"
    return document


def only(warnings: Any) -> common_pb2.DefinitionWarning:
    [warning] = warnings
    assert warning.kind == EFFECTS_UNDECLARED
    return warning  # type: ignore[no-any-return]


def test_start_run_warns_of_undeclared_effects_sorted(harness: Harness) -> None:
    response = start(harness, mixed(), request_id="warn-1")
    assert response.created and response.run.state == run_pb2.RUN_STATE_RUNNING
    warning = only(response.warnings)
    assert list(warning.node_ids) == ["a", "z"] and warning.node_count == 2
    assert "a, z" in warning.message
    again = start(harness, mixed(), request_id="warn-1")
    assert not again.created and list(again.warnings) == list(response.warnings)


def test_a_definition_that_declares_every_effect_warns_of_nothing(harness: Harness) -> None:
    assert list(start(harness, declared()).warnings) == []


def test_a_wide_definition_lists_the_first_hundred_nodes_and_counts_all(harness: Harness) -> None:
    nodes = {f"n{i:03d}": node() for i in range(150)}
    response = start(harness, definition("n000", **nodes))
    warning = only(response.warnings)
    assert warning.node_count == 150 and len(warning.node_ids) == 100
    assert warning.node_ids[0] == "n000" and warning.node_ids[-1] == "n099"


def test_register_propose_and_their_reviews_warn_activate_and_reject_do_not(
    harness: Harness,
) -> None:
    r = ref("wo-warn", "plan")
    register = register_cmd(r, "ap-reg", mixed())
    review = harness.client("alice").registry.Review(
        registry_pb2.ReviewRequest(epochs=harness.epochs("wo-warn"), command=register)
    )
    assert list(only(review.warnings).node_ids) == ["a", "z"]
    approve(harness, register, "ap-reg")
    registered = execute(harness, "alice", "req-reg", register)
    assert list(only(registered.warnings).node_ids) == ["a", "z"]
    replayed = execute(harness, "alice", "req-reg", register)
    assert replayed.replayed and list(replayed.warnings) == list(registered.warnings)

    propose = propose_cmd(r, "p-1", 1, declared())
    assert list(execute(harness, "agent", "req-p1", propose).warnings) == []
    loud = propose_cmd(r, "p-2", 1, mixed() | {"output": {"from": "node:z"}})
    assert only(execute(harness, "agent", "req-p2", loud).warnings).node_count == 2

    activate = activate_cmd(r, "p-2", 1, "ap-act")
    reviewed = harness.client("alice").registry.Review(
        registry_pb2.ReviewRequest(epochs=harness.epochs("wo-warn"), command=activate)
    )
    assert only(reviewed.warnings).node_count == 2  # the reviewer sees the candidate's
    approve(harness, activate, "ap-act")
    assert list(execute(harness, "alice", "req-act", activate).warnings) == []
    reject = reject_cmd(r, "p-1", "not now", "ap-rej")
    rejected_review = harness.client("alice").registry.Review(
        registry_pb2.ReviewRequest(epochs=harness.epochs("wo-warn"), command=reject)
    )
    assert list(rejected_review.warnings) == []


def test_a_governed_start_warns_of_the_heads_nodes(harness: Harness) -> None:
    r = ref("wo-gov", "plan")
    register = register_cmd(r, "ap-gov", mixed())
    approve(harness, register, "ap-gov")
    execute(harness, "alice", "req-gov", register)
    response = harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=r, input_json=json.dumps("x"))
    )
    assert list(only(response.warnings).node_ids) == ["a", "z"]


def test_a_dry_run_start_answers_the_same_warnings(harness: Harness) -> None:
    response = start(harness, mixed(), request_id="warn-dry", dry_run=True)
    assert response.dry_run
    assert list(only(response.warnings).node_ids) == ["a", "z"]


def test_the_warnings_of_one_definition_are_built_once_per_process(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from praxis.core import definition as definitions
    from praxis.rpc import registry as rpc_registry

    monkeypatch.setattr(rpc_registry, "_WARNINGS", {})  # not what an earlier test left
    built: list[object] = []
    original = definitions.warnings

    def counted(document: Any) -> Any:
        built.append(document)
        return original(document)

    monkeypatch.setattr(definitions, "warnings", counted)
    answers = [start(harness, mixed(), request_id=f"once-{n}").warnings for n in range(3)]
    assert len(built) == 1  # each later StartRun of the definition answered what was built
    assert all(list(found) == list(answers[0]) for found in answers)
    assert list(only(answers[0]).node_ids) == ["a", "z"]
    r = ref("wo-once", "run-once")
    reviewed = approve(harness, register_cmd(r, "ap-once", mixed()), "ap-once")
    assert reviewed  # the Review of the same document answered the kept warnings too
    assert len(built) == 1
