"""The configuration reloaded without a restart (issue 42, item 2), in-process.

ReloadConfig re-reads the server's config file, validates all of it first (a bad file
changes nothing and names every problem by its JSON path), applies the live part
(webhooks, models, limits, retention, logging level), names the keys that need a
restart, records who reloaded and which keys changed (never a secret), and every server
of the installation follows within a second. The end-to-end tests with real server
processes are in tests/e2e/test_config_reload.py.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import config_pb2, run_pb2
from praxis.core import webhooks
from praxis.core.reload import version_of
from praxis.serve.cli import config_reader
from praxis.serve.config import read
from praxis_client import error_details
from tests.support.harness import T0, Harness, expect_error, start_server, write_principals
from tests.support.runtime import claim, complete, definition, node
from tests.support.webhooks import SECRET, new_secret

BASE: dict[str, Any] = {
    "database_url": "sqlite:///praxis.db",
    "principals_path": "principals.json",
    "models": ["echo"],
}


def write(path: Path, **changes: Any) -> dict[str, Any]:
    document = {**BASE, **changes}
    path.write_text(json.dumps(document), encoding="utf-8")
    return document


def serving(database: Path | str, config: Path, clock: Any = None) -> Harness:
    """A server started from ``config`` (its live part), on ``database``."""
    loaded = read(config)
    return start_server(
        database,
        clock,
        models=loaded.config.models,
        limits=loaded.config.limits,
        webhooks=loaded.config.webhooks,
        config_reader=config_reader(config),
        config_document=loaded.document,
    )


@pytest.fixture
def config(tmp_path: Path) -> Path:
    write_principals(tmp_path / "principals.json")
    path = tmp_path / "config.json"
    write(path)
    return path


@pytest.fixture
def served(database: Path | str, config: Path) -> Iterator[Harness]:
    level = logging.getLogger().level  # a reload may set it (log_level)
    running = serving(database, config)
    try:
        yield running
    finally:
        running.close()
        logging.getLogger().setLevel(level)


def reload(h: Harness, principal: str = "alice", **fields: Any) -> config_pb2.ReloadConfigResponse:
    request = config_pb2.ReloadConfigRequest(**fields)
    return h.client(principal).admin.ReloadConfig(request)  # type: ignore[no-any-return]


def status(h: Harness) -> config_pb2.GetConfigStatusResponse:
    request = config_pb2.GetConfigStatusRequest()
    return h.client("alice").admin.GetConfigStatus(request)  # type: ignore[no-any-return]


def start(h: Harness, model: str, request_id: str, **fields: Any) -> run_pb2.StartRunResponse:
    plan = definition("a", a=node(model=model))
    return h.client("agent").runs.StartRun(  # type: ignore[no-any-return]
        run_pb2.StartRunRequest(request_id=request_id, definition_json=json.dumps(plan), **fields)
    )


BACKENDS = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


@BACKENDS
def test_a_reload_applies_models_limits_and_webhooks_and_names_restart_keys(
    served: Harness, config: Path
) -> None:
    before = status(served)
    [process] = before.processes
    assert process.answering and process.version == version_of(BASE)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        start(served, "m-new", "r-0")  # not a known model yet
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "NOTIFY_DESTINATION_UNKNOWN"):
        start(served, "echo", "r-1", notify=run_pb2.RunNotify(webhooks=["ops"]))
    document = write(
        config,
        models=["echo", "m-new"],
        limits={"max_run_nodes": 50},
        webhooks={"ops": {"url": "http://127.0.0.1:9/hook", "secret": SECRET}},
        log_level="DEBUG",
        database_url="sqlite:///elsewhere.db",
        serving={"executor_threads": 4},
    )
    answer = reload(served)
    assert answer.version == version_of(document) and answer.previous_version == version_of(BASE)
    assert list(answer.changed) == ["limits.max_run_nodes", "log_level", "models", "webhooks.ops"]
    assert list(answer.restart_required) == ["database_url", "serving.executor_threads"]
    assert answer.converged and [p.version for p in answer.processes] == [answer.version]
    assert logging.getLogger().level == logging.DEBUG
    assert start(served, "m-new", "r-2").created  # no restart
    assert start(served, "echo", "r-3", notify=run_pb2.RunNotify(webhooks=["ops"])).created
    after = status(served)
    assert after.version == answer.version
    [recorded] = after.reloads
    assert recorded.reloaded_by == "alice" and recorded.version == answer.version
    assert list(recorded.changed) == list(answer.changed)
    assert list(recorded.restart_required) == list(answer.restart_required)


@BACKENDS
def test_a_bad_config_changes_nothing_and_lists_every_problem(
    served: Harness, config: Path
) -> None:
    write(
        config,
        models=["echo", "m-new"],  # valid, but the file as a whole is not: not applied
        modles=["typo"],
        limits={"max_run_nodes": "many"},
        webhooks={
            "ops": {"url": "http://u:pw@127.0.0.1/hook", "secret": SECRET},
            "bad name": {"url": "http://127.0.0.1/x", "secret": SECRET},
            "nosecret": {"url": "http://127.0.0.1/x", "secret": "plain"},
        },
        retention={"keep_finished_ms": -1},
        log_level="LOUD",
        notifications={"concurrency": 0},
    )
    with pytest.raises(grpc.RpcError) as refused:
        reload(served)
    details = error_details(refused.value)
    assert (details.code, details.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "CONFIG_INVALID")
    assert sorted(field for field, _ in details.field_violations) == [
        "limits.max_run_nodes",
        "log_level",
        "modles",
        "notifications",
        "retention",
        "webhooks.bad name",
        "webhooks.nosecret",
        "webhooks.ops",
    ]
    assert "pw@" not in str(details.field_violations) and SECRET not in str(details)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        start(served, "m-new", "r-0")  # nothing was applied
    after = status(served)
    assert not after.reloads and [p.version for p in after.processes] == [version_of(BASE)]
    config.write_text("{not json", encoding="utf-8")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "CONFIG_INVALID"):
        reload(served)


@BACKENDS
def test_a_changed_secret_is_named_never_shown(served: Harness, config: Path) -> None:
    first = {"ops": {"url": "http://127.0.0.1:9/hook", "secret": SECRET}}
    write(config, webhooks=first)
    reload(served)
    other = new_secret()
    write(config, webhooks={"ops": {"url": "http://127.0.0.1:9/hook", "secret": other}})
    answer = reload(served)
    assert list(answer.changed) == ["webhooks.ops"]
    assert served.server.deliverer is not None  # made by the first reload, signing anew
    assert served.server.deliverer.destinations["ops"].key == webhooks.secret_key(other)
    text = str(status(served)) + str(answer)
    for secret in (SECRET, other):
        assert secret not in text and secret.removeprefix("whsec_") not in text
    again = reload(served)  # the same file: a reload that changes nothing, still recorded
    assert not again.changed and again.version == again.previous_version
    assert [r.reloaded_by for r in status(served).reloads] == ["alice"] * 3


@BACKENDS
def test_reloading_is_a_humans_decision(served: Harness) -> None:
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        reload(served, "rogue")  # an agent with every grant
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        reload(served, "reader")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "TIME_INVALID"):
        reload(served, wait_ms=60_000)
    assert not status(served).reloads


def test_a_server_without_a_config_file_cannot_reload(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "CONFIG_NOT_RELOADABLE"):
        reload(harness)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_every_replica_follows_a_reload_within_a_second(database: str, tmp_path: Path) -> None:
    """Two replicas on one PostgreSQL database, each with its own copy of the file: a
    reload through one is applied by the other (LISTEN/NOTIFY), and the answer lists both
    at the new version."""
    from praxis.clock import TestClock

    clock = TestClock(T0)
    paths = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        write_principals(tmp_path / name / "principals.json")
        paths.append(tmp_path / name / "config.json")
        write(paths[-1])
    first, second = serving(database, paths[0], clock), serving(database, paths[1], clock)
    try:
        for path in paths:
            document = write(path, models=["echo", "m-new"])
        began = time.monotonic()
        answer = reload(first)
        assert time.monotonic() - began < 1.5
        assert answer.converged and answer.version == version_of(document)
        assert sorted(p.answering for p in answer.processes) == [False, True]
        assert {p.version for p in answer.processes} == {version_of(document)}
        assert start(second, "m-new", "r-1").created  # through the other replica
        assert len(status(second).reloads) == 1  # recorded once, by the one reloaded
    finally:
        first.close()
        second.close()


@BACKENDS
def test_a_reload_removes_a_destination_and_sets_a_retention_policy(
    served: Harness, config: Path
) -> None:
    write(config, webhooks={"ops": {"url": "http://127.0.0.1:9/hook", "secret": SECRET}})
    reload(served)
    assert start(served, "echo", "r-1", notify=run_pb2.RunNotify(webhooks=["ops"])).created
    assert served.server.sweeper.archive is None  # no policy: nothing is archived
    write(config, retention={"keep_finished_ms": 60_000})
    answer = reload(served)
    assert list(answer.changed) == ["retention.keep_finished_ms", "webhooks.ops"]
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "NOTIFY_DESTINATION_UNKNOWN"):
        start(served, "echo", "r-2", notify=run_pb2.RunNotify(webhooks=["ops"]))
    archive = served.server.sweeper.archive  # the sweeper archives under the new policy
    assert archive is not None and archive.policy.keep_finished_ms == 60_000


@BACKENDS
def test_reloaded_limits_bind_the_next_task_result(served: Harness, config: Path) -> None:
    start(served, "echo", "r-1")
    [task] = claim(served)
    write(config, limits={"max_result_bytes": 64})
    assert list(reload(served).changed) == ["limits.max_result_bytes"]
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "RESULT_TOO_LARGE"):
        complete(served, task, "x" * 100)
    assert complete(served, task, "small")


@BACKENDS
def test_a_process_gone_elsewhere_stops_being_waited_for(served: Harness, config: Path) -> None:
    """A replica that crashed on another machine leaves its row: once it is not rewritten
    for STALE_MS it is no longer listed nor waited for, and a start removes it."""
    from praxis.store.controls import rows as controls
    from praxis.store.execution import configuration

    engine = served.server.engine
    now = int(time.time() * 1000)
    for name, seen in (("other-host:1:1.a", now), ("other-host:2:1.b", now - 200_000)):
        row = {"process_id": name, "version": "sha256:old", "applied_at_ms": 1, "seen_at_ms": seen}
        with engine.db.write() as connection:
            controls.put_meta(connection, configuration._key(name), json.dumps(row))
    listed = [p.process_id for p in status(served).processes]
    assert "other-host:1:1.a" in listed and "other-host:2:1.b" not in listed
    write(config, models=["echo", "m-2"])
    began = time.monotonic()
    answer = reload(served, wait_ms=500)
    assert not answer.converged and time.monotonic() - began >= 0.5  # the live one lags
    assert {p.process_id for p in answer.processes if p.version == "sha256:old"} == {
        "other-host:1:1.a"
    }
    engine.config.sweep_gone()
    with engine.db.read() as connection:
        assert controls.get_meta(connection, configuration._key("other-host:2:1.b")) is None
        assert controls.get_meta(connection, configuration._key("other-host:1:1.a"))
