"""Issue 13 items 4, 5 and 17 against real ``praxis serve`` processes: files at rest,
plaintext beyond loopback, mutual TLS, and stderr as JSON lines."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import inbox_pb2, registry_pb2
from praxis.authority.certificates import certificate_fingerprint
from praxis_client import connect, error_details
from tests.support.server_process import free_port, track, write_config

SERVE = [sys.executable, "-m", "praxis.serve.cli", "serve"]


def _serve(*args: str, umask: int | None = None) -> subprocess.Popen[str]:
    return track(
        subprocess.Popen(
            [*SERVE, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=(lambda: os.umask(umask)) if umask is not None else None,
        )
    )


def _stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    # Read stderr while waiting: a server (and its --processes children) blocked on a
    # full pipe could never exit.
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    return stderr


def _all_json(stderr: str) -> list[dict[str, object]]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return [json.loads(line) for line in lines]  # raises on any non-JSON line


# --- item 4: files at rest ---------------------------------------------------------------


def test_first_run_files_are_private_even_with_umask_000(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process = _serve("--data-dir", str(data), "--listen", "127.0.0.1:0", umask=0)
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    assert data.stat().st_mode & 0o777 == 0o700
    for name in ("config.json", "principals.json", "credentials.json", "praxis.db"):
        assert (data / name).stat().st_mode & 0o777 == 0o600, name
    wal = data / "praxis.db-wal"
    assert not wal.exists() or wal.stat().st_mode & 0o777 == 0o600
    _stop(process)


def test_a_principals_file_others_can_write_refuses_to_start(tmp_path: Path) -> None:
    config = write_config(tmp_path / "srv")
    (tmp_path / "srv" / "principals.json").chmod(0o666)
    result = subprocess.run(
        [*SERVE, "--config", str(config), "--listen", "127.0.0.1:0"],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert result.returncode == 2
    assert "principals.json" in result.stderr and "writable" in result.stderr


# --- item 5: plaintext beyond loopback, mutual TLS --------------------------------------------


def test_a_non_loopback_listen_without_tls_refuses_unless_insecure(tmp_path: Path) -> None:
    config = write_config(tmp_path / "srv")
    address = f"0.0.0.0:{free_port()}"
    result = subprocess.run(
        [*SERVE, "--config", str(config), "--listen", address],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert result.returncode == 2 and "--insecure" in result.stderr
    process = _serve("--config", str(config), "--listen", address, "--insecure")
    assert process.stdout is not None
    assert json.loads(process.stdout.readline())["port"] > 0
    _stop(process)


def test_the_python_client_refuses_to_send_a_token_in_the_clear() -> None:
    with pytest.raises(ValueError):
        connect("203.0.113.7:50051", "secret")
    connect("203.0.113.7:50051", "secret", insecure=True).close()
    connect("localhost:50051", "secret").close()
    connect("[::1]:50051", "secret").close()


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def _certificate(directory: Path, name: str, ca: tuple[Path, Path], server: bool) -> Path:
    key, csr, pem = (directory / f"{name}.{ext}" for ext in ("key", "csr", "pem"))
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-subj", f"/CN={name}", "-keyout", str(key), "-out", str(csr))  # fmt: skip
    extensions = directory / f"{name}.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n" if server else "extendedKeyUsage=clientAuth\n"
    )
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]),
             "-CAcreateserial", "-days", "1", "-out", str(pem),
             "-extfile", str(extensions))  # fmt: skip
    return pem


def test_mutual_tls_maps_client_certificates_to_principals(tmp_path: Path) -> None:
    ca = (tmp_path / "ca.pem", tmp_path / "ca.key")
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-days", "1", "-subj", "/CN=praxis-test-ca",
             "-keyout", str(ca[1]), "-out", str(ca[0]))  # fmt: skip
    server_pem = _certificate(tmp_path, "server", ca, server=True)
    alice_pem = _certificate(tmp_path, "alice", ca, server=False)
    stranger_pem = _certificate(tmp_path, "stranger", ca, server=False)
    config = write_config(
        tmp_path / "srv",
        client_certificates={certificate_fingerprint(alice_pem.read_bytes()): "alice"},
    )
    address = f"127.0.0.1:{free_port()}"
    process = _serve("--config", str(config), "--listen", address,
                     "--tls-cert", str(server_pem), "--tls-key", str(tmp_path / "server.key"),
                     "--tls-client-ca", str(ca[0]))  # fmt: skip
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    request = registry_pb2.GetEpochsRequest(work_order_id="wo")
    roots = ca[0].read_bytes()
    with connect(address, None, roots, private_key=(tmp_path / "alice.key").read_bytes(),
                 certificate_chain=alice_pem.read_bytes()) as alice:  # fmt: skip
        assert alice.registry.GetEpochs(request, timeout=10).epochs.ownership_epoch == 1
        watch = alice.inbox.WatchInbox(inbox_pb2.WatchInboxRequest(), timeout=10)
        assert next(watch).total == 0  # a stream checks the certificate again to send it
        watch.cancel()
    with connect(address, None, roots, private_key=(tmp_path / "stranger.key").read_bytes(),
                 certificate_chain=stranger_pem.read_bytes()) as stranger:  # fmt: skip
        with pytest.raises(grpc.RpcError) as caught:
            stranger.registry.GetEpochs(request, timeout=10)
        details = error_details(caught.value)
        assert (details.code, details.reason) == (
            grpc.StatusCode.UNAUTHENTICATED,
            "CREDENTIAL_INVALID",
        )
    with connect(address, "token-alice", roots) as no_certificate, pytest.raises(grpc.RpcError):
        no_certificate.registry.GetEpochs(request, timeout=5)  # the handshake needs a cert
    _stop(process)


# --- item 17: stderr stays JSON lines ------------------------------------------------------


def test_grpc_core_lines_become_json_lines(tmp_path: Path) -> None:
    config = write_config(tmp_path / "srv")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [*SERVE, "--config", str(config), "--listen", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=90,
        )  # fmt: skip
    # The command's own verdict is one plain line (docs/cli.md: ADDRESS_IN_USE, exit 6);
    # every other line, gRPC's C-core ones included, is a JSON record.
    assert result.returncode == 6
    *logged, verdict = [line for line in result.stderr.splitlines() if line.strip()]
    assert verdict.startswith("error: ADDRESS_IN_USE: "), result.stderr
    assert all(isinstance(entry, dict) for entry in _all_json("\n".join(logged)))


def test_a_normal_run_writes_only_json_lines(tmp_path: Path) -> None:
    process = _serve("--data-dir", str(tmp_path / "data"), "--listen", "127.0.0.1:0")
    assert process.stdout is not None
    json.loads(process.stdout.readline())
    entries = _all_json(_stop(process))
    assert any(e["msg"] == "stopped" for e in entries)
