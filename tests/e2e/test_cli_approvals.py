"""``praxis approvals renew`` settles an inbox item of kind APPROVAL_EXPIRING: it shows
what the approval approves and approves it again with a new expiry, against a real
server."""

from __future__ import annotations

import json
import time

from aiws.engine.v1 import approval_pb2
from praxis_client import connect
from tests.support.cli_shell import POLICY, V1, Shell, digest_of
from tests.support.harness import token_of

MATERIAL = "sha256:" + "ab" * 32


def test_an_expiring_approval_is_renewed_from_the_cli(shell: Shell) -> None:
    with connect(shell.address, token_of("alice")) as alice:
        alice.approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id="ap-1", material_digest=MATERIAL, purpose="payments",
                expires_at_ms=int(time.time() * 1000) + 1_800_000,
            )
        )  # fmt: skip
    shown = shell.ok("inbox").out
    assert "1 waiting" in shown and "APPROVAL_EXPIRING" in shown
    assert "praxis approvals renew ap-1" in shown

    renewed = shell.ok("approvals", "renew", "ap-1", "--expires", "2d").out
    assert MATERIAL in renewed and "payments" in renewed and "ACTIVE" in renewed
    renewal_id = renewed.rsplit("renewed as ", 1)[1].split()[0]
    assert renewal_id.startswith("ap-renew-")
    assert "0 waiting" in shell.ok("inbox").out
    again = shell.ok("approvals", "renew", "ap-1", "--json").json()  # a retry replays
    assert again["replayed"] and again["approval"]["approval_id"] == renewal_id
    assert again["renewed"]["approval_id"] == "ap-1"
    renewal = shell.ok("approvals", "show", renewal_id, "--json").json()
    assert (renewal["material_digest"], renewal["purpose"]) == (MATERIAL, "payments")
    assert renewal["approver_id"] == "alice" and renewal["state"] == "APPROVAL_STATE_ACTIVE"
    assert renewal["expires_at_ms"] > time.time() * 1000 + 47 * 3_600_000

    named = shell.ok("approvals", "renew", "ap-1", "--approval-id", "ap-2", "--json").json()
    assert named["approval"]["approval_id"] == "ap-2" and not named["replayed"]
    retried = shell.ok("approvals", "renew", "ap-1", "--approval-id", "ap-2", "--json").json()
    assert retried["approval"] == named["approval"] and retried["replayed"]  # not a conflict
    too_late = shell.run("approvals", "renew", "ap-1", "--approval-id", "ap-3", "--expires", "8d")
    assert too_late.code == 2 and too_late.error_line().startswith("error: TIME_INVALID: ")
    missing = shell.run("approvals", "renew", "ap-none")
    assert missing.code == 3 and missing.error_line().startswith("error: APPROVAL_NOT_FOUND: ")
    agent = shell.run("approvals", "renew", "ap-1", "--approval-id", "ap-4", who="agent")
    assert agent.code == 4, agent  # only a human approves


def test_a_used_approval_is_not_renewed(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    shown = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    registered = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY,
                          "--digest", digest_of(shown.out), "--json").json()  # fmt: skip
    used = registered["receipt"]["approval_id"]
    refused = shell.run("approvals", "renew", used)
    assert refused.code == 5 and refused.error_line().startswith("error: APPROVAL_CONSUMED: ")
