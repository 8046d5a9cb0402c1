"""InboxService: what waits for a human, oldest first, filling and emptying."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import (
    admin_pb2,
    approval_pb2,
    common_pb2,
    principal_pb2,
    reconciliation_pb2,
    wait_pb2,
)
from aiws.engine.v1 import inbox_pb2 as pb
from praxis.core.run import operation_id
from praxis.store.registry.emits import RegistryWritten
from praxis_client import connect
from tests.support.execution import authorize_wait, fail_task, reconcile, start_run
from tests.support.harness import Harness, expect_error
from tests.support.registry import execute, propose_cmd, proposed, ref, registered, variant
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres")


SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def inbox(h: Harness, **fields: object) -> pb.ListInboxResponse:
    return h.client("alice").inbox.ListInbox(pb.ListInboxRequest(**fields))  # type: ignore[arg-type]


def counts(response: pb.ListInboxResponse) -> dict[str, int]:
    return {pb.InboxItemKind.Name(c.kind): c.count for c in response.counts if c.count}


def asking(kind: str) -> dict[str, object]:
    wait = {"expires_in_ms": 600_000, "schema": SCHEMA, "on_expiry": "fail"}
    return definition(
        "use", ask={"kind": kind, "wait": wait}, use=node("node:ask", ("ask",), json_out())
    )


def test_the_inbox_fills_oldest_first_and_empties(model: Harness) -> None:
    assert inbox(model).total == 0 and counts(inbox(model)) == {}
    registered(model, ref("wo-1"))
    proposed(model, ref("wo-1"), "p-1")
    model.clock.advance(1_000)
    human = start_run(model, asking("human_input"))
    model.clock.advance(1_000)
    authorization = start_run(model, asking("authorization"))
    model.clock.advance(1_000)
    model.client("alice").admin.PlaceHold(
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-9", reason="restored"
        )
    )
    model.clock.advance(1_000)
    effect = start_run(model, definition("a", a=node()))
    [task] = claim(model)
    fail_task(model, task, common_pb2.EFFECT_OUTCOME_UNCERTAIN)

    full = inbox(model)
    assert [pb.InboxItemKind.Name(i.kind) for i in full.items] == [
        "INBOX_ITEM_KIND_PROPOSAL",
        "INBOX_ITEM_KIND_HUMAN_INPUT",
        "INBOX_ITEM_KIND_AUTHORIZATION",
        "INBOX_ITEM_KIND_HOLD",
        "INBOX_ITEM_KIND_RECONCILIATION",
    ]
    assert [i.since_ms for i in full.items] == sorted(i.since_ms for i in full.items)
    assert full.total == 5 and set(counts(full).values()) == {1}
    proposal = full.items[0].proposal
    assert (proposal.proposal_id, proposal.definition_json) == ("p-1", "")
    assert full.items[0].work_order_id == "wo-1"
    assert full.items[1].wait.run_id == human.run_id
    assert full.items[2].run_id == authorization.run_id
    assert full.items[3].hold.work_order_id == "wo-9"
    assert full.items[4].reconciliation.attempt_id == task.attempt_id
    assert full.items[4].run_id == effect.run_id

    only = inbox(model, kinds=[pb.INBOX_ITEM_KIND_HOLD, pb.INBOX_ITEM_KIND_PROPOSAL])
    assert [i.item_id for i in only.items] == [full.items[0].item_id, full.items[3].item_id]
    assert only.total == 2 and sum(c.count for c in only.counts) == 5
    scoped = inbox(model, work_order_id="wo-1")
    assert [i.item_id for i in scoped.items] == [full.items[0].item_id]

    pages, token = [], ""
    while True:
        page = inbox(model, page_size=2, page_token=token)
        pages.append([i.item_id for i in page.items])
        token = page.next_page_token
        if not token:
            break
    assert pages == [[i.item_id for i in full.items[k : k + 2]] for k in (0, 2, 4)]

    model.client("alice").waits.SatisfyWait(
        wait_pb2.SatisfyWaitRequest(
            request_id="s1", wait_id=full.items[1].wait.wait_id, payload_json='{"ok": true}'
        )
    )
    model.client("alice").admin.ClearHold(
        admin_pb2.ClearHoldRequest(kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-9")
    )
    reconcile(
        model,
        task.attempt_id,
        reconciliation_pb2.RECONCILIATION_DECISION_NOT_APPLIED,
        {"checked": "log"},
        "ap-rec",
    )
    left = inbox(model)
    assert [pb.InboxItemKind.Name(i.kind) for i in left.items] == [
        "INBOX_ITEM_KIND_PROPOSAL",
        "INBOX_ITEM_KIND_AUTHORIZATION",
    ]


def test_an_authorization_names_the_action_it_authorises(model: Harness) -> None:
    run = start_run(model, asking("authorization"))
    [item] = inbox(model, kinds=[pb.INBOX_ITEM_KIND_AUTHORIZATION]).items
    [action] = item.wait.authorizes
    op = operation_id(run.run_id, "use")
    assert (action.node_uid, action.operation_id, action.model) == ("use", op, "echo")
    assert action.spec_digest.startswith("sha256:")
    assert action.input_digest == ""  # the input includes the payload not yet given
    assert item.summary.endswith(f": authorises use ({op})")
    # ReviewWait gives the input digest for a payload, and satisfying it empties the inbox.
    authorize_wait(model, item.wait.wait_id, {"ok": True}, "ap-inbox")
    assert inbox(model, kinds=[pb.INBOX_ITEM_KIND_AUTHORIZATION]).total == 0


def test_bad_requests_and_authorization(model: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        inbox(model, page_size=501)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        inbox(model, page_token="nonsense")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        inbox(model, kinds=[pb.INBOX_ITEM_KIND_UNSPECIFIED])
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"):
        inbox(model, kinds=[pb.INBOX_ITEM_KIND_HOLD] * 12)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "IDENTIFIER_INVALID"):
        inbox(model, work_order_id="a b")
    registered(model, ref("wo-1"))
    proposed(model, ref("wo-1"), "p-1")
    proposed(model, ref("wo-1"), "p-2")
    first = inbox(model, page_size=1)
    assert first.total == 2 and first.next_page_token, first
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):  # another query
        inbox(model, page_size=1, page_token=first.next_page_token, work_order_id="wo-1")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        model.client("agent").inbox.ListInbox(pb.ListInboxRequest())
    token = (
        model.client("alice")
        .principals.CreatePrincipal(
            principal_pb2.CreatePrincipalRequest(
                principal_id="triager",
                kind=common_pb2.PRINCIPAL_KIND_HUMAN,
                grants=[principal_pb2.Grant(actions=["inbox.read"], work_orders=["wo-a*"])],
            )
        )
        .token
    )
    with connect(model.address, token) as triager:
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            triager.inbox.ListInbox(pb.ListInboxRequest())
        with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
            triager.inbox.ListInbox(pb.ListInboxRequest(work_order_id="wo-1"))
        allowed = triager.inbox.ListInbox(pb.ListInboxRequest(work_order_id="wo-a1"))
        assert allowed.total == 0


def test_only_a_command_that_wrote_wakes_the_inbox(harness: Harness) -> None:
    """The registry's RegistryWritten (the inbox wake-up) is published once per committed
    command or new approval (an approval may enter the inbox, or renew one there); a
    replayed or refused command or approval wrote nothing and wakes nobody."""
    woken: list[int] = []
    reactions = harness.server.engine.reactions
    handlers = reactions.table[RegistryWritten]
    reactions.wire({RegistryWritten: (*handlers, lambda _event: woken.append(1))})
    r = registered(harness)
    assert len(woken) == 2  # the approval, then the REGISTER
    command = propose_cmd(r, "p-wake", 1, variant(2))
    execute(harness, "agent", "req-wake", command)
    assert len(woken) == 3
    execute(harness, "agent", "req-wake", command)  # the retry replays its receipt
    assert len(woken) == 3
    with expect_error(grpc.StatusCode.ABORTED, "BASE_REVISION_STALE"):
        execute(harness, "agent", "req-stale", propose_cmd(r, "p-stale", 7, variant(3)))
    assert len(woken) == 3
    approval = (
        harness.client("alice")
        .approvals.GetApproval(
            approval_pb2.GetApprovalRequest(approval_id=f"ap-reg-{r.work_order_id}-{r.run_id}")
        )
        .approval
    )
    again = approval_pb2.CreateApprovalRequest(
        approval_id=approval.approval_id,
        material_digest=approval.material_digest,
        expires_at_ms=approval.expires_at_ms,
    )
    assert harness.client("alice").approvals.CreateApproval(again).replayed
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DIGEST_INVALID"):
        harness.client("alice").approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-bad", material_digest="sha256:x", expires_at_ms=1
            )
        )
    assert len(woken) == 3
