"""Live views end when the signed-in principal is revoked or its token rotated away, and
send nothing the server committed after that: the console relays the server's streams,
which end with the credential's refusal before sending anything newer."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from aiws.engine.v1 import admin_pb2, common_pb2, run_pb2, task_pb2
from aiws.engine.v1 import principal_pb2 as pb
from tests.support.console import Console

GRANTS = [pb.Grant(actions=["run.*", "event.*", "inbox.*", "contract.*"], work_orders=["*"])]
ONE_NODE = {
    "version": 1,
    "nodes": {"a": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:a"},
}
REASONS = {"revoked": "CREDENTIAL_REVOKED", "rotated": "CREDENTIAL_INVALID"}


@dataclass
class Live:
    """A live view's server-sent events, read on a thread: (event, data) in order."""

    client: httpx.Client
    url: str
    events: list[tuple[str, str]] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self) -> None:
        try:
            with self.client.stream("GET", self.url, timeout=30) as response:
                assert response.status_code == 200
                name = ""
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        name = line.removeprefix("event: ")
                    elif line.startswith("data: "):
                        with self.lock:
                            self.events.append((name, line.removeprefix("data: ")))
        except httpx.HTTPError:
            pass
        finally:
            self.ended.set()

    def seen(self) -> list[tuple[str, str]]:
        with self.lock:
            return list(self.events)


def _open(client: httpx.Client, url: str) -> Live:
    live = Live(client, url)
    threading.Thread(target=live.read, daemon=True).start()
    return live


def _wait_for(live: Live, condition: object, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition(live.seen()):  # type: ignore[operator]
        assert time.monotonic() < deadline, live.seen()
        time.sleep(0.05)


def _principal(console: Console, principal_id: str) -> httpx.Client:
    created = console.harness.client("alice").principals.CreatePrincipal(
        pb.CreatePrincipalRequest(
            principal_id=principal_id, kind=common_pb2.PRINCIPAL_KIND_HUMAN, grants=GRANTS
        )
    )
    return console.signed_in(principal_id, created.token)


def _change(console: Console, principal_id: str, how: str) -> None:
    principals = console.harness.client("alice").principals
    if how == "revoked":
        principals.RevokePrincipal(pb.RevokePrincipalRequest(principal_id=principal_id))
    else:
        principals.RotatePrincipalToken(pb.RotatePrincipalTokenRequest(principal_id=principal_id))


@pytest.fixture
def closing() -> Iterator[list[httpx.Client]]:
    clients: list[httpx.Client] = []
    yield clients
    for client in clients:
        client.close()


@pytest.mark.parametrize("how", sorted(REASONS))
def test_a_live_run_view_sends_nothing_after_the_principal_changes(
    console: Console, closing: list[httpx.Client], how: str
) -> None:
    client = _principal(console, f"live-run-{how}")
    closing.append(client)
    agent = console.harness.client("agent")
    run_id = agent.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=f"live-run-{how}", definition_json=json.dumps(ONE_NODE), input_json="1"
        )
    ).run.run_id
    live = _open(client, f"/runs/{run_id}/live")
    _wait_for(live, lambda seen: {"run", "log"} <= {name for name, _ in seen})
    time.sleep(0.5)  # what the page was sent before the change
    before = len(live.seen())
    _change(console, f"live-run-{how}", how)
    [task] = agent.tasks.ClaimTasks(  # an attempt and a worker id, after the change
        task_pb2.ClaimTasksRequest(
            worker_id=f"worker-after-{how}", models=["echo"], max_tasks=1, lease_ms=30_000
        )
    ).tasks
    assert task.run_id == run_id
    assert live.ended.wait(10), live.seen()
    after = live.seen()[before:]
    assert [name for name, _ in after] == ["problem"], after
    assert json.loads(after[0][1])["reason"] == REASONS[how]
    assert not any(task.attempt_id in data or "worker-after" in data for _, data in after)


@pytest.mark.parametrize("how", sorted(REASONS))
def test_a_live_inbox_sends_nothing_after_the_principal_changes(
    console: Console, closing: list[httpx.Client], how: str
) -> None:
    client = _principal(console, f"live-inbox-{how}")
    closing.append(client)
    live = _open(client, "/inbox/live")
    _wait_for(live, lambda seen: any(name == "inbox" for name, _ in seen))
    time.sleep(0.5)
    before = len(live.seen())
    _change(console, f"live-inbox-{how}", how)
    console.harness.client("alice").admin.PlaceHold(
        admin_pb2.PlaceHoldRequest(
            kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id=f"wo-after-{how}", reason="after"
        )
    )
    assert live.ended.wait(10), live.seen()
    after = live.seen()[before:]
    assert [name for name, _ in after] == ["problem"], after
    assert json.loads(after[0][1])["reason"] == REASONS[how]
