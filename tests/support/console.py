"""The web console's tests: a console in front of a server (``Console``; the ``console``
fixture of ``tests/console/conftest.py`` starts one), and registry and runtime state set
up through the public API, as other clients would."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

import httpx
from playwright.sync_api import Page

from aiws.engine.v1 import approval_pb2, registry_pb2
from praxis.serve.processes import child_command
from praxis_console.serve import ConsoleThread, Listen, bind
from tests.support.harness import Harness, token_of
from tests.support.paths import ROOT
from tests.support.registry import approve, execute, propose_cmd, ref, register_cmd

SHOTS = ROOT / "test-artifacts" / "console"
TIMEOUT_MS = 20_000
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')

FANOUT = {
    "version": 1,
    "nodes": {
        "plan": {
            "agent": {
                "model": "echo",
                "output": {
                    "type": "json",
                    "schema": {
                        "type": "object",
                        "required": ["items"],
                        "properties": {"items": {"type": "array", "items": {"type": "integer"}}},
                    },
                },
            },
            "input": {"from": "run_input"},
        },
        "work": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "integer"}}},
            "input": {"from": "fanout_item"},
            "depends_on": ["plan"],
            "fanout": {"over": "node:plan.items"},
        },
        "join": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "array"}}},
            "input": {"from": "node:work"},
            "depends_on": ["work"],
        },
    },
    "output": {"from": "node:join"},
}
FANOUT_V2 = {
    "version": 1,
    "nodes": {
        **FANOUT["nodes"],  # type: ignore[dict-item]
        "check": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "array"}}},
            "input": {"from": "node:join"},
            "depends_on": ["join"],
        },
    },
    "output": {"from": "node:check"},
}


def csrf_of(page: str) -> str:
    """The CSRF token a page's forms carry."""
    found = CSRF.search(page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def register(h: Harness, work_order_id: str, run_id: str, definition: dict[str, object]) -> None:
    """Registers revision 1 of a ref (alice reviews, approves and executes)."""
    r = ref(work_order_id, run_id)
    command = register_cmd(r, f"{work_order_id}-{run_id}-reg", definition)
    approve(h, command, f"{work_order_id}-{run_id}-reg", epochs=h.epochs(work_order_id))
    execute(h, "alice", f"{work_order_id}-{run_id}-reg-req", command)


def propose(
    h: Harness,
    work_order_id: str,
    run_id: str,
    proposal_id: str,
    definition: dict[str, object],
    summary: str = "add a check step",
) -> None:
    """The agent proposes a candidate against the head."""
    r = ref(work_order_id, run_id)
    head = h.client("agent").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    command = propose_cmd(r, proposal_id, head.revision, definition, summary=summary)
    execute(h, "agent", f"{proposal_id}-req", command)


def shot(page: Page, name: str) -> None:
    """A full-page screenshot under ``test-artifacts/console/`` (gitignored)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def page(client: httpx.Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (response.status_code, response.text[:2000])
    return response.text


def definition_text(definition: dict[str, object]) -> str:
    return json.dumps(definition)


class ConsoleProcess:
    """``praxis console`` as a child process in front of the server at ``server``, as
    ``praxis serve --console`` runs it: grpcio's asyncio support wants one event loop per
    process, and a console on a thread of the process that runs the tests' in-process
    server shares that server's completion queue (now and then a new connection to the
    server then timed out: "tcp handshaker shutdown"). ``flags``: more of its flags;
    ``token``: a person's token, in its environment, for the one-time sign-in link of
    its ready line."""

    def __init__(self, server: str, *flags: str, token: str = "", timeout_s: float = 60) -> None:
        sock = bind(Listen("127.0.0.1", 0))
        self.port: int = sock.getsockname()[1]
        argv = ["console", "--listen", f"127.0.0.1:{self.port}", "--server", server]
        argv += ["--listen-fd", str(sock.fileno()), *flags]
        env = {k: v for k, v in os.environ.items() if k != "PRAXIS_TOKEN"}
        if token:
            env["PRAXIS_TOKEN"] = token
        self._log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115  # closed by stop()
        self.process = subprocess.Popen(
            child_command(argv),
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            pass_fds=(sock.fileno(),),
            env=env,
        )
        sock.close()  # the child serves it
        self.ready: dict[str, object] = json.loads(self._line(timeout_s))
        stdout = self.process.stdout
        threading.Thread(target=lambda: stdout and stdout.read(), daemon=True).start()

    def _line(self, timeout_s: float) -> str:
        """Its ready line (one JSON object on stdout), or what it said before it failed."""
        stdout = self.process.stdout
        assert stdout is not None
        readable, _, _ = select.select([stdout], [], [], timeout_s)
        line = stdout.readline() if readable else ""
        if not line:
            self._log.seek(0)
            said = self._log.read()[-2000:]
            self.stop()
            raise RuntimeError(f"the console did not start: {said}")
        return line

    def stop(self) -> None:
        """Ends it (SIGTERM: its live views close first), at most 10 s later."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


@dataclass
class Console:
    """A console serving on ``base_url`` in front of ``harness`` (a child process, or a
    thread of this process where a test changes the console's own module)."""

    harness: Harness
    process: ConsoleProcess | ConsoleThread
    base_url: str

    def signed_in(self, principal_id: str, token: str = "") -> httpx.Client:
        """An HTTP client with a session of ``principal_id`` (its CSRF token in .csrf),
        signed in with ``token`` (default: the test principal's)."""
        client = httpx.Client(base_url=self.base_url, follow_redirects=False, timeout=20)
        response = client.post("/signin", data={"token": token or token_of(principal_id)})
        assert response.status_code == 303, response.text
        return client


def expiring_approval(
    console: Console, approval_id: str, purpose: str = ""
) -> approval_pb2.Approval:
    """An approval of alice's expiring in 20 minutes: an ``APPROVAL_EXPIRING`` inbox item."""
    return (
        console.harness.client("alice")
        .approvals.CreateApproval(
            approval_pb2.CreateApprovalRequest(
                approval_id=approval_id, material_digest="sha256:" + "cd" * 32,
                expires_at_ms=int(time.time() * 1000) + 1_200_000, purpose=purpose,
            )
        )
        .approval
    )  # fmt: skip
