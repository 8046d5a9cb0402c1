"""Retention and archival: finished runs past their keep are archived and deleted;
unfinished and referenced runs never are; GetRun of an archived run says where it went."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import (
    assessment_pb2,
    common_pb2,
    handoff_pb2,
    inbox_pb2,
    notification_pb2,
    run_pb2,
)
from praxis.app import Server, Settings
from praxis.authority.principals import PrincipalsAuthority, parse_principals
from praxis.clock import TestClock
from praxis.core import webhooks
from praxis.core.retention import DAY_MS, RetentionPolicy
from praxis.deliverer import DeliveryLimits, Destination
from praxis.store.retention import archive
from praxis_client import error_details
from tests.support.execution import create_contract, model_principals, settle, start_run
from tests.support.harness import T0, Harness, expect_error, start_server
from tests.support.runtime import claim, definition, json_out, node
from tests.support.webhooks import SECRET, Receiver, wait_state


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test on SQLite and PostgreSQL (the ``backend`` of the ``database`` fixture)."""
    if "backend" in metafunc.fixturenames:
        sqlite_only = metafunc.function.__name__ in SQLITE_ONLY
        backends = ("sqlite",) if sqlite_only else ("sqlite", "postgres")
        metafunc.parametrize("backend", backends, indirect=True)


SQLITE_ONLY = {"test_registry_receipts_and_approvals_are_never_pruned"}  # counts with sqlite3


SINGLE = definition("a", a=node(output=json_out()))
WEEK = 7 * DAY_MS


@pytest.fixture
def retained(database: Path | str, tmp_path: Path) -> Iterator[Harness]:
    """A server keeping finished runs 7 days, 30 days on work orders ``keep-*``."""
    clock = TestClock(T0)
    policy = RetentionPolicy(keep_finished_ms=WEEK, work_orders=(("keep-*", 30 * DAY_MS),))
    server = Server(
        Settings(
            database_url=database if isinstance(database, str) else f"sqlite:///{database}",
            authority=PrincipalsAuthority(parse_principals(model_principals())),
            clock=clock,
            listen="127.0.0.1:0",
            sweep_interval_s=3600.0,
            sweeper=False,  # the test archives explicitly
            retention=policy,
            archive_dir=tmp_path / "archive",
        )
    )
    server.start()
    h = Harness(server, clock, f"127.0.0.1:{server.port}")
    yield h
    h.close()


def finished(h: Harness, **fields: object) -> str:
    run = start_run(h, SINGLE, **fields)
    [task] = claim(h)
    settle(h, task, {"answer": 42})
    return run.run_id


def get(h: Harness, run_id: str, principal: str = "alice") -> run_pb2.Run:
    return h.client(principal).runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run


def archive_now(h: Harness) -> int:
    return h.server.engine.archive.archive_due()


def test_a_finished_run_is_archived_after_its_keep_and_get_run_says_where(
    retained: Harness, tmp_path: Path
) -> None:
    h = retained
    done = [finished(h), finished(h)]
    running = start_run(h, SINGLE).run_id
    h.clock.advance(WEEK - 1)
    assert archive_now(h) == 0  # not yet past the keep
    h.clock.advance(1)
    assert archive_now(h) == 2
    with pytest.raises(grpc.RpcError) as caught:
        get(h, done[0])
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    info = error_details(caught.value)
    assert info.reason == "RUN_ARCHIVED"
    name = archive.period_name(h.clock.now_ms())
    assert info.metadata["run_id"] == done[0]
    assert info.metadata["archive"] == name  # derived from archived_at_ms, not stored
    assert info.metadata["archived_at_ms"] == str(h.clock.now_ms())
    assert info.metadata["status"] == "COMPLETED"
    assert info.metadata["digest"] == h.server.engine.archive.tombstone(done[0])[1]
    assert len(info.metadata["digest"]) == len("sha256:") + 64
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        h.client("alice").runs.GetNodeResult(
            run_pb2.GetNodeResultRequest(run_id=done[1], node_uid="a")
        )
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        h.client("alice").runs.ListRunNodes(run_pb2.ListRunNodesRequest(run_id=done[1]))
    assert get(h, running).state != run_pb2.RUN_STATE_COMPLETED  # unfinished: kept
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        get(h, "run_never")
    listed = h.client("alice").runs.ListRuns(run_pb2.ListRunsRequest()).runs
    assert [run.run_id for run in listed] == [running]
    # Every archived run verifies against its line and its tombstone.
    checked = archive.verify(tmp_path / "archive" / name, h.server.engine.archive.tombstone)
    assert (checked.lines, checked.verified, checked.problems) == (2, 2, [])
    assert archive_now(h) == 0  # nothing more is due


def test_a_start_repeated_after_its_run_was_archived_makes_no_second_run(
    retained: Harness,
) -> None:
    h = retained
    first = start_run(h, SINGLE)  # request ids are per principal
    [task] = claim(h)
    settle(h, task, {"answer": 42})
    h.clock.advance(WEEK)
    assert archive_now(h) == 1
    again = run_pb2.StartRunRequest(request_id="again", definition_json=json.dumps(SINGLE))
    h.client("agent").runs.StartRun(again)  # a new request id: a new run
    with pytest.raises(grpc.RpcError) as caught:
        h.client("agent").runs.StartRun(
            run_pb2.StartRunRequest(request_id=first.request_id, definition_json=json.dumps(SINGLE))
        )
    details = error_details(caught.value)
    assert (details.code, details.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED")
    assert details.metadata["run_id"] == first.run_id


def test_a_reader_without_a_grant_on_its_work_order_learns_nothing(retained: Harness) -> None:
    h = retained
    run_id = finished(h, work_order_id="wo-b")
    h.clock.advance(WEEK)
    assert archive_now(h) == 1
    with pytest.raises(grpc.RpcError) as caught:
        get(h, run_id, principal="scoped")  # grants on wo-a* only
    assert error_details(caught.value).reason != "RUN_ARCHIVED"


def test_a_work_order_override_keeps_its_runs_longer(retained: Harness) -> None:
    h = retained
    kept = finished(h, work_order_id="keep-1")
    other = finished(h, work_order_id="wo-1")
    h.clock.advance(WEEK)
    assert archive_now(h) == 1
    assert get(h, kept).state == run_pb2.RUN_STATE_COMPLETED
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        get(h, other)
    h.clock.advance(23 * DAY_MS)
    assert archive_now(h) == 1


def test_referenced_runs_are_never_archived(retained: Harness) -> None:
    h = retained
    # A run whose effect is uncertain, stopped: its reconciliation stays pending.
    uncertain = start_run(h, SINGLE).run_id
    [task] = claim(h)
    settle(h, task, effect=common_pb2.EFFECT_OUTCOME_UNCERTAIN)
    h.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=uncertain, reason="stop"))
    assert get(h, uncertain).state == run_pb2.RUN_STATE_CANCELLED
    # A completed run whose node's outputs are offered to another agent, not acknowledged.
    handed = finished(h)
    offered = h.client("agent").handoffs.CreateHandoff(
        handoff_pb2.CreateHandoffRequest(
            request_id="h-1", run_id=handed, node_uid="a", to_principal_id="agent2", note="n"
        )
    )
    # A completed run under a contract, not accepted yet.
    create_contract(h)
    unaccepted = finished(h, contract_id="c-1")
    h.clock.advance(WEEK + 1)
    assert archive_now(h) == 0
    assert get(h, uncertain).state == run_pb2.RUN_STATE_CANCELLED
    assert get(h, handed).state == run_pb2.RUN_STATE_COMPLETED
    h.client("agent2").handoffs.AcknowledgeHandoff(
        handoff_pb2.AcknowledgeHandoffRequest(delivery_id=offered.handoff.delivery_id)
    )
    assert archive_now(h) == 1  # acknowledged, it may go
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        get(h, handed)
    # Accepted, it may go.
    subject = (
        h.client("alice")
        .assessments.GetAcceptance(assessment_pb2.GetAcceptanceRequest(run_id=unaccepted))
        .subject_digest
    )
    h.client("alice").assessments.RecordAssessment(
        assessment_pb2.RecordAssessmentRequest(
            request_id="accept-1",
            run_id=unaccepted,
            kind=assessment_pb2.ASSESSMENT_KIND_ACCEPTANCE,
            verdict=assessment_pb2.ASSESSMENT_VERDICT_PASS,
            subject_digest=subject,
            findings_json='{"must": "met"}',
        )
    )
    owed = inbox_pb2.ListInboxRequest(kinds=[inbox_pb2.INBOX_ITEM_KIND_VERIFICATION])
    assert h.client("alice").inbox.ListInbox(owed).total == 1  # never verified
    assert archive_now(h) == 1
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        get(h, unaccepted)
    assert h.client("alice").inbox.ListInbox(owed).total == 0  # gone with the run


def test_registry_receipts_and_approvals_are_never_pruned(
    retained: Harness, database: Path | str
) -> None:
    assert isinstance(database, Path)
    h = retained
    for _ in range(3):
        finished(h)
    tables = ("receipts", "approvals", "registry_events", "assessments", "run_definitions")
    with sqlite3.connect(database) as connection:
        before = {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    h.clock.advance(WEEK)
    assert archive_now(h) == 3
    with sqlite3.connect(database) as connection:
        after = {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
        left = {
            t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("runs", "run_nodes", "attempts", "run_events", "run_commands")
        }
        segments_logged = connection.execute(
            "SELECT count(*) FROM model_events WHERE kind = 'SEGMENT_STARTED'"
        ).fetchone()[0]
    assert before == after
    assert left == dict.fromkeys(left, 0)
    assert segments_logged == 0  # the execution log's events about the runs went with them


def test_a_tombstone_answers_as_long_again_as_the_longest_keep_then_not_found(
    retained: Harness,
) -> None:
    h = retained  # runs kept 7 days, 30 on keep-*: tombstones kept 30 days by default
    run_id = finished(h)
    h.clock.advance(WEEK)
    assert archive_now(h) == 1
    h.clock.advance(30 * DAY_MS - 1)
    assert archive_now(h) == 0
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
        get(h, run_id)
    assert h.server.engine.archive.count() == 1
    h.clock.advance(1)
    archive_now(h)
    assert h.server.engine.archive.count() == 0
    with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
        get(h, run_id)


def test_tombstones_expire_oldest_first_in_bounded_batches(
    database: Path | str, tmp_path: Path
) -> None:
    """An explicit keep_archived_ms overrides the default; expiry deletes at most a
    batch per transaction and stops at the first tombstone still kept."""
    policy = RetentionPolicy(keep_finished_ms=DAY_MS, keep_archived_ms=3 * DAY_MS, batch_runs=2)
    h = start_server(
        database, sweeper=False, retention=policy, archive_dir=tmp_path / "archive",
        authority=PrincipalsAuthority(parse_principals(model_principals())),
    )  # fmt: skip
    try:
        old = [finished(h) for _ in range(3)]
        h.clock.advance(DAY_MS)
        assert archive_now(h) == 3
        h.clock.advance(DAY_MS)
        young = finished(h)
        h.clock.advance(DAY_MS)
        assert archive_now(h) == 1
        h.clock.advance(DAY_MS)  # the first three are 3 days archived, the last 1 day
        store = h.server.engine.archive
        first = store.archive_batch()
        assert (first.tombstones_expired, first.more) == (2, True)  # a full batch
        assert store.archive_due() == 0
        assert store.count() == 1
        for run_id in old:
            with expect_error(grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"):
                get(h, run_id)
        with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
            get(h, young)
    finally:
        h.close()


def test_a_run_with_a_webhook_not_yet_delivered_is_not_archived(
    database: Path | str, tmp_path: Path
) -> None:
    receiver = Receiver(default="fail")
    key = webhooks.secret_key(SECRET)
    assert key is not None
    h = start_server(
        database,
        sweeper=False,
        retention=RetentionPolicy(keep_finished_ms=WEEK),
        archive_dir=tmp_path / "archive",
        webhooks={"ops": Destination("ops", receiver.url, key)},
        # Failed tries are retried a day later, up to 100 times: the push stays owed.
        notifications=DeliveryLimits(
            timeout_s=2, max_attempts=100, backoff_base_ms=DAY_MS, backoff_cap_ms=DAY_MS
        ),
    )
    try:
        run_id = finished(h, notify=run_pb2.RunNotify(webhooks=["ops"]))
        failed = wait_state(h, run_id, notification_pb2.DELIVERY_STATE_FAILED)
        h.clock.advance(WEEK + 1)
        assert archive_now(h) == 0
        assert get(h, run_id).state == run_pb2.RUN_STATE_COMPLETED
        receiver.default = "ok"
        h.client("alice").notifications.RedeliverDelivery(
            notification_pb2.RedeliverDeliveryRequest(delivery_id=failed.delivery_id)
        )
        wait_state(h, run_id, notification_pb2.DELIVERY_STATE_DELIVERED)
        assert archive_now(h) == 1  # delivered, it may go
        with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_ARCHIVED"):
            get(h, run_id)
    finally:
        h.close()
        receiver.close()
