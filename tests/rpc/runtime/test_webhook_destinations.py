"""Webhook destinations fail closed (issue 37 item 6).

A destination the sender cannot use never starts a server; a try that no retry can fix
leaves its delivery DEAD at once with the reason; and no log line, error or answer carries
a URL's credentials or a signing secret. Every log record of these tests (any logger, any
level) is searched for them after each test.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from aiws.engine.v1 import notification_pb2, run_pb2
from praxis.core import webhooks
from praxis.deliverer import Deliverer, DeliveryLimits, Destination, post
from tests.support.harness import Harness, start_server
from tests.support.runtime import definition, node, start
from tests.support.webhooks import SECRET, Receiver, deliveries, logged_secrets, wait_state

pytestmark = pytest.mark.backends("sqlite")

PLAN = definition("a", a=node())
PASSWORD = "hunter2-do-not-log"
# The URL: credentials and no port (urllib takes "PASSWORD@host" for host:port).
WITH_CREDENTIALS = f"http://hooks:{PASSWORD}@127.0.0.1/hook"
KEY = webhooks.secret_key(SECRET)
assert KEY is not None


@pytest.fixture(autouse=True)
def no_secret_in_any_log(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Greps every log record of the test, with its traceback, for the secrets."""
    caplog.set_level(logging.DEBUG)
    yield
    assert logged_secrets(caplog.records, PASSWORD) == []


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def harness(database: Path | str, receiver: Receiver) -> Iterator[Harness]:
    running = start_server(
        database,
        webhooks={"ops": Destination("ops", receiver.url, KEY)},
        notifications=DeliveryLimits(timeout_s=2, max_attempts=5, backoff_base_ms=10),
    )
    try:
        yield running
    finally:
        running.close()


@pytest.mark.parametrize(
    "url",
    [
        WITH_CREDENTIALS,
        f"https://{PASSWORD}@hooks.example/x",
        f"http://hooks.example:{PASSWORD}/x",  # a port that is no number
        "http://hooks.example:0/x",
        f"http://hooks.example/x?{PASSWORD} x",  # a space
        "ftp://hooks.example/x",
    ],
)
def test_a_destination_the_sender_cannot_use_is_refused_by_name(url: str) -> None:
    problem = webhooks.url_problem(url)
    assert problem is not None and PASSWORD not in problem and "hooks.example" not in problem
    with pytest.raises(ValueError, match=r"^webhooks\.ops: ") as refused:
        Deliverer(None, {"ops": Destination("ops", url, KEY)}, DeliveryLimits(), None)  # type: ignore[arg-type]
    assert PASSWORD not in str(refused.value)


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8080/hook", "https://hooks.example/x?token=abc", "http://[::1]/x"]
)
def test_a_usable_destination_is_accepted(url: str) -> None:
    assert webhooks.url_problem(url) is None


def test_a_server_with_an_unusable_destination_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"webhooks\.ops: url must not carry credentials"):
        start_server(
            tmp_path / "praxis.db", webhooks={"ops": Destination("ops", WITH_CREDENTIALS, KEY)}
        )


def test_a_send_that_cannot_be_made_is_final_and_quotes_no_url() -> None:
    tried = post(Destination("ops", WITH_CREDENTIALS, KEY), "msg_1", b"{}", 0, 1.0)
    assert tried.final and tried.status == 0
    assert PASSWORD not in tried.error and "127.0.0.1" not in tried.error


def test_a_delivery_no_retry_can_fix_is_dead_at_once_with_its_reason(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    deliverer = harness.server.deliverer
    assert deliverer is not None
    # The destination went bad after start-up (what a reload without the check would do).
    deliverer.destinations["ops"] = Destination("ops", WITH_CREDENTIALS, KEY)
    run = start(harness, PLAN, notify=run_pb2.RunNotify(webhooks=["ops"])).run
    harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
    dead = wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_DEAD)
    assert dead.attempts == 1 and dead.next_attempt_at_ms == 0
    assert dead.last_error.startswith("webhooks.ops: url must not carry credentials")
    listed = deliveries(harness, run_id=run.run_id).deliveries
    assert PASSWORD not in str(listed)
    # The grep of the log (the autouse fixture) is not vacuous: the failure was logged.
    assert any(record.name == "praxis.deliverer" for record in caplog.records)


def test_a_delivered_webhook_logs_no_secret(harness: Harness, receiver: Receiver) -> None:
    receiver.default = "fail"
    run = start(harness, PLAN, notify=run_pb2.RunNotify(webhooks=["ops"])).run
    harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run.run_id))
    failed = wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_FAILED)
    assert failed.last_error == "HTTP 503"
    receiver.default = "ok"
    harness.clock.advance(60_000)
    wait_state(harness, run.run_id, notification_pb2.DELIVERY_STATE_DELIVERED)
