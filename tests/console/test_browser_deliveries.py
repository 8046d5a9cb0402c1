"""Webhook deliveries in a real headless Chromium: a dead delivery shows on the
Deliveries page with the outbox's counts, and its Redeliver button sends it again (same
id) to a receiver that has recovered; an agent is refused the page's read."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from aiws.engine.v1 import notification_pb2, run_pb2
from praxis.clock import SystemClock
from praxis.core import webhooks
from praxis.deliverer import DeliveryLimits, Destination
from tests.support.console import Console, ConsoleProcess, shot
from tests.support.harness import start_server, token_of
from tests.support.runtime import definition, node
from tests.support.webhooks import SECRET, Receiver, wait_state


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    running = Receiver(default="fail")
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory, receiver: Receiver) -> Iterator[Console]:
    """This module's console, in front of a server with one destination, ``ops``, whose
    deliveries die at their first failed try."""
    key = webhooks.secret_key(SECRET)
    assert key is not None
    harness = start_server(
        tmp_path_factory.mktemp("deliveries") / "praxis.db",
        clock=SystemClock(),  # type: ignore[arg-type]
        webhooks={"ops": Destination("ops", receiver.url, key)},
        notifications=DeliveryLimits(timeout_s=2, max_attempts=1),
    )
    process = ConsoleProcess(harness.address)
    try:
        yield Console(harness, process, f"http://127.0.0.1:{process.port}")
    finally:
        process.stop()
        harness.close()


def sign_in(page: Page, console: Console, principal: str) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of(principal))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def test_a_dead_delivery_is_shown_and_redelivered(
    page: Page, console: Console, receiver: Receiver
) -> None:
    started = console.harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="notify-1",
            definition_json=json.dumps(definition("a", a=node())),
            notify=run_pb2.RunNotify(webhooks=["ops"]),
        )
    )
    run_id = started.run.run_id
    console.harness.client("alice").runs.StopRun(run_pb2.StopRunRequest(run_id=run_id))
    wait_state(console.harness, run_id, notification_pb2.DELIVERY_STATE_DEAD)

    sign_in(page, console, "alice")
    page.get_by_role("link", name="Deliveries").click()
    expect(page).to_have_url(f"{console.base_url}/deliveries")
    row = page.locator("#deliveries tr", has_text=run_id)
    expect(page.locator('.count[data-state="DEAD"]')).to_have_text("1")
    expect(row).to_have_attribute("data-state", "DEAD")
    expect(row).to_contain_text("HTTP 503")
    expect(row).to_contain_text("run.cancelled")
    page.get_by_role("link", name="dead").click()
    expect(page).to_have_url(f"{console.base_url}/deliveries?state=DEAD")
    expect(page.locator("#deliveries tr[data-delivery]")).to_have_count(1)
    shot(page, "deliveries-dead")

    receiver.default = "ok"
    delivery_id = row.get_attribute("data-delivery")
    page.get_by_role("button", name=f"Redeliver {delivery_id}").click()
    expect(page).to_have_url(f"{console.base_url}/deliveries?state=DEAD")
    receiver.wait_for(lambda r: len(r.accepted()) == 1)
    assert receiver.accepted()[0].delivery_id == delivery_id
    wait_state(console.harness, run_id, notification_pb2.DELIVERY_STATE_DELIVERED)
    page.goto("/deliveries?state=DELIVERED")
    expect(page.locator("#deliveries tr[data-delivery]")).to_have_count(1)
    expect(page.locator("#deliveries tr", has_text=run_id)).to_have_attribute(
        "data-state", "DELIVERED"
    )
    expect(page.locator('.count[data-state="DEAD"]')).to_have_text("0")


def test_an_agent_is_refused_the_deliveries_and_a_forged_redelivery(console: Console) -> None:
    agent = console.signed_in("agent")
    shown = agent.get("/deliveries")
    assert shown.status_code == 200 and 'class="reason">ACTION_NOT_GRANTED<' in shown.text
    forged = agent.post("/deliveries/msg_x/redeliver", data={"csrf_token": "wrong"})
    assert forged.status_code == 403
