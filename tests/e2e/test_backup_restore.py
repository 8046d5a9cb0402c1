"""``praxis admin backup`` and ``restore`` against real server processes.

A backup taken under a write load restores to a server that serves every write
acknowledged before the backup began and passes ``integrity_check``; a snapshot of a newer
schema, or of another installation, is refused; a principal revoked or rotated after the
snapshot stays so after the restore (the principal journal); a restored database holds an
installation-wide restore hold from its first moment (unless ``--no-hold``), which refuses
starts and registry commands until an admin clears it.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import admin_pb2, approval_pb2, common_pb2, principal_pb2, registry_pb2, run_pb2
from praxis_client import Client, connect
from tests.support.cli_shell import Shell
from tests.support.crash import PLAN
from tests.support.harness import expect_error, token_of
from tests.support.registry import command_ref, ref, register_cmd
from tests.support.server_process import ServerProcess, free_port, write_config


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    """``praxis admin ...`` as its own process."""
    return subprocess.run(
        [sys.executable, "-m", "praxis.serve.cli", "admin", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def code_of(call: object) -> grpc.StatusCode | None:
    try:
        call()  # type: ignore[operator]
    except grpc.RpcError as error:
        return error.code()  # type: ignore[no-any-return]
    return None


def integrity(database: Path) -> list[str]:
    with sqlite3.connect(database) as connection:
        return [row[0] for row in connection.execute("PRAGMA integrity_check")]


def test_a_backup_under_load_restores_every_acknowledged_write(tmp_path: Path) -> None:
    config = write_config(tmp_path / "data")
    server = ServerProcess(config, free_port())
    server.start()
    acknowledged: list[tuple[str, float]] = []  # (run id, when its StartRun answered)
    stop = threading.Event()

    def load() -> None:
        client = connect(server.address, token_of("agent"))
        index = 0
        while not stop.is_set():
            response = client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"load-{index}", definition_json=json.dumps(PLAN)
                ),
                timeout=10,
            )
            acknowledged.append((response.run.run_id, time.monotonic()))
            index += 1
        client.close()

    writer = threading.Thread(target=load)
    writer.start()
    try:
        while len(acknowledged) < 20:
            time.sleep(0.05)
        began = time.monotonic()
        taken = admin("backup", "--config", str(config), "--to", str(tmp_path / "snap.db"))
        ended = time.monotonic()
        assert taken.returncode == 0, taken.stderr
        count = len(acknowledged)
        while len(acknowledged) < count + 10:  # writes the snapshot cannot hold
            time.sleep(0.05)
        # A restore never replaces the file under a running server.
        running = admin("restore", "--config", str(config), "--from", str(tmp_path / "snap.db"))
        assert running.returncode == 6
        assert running.stderr.startswith("error: SERVER_RUNNING:")
    finally:
        stop.set()
        writer.join()
    manifest = json.loads(taken.stdout)["manifest"]
    assert manifest["schema_version"] >= 17
    assert manifest["installation_id"]
    assert (tmp_path / "snap.db.manifest.json").exists()
    assert server.terminate() == 0

    restored = admin("restore", "--config", str(config), "--from", str(tmp_path / "snap.db"))
    assert restored.returncode == 0, restored.stderr
    result = json.loads(restored.stdout)
    assert result["previous"] and Path(result["previous"]).exists()  # moved aside, kept
    database = tmp_path / "data" / "praxis.db"
    assert integrity(database) == ["ok"]
    with sqlite3.connect(database) as connection:
        runs = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    assert runs == manifest["counts"]["runs"]

    server.start()
    client = connect(server.address, token_of("agent"))
    before = [run_id for run_id, at in acknowledged if at < began]
    after = [run_id for run_id, at in acknowledged if at > ended]
    assert len(before) >= 20 and after
    for run_id in before:
        client.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), timeout=10)
    # The restored database is the snapshot: writes made after it are not there.
    missing = code_of(lambda: client.runs.GetRun(run_pb2.GetRunRequest(run_id=after[-1])))
    assert missing == grpc.StatusCode.NOT_FOUND
    assert runs < len(acknowledged)
    client.close()
    assert server.terminate() == 0


def test_a_snapshot_of_a_newer_schema_or_another_installation_is_refused(
    tmp_path: Path,
) -> None:
    first = write_config(tmp_path / "first")
    second = write_config(tmp_path / "second")
    for config in (first, second):
        server = ServerProcess(config, free_port())
        server.start()
        assert server.terminate() == 0
    database = tmp_path / "first" / "praxis.db"
    with sqlite3.connect(database) as connection:  # as a newer server would have left it
        connection.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
    taken = admin("backup", "--config", str(first), "--to", str(tmp_path / "newer.db"))
    assert taken.returncode == 0, taken.stderr
    refused = admin("restore", "--config", str(second), "--from", str(tmp_path / "newer.db"))
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: SCHEMA_NEWER:")
    assert not list((tmp_path / "second").glob("praxis.db.before-restore-*"))  # untouched

    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM schema_migrations WHERE version = 999")
    taken = admin("backup", "--config", str(first), "--to", str(tmp_path / "first.db"))
    assert taken.returncode == 0, taken.stderr
    other = admin("restore", "--config", str(second), "--from", str(tmp_path / "first.db"))
    assert other.returncode == 2
    assert other.stderr.startswith("error: INSTALLATION_MISMATCH:")
    allowed = admin(
        "restore", "--config", str(second), "--from", str(tmp_path / "first.db"),
        "--allow-other-installation",
    )  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr
    server = ServerProcess(second, free_port())
    server.start()  # the marker now names the restored installation
    assert server.terminate() == 0

    (tmp_path / "first.db").write_bytes(b"not this")  # a damaged snapshot
    damaged = admin("restore", "--config", str(first), "--from", str(tmp_path / "first.db"))
    assert damaged.returncode == 2
    assert damaged.stderr.startswith("error: SNAPSHOT_INVALID:")


def _principal(client: object, principal_id: str) -> str:
    response = client.principals.CreatePrincipal(  # type: ignore[attr-defined]
        principal_pb2.CreatePrincipalRequest(
            principal_id=principal_id,
            kind=common_pb2.PRINCIPAL_KIND_AGENT,
            grants=[principal_pb2.Grant(actions=["run.read"], work_orders=["*"])],
        ),
        timeout=10,
    )
    return str(response.token)


def _lists_runs(address: str, token: str) -> grpc.StatusCode | None:
    client = connect(address, token)
    try:
        return code_of(lambda: client.runs.ListRuns(run_pb2.ListRunsRequest(), timeout=10))
    finally:
        client.close()


def test_a_credential_revoked_or_rotated_after_the_snapshot_stays_refused(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path / "data")
    server = ServerProcess(config, free_port())
    server.start()
    admin_client = connect(server.address, token_of("alice"))
    revoked = _principal(admin_client, "carol")
    rotated = _principal(admin_client, "dave")
    taken = admin("backup", "--config", str(config), "--to", str(tmp_path / "snap.db"))
    assert taken.returncode == 0, taken.stderr
    admin_client.principals.RevokePrincipal(
        principal_pb2.RevokePrincipalRequest(principal_id="carol", reason="left"), timeout=10
    )
    fresh = admin_client.principals.RotatePrincipalToken(
        principal_pb2.RotatePrincipalTokenRequest(principal_id="dave"), timeout=10
    ).token
    admin_client.close()
    assert server.terminate() == 0

    restored = admin("restore", "--config", str(config), "--from", str(tmp_path / "snap.db"))
    assert restored.returncode == 0, restored.stderr
    with sqlite3.connect(tmp_path / "data" / "praxis.db") as connection:  # the snapshot's
        states = dict(connection.execute("SELECT principal_id, state FROM principals"))
    assert states["carol"] == "ACTIVE"

    server.start()
    assert _lists_runs(server.address, revoked) == grpc.StatusCode.UNAUTHENTICATED
    assert _lists_runs(server.address, rotated) == grpc.StatusCode.UNAUTHENTICATED
    assert _lists_runs(server.address, fresh) is None
    admin_client = connect(server.address, token_of("alice"))
    history = admin_client.principals.ListPrincipalHistory(
        principal_pb2.ListPrincipalHistoryRequest(principal_id="carol"), timeout=10
    ).events
    assert [event.reason for event in history][-1].startswith("re-applied from the principal")
    admin_client.close()
    assert server.terminate() == 0
    # A second start re-applies nothing more (the database has caught up).
    server.start()
    assert _lists_runs(server.address, fresh) is None
    assert server.terminate() == 0


def _start(client: Client, request_id: str) -> run_pb2.StartRunResponse:
    return client.runs.StartRun(  # type: ignore[no-any-return]
        run_pb2.StartRunRequest(request_id=request_id, definition_json=json.dumps(PLAN)),
        timeout=10,
    )


def _register(client: Client, request_id: str, approve: bool) -> registry_pb2.ExecuteResponse:
    """Registers ``wo-restored/run-1`` (approved first by alice when ``approve``)."""
    command = register_cmd(ref("wo-restored"), f"ap-{request_id}")
    epochs = client.registry.GetEpochs(
        registry_pb2.GetEpochsRequest(work_order_id="wo-restored"), timeout=10
    ).epochs
    if approve:
        review = client.registry.Review(
            registry_pb2.ReviewRequest(epochs=epochs, command=command), timeout=10
        )
        client.approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=f"ap-{request_id}",
                material_digest=review.material_digest,
                expires_at_ms=int(time.time() * 1000) + 600_000,
                work_order_id=command_ref(command).work_order_id,
            ),
            timeout=10,
        )
    return client.registry.Execute(  # type: ignore[no-any-return]
        registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command),
        timeout=10,
    )


def _holds(database: Path) -> list[tuple[str, str, str, str]]:
    with sqlite3.connect(database) as connection:
        return list(
            connection.execute(
                "SELECT kind, work_order_id, placed_by, reason FROM holds "
                "WHERE cleared_at_ms IS NULL"
            )
        )


def test_a_restore_places_a_restore_hold_that_refuses_work_until_cleared(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path / "data")
    server = ServerProcess(config, free_port())
    server.start()
    client = connect(server.address, token_of("alice"))
    started = _start(client, "before-backup").run.run_id
    client.close()
    snapshot = tmp_path / "snap.db"
    taken = admin("backup", "--config", str(config), "--to", str(snapshot))
    assert taken.returncode == 0, taken.stderr
    taken_at_ms = json.loads(taken.stdout)["manifest"]["taken_at_ms"]
    assert server.terminate() == 0

    restored = admin("restore", "--config", str(config), "--from", str(snapshot))
    assert restored.returncode == 0, restored.stderr
    hold = json.loads(restored.stdout)["hold"]
    assert (hold["kind"], hold["work_order_id"], hold["placed_by"]) == (
        "RESTORE", "", "praxis-admin-restore",
    )  # fmt: skip
    assert str(snapshot.resolve()) in hold["reason"] and str(taken_at_ms) in hold["reason"]
    database = tmp_path / "data" / "praxis.db"
    # In the file itself before any server opened it (it was written into the copy).
    assert _holds(database) == [("RESTORE", "", "praxis-admin-restore", hold["reason"])]
    assert integrity(database) == ["ok"]
    assert not list((tmp_path / "data").glob("praxis.db.restoring*"))

    server.start()
    client = connect(server.address, token_of("alice"))
    listed = client.admin.ListHolds(admin_pb2.ListHoldsRequest(), timeout=10).holds
    assert [(h.kind, h.work_order_id, h.placed_by, h.reason) for h in listed] == [
        (admin_pb2.HOLD_KIND_RESTORE, "", "praxis-admin-restore", hold["reason"])
    ]
    client.runs.GetRun(run_pb2.GetRunRequest(run_id=started), timeout=10)  # reads are served
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RESTORE_HOLD"):
        _start(client, "after-restore")
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RESTORE_HOLD"):
        _register(client, "register-held", approve=False)

    # The remote command line clears it over ClearHold, as an admin.
    shell = Shell(server.address, tmp_path)
    listing = shell.ok("holds", "list", "--json").json()["holds"]
    assert [h["placed_by"] for h in listing] == ["praxis-admin-restore"]
    shell.ok("holds", "clear")
    assert client.admin.ListHolds(admin_pb2.ListHoldsRequest(), timeout=10).holds == []
    assert _start(client, "after-restore").run.run_id
    assert _register(client, "register-cleared", approve=True).receipt.head_revision == 1
    client.close()
    assert server.terminate() == 0


def test_a_restore_with_no_hold_places_none(tmp_path: Path) -> None:
    config = write_config(tmp_path / "data")
    server = ServerProcess(config, free_port())
    server.start()
    taken = admin("backup", "--config", str(config), "--to", str(tmp_path / "snap.db"))
    assert taken.returncode == 0, taken.stderr
    assert server.terminate() == 0
    restored = admin(
        "restore", "--config", str(config), "--from", str(tmp_path / "snap.db"), "--no-hold"
    )
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout)["hold"] is None
    assert _holds(tmp_path / "data" / "praxis.db") == []
    server.start()
    client = connect(server.address, token_of("alice"))
    assert client.admin.ListHolds(admin_pb2.ListHoldsRequest(), timeout=10).holds == []
    assert _start(client, "no-hold").run.run_id
    client.close()
    assert server.terminate() == 0


@pytest.mark.parametrize("action", ["backup", "restore"])
def test_postgresql_is_pointed_at_its_own_tools(tmp_path: Path, action: str) -> None:
    flag = "--to" if action == "backup" else "--from"
    result = admin(
        action, "--database-url", "postgresql+psycopg://u:secret@db/praxis",
        flag, str(tmp_path / "x.db"),
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("error: NOT_SQLITE:")
    assert "secret" not in result.stderr
