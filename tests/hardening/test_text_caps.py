"""Issue 13 item 2: every free-text field has a documented cap (4,096 UTF-8 bytes)."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import admin_pb2, common_pb2, run_pb2, task_pb2
from praxis.core import handoff, values
from tests.support.harness import Harness, expect_error
from tests.support.registry import approve, execute, propose_cmd, proposed, registered, reject_cmd
from tests.support.runtime import claim, definition, get_run, node, start

CAP = values.MAX_TEXT_BYTES
TOO_LONG = "x" * (CAP + 1)


def test_stop_run_reason_is_capped(harness: Harness) -> None:
    run = start(harness, definition("a", a=node())).run
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        harness.client("agent").runs.StopRun(
            run_pb2.StopRunRequest(run_id=run.run_id, reason="é" * (CAP // 2 + 1))
        )
    assert get_run(harness, run.run_id).version == run.version  # nothing stored
    harness.client("agent").runs.StopRun(
        run_pb2.StopRunRequest(run_id=run.run_id, reason="x" * CAP)
    )


def test_admin_reasons_are_capped(harness: Harness) -> None:
    admin = harness.client("alice").admin
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="wo-1", reason=TOO_LONG))
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        admin.CancelWorkOrder(
            admin_pb2.CancelWorkOrderRequest(work_order_id="wo-1", reason=TOO_LONG)
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        admin.PlaceHold(
            admin_pb2.PlaceHoldRequest(
                kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-1", reason=TOO_LONG
            )
        )
    view = admin.GetWorkOrder(admin_pb2.GetWorkOrderRequest(work_order_id="wo-1"))
    assert not view.work_order.holds
    assert view.work_order.control_state == admin_pb2.CONTROL_STATE_ACTIVE


def test_registry_summary_and_rejection_reason_are_capped(harness: Harness) -> None:
    r = registered(harness)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        execute(harness, "agent", "req-p", propose_cmd(r, "p-1", 1, summary=TOO_LONG))
    proposed(harness, r, "p-2")
    command = reject_cmd(r, "p-2", "short", "ap-rej")
    approve(harness, command, "ap-rej")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TEXT_TOO_LONG"):
        execute(harness, "alice", "req-rej", reject_cmd(r, "p-2", TOO_LONG, "ap-rej"))


def test_handoff_note_is_capped() -> None:
    problem = handoff.check_offer("a", "b", "n" * (CAP + 1), True)
    assert problem is not None and problem.reason == "TEXT_TOO_LONG"
    assert handoff.check_offer("a", "b", "n" * CAP, True) is None


def test_worker_error_is_kept_truncated_and_marked(harness: Harness) -> None:
    run = start(harness, definition("a", a=node(retry={"attempts": 1}))).run
    (task,) = claim(harness)
    harness.client("agent").tasks.FailTask(
        task_pb2.FailTaskRequest(
            attempt_id=task.attempt_id,
            worker_id="w1",
            error="é" * 1_000_000,
            retryable=False,
            effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
        )
    )
    (status,) = get_run(harness, run.run_id).nodes
    assert len(status.error.encode()) <= CAP
    assert status.error.startswith("é" * 100)
    kept = status.error.split("…[truncated ")[0]
    assert status.error.endswith(f"…[truncated {2_000_000 - len(kept.encode())} bytes]")


def test_truncate_text_marks_the_cut() -> None:
    text = "ab" * 5000
    cut = values.truncate_text(text)
    assert len(cut.encode()) <= CAP
    kept = cut.split("…[truncated ")[0]
    assert cut.endswith(f"…[truncated {len(text) - len(kept)} bytes]")
    assert values.truncate_text("short") == "short"
