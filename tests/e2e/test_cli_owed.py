"""``praxis inbox`` lists what a finished run is owed, and ``praxis assess`` and
``praxis handoffs`` settle it, against a real server."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from aiws.engine.v1 import common_pb2, contract_pb2, handoff_pb2, task_pb2
from praxis_client import connect
from tests.support.cli_shell import Shell
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node
from tests.support.server_process import ServerProcess, free_port, write_config

CHAIN = definition("b", a=node(output=json_out()), b=node("node:a", ("a",), json_out()))


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    server = ServerProcess(write_config(tmp_path / "server"), free_port())
    server.start(timeout_s=90)
    try:
        yield Shell(server.address, tmp_path)
    finally:
        server.terminate()


def _complete_all(address: str) -> None:
    with connect(address, token_of("agent")) as agent:
        for _ in range(2):  # a, then b
            claimed = agent.tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id="w1", models=["echo"], max_tasks=10, lease_ms=30_000, wait_ms=5_000
                )
            )
            for task in claimed.tasks:
                agent.tasks.CompleteTask(
                    task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id, worker_id="w1", result_json='{"ok": true}',
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )  # fmt: skip


def test_a_finished_runs_assessments_and_handoff_are_settled_from_the_cli(shell: Shell) -> None:
    with connect(shell.address, token_of("alice")) as alice:
        alice.contracts.CreateContract(
            contract_pb2.CreateContractRequest(
                contract_id="c-1", work_order_id="wo-1", criteria_json='{"must": ["work"]}',
                deadline_ms=int(time.time() * 1000) + 3_600_000, budget_microcredits="100",
                profile="aiws.v1",
            )
        )  # fmt: skip
    (shell.home / "chain.json").write_text(json.dumps(CHAIN))
    started = shell.ok("runs", "start", "-f", "chain.json", "--contract", "c-1", "--json",
                       who="agent").json()  # fmt: skip
    run_id = started["run"]["run_id"]
    _complete_all(shell.address)
    with connect(shell.address, token_of("alice")) as alice:
        offered = alice.handoffs.CreateHandoff(
            handoff_pb2.CreateHandoffRequest(
                request_id="h-1", run_id=run_id, node_uid="a", to_principal_id="bob", note="yours"
            )
        ).handoff

    shown = shell.ok("inbox").out
    assert "3 waiting" in shown
    assert "ACCEPTANCE" in shown and "VERIFICATION" in shown and "HANDOFF" in shown
    assert f"praxis assess accept {run_id}" in shown
    assert f"praxis assess verify {run_id}" in shown
    assert f"praxis handoffs ack {offered.delivery_id}  (as bob)" in shown
    kinds = shell.ok("inbox", "--kind", "handoff", "--json").json()
    assert [i["handoff"]["delivery_id"] for i in kinds["items"]] == [offered.delivery_id]

    verified = shell.ok("assess", "verify", run_id, "--findings", '{"must": "met"}').out
    assert f"verified run {run_id}: asm_" in verified
    assert "replayed" in shell.ok("assess", "verify", run_id, "--findings", '{"must": "met"}').out
    refused = shell.run("assess", "accept", run_id, "--subject", "sha256:" + "0" * 64)
    assert refused.code != 0 and "SUBJECT_CHANGED" in refused.err, refused
    assert f"accepted run {run_id}" in shell.ok("assess", "accept", run_id).out
    listed = shell.ok("handoffs", "list", who="bob").out  # the receiver finds it
    assert offered.delivery_id in listed and "OFFERED" in listed and "ad hoc run" in listed
    assert all(len(line) <= 80 for line in listed.splitlines()), listed
    assert offered.delivery_id not in shell.ok("handoffs", "list").out  # not alice's
    acknowledged = shell.ok("handoffs", "ack", offered.delivery_id, who="bob").out
    assert shell.ok("handoffs", "list", "--json", who="bob").json().get("handoffs", []) == []
    done = shell.ok("handoffs", "list", "--state", "acknowledged", "--json", who="bob").json()
    assert [h["delivery_id"] for h in done["handoffs"]] == [offered.delivery_id]
    assert "ACKNOWLEDGED" in acknowledged
    assert "ad hoc run" in acknowledged  # the work it comes from
    assert offered.definition_digest in acknowledged
    assert "0 waiting" in shell.ok("inbox").out
    summary = shell.ok("assess", "show", run_id).out
    assert "accepted" in summary and "yes" in summary
