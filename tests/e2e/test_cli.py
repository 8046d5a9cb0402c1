"""``praxis serve`` as a user runs it."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from aiws.engine.testing.v1 import clock_pb2
from aiws.engine.v1 import registry_pb2
from praxis_client import connect, error_details
from tests.support.server_process import ServerProcess, free_port, track, write_config


def test_first_run_creates_config_and_credentials_and_shuts_down_gracefully(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    process = track(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "praxis.serve.cli",
                "serve",
                "--data-dir",
                str(data),
                "--listen",
                "127.0.0.1:0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    assert process.stdout is not None
    line = json.loads(process.stdout.readline())
    port = line["port"]
    assert port > 0
    credentials = json.loads((data / "credentials.json").read_text())
    assert (data / "credentials.json").stat().st_mode & 0o077 == 0
    principals = (data / "principals.json").read_text()
    for entry in credentials.values():
        assert entry["token"] not in principals  # only hashes are stored
    with connect(f"127.0.0.1:{port}", credentials["local-human"]["token"]) as client:
        epochs = client.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo"))
        assert epochs.epochs.ownership_epoch == 1
        with pytest.raises(grpc.RpcError) as unimplemented:  # no --test-clock: no clock service
            client.test_clock.SetTime(clock_pb2.SetTimeRequest(now_ms=1))
        assert unimplemented.value.code() == grpc.StatusCode.UNIMPLEMENTED
    with connect(f"127.0.0.1:{port}") as anonymous:
        try:
            anonymous.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo"))
            raise AssertionError("an anonymous call succeeded")
        except grpc.RpcError as error:
            assert error_details(error).reason == "CREDENTIAL_MISSING"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 0
    assert process.stderr is not None
    stderr = process.stderr.read()
    assert "first run" in stderr and "credentials.json" in stderr
    assert '"msg": "stopped"' in stderr


def test_future_schema_refuses_to_start_with_a_clear_message(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    server = ServerProcess(config, free_port())
    server.start()
    assert server.terminate() == 0
    with sqlite3.connect(tmp_path / "praxis.db") as connection:
        connection.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "praxis.serve.cli",
            "serve",
            "--config",
            str(config),
            "--listen",
            "127.0.0.1:0",
        ],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result.returncode == 2
    assert "error: SCHEMA_INCOMPATIBLE: " in result.stderr
    assert "newer than this server" in result.stderr


def test_tls_serves_with_a_certificate(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    config, address = write_config(tmp_path / "srv"), f"127.0.0.1:{free_port()}"
    process = track(
        subprocess.Popen(
            [sys.executable, "-m", "praxis.serve.cli", "serve", "--config", str(config),
             "--listen", address, "--tls-cert", str(cert), "--tls-key", str(key)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    )  # fmt: skip
    assert process.stdout is not None
    json.loads(process.stdout.readline())  # listening
    with connect(address, "token-alice", cert.read_bytes()) as client:
        epochs = client.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo"))
        assert epochs.epochs.ownership_epoch == 1
    with connect(address, "token-alice") as plaintext, pytest.raises(grpc.RpcError):
        plaintext.registry.GetEpochs(registry_pb2.GetEpochsRequest(work_order_id="wo"), timeout=3)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0


def test_a_config_typo_refuses_to_start(tmp_path: Path) -> None:
    config = write_config(tmp_path, synchronus="FULL")  # misspelt key
    result = subprocess.run(
        [sys.executable, "-m", "praxis.serve.cli", "serve", "--config", str(config),
         "--listen", "127.0.0.1:0"],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert result.returncode == 2
    assert "error: CONFIG_INVALID: " in result.stderr and "synchronus" in result.stderr


def test_a_pool_size_below_the_executor_threads_refuses_to_start(tmp_path: Path) -> None:
    """``--db-pool-size`` and ``db_pool_size``: below 2 x (executor_threads + 1) + 1, exit 2."""
    for config, flags in (
        (write_config(tmp_path / "flag"), ["--db-pool-size", "3"]),
        (write_config(tmp_path / "key", db_pool_size=3), []),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "praxis.serve.cli", "serve", "--config", str(config),
             "--listen", "127.0.0.1:0", *flags],
            capture_output=True, text=True, timeout=90,
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        assert "db_pool_size" in result.stderr and "19" in result.stderr


def test_configured_limits_apply(tmp_path: Path) -> None:
    from aiws.engine.v1 import run_pb2
    from tests.support.runtime import definition, node

    server = ServerProcess(write_config(tmp_path, limits={"max_nodes": 2}), free_port())
    server.start()
    document = definition("c", a=node(), b=node(), c=node())
    with connect(server.address, "token-agent") as client, pytest.raises(grpc.RpcError) as bad:
        client.runs.StartRun(
            run_pb2.StartRunRequest(request_id="r", definition_json=json.dumps(document))
        )
    assert error_details(bad.value).reason == "DEFINITION_INVALID"
    assert server.terminate() == 0
