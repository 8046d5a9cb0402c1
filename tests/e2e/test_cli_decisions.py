"""Registry decisions from the shell against a real server: the request ids the CLI
derives name the decision, so two decisions never collide and an error names what
really went wrong (issue 25)."""

from __future__ import annotations

import json
import re

from tests.support.cli_shell import POLICY, V1, V2, Shell, digest_of


def _approve(shell: Shell, ref: str, proposal: str, *extra: str) -> str:
    digest = digest_of(shell.ok("review", ref, proposal, *extra).out)
    approved = shell.ok("approve", ref, proposal, "--digest", digest, *extra, "--json").json()
    return str(approved["approval_id"])


def _registered_with_a_proposal(shell: Shell, ref: str, *propose: str) -> None:
    register = ("register", ref, "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    shell.ok("propose", ref, "p-1", "-f", "v2.json", *propose, who="agent")


def test_the_same_proposal_id_is_proposed_in_two_refs(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    for ref in ("wo-1/run-1", "wo-2/run-1"):  # no request id derived from p-1 alone
        _registered_with_a_proposal(shell, ref)
    inbox = shell.ok("inbox", "--json").json()["items"]
    assert sorted(i["proposal"]["ref"]["work_order_id"] for i in inbox) == ["wo-1", "wo-2"]
    retried = shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", who="agent")
    assert re.search(r"replayed:\s+yes", retried.out), retried.out


def test_deciding_under_another_decisions_approval_names_the_approval(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    for ref in ("wo-1/run-1", "wo-2/run-1"):  # the same proposal id in two refs
        _registered_with_a_proposal(shell, ref, "--request-id", ref.replace("/", "."))
    first = _approve(shell, "wo-1/run-1", "p-1", "--reject", "not now")
    shell.ok("reject", "wo-1/run-1", "p-1", "--reason", "not now", "--approval", first)
    retried = shell.ok("reject", "wo-1/run-1", "p-1", "--reason", "not now", "--approval", first)
    assert re.search(r"replayed:\s+yes", retried.out), retried.out  # a retry still replays

    # The approval of wo-1's rejection, used to reject wo-2's p-1: the error is about the
    # approval, not a request id the CLI made up.
    other = shell.run("reject", "wo-2/run-1", "p-1", "--reason", "not now", "--approval", first)
    assert other.code == 5, other
    line = other.error_line()
    assert "REQUEST_ID_REUSED" not in line, line
    assert line.startswith(f"error: APPROVAL_CONSUMED: approval {first} was already used"), line
    assert "praxis review wo-2/run-1 p-1 --reject" in line, line
    # The same proposal, another reason: the proposal is no longer pending.
    reason = shell.run("reject", "wo-1/run-1", "p-1", "--reason", "never", "--approval", first)
    assert reason.code == 5, reason
    assert reason.error_line().startswith("error: PROPOSAL_NOT_PENDING: "), reason.err
    # An approval of wo-2's activation, used to reject it: a mismatch, said as one.
    activation = _approve(shell, "wo-2/run-1", "p-1")
    mismatch = shell.run("reject", "wo-2/run-1", "p-1", "--reason", "no", "--approval", activation)
    assert mismatch.code == 5
    line = mismatch.error_line()
    assert line.startswith(f"error: APPROVAL_MISMATCH: approval {activation} approves"), line
    assert 'praxis review wo-2/run-1 p-1 --reject "no"' in line, line


def test_a_reused_request_id_says_what_to_do(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    _registered_with_a_proposal(shell, "wo-1/run-1")
    approval = _approve(shell, "wo-1/run-1", "p-1", "--reject", "not now")
    shell.ok("reject", "wo-1/run-1", "p-1", "--reason", "not now", "--approval", approval,
             "--request-id", "mine")  # fmt: skip
    activation = shell.run("activate", "wo-1/run-1", "p-1", "--approval", approval,
                           "--request-id", "mine")  # fmt: skip
    assert activation.code == 5
    line = activation.error_line()
    assert line.startswith("error: REQUEST_ID_REUSED: "), line
    assert "--request-id 'mine'" in line and "different command" in line, line


def test_a_decision_is_dry_run_then_made(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    proposed = shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", "--dry-run", who="agent")
    assert "dry run: would commit" in proposed.out, proposed.out
    assert not shell.ok("inbox", "--json").json().get("items")  # nothing was proposed
    shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", who="agent")
    approval = _approve(shell, "wo-1/run-1", "p-1")
    tried = shell.ok("activate", "wo-1/run-1", "p-1", "--approval", approval, "--dry-run", "--json")
    assert tried.json()["dry_run"] is True and tried.json()["receipt"]["head_revision"] == 2
    made = shell.ok("activate", "wo-1/run-1", "p-1", "--approval", approval)  # not consumed
    assert re.search(r"committed:\s+ACTIVATE", made.out) and "replayed:   no" in made.out, made.out
