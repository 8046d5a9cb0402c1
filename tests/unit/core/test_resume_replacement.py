"""Re-approval and agent replacement in the pure core (issue 37, items 3 and 8): which
nodes a resume must have approved again, the node-level diff onto a head, the conflicts
that refuse it, and a resume onto the head replayed from the run's log."""

from __future__ import annotations

import json
from typing import Any

from praxis.core import definition as d
from praxis.core import journal
from praxis.core import resume as resumes
from praxis.core import run as core
from praxis.core.records import Epochs
from praxis.core.rejection import Rejection
from praxis.core.run import replace as replace_run
from tests.support.run_sim import Sim
from tests.support.runtime import definition, json_out, node

ARRAY = {"type": "object", "properties": {"items": {"type": "array"}}}
ONCE = {"attempts": 1}


def chain() -> dict[str, Any]:
    return definition(
        "c",
        a=node(output=json_out(), retry=ONCE),
        b=node("node:a", ("a",), json_out(), retry=ONCE),
        c=node("node:b", ("b",), retry=ONCE),
    )


def parsed(document: dict[str, Any]) -> d.Definition:
    found = d.parse(document, None)
    assert isinstance(found, d.Definition), found
    return found


def edited(document: dict[str, Any], node_id: str, **agent: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(document))
    copy["nodes"][node_id]["agent"].update(agent)
    return copy


def failed_at_b(effect: core.Effect = core.Effect.NOT_APPLIED) -> Sim:
    sim = Sim(chain())
    sim.complete("a", {"n": 1})
    attempt = sim.dispatch("b")
    sim.ok(core.Fail(attempt, "w", "boom", False, effect))
    assert sim.state.status is core.RunStatus.FAILED
    return sim


def test_an_applied_or_authorised_node_needs_an_approval_of_its_exact_action() -> None:
    applied = resumes.again(failed_at_b(core.Effect.APPLIED).state, inputs={"b": "sha256:x"})
    assert [(n.node_uid, n.needs_approval, n.applied, n.input_digest) for n in applied] == [
        ("b", True, True, "sha256:x"),
        ("c", False, False, ""),  # cancelled when b failed; never ran
    ]
    plain = failed_at_b().state
    assert [n.needs_approval for n in resumes.again(plain)] == [False, False]
    authorised = resumes.again(plain, frozenset({"b"}), {"b": "sha256:y"})
    assert [(n.authorized, n.needs_approval, n.new_operation) for n in authorised] == [
        (True, True, False),  # not applied: the same operation, approved again all the same
        (False, False, False),
    ]


def test_the_material_covers_the_actions_to_approve_again_and_keeps_old_digests() -> None:
    state = failed_at_b(core.Effect.APPLIED).state
    base: dict[str, Any] = {
        "epochs": Epochs("inst", 1, 1),
        "work_order_id": "default",
        "ref_run_id": "",
        "run_id": state.run_id,
        "run_version": state.version,
        "revision": 0,
        "definition_digest": state.definition.digest,
        "reason": "again",
        "run_timeout_ms": 0,
    }
    plain = resumes.Material(nodes=tuple(resumes.again(failed_at_b().state)), **base)
    assert "reapprove" not in plain.document() and "to_revision" not in plain.document()
    one = resumes.Material(nodes=tuple(resumes.again(state, inputs={"b": "sha256:1"})), **base)
    two = resumes.Material(nodes=tuple(resumes.again(state, inputs={"b": "sha256:2"})), **base)
    assert one.document()["reapprove"] == [
        {
            "node_uid": "b",
            "operation_id": one.nodes[0].operation_id,
            "input_digest": "sha256:1",
            "applied": True,
            "authorized": False,
        }
    ]
    assert one.digest() != two.digest()  # another input is another action


def test_a_head_that_changes_only_the_failed_and_unrun_nodes_is_a_replacement() -> None:
    sim = failed_at_b()
    head = parsed(edited(edited(chain(), "b", system_prompt="fixed"), "c", system_prompt="too"))
    assert replace_run.conflicts(sim.state, head) is None
    changes = replace_run.changes(sim.state, head)
    assert [(c.node_id, c.status) for c in changes] == [
        ("b", core.NodeStatus.FAILED),
        ("c", core.NodeStatus.CANCELLED),
    ]
    assert changes[0].new_document["agent"]["system_prompt"] == "fixed"
    operation = sim.state.nodes["b"].operation
    sim.ok(core.Resume("fix b", "alice", 0, head, 2))
    state = sim.state
    assert (state.status, state.revision, state.definition.digest) == (
        core.RunStatus.RUNNING,
        2,
        head.digest,
    )
    assert state.nodes["a"].status is core.NodeStatus.DONE and state.nodes["a"].revision == 0
    assert state.nodes["b"].operation == operation + 1  # a new operation id
    assert state.nodes["b"].revision == 2 and sim.ready() == ["b"]
    resumed = [e for e in sim.events if e.kind == "RUN_RESUMED"][-1]
    assert resumed.payload["revision"] == 2 and resumed.payload["replaced"] == ["b", "c"]


def test_conflicts_name_every_done_node_and_shape_change() -> None:
    sim = failed_at_b()
    changed = edited(chain(), "a", system_prompt="again")  # a is DONE
    changed["nodes"]["d"] = node("node:a", ("a",))  # a new node
    changed["nodes"]["c"]["depends_on"] = ["a", "b"]  # rewired
    changed["nodes"]["c"]["input"] = {"from": ["node:a", "node:b"]}
    refused = replace_run.conflicts(sim.state, parsed(changed))
    assert isinstance(refused, Rejection) and refused.reason == "REPLACEMENT_CONFLICT"
    assert [v.field for v in refused.violations] == ["nodes.a", "nodes.c", "nodes.d"]
    assert isinstance(sim.apply(core.Resume("x", "alice", 0, parsed(changed), 2)), Rejection)
    assert sim.state.status is core.RunStatus.FAILED  # nothing changed
    removed = json.loads(json.dumps(chain()))
    del removed["nodes"]["c"]
    removed["output"] = {"from": "node:b"}
    found = replace_run.conflicts(sim.state, parsed(removed))
    assert found is not None and [v.field for v in found.violations] == ["nodes.c", "output"]


def test_a_fanout_with_a_done_item_cannot_be_replaced() -> None:
    document = definition(
        "m",
        a=node(output=json_out(ARRAY)),
        m=node("fanout_item", ("a",), json_out(), fanout={"over": "node:a.items"}, retry=ONCE),
    )
    sim = Sim(document)
    sim.complete("a", {"items": [1, 2]})
    sim.complete("m#0")
    attempt = sim.dispatch("m#1")
    sim.ok(core.Fail(attempt, "w", "boom", False, core.Effect.NOT_APPLIED))
    assert sim.state.status is core.RunStatus.FAILED
    refused = replace_run.conflicts(sim.state, parsed(edited(document, "m", system_prompt="x")))
    assert refused is not None and [v.field for v in refused.violations] == ["nodes.m"]


def test_a_resume_onto_the_head_replays_from_the_log() -> None:
    sim = failed_at_b()
    head = parsed(edited(chain(), "b", system_prompt="fixed"))
    command = core.Resume("fix b", "alice", 0, head, 2)
    encoded = journal.encode(command)
    assert encoded["definition"] == head.digest and encoded["revision"] == 2
    assert journal.decode(encoded, {head.digest: head}) == command
    plain = journal.encode(core.Resume("again", "bob"))
    assert plain == {"kind": "Resume", "reason": "again", "by": "bob", "deadline_ms": 0}
    assert journal.decode(plain, {}) == core.Resume("again", "bob")
    sim.ok(command)
