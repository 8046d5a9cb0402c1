"""Webhook notifications from a real ``praxis serve`` process to a real receiver on
loopback: a receiver that fails, times out and recovers gets each outcome, signed; a
server killed (SIGKILL) while deliveries wait for their retry loses none and, once
restarted, delivers each exactly once (nothing was in flight to double)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from aiws.engine.v1 import notification_pb2, run_pb2
from praxis_client import Client, connect
from praxis_client.worker import Worker
from tests.support.cli_shell import Shell
from tests.support.harness import token_of
from tests.support.runtime import definition, node
from tests.support.server_process import ServerProcess, free_port, write_config
from tests.support.webhooks import SECRET, Receiver, signed_correctly


def logged_secrets_in(text: str) -> list[str]:
    """The lines of ``text`` that carry the webhook secret (either form)."""
    needles = (SECRET, SECRET.removeprefix("whsec_"))
    return [line for line in text.splitlines() if any(n in line for n in needles)]


PLAN = definition("a", a=node())
LIMITS = {"timeout_s": 1, "backoff_base_ms": 100, "backoff_cap_ms": 400, "max_attempts": 50}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver(default="fail", hang_s=2.5)
    try:
        yield running
    finally:
        running.close()


def serve(tmp_path: Path, receiver: Receiver) -> ServerProcess:
    config = write_config(
        tmp_path,
        webhooks={"ops": {"url": receiver.url, "secret": SECRET}},
        notifications=LIMITS,
    )
    server = ServerProcess(config, free_port())
    server.start()
    return server


def run_to_the_end(client: Client, address: str, count: int) -> list[str]:
    """Starts ``count`` runs that notify ``ops`` and has a worker complete them."""
    worker = Worker(
        connect(address, token_of("agent")), ["echo"], lambda _task: "ok", poll_ms=100
    ).start()
    try:
        run_ids = [
            client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"hook-{index}",
                    definition_json=json.dumps(PLAN),
                    notify=run_pb2.RunNotify(webhooks=["ops"]),
                )
            ).run.run_id
            for index in range(count)
        ]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            runs = [client.runs.GetRun(run_pb2.GetRunRequest(run_id=r)).run for r in run_ids]
            if all(run.state == run_pb2.RUN_STATE_COMPLETED for run in runs):
                return run_ids
            time.sleep(0.05)
        raise AssertionError("runs did not complete")
    finally:
        worker.stop()


def stored_states(database: Path) -> dict[str, tuple[str, int]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as probe:
        rows = probe.execute("SELECT delivery_id, state, attempts FROM deliveries").fetchall()
    return {row[0]: (row[1], row[2]) for row in rows}


def test_a_receiver_that_fails_then_times_out_then_recovers_gets_the_outcome_signed(
    tmp_path: Path, receiver: Receiver
) -> None:
    receiver.plan.extend(["fail", "hang"])
    receiver.default = "ok"
    server = serve(tmp_path, receiver)
    try:
        client = connect(server.address, token_of("alice"))
        (run_id,) = run_to_the_end(client, server.address, 1)
        receiver.wait_for(lambda r: len(r.accepted()) == 1)
        receiver.wait_for(lambda r: len(r.all()) == 3)  # the hung try is recorded late
        tries = receiver.all()
        assert sorted(r.answered for r in tries) == [0, 200, 503]
        assert len({r.delivery_id for r in tries}) == 1  # one id across the tries
        assert all(signed_correctly(SECRET, r.headers, r.body) for r in tries)
        assert len({r.body for r in tries}) == 1
        assert tries[0].json["data"]["run_id"] == run_id
        listed = client.notifications.ListDeliveries(notification_pb2.ListDeliveriesRequest())
        (delivery,) = listed.deliveries
        assert delivery.state == notification_pb2.DELIVERY_STATE_DELIVERED
        assert delivery.attempts == 3 and delivery.delivery_id == tries[0].delivery_id
        client.close()
    finally:
        server.terminate()
    # Every line the server logged (its stderr) is free of the signing secret.
    assert server.process is not None and server.process.stderr is not None
    assert logged_secrets_in(server.process.stderr.read()) == []


@pytest.mark.serial  # a server SIGKILLed mid-retry: the machine to itself (make test-python)
@pytest.mark.slow
def test_a_server_killed_mid_retry_loses_no_delivery_and_doubles_none(
    tmp_path: Path, receiver: Receiver
) -> None:
    server = serve(tmp_path, receiver)
    client = connect(server.address, token_of("alice"))
    run_to_the_end(client, server.address, 5)
    receiver.wait_for(lambda r: len({x.delivery_id for x in r.all()}) == 5)
    receiver.wait_for(lambda r: len(r.all()) >= 10)  # retries under way
    server.kill()
    at_kill = stored_states(tmp_path / "praxis.db")
    assert len(at_kill) == 5
    assert {state for state, _ in at_kill.values()} == {"FAILED"}, at_kill
    tried_before = len(receiver.all())
    receiver.default = "ok"
    server.start()
    try:
        receiver.wait_for(lambda r: len(r.accepted()) == 5)
        time.sleep(1.5)  # past the backoff cap: a double would have come by now
        accepted = [r.delivery_id for r in receiver.accepted()]
        assert sorted(accepted) == sorted(at_kill)  # each once, with its stable id
        assert all(signed_correctly(SECRET, r.headers, r.body) for r in receiver.all())
        after = stored_states(tmp_path / "praxis.db")
        assert {state for state, _ in after.values()} == {"DELIVERED"}
        assert all(after[i][1] > at_kill[i][1] for i in after)  # tries counted across
        assert len(receiver.all()) > tried_before
    finally:
        client.close()
        server.terminate()


def test_a_dead_delivery_is_seen_and_redelivered_from_the_cli(
    tmp_path: Path, receiver: Receiver
) -> None:
    config = write_config(
        tmp_path / "server",
        webhooks={"ops": {"url": receiver.url, "secret": SECRET}},
        notifications={**LIMITS, "max_attempts": 2},
    )
    server = ServerProcess(config, free_port())
    server.start()
    shell = Shell(server.address, tmp_path)
    try:
        (tmp_path / "one.json").write_text(json.dumps(PLAN))
        started = shell.ok("runs", "start", "-f", "one.json", "--notify", "ops", "--json",
                           who="agent").json()  # fmt: skip
        run_id = started["run"]["run_id"]
        refused = shell.run("runs", "start", "-f", "one.json", "--notify", "elsewhere")
        assert refused.code != 0 and "NOTIFY_DESTINATION_UNKNOWN" in refused.err
        shell.ok("runs", "stop", run_id, "--reason", "enough")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            dead = shell.ok("deliveries", "list", "--state", "dead", "--json").json()
            if dead.get("deliveries"):
                break
            time.sleep(0.1)
        [delivery] = dead["deliveries"]
        assert delivery["run_id"] == run_id and delivery["attempts"] == 2
        assert str(dead["dead"]) == "1"
        table = shell.ok("deliveries", "list").out
        assert "0 pending, 0 failed, 1 dead" in table and "HTTP 503" in table
        assert shell.run("deliveries", "list", who="agent").code != 0  # operators only
        receiver.default = "ok"
        shown = shell.ok("deliveries", "redeliver", delivery["delivery_id"]).out
        assert f"redelivering {delivery['delivery_id']}" in shown
        receiver.wait_for(lambda r: len(r.accepted()) == 1)
        assert receiver.accepted()[0].delivery_id == delivery["delivery_id"]
        assert receiver.accepted()[0].json["type"] == "run.cancelled"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            done = shell.ok("deliveries", "list", "--run", run_id, "--json").json()
            if done["deliveries"][0]["state"] == "DELIVERY_STATE_DELIVERED":
                break
            time.sleep(0.1)
        assert done["deliveries"][0]["state"] == "DELIVERY_STATE_DELIVERED"
    finally:
        server.terminate()
