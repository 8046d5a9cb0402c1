"""The configuration reloaded without a restart, on real server processes (issue 42,
item 2): a reload adds a webhook destination that new runs then notify, with no restart,
on two server processes of ``--processes 2`` (one SQLite file) and on two replicas on one
PostgreSQL database; SIGHUP does what ReloadConfig does; a bad file changes nothing."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import config_pb2, run_pb2
from praxis.core.reload import version_of
from praxis_client import Client, connect, error_details
from praxis_client.worker import Worker
from tests.support.harness import token_of
from tests.support.postgres import Cluster
from tests.support.runtime import definition, node
from tests.support.server_process import ServerProcess, free_port, write_config
from tests.support.webhooks import SECRET, Receiver, signed_correctly

PLAN = definition("a", a=node())


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    try:
        yield running
    finally:
        running.close()


def with_webhook(config: Path, receiver: Receiver) -> dict[str, Any]:
    """Adds the destination ``ops`` (the receiver) to a config file; the new document."""
    document = json.loads(config.read_text(encoding="utf-8"))
    document["webhooks"] = {"ops": {"url": receiver.url, "secret": SECRET}}
    config.write_text(json.dumps(document), encoding="utf-8")
    return dict(document)


def clients(address: str, count: int) -> list[Client]:
    """``count`` clients, each on a connection of its own: the kernel spreads the
    connections over the processes sharing the port (SO_REUSEPORT)."""
    return [connect(address, token_of("agent")) for _ in range(count)]


def notify_and_complete(address: str, runs: int, prefix: str = "hook") -> list[str]:
    """Starts ``runs`` runs that notify ``ops`` (over several connections), has a worker
    complete them; their ids."""
    callers = clients(address, runs)
    worker = Worker(connect(address, token_of("agent")), ["echo"], lambda _t: "ok", poll_ms=100)
    worker.start()
    try:
        run_ids = [
            caller.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"{prefix}-{index}",
                    definition_json=json.dumps(PLAN),
                    notify=run_pb2.RunNotify(webhooks=["ops"]),
                )
            ).run.run_id
            for index, caller in enumerate(callers)
        ]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            states = [
                callers[0].runs.GetRun(run_pb2.GetRunRequest(run_id=r)).run.state for r in run_ids
            ]
            if all(state == run_pb2.RUN_STATE_COMPLETED for state in states):
                return run_ids
            time.sleep(0.05)
        raise AssertionError("runs did not complete")
    finally:
        worker.stop()
        for caller in callers:
            caller.close()


def refused_unknown(address: str) -> None:
    """A run cannot name ``ops`` yet (no process knows it)."""
    for caller in clients(address, 4):
        with pytest.raises(grpc.RpcError) as refused:
            caller.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id="before",
                    definition_json=json.dumps(PLAN),
                    notify=run_pb2.RunNotify(webhooks=["ops"]),
                )
            )
        assert error_details(refused.value).reason == "NOTIFY_DESTINATION_UNKNOWN"
        caller.close()


def status(address: str) -> config_pb2.GetConfigStatusResponse:
    alice = connect(address, token_of("alice"))
    try:
        return alice.admin.GetConfigStatus(config_pb2.GetConfigStatusRequest())  # type: ignore[no-any-return]
    finally:
        alice.close()


def all_serving(address: str, count: int) -> config_pb2.GetConfigStatusResponse:
    """The status once ``count`` processes have reported themselves (the port answers
    as soon as the first one serves)."""
    deadline = time.monotonic() + 30
    found = status(address)
    while len(found.processes) < count and time.monotonic() < deadline:
        time.sleep(0.1)
        found = status(address)
    assert len(found.processes) == count, found
    return found


def reload(address: str) -> config_pb2.ReloadConfigResponse:
    alice = connect(address, token_of("alice"))
    try:
        return alice.admin.ReloadConfig(config_pb2.ReloadConfigRequest())  # type: ignore[no-any-return]
    finally:
        alice.close()


def delivered_to_all(receiver: Receiver, run_ids: list[str]) -> None:
    receiver.wait_for(lambda r: {x.json["data"]["run_id"] for x in r.accepted()} >= set(run_ids))
    assert all(signed_correctly(SECRET, r.headers, r.body) for r in receiver.accepted())


def test_a_reload_adds_a_webhook_on_every_process_of_processes_2(
    tmp_path: Path, receiver: Receiver
) -> None:
    config = write_config(tmp_path, models=["echo"])
    server = ServerProcess(config, free_port(), "--processes", "2")
    server.start(timeout_s=60)
    try:
        before = all_serving(server.address, 2)
        assert not before.reloads
        refused_unknown(server.address)
        document = with_webhook(config, receiver)
        began = time.monotonic()
        answer = reload(server.address)
        took = time.monotonic() - began
        assert answer.converged and answer.version == version_of(document), answer
        assert [p.version for p in answer.processes] == [answer.version] * 2
        assert list(answer.changed) == ["webhooks.ops"] and not answer.restart_required
        assert took < 1.5, took  # both processes serve it within a second or so
        run_ids = notify_and_complete(server.address, 8)
        delivered_to_all(receiver, run_ids)
        [recorded] = status(server.address).reloads
        assert recorded.reloaded_by == "alice" and list(recorded.changed) == ["webhooks.ops"]
        assert SECRET not in str(recorded)
    finally:
        assert server.terminate() == 0


def test_sighup_reloads_every_process_and_a_bad_file_changes_nothing(
    tmp_path: Path, receiver: Receiver
) -> None:
    config = write_config(tmp_path, models=["echo"])
    server = ServerProcess(config, free_port(), "--processes", "2")
    server.start(timeout_s=60)
    assert server.process is not None
    try:
        first = all_serving(server.address, 2).processes[0].version
        good = json.loads(config.read_text(encoding="utf-8"))
        config.write_text(json.dumps({**good, "modles": ["typo"]}), encoding="utf-8")
        server.process.send_signal(signal.SIGHUP)
        time.sleep(1.0)
        after_bad = status(server.address)
        assert not after_bad.reloads and {p.version for p in after_bad.processes} == {first}
        config.write_text(json.dumps(good), encoding="utf-8")
        document = with_webhook(config, receiver)
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            found = status(server.address)
            if found.reloads and {p.version for p in found.processes} == {version_of(document)}:
                break
            time.sleep(0.1)
        [recorded] = found.reloads
        assert recorded.reloaded_by == "signal:SIGHUP" and recorded.version == version_of(document)
        assert len(found.processes) == 2
        run_ids = notify_and_complete(server.address, 4)
        delivered_to_all(receiver, run_ids)
    finally:
        assert server.terminate() == 0


def test_a_reload_adds_a_webhook_on_two_postgres_replicas(
    tmp_path: Path, receiver: Receiver, postgres_cluster: Cluster
) -> None:
    url = postgres_cluster.create_database()
    configs = [write_config(tmp_path / f"r{i}", database_url=url) for i in range(2)]
    replicas = [ServerProcess(config, free_port()) for config in configs]
    for replica in replicas:
        replica.start(timeout_s=60)
    try:
        for replica in replicas:
            refused_unknown(replica.address)
        documents = [with_webhook(config, receiver) for config in configs]
        answer = reload(replicas[0].address)  # through the first replica only
        assert answer.converged and answer.version == version_of(documents[1])
        assert sorted(p.answering for p in answer.processes) == [False, True]
        assert {p.version for p in answer.processes} == {answer.version}
        run_ids = notify_and_complete(replicas[1].address, 3)  # the other replica
        run_ids += notify_and_complete(replicas[0].address, 1, "other")
        delivered_to_all(receiver, run_ids)
        assert len(status(replicas[1].address).reloads) == 1
    finally:
        for replica in replicas:
            assert replica.terminate() == 0


def test_praxis_admin_reload_and_config_at_80_columns(tmp_path: Path) -> None:
    from tests.support.cli_shell import COLUMNS, Shell, in_terminal

    config = write_config(tmp_path / "server", models=["echo"])
    server = ServerProcess(config, free_port())
    server.start(timeout_s=60)
    shell = Shell(server.address, tmp_path)
    try:
        good = json.loads(config.read_text(encoding="utf-8"))
        config.write_text(
            json.dumps({**good, "modles": ["x"], "log_level": "LOUD"}), encoding="utf-8"
        )
        refused = shell.run("admin", "reload")
        assert refused.code != 0 and "error: CONFIG_INVALID: " in refused.err, refused
        assert "  log_level: " in refused.err and "  modles: " in refused.err
        config.write_text(json.dumps({**good, "models": ["echo", "m-2"]}), encoding="utf-8")
        agent = shell.run("admin", "reload", who="agent")
        assert agent.code != 0 and "error: ACTION_NOT_GRANTED: " in agent.err, agent
        lines = in_terminal(shell, "admin", "reload")
        assert all(len(line) <= COLUMNS for line in lines), lines
        text = "\n".join(lines)
        assert "changed" in text and "models" in text and "converged" in text
        status = in_terminal(shell, "admin", "config")
        assert all(len(line) <= COLUMNS for line in status), status
        assert any("alice" in line and "models" in line for line in status), status
        listed = shell.ok("admin", "config", "--json").json()
        assert listed["reloads"][0]["reloaded_by"] == "alice"
        assert listed["reloads"][0]["changed"] == ["models"]
    finally:
        assert server.terminate() == 0


def test_sighup_reloads_a_single_server_process(tmp_path: Path) -> None:
    config = write_config(tmp_path, models=["echo"])
    server = ServerProcess(config, free_port())
    server.start(timeout_s=60)
    assert server.process is not None
    try:
        document = json.loads(config.read_text(encoding="utf-8"))
        document["models"] = ["echo", "m-2"]
        config.write_text(json.dumps(document), encoding="utf-8")
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 5
        found = status(server.address)
        while not found.reloads and time.monotonic() < deadline:
            time.sleep(0.1)
            found = status(server.address)
        [recorded] = found.reloads
        assert recorded.reloaded_by == "signal:SIGHUP" and list(recorded.changed) == ["models"]
        assert [p.version for p in found.processes] == [version_of(document)]
    finally:
        assert server.terminate() == 0
