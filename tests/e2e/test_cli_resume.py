"""`praxis runs resume` against a real server: an ad hoc run resumes at once; a governed
run shows the material a human approves, then resumes with its digest (issue 23)."""

from __future__ import annotations

import json

from aiws.engine.v1 import common_pb2, task_pb2
from praxis_client import connect
from tests.support.cli_shell import POLICY, V1, Shell, digest_of
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node


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


# --- issue 37: re-approval and agent replacement ---------------------------------------

CHAIN = definition(
    "b",
    a=node(output=json_out(), retry={"attempts": 1}),
    b=node("node:a", ("a",), json_out(), retry={"attempts": 1}),
)


def _run_a_then_fail_b(address: str, effect: int) -> None:
    """Completes `a` and fails `b` (not retryable) with ``effect``, as an agent's worker."""
    with connect(address, token_of("agent")) as agent:
        for node_id in ("a", "b"):
            [task] = agent.tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id="w1", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=5_000
                )
            ).tasks
            assert task.node_uid == node_id
            if node_id == "a":
                agent.tasks.CompleteTask(
                    task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id, worker_id="w1", result_json='{"n": 1}',
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )  # fmt: skip
            else:
                agent.tasks.FailTask(
                    task_pb2.FailTaskRequest(
                        attempt_id=task.attempt_id, worker_id="w1", error="provider down",
                        retryable=False, effect=effect,
                    )
                )  # fmt: skip


def test_an_applied_action_runs_again_only_once_a_human_approved_it(shell: Shell) -> None:
    (shell.home / "chain.json").write_text(json.dumps(CHAIN))
    started = shell.ok("runs", "start", "-f", "chain.json", "--json", who="agent").json()
    run_id = started["run"]["run_id"]
    _run_a_then_fail_b(shell.address, common_pb2.EFFECT_OUTCOME_APPLIED)
    # The agent's resume shows the material instead of resuming; the agent cannot approve.
    review = shell.ok("runs", "resume", run_id, "--reason", "retry b", who="agent")
    assert "approve again: b: its effect was applied" in review.out, review.out
    digest = digest_of(review.out)
    refused = shell.run("runs", "resume", run_id, "--reason", "retry b", "--digest", digest,
                        who="agent")  # fmt: skip
    assert refused.code != 0 and "Traceback" not in refused.err, refused
    assert shell.ok("runs", "show", run_id, "--json").json()["run"]["state"] == "RUN_STATE_FAILED"
    resumed = shell.ok("runs", "resume", run_id, "--reason", "retry b", "--digest", digest)
    assert f"resumed run {run_id}" in resumed.out and "ready again: b" in resumed.out, resumed.out


def test_a_governed_run_resumes_onto_the_head_that_replaces_its_failed_node(
    shell: Shell,
) -> None:
    (shell.home / "v1.json").write_text(json.dumps(CHAIN))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    started = shell.ok("runs", "start", "--ref", "wo-1/run-1", "--json", who="agent").json()
    run_id = started["run"]["run_id"]
    _run_a_then_fail_b(shell.address, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)
    fixed = json.loads(json.dumps(CHAIN))
    fixed["nodes"]["b"]["agent"]["system_prompt"] = "Answer in one line."
    (shell.home / "v2.json").write_text(json.dumps(fixed))
    shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", who="agent")
    approval = digest_of(shell.ok("review", "wo-1/run-1", "p-1").out)
    approved = shell.ok("approve", "wo-1/run-1", "p-1", "--digest", approval, "--json").json()
    shell.ok("activate", "wo-1/run-1", "p-1", "--approval", str(approved["approval_id"]))

    out = shell.ok("runs", "resume", run_id, "--reason", "new prompt", "--to-head").out
    assert "1 -> 2" in out and "replaced: b (failed in the run)" in out, out
    assert '"system_prompt": "Answer in one line."' in out, out
    digest = digest_of(out)
    resumed = shell.ok("runs", "resume", run_id, "--reason", "new prompt", "--to-head",
                       "--digest", digest)  # fmt: skip
    assert f"resumed run {run_id}" in resumed.out and "at revision 2" in resumed.out, resumed.out
    shown = shell.ok("runs", "show", run_id, "--json").json()["run"]
    assert shown["revision"] == 2, shown


def test_a_head_that_changes_a_done_node_is_refused_naming_it(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(CHAIN))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    started = shell.ok("runs", "start", "--ref", "wo-1/run-1", "--json", who="agent").json()
    _run_a_then_fail_b(shell.address, common_pb2.EFFECT_OUTCOME_NOT_APPLIED)
    changed = json.loads(json.dumps(CHAIN))
    changed["nodes"]["a"]["agent"]["system_prompt"] = "Another start."
    (shell.home / "v2.json").write_text(json.dumps(changed))
    shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", who="agent")
    approval = digest_of(shell.ok("review", "wo-1/run-1", "p-1").out)
    approved = shell.ok("approve", "wo-1/run-1", "p-1", "--digest", approval, "--json").json()
    shell.ok("activate", "wo-1/run-1", "p-1", "--approval", str(approved["approval_id"]))
    refused = shell.run("runs", "resume", started["run"]["run_id"], "--reason", "x", "--to-head")
    assert refused.error_line().startswith("error: REPLACEMENT_CONFLICT: "), refused.err
    assert "(a)" in refused.error_line(), refused.err


def test_a_dry_run_resume_shows_the_answer_and_stores_nothing(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    run_id = _stopped(shell, "-f", "v1.json")
    dry = shell.ok("runs", "resume", run_id, "--reason", "halt lifted", "--dry-run")
    assert dry.out.startswith(f"dry run: would resume run {run_id} (RUNNING)"), dry.out
    shown = shell.ok("runs", "show", run_id, "--json").json()
    assert shown["run"]["state"] == "RUN_STATE_CANCELLED", shown
    answered = shell.ok("runs", "resume", run_id, "--reason", "x", "--dry-run", "--json").json()
    assert answered["dry_run"] is True and answered["run"]["state"] == "RUN_STATE_RUNNING"
    # A governed run: the dry run sends no approval, and answers the refusal a resume gets.
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    governed = _stopped(shell, "--ref", "wo-1/run-1")
    refused = shell.run("runs", "resume", governed, "--reason", "restart", "--dry-run")
    assert refused.error_line().startswith("error: APPROVAL_REQUIRED: "), refused.err
    resumed = shell.ok("runs", "resume", run_id, "--reason", "halt lifted")
    assert f"resumed run {run_id}" in resumed.out, resumed.out
