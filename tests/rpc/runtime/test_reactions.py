"""The reaction table at work over gRPC: a handler inside the emitting command's
transaction refuses the command by raising ``Rollback`` (nothing of it is stored), and
the webhook outbox, now a slice of its own, is reached only through the table."""

from __future__ import annotations

import grpc
import pytest

from aiws.engine.v1 import run_pb2
from praxis.core.rejection import Code, Rejection
from praxis.store.db.database import Rollback
from praxis.store.runtime.emits import RunFinished, RunStarted
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, get_run, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres")

PLAN = definition("a", a=node())


def _refuse(_event: object) -> None:
    raise Rollback(Rejection(Code.PERMISSION_DENIED, "SPEND_CAP_EXCEEDED", "refused here"))


def test_a_start_handler_that_raises_rollback_refuses_the_start(harness: Harness) -> None:
    reactions = harness.server.engine.reactions
    wired = reactions.table[RunStarted]
    reactions.wire({RunStarted: (*wired, _refuse)})
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "SPEND_CAP_EXCEEDED"):
        start(harness, PLAN, request_id="req-refused")
    reactions.wire({RunStarted: wired})
    runs = harness.client("agent").runs
    assert list(runs.ListRuns(run_pb2.ListRunsRequest()).runs) == []  # nothing of it stored
    run = start(harness, PLAN, request_id="req-refused").run  # the same request, afresh
    assert [r.run_id for r in runs.ListRuns(run_pb2.ListRunsRequest()).runs] == [run.run_id]


def test_a_finish_handler_that_raises_rollback_refuses_the_settlement(
    harness: Harness,
) -> None:
    """RunFinished is published inside the settlement that ends the run: a handler's
    Rollback leaves the run as it was, and the same report settles once it is gone."""
    run = start(harness, PLAN).run
    (task,) = claim(harness)
    before = get_run(harness, run.run_id)
    reactions = harness.server.engine.reactions
    wired = reactions.table[RunFinished]
    reactions.wire({RunFinished: (_refuse,)})
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "SPEND_CAP_EXCEEDED"):
        complete(harness, task, "done")
    assert get_run(harness, run.run_id) == before  # the settlement left nothing
    reactions.wire({RunFinished: wired})
    complete(harness, task, "done")
    assert get_run(harness, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
