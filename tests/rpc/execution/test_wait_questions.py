"""What a person reads to decide (issue 38): a human_input wait's question and choices
over every read, the inbox row that shows the question, the input an authorization
wait's reviewed actions will carry, and the base a decided proposal was made against."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import inbox_pb2, registry_pb2
from aiws.engine.v1 import wait_pb2 as pb
from praxis.core import values
from tests.support.execution import review_wait, satisfy_wait, start_run
from tests.support.harness import Harness, expect_error
from tests.support.registry import (
    DEFINITION,
    DEFINITION_V2,
    activate_cmd,
    approve,
    execute,
    proposed,
    registered,
    reject_cmd,
    variant,
)
from tests.support.runtime import definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")

QUESTION = 'Ship the <b>draft</b> to "Acme"?\n\nIt is 3 pages — café & co.'
HOUR = 3_600_000


def asking(question: str = QUESTION, **wait: Any) -> dict[str, Any]:
    block = {"expires_in_ms": HOUR, "on_expiry": "fail", "question": question, **wait}
    return definition(
        "use",
        ask={"kind": "human_input", "wait": block},
        use=node("node:ask", ("ask",), json_out({"type": "string"})),
    )


def the_wait(h: Harness, run_id: str) -> pb.Wait:
    [wait, *_] = h.client("alice").waits.ListWaits(pb.ListWaitsRequest(run_id=run_id)).waits
    return wait


def test_the_question_and_choices_travel_and_the_inbox_shows_the_question(
    model: Harness,
) -> None:
    run = start_run(model, asking(choices=["ship", "hold"]))
    wait = the_wait(model, run.run_id)
    assert (wait.question, list(wait.choices)) == (QUESTION, ["ship", "hold"])
    assert json.loads(wait.schema_json) == {"type": "string", "enum": ["ship", "hold"]}
    got = model.client("alice").waits.GetWait(pb.GetWaitRequest(wait_id=wait.wait_id)).wait
    assert got == wait
    inbox = model.client("alice").inbox.ListInbox(
        inbox_pb2.ListInboxRequest(kinds=[inbox_pb2.INBOX_ITEM_KIND_HUMAN_INPUT])
    )
    [item] = [i for i in inbox.items if i.run_id == run.run_id]
    assert item.summary == " ".join(QUESTION.split())  # one line
    assert item.wait.question == QUESTION
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WAIT_PAYLOAD_INVALID"):
        satisfy_wait(model, wait.wait_id, "maybe", principal="alice")
    assert the_wait(model, run.run_id).state == pb.WAIT_STATE_PENDING  # nothing stored
    done = satisfy_wait(model, wait.wait_id, "hold", principal="alice").wait
    assert (done.state, done.payload_json) == (pb.WAIT_STATE_SATISFIED, '"hold"')


def test_a_long_question_is_cut_in_the_inbox_summary_only(model: Harness) -> None:
    question = "word " * 100
    run = start_run(model, asking(question=question, schema={"type": "string"}))
    inbox = model.client("alice").inbox.ListInbox(
        inbox_pb2.ListInboxRequest(kinds=[inbox_pb2.INBOX_ITEM_KIND_HUMAN_INPUT])
    )
    [item] = [i for i in inbox.items if i.run_id == run.run_id]
    assert len(item.summary) == 200 and item.summary.endswith("…")
    assert item.wait.question == question


def test_a_reviewed_action_carries_the_input_its_digest_covers(model: Harness) -> None:
    gated = definition(
        "charge",
        ask={
            "kind": "authorization",
            "wait": {"expires_in_ms": HOUR, "schema": {"type": "object"}, "on_expiry": "fail"},
        },
        charge=node("node:ask", ("ask",), json_out(), model="echo"),
    )
    run = start_run(model, gated)
    wait = the_wait(model, run.run_id)
    assert [a.input_json for a in wait.authorizes] == [""]  # not known before a payload
    payload = {"amount": "12.50", "to": "Acme <billing>"}
    [action] = review_wait(model, wait.wait_id, payload).material.actions
    assert json.loads(action.input_json) == payload
    assert action.input_digest == values.digest(payload)
    assert action.input_digest == values.digest(json.loads(action.input_json))


def proposal(h: Harness, r: Any, proposal_id: str) -> registry_pb2.Proposal:
    request = registry_pb2.GetProposalRequest(ref=r, proposal_id=proposal_id)
    return h.client("alice").registry.GetProposal(request).proposal


def test_a_decided_proposal_keeps_the_base_it_was_made_against(model: Harness) -> None:
    r = registered(model)
    proposed(model, r, "first")
    proposed(model, r, "rival", definition=variant("rival"))
    assert json.loads(proposal(model, r, "first").base_definition_json) == DEFINITION
    command = activate_cmd(r, "first", 1, "ap-act")
    approve(model, command, "ap-act")
    execute(model, "alice", "req-act", command)
    activated = proposal(model, r, "first")
    assert activated.state == registry_pb2.PROPOSAL_STATE_ACTIVATED
    assert json.loads(activated.base_definition_json) == DEFINITION
    assert json.loads(activated.definition_json) == DEFINITION_V2
    rival = proposal(model, r, "rival")  # superseded: its base is no longer the head
    assert rival.state == registry_pb2.PROPOSAL_STATE_PENDING
    assert json.loads(rival.base_definition_json) == DEFINITION
    command = reject_cmd(r, "rival", "superseded by first", "ap-rej")
    approve(model, command, "ap-rej")
    execute(model, "alice", "req-rej", command)
    rejected = proposal(model, r, "rival")
    assert rejected.state == registry_pb2.PROPOSAL_STATE_REJECTED
    assert json.loads(rejected.base_definition_json) == DEFINITION
    proposed(model, r, "second", base=2, definition=variant("second"))
    assert json.loads(proposal(model, r, "second").base_definition_json) == DEFINITION_V2
