"""``praxis serve`` refuses a webhook destination its sender cannot use (issue 37): one
line ``error: CONFIG_INVALID: ...`` naming the destination, never its credentials."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.server_process import track, write_config
from tests.support.webhooks import SECRET

SERVE = [sys.executable, "-m", "praxis.serve.cli", "serve"]


def test_a_destination_with_credentials_refuses_to_start(tmp_path: Path) -> None:
    url = "http://hooks:hunter2@127.0.0.1/hook"  # credentials and no port
    config = write_config(tmp_path, webhooks={"ops": {"url": url, "secret": SECRET}})
    process = track(
        subprocess.Popen(
            [*SERVE, "--config", str(config), "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    try:
        stdout, stderr = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"praxis serve started: {stdout}{stderr}") from None
    assert process.returncode == 2, stderr
    [line] = [text for text in stderr.splitlines() if text.strip()]
    assert line.startswith("error: CONFIG_INVALID: ")
    assert "webhooks.ops: url must not carry credentials" in line
    for secret in ("hunter2", SECRET, SECRET.removeprefix("whsec_")):
        assert secret not in stdout + stderr
