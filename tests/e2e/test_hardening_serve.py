"""Issue 13 items 4, 5 and 17 and issue 25 item 1 against real ``praxis serve`` processes:
files at rest, plaintext beyond loopback, mutual TLS (over the stored principals), and
stderr as JSON lines."""

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

from aiws.engine.v1 import common_pb2, inbox_pb2, registry_pb2
from aiws.engine.v1 import principal_pb2 as ppb
from praxis.authority.certificates import certificate_fingerprint
from praxis_client import Client, connect, error_details
from tests.support.harness import expect_error
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


# --- issue 25 item 1: mutual TLS keeps the stored principals ---------------------------------

EPOCHS = registry_pb2.GetEpochsRequest(work_order_id="wo")


class _Pki:
    """A CA, a server certificate and client certificates it signed, in ``directory``."""

    def __init__(self, directory: Path, *clients: str) -> None:
        self.directory = directory
        self.ca = (directory / "ca.pem", directory / "ca.key")
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-days", "1", "-subj", "/CN=praxis-test-ca",
                 "-keyout", str(self.ca[1]), "-out", str(self.ca[0]))  # fmt: skip
        self.server = _certificate(directory, "server", self.ca, server=True)
        self.clients = {name: _certificate(directory, name, self.ca, False) for name in clients}

    def fingerprint(self, name: str) -> str:
        return certificate_fingerprint(self.clients[name].read_bytes())

    def serve(self, config: Path) -> tuple[subprocess.Popen[str], str]:
        """``praxis serve`` requiring client certificates; the process and its address."""
        address = f"127.0.0.1:{free_port()}"
        process = _serve("--config", str(config), "--listen", address, "--processes", "1",
                         "--tls-cert", str(self.server),
                         "--tls-key", str(self.directory / "server.key"),
                         "--tls-client-ca", str(self.ca[0]))  # fmt: skip
        _ready(process)
        return process, address

    def connect(self, address: str, certificate: str, token: str | None = None) -> Client:
        """A client presenting ``certificate`` (and, when given, a bearer token)."""
        return connect(address, token, self.ca[0].read_bytes(),
                       private_key=(self.directory / f"{certificate}.key").read_bytes(),
                       certificate_chain=self.clients[certificate].read_bytes())  # fmt: skip


def _ready(process: subprocess.Popen[str]) -> int:
    """The port of a server that announced it, or the failure with its stderr."""
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        _, stderr = process.communicate(timeout=30)
        raise AssertionError(f"the server did not start: {stderr}")
    return int(json.loads(line)["port"])


def _serve_plain(config: Path) -> tuple[subprocess.Popen[str], str]:
    """``praxis serve`` on loopback without TLS; the process and its address."""
    process = _serve("--config", str(config), "--listen", "127.0.0.1:0", "--processes", "1")
    return process, f"127.0.0.1:{_ready(process)}"


def _create(client: Client, principal_id: str) -> str:
    """Creates a human who may read the registry; its token."""
    created = client.principals.CreatePrincipal(
        ppb.CreatePrincipalRequest(
            principal_id=principal_id,
            kind=common_pb2.PRINCIPAL_KIND_HUMAN,
            grants=[ppb.Grant(actions=["registry.read", "principal.read"], work_orders=["*"])],
        ),
        timeout=10,
    )
    return str(created.token)


def test_under_mutual_tls_revoked_and_rotated_tokens_stay_so_after_a_restart(
    tmp_path: Path,
) -> None:
    pki = _Pki(tmp_path, "alice", "anyone")
    config = write_config(tmp_path / "srv")
    process, address = _serve_plain(config)
    with connect(address, "token-alice") as alice:
        alice.principals.RevokePrincipal(ppb.RevokePrincipalRequest(principal_id="bob"))
        rotated = alice.principals.RotatePrincipalToken(
            ppb.RotatePrincipalTokenRequest(principal_id="service")
        ).token
    _stop(process)
    config = write_config(tmp_path / "srv", client_certificates={pki.fingerprint("alice"): "alice"})
    process, address = pki.serve(config)
    revoked = pki.connect(address, "anyone", "token-bob")
    with revoked, expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
        revoked.registry.GetEpochs(EPOCHS, timeout=10)
    rotated_away = pki.connect(address, "anyone", "token-service")
    with rotated_away, expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_INVALID"):
        rotated_away.registry.GetEpochs(EPOCHS, timeout=10)
    with pki.connect(address, "anyone", rotated) as service:
        assert service.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    with pki.connect(address, "alice") as alice:  # the certificate still maps to alice
        assert alice.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    _stop(process)


def test_under_mutual_tls_principals_created_at_runtime_authenticate(tmp_path: Path) -> None:
    pki = _Pki(tmp_path, "dora", "anyone")
    config = write_config(tmp_path / "srv")
    process, address = _serve_plain(config)
    with connect(address, "token-alice") as alice:
        dora = _create(alice, "dora")
    _stop(process)
    # A principal created at runtime can be given a certificate (the config is read at start).
    config = write_config(tmp_path / "srv", client_certificates={pki.fingerprint("dora"): "dora"})
    process, address = pki.serve(config)
    with pki.connect(address, "anyone", dora) as by_token:
        assert by_token.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    with pki.connect(address, "dora") as by_certificate:
        assert by_certificate.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    with pki.connect(address, "anyone", "token-alice") as alice:
        erin = _create(alice, "erin")  # created while mutual TLS is on
    with pki.connect(address, "anyone", erin) as by_token:
        assert by_token.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    _stop(process)


def test_under_mutual_tls_the_principal_service_works_by_token_and_by_certificate(
    tmp_path: Path,
) -> None:
    pki = _Pki(tmp_path, "alice", "anyone")
    config = write_config(tmp_path / "srv", client_certificates={pki.fingerprint("alice"): "alice"})
    process, address = pki.serve(config)
    with pki.connect(address, "anyone", "token-bob") as bob:
        listed = bob.principals.ListPrincipals(ppb.ListPrincipalsRequest(), timeout=10)
        assert {"alice", "bob", "agent"} <= {p.principal_id for p in listed.principals}
    with pki.connect(address, "alice") as alice:  # a human by certificate manages principals
        token = _create(alice, "frank")
        got = alice.principals.GetPrincipal(ppb.GetPrincipalRequest(principal_id="frank"))
        assert (got.principal.created_by, got.principal.version) == ("alice", 1)
    with pki.connect(address, "anyone", token) as frank:
        assert frank.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
    _stop(process)


def test_the_certificate_of_a_revoked_principal_is_refused_at_once(tmp_path: Path) -> None:
    pki = _Pki(tmp_path, "agent", "anyone")
    config = write_config(tmp_path / "srv", client_certificates={pki.fingerprint("agent"): "agent"})
    process, address = pki.serve(config)
    with pki.connect(address, "agent") as agent:
        assert agent.registry.GetEpochs(EPOCHS, timeout=10).epochs.ownership_epoch == 1
        with pki.connect(address, "anyone", "token-alice") as alice:
            alice.principals.RevokePrincipal(
                ppb.RevokePrincipalRequest(principal_id="agent", reason="key leaked"), timeout=10
            )
        with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
            agent.registry.GetEpochs(EPOCHS, timeout=10)
    _stop(process)
    # A restart keeps it refused: the server starts (a revocation is not an outage) and
    # says which mapped principal is revoked.
    process, address = pki.serve(config)
    agent = pki.connect(address, "agent")
    with agent, expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_REVOKED"):
        agent.registry.GetEpochs(EPOCHS, timeout=10)
    warnings = [e for e in _all_json(_stop(process)) if e.get("principal_id") == "agent"]
    assert warnings and all(e["level"] == "warning" for e in warnings), warnings


def test_a_certificate_mapped_to_an_unknown_principal_refuses_to_start(tmp_path: Path) -> None:
    pki = _Pki(tmp_path, "nobody")
    config = write_config(
        tmp_path / "srv", client_certificates={pki.fingerprint("nobody"): "nobody"}
    )
    result = subprocess.run(
        [*SERVE, "--config", str(config), "--listen", f"127.0.0.1:{free_port()}",
         "--tls-cert", str(pki.server), "--tls-key", str(tmp_path / "server.key"),
         "--tls-client-ca", str(pki.ca[0])],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    # One plain line (docs/cli.md), naming the principal; every other line is JSON.
    assert result.returncode == 2
    *logged, verdict = [line for line in result.stderr.splitlines() if line.strip()]
    assert verdict.startswith("error: CONFIG_INVALID: ") and "'nobody'" in verdict, result.stderr
    assert all(isinstance(entry, dict) for entry in _all_json("\n".join(logged)))


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
