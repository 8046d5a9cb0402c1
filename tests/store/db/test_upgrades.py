"""Upgrades: a database written by an earlier server starts on this one, its data intact.

Each fixture of ``tests/fixtures/upgrades`` (built by ``scripts/build_upgrade_fixtures.py``
from the server of an earlier commit; its manifest says which and what it holds) is
restored into a SQLite file, and the current ``praxis serve`` is started on it as a
subprocess, on a test clock at the time the fixture was written. The server migrates it;
then, through the public API only, the test checks the registry (head, history,
proposals, approval), the contract, the runs (the finished one as it was; the running
one as it was, then driven to completion: its leased attempt still settles, its ready
item is claimed), and the principals (the file's principals present, a principal
created at runtime works with its rotated token, its old token and a revoked
principal's are refused with their reasons). Once the server has stopped, the database
must record every migration the server knows, with no gap, and have the schema of a
database the server creates fresh: the same tables, columns (declared type, NOT NULL,
default, primary key) and indexes. The newest version is taken from such a fresh
database, never written here.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, principal_pb2, registry_pb2, run_pb2, task_pb2
from praxis_client import Client, connect, error_details
from tests.support import upgrades as views
from tests.support.server_process import ServerProcess, free_port, kill_leftovers

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "upgrades"


def _order(name: str) -> tuple[int, str]:
    match = re.fullmatch(r"v(\d+)(.*)", name)
    assert match, name
    return int(match[1]), match[2]


NAMES = sorted((path.stem for path in FIXTURES.glob("*.json")), key=_order)


@dataclass(frozen=True)
class Schema:
    versions: list[int]
    """The recorded migrations, in order."""
    tables: dict[str, dict[str, tuple[Any, ...]]]
    """Each table's columns: name -> (declared type, not null, default, primary key)."""
    indexes: dict[str, tuple[str, str | None]]
    """Each index: name -> (table, its CREATE INDEX statement; None for automatic ones)."""


def read_schema(database: Path) -> Schema:
    """The recorded migrations, tables, columns and indexes, read with sqlite3."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        versions = [
            int(version)
            for (version,) in connection.execute(
                "SELECT version FROM schema_migrations ORDER BY version"
            )
        ]
        catalog = connection.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%'"
        ).fetchall()
        tables = {
            name: {
                column: (declared, notnull, default, pk)
                for _, column, declared, notnull, default, pk in connection.execute(
                    f"PRAGMA table_info({name})"
                )
            }
            for kind, name, _, _ in catalog
            if kind == "table" and name != "sqlite_sequence"
        }
        indexes = {name: (table, sql) for kind, name, table, sql in catalog if kind == "index"}
    finally:
        connection.close()
    return Schema(versions, tables, indexes)


def write_config(directory: Path, principals: dict[str, dict[str, Any]]) -> Path:
    """A config and a principals file (the manifest's principals and tokens)."""
    document = {
        "version": 1,
        "principals": [
            {
                "id": pid,
                "kind": entry["kind"],
                "token_sha256": hashlib.sha256(entry["token"].encode()).hexdigest(),
                "expires_at_ms": 0,
                "grants": [{"actions": entry["actions"], "work_orders": ["*"]}],
            }
            for pid, entry in principals.items()
        ],
    }
    (directory / "principals.json").write_text(json.dumps(document), encoding="utf-8")
    config = directory / "config.json"
    settings = {"database_url": "sqlite:///praxis.db", "principals_path": "principals.json"}
    config.write_text(json.dumps(settings), encoding="utf-8")
    return config


@pytest.fixture(autouse=True)
def _no_leftover_servers() -> Iterator[None]:
    yield
    kill_leftovers()


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Schema:
    """The schema the current server gives a database it creates."""
    directory = tmp_path_factory.mktemp("fresh")
    token = {"kind": "HUMAN", "token": "fresh-token", "actions": ["*"]}
    server = ServerProcess(write_config(directory, {"alice": token}), free_port())
    try:
        server.start()
        assert server.terminate() == 0
    finally:
        kill_leftovers()
    return read_schema(directory / "praxis.db")


def refused(call: Any) -> tuple[grpc.StatusCode, str]:
    """The code and reason of a call expected to fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    details = error_details(caught.value)
    return details.code, details.reason


def check_runs(agent: Client, alice: Client, runs: dict[str, Any]) -> None:
    """The runs read as the old server answered; the running one then finishes."""
    for run in runs.values():
        assert views.run_view(alice, run["run_id"]) == run["answer"]
    running = runs["running"]
    leased = running["leased"]
    agent.tasks.CompleteTask(
        task_pb2.CompleteTaskRequest(
            attempt_id=leased["attempt_id"],
            worker_id=leased["worker_id"],
            result_json=json.dumps({"echo": leased["input"]}),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
    )
    check_work_orders(agent, alice, runs)
    for expected in ("each#2", "join"):
        claimed = agent.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id=leased["worker_id"], models=["echo"], max_tasks=10, lease_ms=60_000
            )
        ).tasks
        assert [task.node_uid for task in claimed] == [expected]
        [task] = claimed
        result: Any = {"echo": json.loads(task.input_json)}
        if expected == "join":
            assert json.loads(task.input_json) == [{"echo": item} for item in running["items"]]
            result = ["joined"]
        agent.tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id,
                worker_id=leased["worker_id"],
                result_json=json.dumps(result),
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )
    done = views.run_view(alice, running["run_id"])
    assert (done["state"], done["result"]) == ("RUN_STATE_COMPLETED", ["joined"])


def check_work_orders(agent: Client, alice: Client, runs: dict[str, Any]) -> None:
    """Migration 16: each old run belongs to a work order (its ref's or contract's, else
    the default one), and so do its ready rows: pausing it stops their dispatch."""
    for run in runs.values():
        answer = run["answer"]
        found = alice.runs.GetRun(run_pb2.GetRunRequest(run_id=run["run_id"])).run
        expected = answer["ref"]["work_order_id"] or ("" if answer["contract_id"] else "default")
        if expected:
            assert found.work_order_id == expected, run["run_id"]
    running = runs["running"]
    assert not running["answer"]["ref"]["work_order_id"] and not running["answer"]["contract_id"]
    claim = task_pb2.ClaimTasksRequest(
        worker_id=running["leased"]["worker_id"], models=["echo"], max_tasks=10, lease_ms=60_000
    )
    alice.admin.PauseWorkOrder(admin_pb2.PauseWorkOrderRequest(work_order_id="default"))
    assert not agent.tasks.ClaimTasks(claim).tasks  # its ready item waits
    alice.admin.ResumeWorkOrder(admin_pb2.ResumeWorkOrderRequest(work_order_id="default"))


def check_principals(address: str, alice: Client, manifest: dict[str, Any]) -> None:
    """The file's principals are stored; the runtime ones work or are refused as before."""
    listed = alice.principals.ListPrincipals(
        principal_pb2.ListPrincipalsRequest(include_revoked=True)
    ).principals
    ids = {principal.principal_id for principal in listed}
    assert set(manifest["principals"]) <= ids
    created = manifest.get("created_principals", {})
    assert set(created) <= ids
    for pid, entry in created.items():
        assert views.principal_view(alice, pid) == entry["answer"]
    if not created:
        return
    head = registry_pb2.GetHeadRequest(ref=views.flow_ref())
    with connect(address, created["carol"]["token"]) as carol:
        assert (
            carol.registry.GetHead(head).head.revision == manifest["registry"]["head"]["revision"]
        )
    with connect(address, created["carol"]["old_token"]) as stale:
        assert refused(lambda: stale.registry.GetHead(head)) == (
            grpc.StatusCode.UNAUTHENTICATED,
            "CREDENTIAL_INVALID",
        )
    with connect(address, created["dave"]["token"]) as dave:
        assert refused(lambda: dave.registry.GetHead(head)) == (
            grpc.StatusCode.UNAUTHENTICATED,
            "CREDENTIAL_REVOKED",
        )


def propose_again(agent: Client, alice: Client, head_revision: int) -> None:
    """The migrated registry takes a new command."""
    epochs = alice.registry.GetEpochs(
        registry_pb2.GetEpochsRequest(work_order_id=views.WORK_ORDER)
    ).epochs
    definition = {
        "version": 1,
        "nodes": {"a": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
        "output": {"from": "node:a"},
    }
    receipt = agent.registry.Execute(
        registry_pb2.ExecuteRequest(
            epochs=epochs,
            request_id="req-after-upgrade",
            command=registry_pb2.RegistryCommand(
                propose=registry_pb2.ProposeCommand(
                    ref=views.flow_ref(),
                    proposal_id="after-upgrade",
                    base_revision=head_revision,
                    definition_json=json.dumps(definition),
                    policy_digests={"safety": "sha256:" + "a" * 64},
                )
            ),
        )
    ).receipt
    assert receipt.action == registry_pb2.REGISTRY_ACTION_PROPOSE
    history = views.registry_view(alice)["history"]
    assert history[-1]["proposal_id"] == "after-upgrade"


@pytest.mark.parametrize("name", NAMES)
def test_upgrade_keeps_the_data(name: str, tmp_path: Path, fresh: Schema) -> None:
    manifest = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    database = tmp_path / "praxis.db"
    connection = sqlite3.connect(database)
    try:
        connection.executescript((FIXTURES / f"{name}.sql").read_text(encoding="utf-8"))
    finally:
        connection.close()
    assert read_schema(database).versions == manifest["recorded_migrations"]

    config = write_config(tmp_path, manifest["principals"])
    clock = str(manifest["clock_ms"])
    # ServerProcess passes --log-level WARNING, which loses a refusal to start: the
    # server writes it to stderr, relayed as an INFO record (praxis.logs). INFO keeps it
    # (a few hundred bytes of stderr when the server starts).
    server = ServerProcess(config, free_port(), "--test-clock", clock, "--log-level", "INFO")
    try:
        server.start()
    except RuntimeError as error:
        pytest.fail(
            f"the current server refused {name} (migrations {manifest['recorded_migrations']} "
            f"recorded by the server of {manifest['commit'][:7]}): {error}"
        )
    tokens = {pid: entry["token"] for pid, entry in manifest["principals"].items()}
    with (
        connect(server.address, tokens["alice"]) as alice,
        connect(server.address, tokens["agent"]) as agent,
    ):
        registry = manifest["registry"]
        assert views.registry_view(alice) == registry
        if "contract" in manifest:
            assert views.contract_view(alice) == manifest["contract"]
        if "runs" in manifest:
            check_runs(agent, alice, manifest["runs"])
        check_principals(server.address, alice, manifest)
        propose_again(agent, alice, registry["head"]["revision"])
    assert server.terminate() == 0

    upgraded = read_schema(database)
    newest = max(fresh.versions)
    assert fresh.versions == list(range(1, newest + 1))
    assert upgraded.versions == fresh.versions
    assert upgraded.tables == fresh.tables
    assert upgraded.indexes == fresh.indexes
