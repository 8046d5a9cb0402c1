"""`praxis runs resume` against a real server: an ad hoc run resumes at once; a governed
run shows the material a human approves, then resumes with its digest (issue 23)."""

from __future__ import annotations

import json

from tests.support.cli_shell import POLICY, V1, Shell, digest_of


def _stopped(shell: Shell, *start: str) -> str:
    run_id = str(shell.ok("runs", "start", *start, "--json").json()["run"]["run_id"])
    shell.ok("runs", "stop", run_id, "--reason", "operator halt")
    return run_id


def test_an_ad_hoc_run_resumes_with_a_reason(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    run_id = _stopped(shell, "-f", "v1.json")
    resumed = shell.ok("runs", "resume", run_id, "--reason", "halt lifted")
    assert f"resumed run {run_id}" in resumed.out, resumed.out
    shown = shell.ok("runs", "show", run_id, "--json").json()
    assert shown["run"]["state"] in ("RUN_STATE_RUNNING", "RUN_STATE_AWAITING_NODES"), shown
    refused = shell.run("runs", "resume", run_id, "--reason", "again")
    assert refused.error_line().startswith("error: RUN_NOT_RESUMABLE: "), refused.err


def test_a_governed_run_resumes_only_with_an_approval_of_its_material(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    run_id = _stopped(shell, "--ref", "wo-1/run-1")
    review = shell.ok("runs", "resume", run_id, "--reason", "restart")
    assert "runs again" in review.out and "material digest: sha256:" in review.out, review.out
    digest = digest_of(review.out)
    resumed = shell.ok("runs", "resume", run_id, "--reason", "restart", "--digest", digest)
    assert f"resumed run {run_id}" in resumed.out, resumed.out
    again = shell.run("runs", "start", "--ref", "wo-1/run-1")
    assert again.error_line().startswith("error: REF_ALREADY_RUN: "), again.err
    assert run_id in again.error_line()
