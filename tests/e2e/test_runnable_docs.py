"""The README's and docs' blocks marked as runnable run, in order, against a real server.

A page marks a fenced block with an HTML comment on the line before it:

* ``<!-- runnable: file NAME -->``: the block is the file NAME, written as shown;
* ``<!-- runnable: sh ... -->``: a bash script, run with ``set -euo pipefail``; the
  variables it sets reach the page's later blocks, as in one terminal;
* ``<!-- runnable: background ... -->``: a command left running (a worker), started like
  an ``sh`` block; the page goes on once it has printed its first line;
* ``<!-- runnable: python ... -->``: a Python program, run by the ``python`` of the
  page's terminal (the repository's ``.venv`` once a block has activated it).

The server is ``praxis serve`` with its defaults, as ``make serve`` runs it, in a fresh
folder beside a link to the repository's ``.venv``; the only change to what a page shows
is the port (``127.0.0.1:50051`` becomes the test's free port).
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.support.paths import ROOT
from tests.support.server_process import free_port, track

MARKER = re.compile(
    r"^<!-- runnable: (?P<kind>file|sh|background|python)(?: (?P<name>[\w.-]+))?[^\n]*-->\n"
    r"```[\w-]*\n(?P<body>.*?)^```$",
    re.MULTILINE | re.DOTALL,
)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DEFAULT_ADDRESS = "127.0.0.1:50051"
QUIET = ("--processes", "1", "--log-level", "WARNING")
SHOWN = {
    "README.md": [
        "COMPLETED",
        "durable agents: why / durable agents: how",
        "yes: the original receipt",
        "revoked",
        "installation_id",
    ]
}
"""What a page's blocks print when they did what the page says (beyond exiting 0)."""


@dataclass(frozen=True)
class Block:
    kind: str
    name: str
    body: str


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = [Block(m["kind"], m["name"] or "", m["body"]) for m in MARKER.finditer(text)]
    assert text.count("<!-- runnable:") == len(found), f"{page.name}: a marker without its block"
    return found


RUNNABLE = [page for page in PAGES if blocks(page)]


def test_the_readme_quickstart_is_marked_runnable() -> None:
    kinds = [block.kind for block in blocks(ROOT / "README.md")]
    assert kinds.count("file") >= 2 and "background" in kinds and kinds.count("sh") >= 3
    assert "python" in kinds
    names = [block.name for block in blocks(ROOT / "README.md") if block.kind == "file"]
    assert {"plan.json", "worker.py"} <= set(names)


def _serving(address: str) -> bool:
    options = [("grpc.use_local_subchannel_pool", 1)]
    with grpc.insecure_channel(address, options=options) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=0.5
            )
        except grpc.RpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


def _serve(folder: Path, address: str) -> subprocess.Popen[str]:
    """``make serve``: ``praxis serve`` with its defaults in ``folder`` (one process)."""
    process = track(
        subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "praxis"), "serve", "--listen", address, *QUIET],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    deadline = time.monotonic() + 90
    while not _serving(address):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    return process


def _script(body: str) -> str:
    """One block as a terminal would run it after the page's earlier blocks."""
    return (
        "set -a\n"  # every variable a block sets is exported to the state file
        "if [ -f .page-state ]; then . ./.page-state; fi\n"
        "set -euo pipefail\n"
        f"{body}\n"
        "export -p > .page-state\n"
    )


def _environment(home: Path) -> dict[str, str]:
    """A fresh terminal's: no PRAXIS_* variables, the page's folder as home (a profile
    that `praxis login` stores stays in it)."""
    keep = ("LANG", "LC_ALL", "TMPDIR")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env.update(PATH="/usr/local/bin:/usr/bin:/bin", HOME=str(home))
    return env


def _first_line(process: subprocess.Popen[str], timeout_s: float) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout_s)
    assert ready, "the background command printed nothing"
    return process.stdout.readline()


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_runnable_blocks_of_a_page_run_in_order(page: Path, tmp_path: Path) -> None:
    assert shutil.which("jq"), "the pages use jq: scripts/install_docs_tools.sh installs it"
    port = free_port()
    address = f"127.0.0.1:{port}"
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    server = _serve(tmp_path, address)
    background: list[subprocess.Popen[str]] = []
    printed = ""
    try:
        for index, block in enumerate(blocks(page)):
            body = block.body.replace(DEFAULT_ADDRESS, address)
            if block.kind == "file":
                (tmp_path / block.name).write_text(body, encoding="utf-8")
                continue
            if block.kind == "python":
                (tmp_path / f".block-{index}.py").write_text(body, encoding="utf-8")
                body = f"python .block-{index}.py"
            if block.kind == "background":
                process = subprocess.Popen(
                    ["bash", "-c", _script(body)],
                    cwd=tmp_path,
                    env=_environment(tmp_path),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    start_new_session=True,
                )
                background.append(process)
                line = _first_line(process, 60)
                assert process.poll() is None, f"block {index} ended: {line}"
                continue
            done = subprocess.run(
                ["bash", "-c", _script(body)],
                cwd=tmp_path,
                env=_environment(tmp_path),
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert done.returncode == 0, (
                f"{page.name} block {index} exited {done.returncode}:\n{body}\n"
                f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
            )
            assert "Traceback" not in done.stderr, done.stderr
            printed += done.stdout
    finally:
        for process in background:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    for process in background:
        output = process.stdout.read() if process.stdout else ""
        assert "Traceback" not in output, output
    for text in SHOWN.get(page.name, []):
        assert text in printed, printed
