"""Issue 25 items 4, 6 and 7: ``praxis serve`` refuses to start with one line on stderr,
``error: <REASON>: <message>``, whatever ``--log-level`` says, and never a traceback
(docs/operations.md "Start-up refusals and exit codes")."""

from __future__ import annotations

import json
import signal
import sqlite3
import ssl
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.server_process import free_port, track, write_config

SERVE = [sys.executable, "-m", "praxis.serve.cli", "serve"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """Runs ``praxis serve`` expecting it to refuse (a server that starts is killed)."""
    process = track(
        subprocess.Popen([*SERVE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    )
    try:
        stdout, stderr = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"praxis serve did not refuse to start: {stdout}{stderr}") from None
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _only_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


# --- item 6: a refusal is an error line at every log level -----------------------------


def _plaintext_beyond_loopback(directory: Path) -> list[str]:
    return ["--config", str(write_config(directory)), "--listen", f"0.0.0.0:{free_port()}"]


def _principals_others_can_write(directory: Path) -> list[str]:
    config = write_config(directory)
    (directory / "principals.json").chmod(0o664)  # group-writable
    return ["--config", str(config), "--listen", "127.0.0.1:0"]


def _schema_newer_than_the_server(directory: Path) -> list[str]:
    config = write_config(directory)
    with sqlite3.connect(directory / "praxis.db") as connection:
        connection.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at_ms BIGINT NOT NULL)"
        )
        connection.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
    return ["--config", str(config), "--listen", "127.0.0.1:0"]


@pytest.mark.parametrize(
    ("arrange", "reason"),
    [
        (_plaintext_beyond_loopback, "TLS_REQUIRED"),
        (_principals_others_can_write, "CONFIG_INVALID"),
        (_schema_newer_than_the_server, "SCHEMA_INCOMPATIBLE"),
    ],
)
def test_a_refusal_to_start_is_one_error_line_even_at_log_level_error(
    tmp_path: Path, arrange: Callable[[Path], list[str]], reason: str
) -> None:
    args = arrange(tmp_path / "srv")
    for processes in ("1", "2"):  # one server process, and the --processes parent
        result = _run(*args, "--log-level", "ERROR", "--processes", processes)
        assert result.returncode == 2, result.stderr
        assert _only_line(result.stderr).startswith(f"error: {reason}: "), result.stderr
        assert result.stdout == ""


# --- item 7: an unreachable database ----------------------------------------------------


def test_an_unreachable_postgresql_is_one_line_without_the_password(tmp_path: Path) -> None:
    config = write_config(tmp_path / "srv")
    port = free_port()  # nothing listens there
    url = f"postgresql+psycopg://praxis:secret@127.0.0.1:{port}/praxis"
    for level in ("INFO", "WARNING"):
        result = _run("--config", str(config), "--listen", "127.0.0.1:0",
                      "--database-url", url, "--log-level", level)  # fmt: skip
        output = result.stdout + result.stderr
        assert result.returncode == 6, output
        errors = [line for line in output.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, output
        assert errors[0].startswith("error: STORAGE_UNAVAILABLE: "), output
        assert f"127.0.0.1:{port}" in errors[0]  # names the database
        assert "Traceback" not in output and "secret" not in output, output
        if level == "WARNING":
            assert _only_line(result.stderr) == errors[0]


# --- item 4 (serve part): the console beside the server ---------------------------------


def _console_line(process: subprocess.Popen[str]) -> dict[str, object]:
    """The console's address line (on stderr, among the JSON log lines)."""
    assert process.stderr is not None
    for line in process.stderr:
        entry = json.loads(line)
        if "console" in entry:
            return dict(entry)
    raise AssertionError("no console line")


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)
    assert process.returncode == 0


def test_a_console_beyond_loopback_needs_tls_or_insecure(tmp_path: Path) -> None:
    config = write_config(tmp_path / "srv")
    console = f"0.0.0.0:{free_port()}"
    base = ["--config", str(config), "--listen", "127.0.0.1:0", "--console", console]
    refused = _run(*base)
    assert refused.returncode == 2, refused.stderr
    line = _only_line(refused.stderr)
    assert line.startswith("error: TLS_REQUIRED: ") and "--console" in line, line
    insecure = track(
        subprocess.Popen(
            [*SERVE, *base, "--insecure"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )
    )  # fmt: skip
    assert str(_console_line(insecure)["console"]).startswith("http://")
    _stop(insecure)


def test_with_tls_the_console_beside_the_server_serves_https(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    config, port = write_config(tmp_path / "srv"), free_port()
    process = track(
        subprocess.Popen(
            [*SERVE, "--config", str(config), "--listen", "0.0.0.0:0", "--console",
             f"0.0.0.0:{port}", "--tls-cert", str(cert), "--tls-key", str(key)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    )  # fmt: skip
    assert str(_console_line(process)["console"]).startswith("https://")
    context = ssl.create_default_context(cafile=str(cert))
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=context, timeout=10) as page:
        assert page.status == 200
    _stop(process)


# --- and a bug: an exception nothing caught is one CRITICAL record ------------------------


def test_an_uncaught_exception_is_logged_at_every_log_level() -> None:
    """With fd 2 routed through the JSON relay, a traceback printed by Python's default
    hook became INFO lines of the ``native`` logger: nothing at --log-level ERROR."""
    script = (
        "import threading\n"
        "from praxis.observability import logs\n"
        "logs.route_native_stderr('ERROR')\n"
        "worker = threading.Thread(target=lambda: 1 / 0, name='worker')\n"
        "worker.start(); worker.join()\n"
        "raise ValueError('boom')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    entries = [json.loads(line) for line in result.stderr.splitlines() if line.strip()]
    assert [(e["level"], e["exc"].splitlines()[-1]) for e in entries] == [
        ("critical", "ZeroDivisionError: division by zero"),
        ("critical", "ValueError: boom"),
    ], result.stderr
