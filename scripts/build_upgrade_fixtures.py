"""Rebuilds ``tests/fixtures/upgrades``: databases written by earlier servers, as SQL text.

Each fixture is a small SQLite database written by the server *as it was* at one commit
of this repository, through that server's public gRPC API, then dumped as SQL text
(``sqlite3.Connection.iterdump()``, ``<name>.sql``) with a manifest (``<name>.json``)
saying what it holds: the tokens to call with, the registry heads, history and
proposals, the runs and their nodes, the contract, the principals. The test
``tests/store/db/test_upgrades.py`` restores each dump, starts the current server on it
and checks through the API that the data survived the migrations.

For each fixture this script checks out the commit into a temporary worktree
(``git worktree add --detach``, removed afterwards), starts that commit's own server
(``python -m praxis.cli serve --config ... --listen 127.0.0.1:0 --test-clock T0``) with
``PYTHONPATH`` set to the old tree's ``server`` and ``clients/python`` (or
``clients/python/gen``: the server needs its own generated ``aiws``) and this
virtualenv's interpreter, and drives it with the current Python client (the contract
only ever gained fields and methods, so the current stubs speak to every old server).
What it writes depends on what the old server has, read from the migrations the old
server recorded (``schema_migrations``):

- always (migration 1, the registry): ref ``wo-up/flow`` registered (revision 1),
  proposal ``change-1`` activated (revision 2), proposal ``change-2`` left pending;
- migration 2 (runtime): a governed run of ``wo-up/flow`` (the head becomes bound) whose
  one node a worker claimed and completed (run COMPLETED), and an ad hoc fan-out run
  left RUNNING: ``split`` done, one item done, one item claimed under a 10-minute lease
  (its attempt id and worker id are in the manifest), one item ready, ``join`` pending;
- migration 3 (execution model): contract ``ct-up`` governs the finished run, whose task
  reported a cost of 250 microcredits;
- migration 10 (principals): ``carol`` created at runtime (then her token rotated; the
  manifest has the current and the old token) and ``dave`` created then revoked.

The servers run on a test clock (``--test-clock``) starting at T0, advanced 1 s between
steps; the manifest records the final time so the test can start the current server at
it (the claimed item's lease still held). After writing, the script records in the
manifest what the old server answers about that data, as the views of
``tests/support/upgrades.py`` put it; the test expects the same views of the
current server. What the servers generate (run, attempt and installation ids, created
principals' tokens, the approval digests that cover the installation id) differs from
one build to the next; the rest of a rebuilt fixture is the same.

Which commits (``name`` records the highest migration version the old server recorded;
the script checks it):

- v1 bdd6f20, v2 33eddd6, v3 149eff5: the commits that introduced migrations 1, 2, 3.
- v5 6e93dc8: migrations 4 and 5 came in this one commit; no server ever recorded
  exactly 1..4, so there is no v4.
- v6 b4f2d48, v7 624635f, v9 79e5bb9: the commits that introduced migrations 6, 7, 9.
- v8 2057bc2: migration 8 was introduced by fa6103e on a branch without migration 7
  (it records 1..6, 8, a gap no later server accepts); 2057bc2 merged it: 1..8.
- v10 9a77fdd: migration 10 was introduced by f34d3ec on a branch without 7..9 (it
  records 1..6, 10) and merged by b740778 without 9 (1..8, 10); 9a77fdd is the first
  commit of main whose server records 1..10.
- v10-a8b10a3: the commit that introduced ``store/node_times.py`` (migration 12). Nothing
  imports that module, so migration 12 is never registered, and migration 11 was still
  on its branch: this server records 1..10, but creates ``run_nodes`` (migration 7)
  from a table that already has ``started_at_ms``/``finished_at_ms`` and fills them.
- v11 ccb277a: the commit that introduced migration 11 (run traces), on a branch from
  before node_times.py: it records 1..11 and ``run_nodes`` lacks the time columns. This
  is the database a server that registers migration 12 must upgrade.
- v11-3f9a13f: main when these fixtures were made: it records 1..11 too (12 still
  unregistered) but its ``run_nodes`` has the time columns and its nodes have times.

- v13 8758285: main before governed execution (migration 14): records 1..13, the
  database a server with runs' deadlines and nodes' operations must upgrade.

No server ever recorded migration 12 alone, so there is no v12 fixture. Regenerate (a few
seconds per fixture; needs the commits in this repository's history)::

    make setup
    .venv/bin/python scripts/build_upgrade_fixtures.py            # every fixture
    .venv/bin/python scripts/build_upgrade_fixtures.py v7 v11     # some
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiws.engine.testing.v1 import clock_pb2
from aiws.engine.v1 import (
    approval_pb2,
    common_pb2,
    contract_pb2,
    principal_pb2,
    registry_pb2,
    run_pb2,
    task_pb2,
)
from praxis_client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the views the test compares (tests/support/upgrades.py)

from tests.support import upgrades as views  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "upgrades"
T0 = 1_800_000_000_000
STEP_MS = 1_000
LEASE_MS = 600_000
WORKER = "w-up"
COST = "250"
ITEMS = ["x", "y", "z"]

# Principals of the file every old server starts with (fixed, known tokens).
PRINCIPALS = {
    "alice": {"kind": "HUMAN", "token": "upgrade-token-alice", "actions": ["*"]},
    "agent": {"kind": "AGENT", "token": "upgrade-token-agent", "actions": ["*"]},
}


@dataclass(frozen=True)
class Fixture:
    name: str
    commit: str
    why: str


FIXTURES = (
    Fixture("v1", "bdd6f20", "introduced migration 1 (registry)"),
    Fixture("v2", "33eddd6", "introduced migration 2 (runtime)"),
    Fixture("v3", "149eff5", "introduced migration 3 (execution model: contracts)"),
    Fixture("v5", "6e93dc8", "introduced migrations 4 and 5 together (no server stopped at 4)"),
    Fixture("v6", "b4f2d48", "introduced migration 6 (principal reservations)"),
    Fixture("v7", "624635f", "introduced migration 7 (run nodes as rows)"),
    Fixture("v8", "2057bc2", "merged migration 8 (introduced by fa6103e without 7)"),
    Fixture("v9", "79e5bb9", "introduced migration 9 (attempt claimants)"),
    Fixture("v10", "9a77fdd", "first main commit recording 1..10 (f34d3ec introduced 10)"),
    Fixture(
        "v10-a8b10a3",
        "a8b10a3",
        "introduced node_times.py (12, never registered): records 1..10, run_nodes has times",
    ),
    Fixture("v11", "ccb277a", "introduced migration 11: records 1..11, run_nodes without times"),
    Fixture("v11-3f9a13f", "3f9a13f", "main: records 1..11 (12 unregistered), run_nodes has times"),
    Fixture("v13", "8758285", "main before governed execution: records 1..13"),
)

SPLIT_DEFINITION = {
    "version": 1,
    "nodes": {
        "split": {
            "agent": {
                "model": "echo",
                "output": {
                    "type": "json",
                    "schema": {"type": "object", "properties": {"items": {"type": "array"}}},
                },
            },
            "input": {"from": "run_input"},
        },
        "each": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "object"}}},
            "input": {"from": "fanout_item"},
            "depends_on": ["split"],
            "fanout": {"over": "node:split.items"},
        },
        "join": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "array"}}},
            "input": {"from": "node:each"},
            "depends_on": ["each"],
        },
    },
    "output": {"from": "node:join"},
}


def flow_definition(template: str) -> dict[str, Any]:
    """The registered workflow: one echo node with a JSON object output."""
    return {
        "version": 1,
        "nodes": {
            "a": {
                "agent": {
                    "model": "echo",
                    "output": {"type": "json", "schema": {"type": "object"}},
                },
                "input": {"from": "run_input", "template": template},
            }
        },
        "output": {"from": "node:a"},
    }


def principals_document(principals: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A principals file (the format has not changed since the first server)."""
    return {
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


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@contextmanager
def worktree(commit: str, parent: Path) -> Iterator[Path]:
    """The tree of ``commit`` in a temporary detached worktree."""
    tree = parent / "tree"
    git("worktree", "add", "--detach", str(tree), commit)
    try:
        yield tree
    finally:
        git("worktree", "remove", "--force", str(tree))


@contextmanager
def old_server(tree: Path, data: Path) -> Iterator[str]:
    """The commit's own ``praxis serve`` on ``data``; yields its address."""
    env = {
        **os.environ,
        # The generated aiws is in clients/python until b213f15, clients/python/gen after.
        "PYTHONPATH": os.pathsep.join(
            str(tree / folder) for folder in ("server", "clients/python/gen", "clients/python")
        ),
        "PYTHONUNBUFFERED": "1",
    }
    # The command line moved from praxis/cli.py to praxis/serve/cli.py (the layout).
    module = "praxis.serve.cli" if (tree / "server/praxis/serve/cli.py").exists() else "praxis.cli"
    cli = tree / "server" / (module.replace(".", "/") + ".py")
    argv = [sys.executable, "-m", module, "serve", "--config", str(data / "config.json")]
    argv += ["--listen", "127.0.0.1:0", "--test-clock", str(T0), "--log-level", "WARNING"]
    if "--processes" in cli.read_text(encoding="utf-8"):
        argv += ["--processes", "1"]
    stderr = (data / "server.err").open("w")
    process = subprocess.Popen(
        argv, cwd=data, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            process.wait()
            raise RuntimeError(f"old server exited: {(data / 'server.err').read_text()}")
        yield f"127.0.0.1:{json.loads(line)['port']}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # old servers could hang on SIGTERM (0ebe70e)
            process.kill()
            process.wait()
        stderr.close()


def recorded_migrations(database: Path) -> list[int]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        rows = connection.execute("SELECT version FROM schema_migrations ORDER BY version")
        return [int(version) for (version,) in rows]


def schema_of(database: Path) -> dict[str, list[str]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {
            table: [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }


class Writer:
    """Writes a fixture's data through the public API of a running old server."""

    def __init__(self, address: str, versions: list[int]) -> None:
        self.versions = versions
        self.clients = {pid: connect(address, e["token"]) for pid, e in PRINCIPALS.items()}
        self.now_ms = T0

    def close(self) -> None:
        for client in self.clients.values():
            client.close()

    def tick(self) -> None:
        """Advances the server's test clock (so that times differ between steps)."""
        reply = self.clients["alice"].test_clock.Advance(clock_pb2.AdvanceRequest(by_ms=STEP_MS))
        self.now_ms = reply.now_ms

    # Registry.

    def execute(self, principal: str, request_id: str, command: Any, approve: bool) -> Any:
        alice = self.clients["alice"]
        epochs = alice.registry.GetEpochs(
            registry_pb2.GetEpochsRequest(work_order_id=views.WORK_ORDER)
        ).epochs
        if approve:
            review = alice.registry.Review(
                registry_pb2.ReviewRequest(epochs=epochs, command=command)
            )
            kind = command.WhichOneof("command")
            alice.approvals.CreateApproval(
                approval_pb2.CreateApprovalRequest(
                    approval_id=getattr(command, kind).approval_id,
                    material_digest=review.material_digest,
                    expires_at_ms=self.now_ms + 3_600_000,
                    work_order_id=views.WORK_ORDER,
                )
            )
        self.tick()
        response = self.clients[principal].registry.Execute(
            registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command)
        )
        self.tick()
        return response

    def write_registry(self) -> None:
        digests = {"safety": "sha256:" + "a" * 64}
        self.execute(
            "alice",
            "req-register",
            registry_pb2.RegistryCommand(
                register=registry_pb2.RegisterCommand(
                    ref=views.flow_ref(),
                    definition_json=json.dumps(flow_definition("first")),
                    approval_id="ap-register",
                    policy_digests=digests,
                )
            ),
            approve=True,
        )
        for proposal_id, base, template in (("change-1", 1, "second"), ("change-2", 2, "third")):
            self.execute(
                "agent",
                f"req-{proposal_id}",
                registry_pb2.RegistryCommand(
                    propose=registry_pb2.ProposeCommand(
                        ref=views.flow_ref(),
                        proposal_id=proposal_id,
                        base_revision=base,
                        definition_json=json.dumps(flow_definition(template)),
                        policy_digests=digests,
                    )
                ),
                approve=False,
            )
            if proposal_id == "change-1":
                self.execute(
                    "alice",
                    "req-activate",
                    registry_pb2.RegistryCommand(
                        activate=registry_pb2.ActivateCommand(
                            ref=views.flow_ref(),
                            proposal_id="change-1",
                            base_revision=1,
                            next_revision=2,
                            approval_id="ap-activate",
                        )
                    ),
                    approve=True,
                )

    # Contract (migration 3).

    def write_contract(self) -> None:
        self.clients["alice"].contracts.CreateContract(
            contract_pb2.CreateContractRequest(
                contract_id=views.CONTRACT,
                work_order_id=views.WORK_ORDER,
                criteria_json=json.dumps({"must": ["echo the input"]}),
                deadline_ms=T0 + 30 * 86_400_000,
                budget_microcredits="1000000",
                profile="aiws.v1",
            )
        )
        self.tick()

    # Runtime (migration 2).

    def claim(self, max_tasks: int, lease_ms: int = 30_000) -> list[Any]:
        tasks = list(
            self.clients["agent"]
            .tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id=WORKER,
                    models=["echo"],
                    max_tasks=max_tasks,
                    lease_ms=lease_ms,
                    wait_ms=0,
                )
            )
            .tasks
        )
        self.tick()
        return tasks

    def complete(self, task: Any, result: Any, cost: str = "") -> None:
        self.clients["agent"].tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id,
                worker_id=WORKER,
                result_json=json.dumps(result),
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                cost_microcredits=cost,
            )
        )
        self.tick()

    def write_runs(self, contract: bool) -> dict[str, Any]:
        runs = self.clients["agent"].runs
        finished = runs.StartRun(
            run_pb2.StartRunRequest(
                request_id="start-finished",
                ref=views.flow_ref(),
                input_json=json.dumps({"question": "finished"}),
                contract_id=views.CONTRACT if contract else "",
            )
        ).run
        self.tick()
        [task] = self.claim(1)
        assert task.run_id == finished.run_id and task.node_uid == "a", task
        self.complete(task, {"answer": 42}, COST if contract else "")
        running = runs.StartRun(
            run_pb2.StartRunRequest(
                request_id="start-running",
                definition_json=json.dumps(SPLIT_DEFINITION),
                input_json=json.dumps({"question": "running"}),
            )
        ).run
        self.tick()
        [split] = self.claim(1)
        assert split.node_uid == "split", split
        self.complete(split, {"items": ITEMS})
        first, second = self.claim(2, lease_ms=LEASE_MS)
        self.complete(first, {"echo": json.loads(first.input_json)})
        return {
            "finished": {"run_id": finished.run_id, "request_id": "start-finished"},
            "running": {
                "run_id": running.run_id,
                "request_id": "start-running",
                "items": ITEMS,
                "leased": {
                    "node_uid": second.node_uid,
                    "attempt_id": second.attempt_id,
                    "worker_id": WORKER,
                    "input": json.loads(second.input_json),
                    "lease_expires_at_ms": second.lease_expires_at_ms,
                },
            },
        }

    # Principals (migration 10).

    def write_principals(self) -> dict[str, Any]:
        principals = self.clients["alice"].principals
        grant = principal_pb2.Grant(actions=["registry.read", "run.read"], work_orders=["*"])
        created = {}
        for pid in ("carol", "dave"):
            created[pid] = principals.CreatePrincipal(
                principal_pb2.CreatePrincipalRequest(
                    principal_id=pid, kind=common_pb2.PRINCIPAL_KIND_AGENT, grants=[grant]
                )
            ).token
            self.tick()
        rotated = principals.RotatePrincipalToken(
            principal_pb2.RotatePrincipalTokenRequest(principal_id="carol")
        ).token
        self.tick()
        principals.RevokePrincipal(
            principal_pb2.RevokePrincipalRequest(principal_id="dave", reason="left the project")
        )
        self.tick()
        return {
            "carol": {"token": rotated, "old_token": created["carol"]},
            "dave": {"token": created["dave"]},
        }

    def write(self) -> dict[str, Any]:
        runtime, contract, principals = (v in self.versions for v in (2, 3, 10))
        self.write_registry()
        if contract:
            self.write_contract()
        manifest: dict[str, Any] = {}
        if runtime:
            manifest["runs"] = self.write_runs(contract)
        if principals:
            manifest["created_principals"] = self.write_principals()
        # What the old server answers now: the test expects the same of the new one.
        alice = self.clients["alice"]
        manifest["registry"] = views.registry_view(alice)
        if contract:
            manifest["contract"] = views.contract_view(alice)
        if runtime:
            for run in manifest["runs"].values():
                run["answer"] = views.run_view(alice, run["run_id"])
        if principals:
            for pid, entry in manifest["created_principals"].items():
                entry["answer"] = views.principal_view(alice, pid)
        manifest["clock_ms"] = self.now_ms
        return manifest


def build(fixture: Fixture) -> None:
    commit = git("rev-parse", f"{fixture.commit}^{{commit}}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"upgrade-{fixture.name}-") as scratch:
        parent = Path(scratch)
        data = parent / "data"
        data.mkdir()
        (data / "principals.json").write_text(json.dumps(principals_document(PRINCIPALS)))
        config = {
            "database_url": "sqlite:///praxis.db",
            "principals_path": "principals.json",
            "models": ["echo"],
        }
        (data / "config.json").write_text(json.dumps(config))
        database = data / "praxis.db"
        with worktree(commit, parent) as tree, old_server(tree, data) as address:
            versions = recorded_migrations(database)
            writer = Writer(address, versions)
            try:
                written = writer.write()
            finally:
                writer.close()
        versions = recorded_migrations(database)
        highest = int(re.match(r"v(\d+)", fixture.name).group(1))  # type: ignore[union-attr]
        if versions != list(range(1, highest + 1)):
            raise SystemExit(f"{fixture.name}: {commit} recorded migrations {versions}")
        schema = schema_of(database)
        with sqlite3.connect(database) as connection:
            dump = "\n".join(connection.iterdump()) + "\n"
    manifest = {
        "name": fixture.name,
        "commit": commit,
        "subject": git("log", "-1", "--format=%s", commit)[:200],
        "why": fixture.why,
        "recorded_migrations": versions,
        "run_nodes_columns": schema.get("run_nodes", []),
        "tables": sorted(schema),
        "principals": PRINCIPALS,
        **written,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{fixture.name}.sql").write_text(dump, encoding="utf-8")
    (OUT / f"{fixture.name}.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(
        f"{fixture.name}: {commit[:7]} migrations 1..{versions[-1]}, "
        f"{len(dump):,} bytes of SQL, {time.monotonic() - started:.1f} s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="fixtures to rebuild (default: all)")
    args = parser.parse_args(argv)
    known: dict[str, Fixture] = {fixture.name: fixture for fixture in FIXTURES}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown fixtures {unknown}; known: {sorted(known)}")
    for name in args.names or list(known):
        build(known[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
