"""The worker conformance driver: the same scenarios against every language's worker runtime.

Starts one ``praxis serve --test-clock`` server on loopback (a fixed free port, a temporary
data directory, the conformance principals, tracing on to an OTLP receiver in this
process), then for each language whose
``conformance/workers/<lang>/run.sh`` exists under ``--root`` runs every scenario of
``conformance/workers/README.md``: each scenario starts the scenario worker (``run.sh
--address --token --model --worker-id --concurrency --lease-ms``), drives runs through
the public API, checks what the server recorded and what the worker printed, and stops
the worker with SIGTERM. Prints ``N passed, N failed`` per language, writes one JSON line
per scenario to ``<results>/runs/workers-<lang>.jsonl`` and the worker parity matrix to
``<results>/workers-matrix.{md,json}`` (rows of languages not run are kept).

Usage::

    .venv/bin/python conformance/workers/driver.py                       # every run.sh
    .venv/bin/python conformance/workers/driver.py --languages python,go
    .venv/bin/python conformance/workers/driver.py --root /work/wt/other --languages go
    .venv/bin/python conformance/workers/driver.py --scenarios echo,drain -v
    .venv/bin/python conformance/workers/driver.py --languages go --no-matrix  # a lane of
    .venv/bin/python conformance/workers/driver.py --matrix-only  # scripts/conformance.sh

Exits non-zero when any scenario fails or a requested language has no run.sh.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(REPO / "clients" / "python"))
sys.path.insert(0, str(REPO / "clients" / "python" / "gen"))

import grpc  # noqa: E402

from aiws.engine.testing.v1 import clock_pb2  # noqa: E402
from aiws.engine.v1 import contract_pb2, event_pb2, reconciliation_pb2, run_pb2  # noqa: E402
from praxis_client import Client, connect, error_details  # noqa: E402

LANGUAGES = ["python", "typescript", "go", "java", "rust"]
T0 = 1_800_000_000_000
ADMIN = "alice"  # starts and stops runs, creates contracts, moves the test clock
WORKER = "agent"  # the scenario worker's principal (task.*)
BAD_TOKEN = "token-of-nobody"
OBJECT_OUT = {"type": "json", "schema": {"type": "object"}}
TERMINAL = (run_pb2.RUN_STATE_COMPLETED, run_pb2.RUN_STATE_FAILED, run_pb2.RUN_STATE_CANCELLED)


class ScenarioFailed(AssertionError):
    """A check of a scenario did not hold."""


def check(condition: bool, text: str) -> None:
    if not condition:
        raise ScenarioFailed(text)


# --- the server ---------------------------------------------------------------------------


LOCAL_SUBCHANNELS = [("grpc.use_local_subchannel_pool", 1)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A ``praxis serve --test-clock`` subprocess on a fixed port and data directory."""

    def __init__(self, work: Path, python: str, environ: dict[str, str]) -> None:
        from tests.support.conformance import credentials, principals_document

        self.work = work
        self.python = python
        self.environ = environ
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.tokens = credentials()
        self.now_ms = T0
        data = work / "server"
        data.mkdir(parents=True)
        (data / "principals.json").write_text(json.dumps(principals_document()), "utf-8")
        config = {"database_url": "sqlite:///praxis.db", "principals_path": "principals.json"}
        (data / "config.json").write_text(json.dumps(config), "utf-8")
        self.data = data
        self.process: subprocess.Popen[bytes] | None = None
        self.admin: Client | None = None
        self.restarts = 0

    def start(self) -> None:
        log = open(self.work / f"server-{self.restarts}.err", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                self.python, "-m", "praxis.serve.cli", "serve",
                "--config", str(self.data / "config.json"),
                "--listen", self.address,
                "--test-clock", str(self.now_ms),
                "--log-level", "WARNING",
            ],
            cwd=self.data,
            env=self.environ,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )  # fmt: skip
        self.restarts += 1
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited; see {log.name}")
            # A client of its own per try: a channel whose first connection was refused
            # waits out gRPC's reconnect backoff (about 5 s) however soon the server is up.
            admin = connect(self.address, self.tokens[ADMIN], options=LOCAL_SUBCHANNELS)
            try:
                admin.test_clock.Advance(clock_pb2.AdvanceRequest(by_ms=0), timeout=1)
                self.admin = admin
                return
            except grpc.RpcError:
                admin.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def advance(self, by_ms: int) -> None:
        reply = self.client().test_clock.Advance(clock_pb2.AdvanceRequest(by_ms=by_ms), timeout=5)
        self.now_ms = reply.now_ms

    def client(self) -> Client:
        assert self.admin is not None
        return self.admin

    def kill(self) -> None:
        """SIGKILL: nothing is flushed but what SQLite already committed."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.admin is not None:
            self.admin.close()
            self.admin = None

    def restart(self) -> None:
        self.advance(0)  # remember the clock: the new process starts where this one was
        self.kill()
        self.start()


# --- the scenario worker ------------------------------------------------------------------


class WorkerProcess:
    """One ``run.sh`` process; its stdout JSON lines are collected as events."""

    def __init__(self, run_sh: Path, args: list[str], log_path: Path, env: dict[str, str]):
        self.log_path = log_path
        self.stderr = open(log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            ["bash", str(run_sh), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=env,
            start_new_session=True,  # so that cleanup can reach run.sh's children
        )
        self.events: list[dict[str, Any]] = []
        self.other_lines: list[str] = []
        self._new = threading.Condition()
        self._eof = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").strip()
            try:
                event = json.loads(line)
                if not isinstance(event, dict) or "event" not in event:
                    raise ValueError
            except ValueError:
                self.other_lines.append(line)
                continue
            with self._new:
                self.events.append(event)
                self._new.notify_all()
        with self._new:
            self._eof = True
            self._new.notify_all()

    def wait_event(
        self, name: str, timeout_s: float, where: Callable[[dict[str, Any]], bool] = lambda e: True
    ) -> dict[str, Any] | None:
        """The first event ``name`` matching ``where``; None at the timeout or stdout's end."""
        deadline = time.monotonic() + timeout_s
        with self._new:
            while True:
                for event in self.events:
                    if event.get("event") == name and where(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    return None
                self._new.wait(min(left, 0.2))

    def terminate(self, timeout_s: float = 30) -> int | None:
        """SIGTERM, then the exit code (None if it did not exit in time)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
        try:
            return self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(ProcessLookupError):  # children left in the group
            os.killpg(self.process.pid, signal.SIGKILL)
        self.stderr.close()

    def log_tail(self, lines: int = 15) -> str:
        self.stderr.flush()
        text = self.log_path.read_text("utf-8", "replace").splitlines()
        return "\n".join(text[-lines:])


# --- scenarios ---------------------------------------------------------------------------

_ids = itertools.count(1)


@dataclass
class Context:
    """What a scenario gets: the server, the language's run.sh and helpers."""

    server: Server
    language: str
    run_sh: Path
    work: Path
    env: dict[str, str]
    verbose: bool
    workers: list[WorkerProcess] = field(default_factory=list)
    model: str = ""

    def worker(
        self, concurrency: int = 4, lease_ms: int = 30_000, token: str | None = None
    ) -> WorkerProcess:
        index = next(_ids)
        args = [
            "--address", self.server.address,
            "--token", token or self.server.tokens[WORKER],
            "--model", self.model,
            "--worker-id", f"wc-{self.language}-{index}",
            "--concurrency", str(concurrency),
            "--lease-ms", str(lease_ms),
        ]  # fmt: skip
        log_path = self.work / f"worker-{self.language}-{index}.err"
        process = WorkerProcess(self.run_sh, args, log_path, self.env)
        self.workers.append(process)
        return process

    def ready_worker(self, **options: Any) -> WorkerProcess:
        process = self.worker(**options)
        # the first start builds the program (javac, cargo, tsc): be generous
        if process.wait_event("ready", 300) is None:
            raise ScenarioFailed(f"worker never printed ready:\n{process.log_tail()}")
        return process

    def node(self, node_input: Any = "run_input", **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "agent": {"model": self.model, "output": OBJECT_OUT},
            "input": {"from": node_input},
            **extra,
        }
        return body

    def start(
        self, nodes: dict[str, dict[str, Any]], output: str, run_input: Any, **fields: Any
    ) -> run_pb2.Run:
        request = run_pb2.StartRunRequest(
            request_id=f"wc-{self.model}-{next(_ids)}",
            definition_json=json.dumps(
                {"version": 1, "nodes": nodes, "output": {"from": f"node:{output}"}}
            ),
            input_json=json.dumps(run_input),
            **fields,
        )
        deadline = time.monotonic() + 10
        while True:  # the engine learns a model from the worker's first claim
            try:
                return self.server.client().runs.StartRun(request, timeout=10).run
            except grpc.RpcError as error:
                if error_details(error).reason != "MODEL_UNKNOWN" or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def single(self, run_input: Any, **extra: Any) -> run_pb2.Run:
        """A run of one node reading the run input."""
        return self.start({"a": self.node(**extra)}, "a", run_input)

    def get(self, run_id: str) -> run_pb2.Run:
        return (
            self.server.client().runs.GetRun(run_pb2.GetRunRequest(run_id=run_id), timeout=10).run
        )

    def wait_run(
        self, run_id: str, predicate: Callable[[run_pb2.Run], bool], timeout_s: float, what: str
    ) -> run_pb2.Run:
        deadline = time.monotonic() + timeout_s
        while True:
            run = self.get(run_id)
            if predicate(run):
                return run
            if time.monotonic() > deadline:
                raise ScenarioFailed(f"{what} not reached in {timeout_s}s: {describe(run)}")
            time.sleep(0.05)

    def wait_ended(self, run_id: str, timeout_s: float = 20) -> run_pb2.Run:
        return self.wait_run(run_id, lambda r: r.state in TERMINAL, timeout_s, "run end")

    def wait_node(self, run_id: str, uid: str, state: int, timeout_s: float = 20) -> run_pb2.Run:
        name = run_pb2.NodeState.Name(state)
        return self.wait_run(
            run_id, lambda r: node_of(r, uid).state == state, timeout_s, f"node {uid} {name}"
        )


def node_of(run: run_pb2.Run, uid: str) -> run_pb2.NodeStatus:
    for status in run.nodes:
        if status.node_uid == uid:
            return status
    raise ScenarioFailed(f"run has no node {uid}: {describe(run)}")


def describe(run: run_pb2.Run) -> str:
    nodes = ", ".join(
        f"{n.node_uid}={run_pb2.NodeState.Name(n.state)[11:]}/{n.attempts}"
        + (f" ({n.error[:120]})" if n.error else "")
        for n in run.nodes
    )
    state = run_pb2.RunState.Name(run.state)
    return f"{state} reason={run.result_reason!r} error={run.result_error[:200]!r} [{nodes}]"


def expect_state(run: run_pb2.Run, state: int) -> None:
    check(run.state == state, f"expected {run_pb2.RunState.Name(state)}, got {describe(run)}")


def stop_cleanly(ctx: Context, process: WorkerProcess) -> None:
    """SIGTERM: the worker must print ``stopped`` and exit 0."""
    code = process.terminate()
    check(code is not None, "worker did not exit within 30 s of SIGTERM")
    check(code == 0, f"worker exited {code} after SIGTERM:\n{process.log_tail()}")
    check(process.wait_event("stopped", 1) is not None, "worker printed no stopped event")


def scenario_echo(ctx: Context) -> None:
    """Any other input completes with ``{"echo": input}``; a cost-less APPLIED completion."""
    worker = ctx.ready_worker()
    run = ctx.single({"hello": "world", "n": [1, "2.5", None, "é"]})
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    result = json.loads(done.result_json)
    check(result == {"echo": {"hello": "world", "n": [1, "2.5", None, "é"]}}, f"result {result}")
    stop_cleanly(ctx, worker)


def scenario_fanout_out_of_order(ctx: Context) -> None:
    """Four items, each sleeping less than the one before: they finish in reverse order."""
    worker = ctx.ready_worker(concurrency=4)
    items = [{"do": "sleep", "ms": 200 + 250 * (3 - i), "result": {"i": i}} for i in range(4)]
    items_out = {"type": "json", "schema": {"type": "object", "properties": {"items": {}}}}
    nodes = {
        "split": {**ctx.node(), "agent": {"model": ctx.model, "output": items_out}},
        "each": ctx.node("fanout_item", depends_on=["split"], fanout={"over": "node:split.items"}),
        "join": ctx.node("node:each", depends_on=["each"]),
    }
    started = time.monotonic()
    run = ctx.start(nodes, "join", {"do": "complete", "result": {"items": items}})
    done = ctx.wait_ended(run.run_id)
    elapsed = time.monotonic() - started
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    result = json.loads(done.result_json)
    check(result == {"echo": [{"i": i} for i in range(4)]}, f"join result {result}")
    # sequential handling would take 0.2*4 + 0.25*6 = 2.3 s; four at once about 0.95 s
    check(elapsed < 2.2, f"the four items did not run concurrently ({elapsed:.2f}s)")
    stop_cleanly(ctx, worker)


def scenario_concurrency_limit(ctx: Context) -> None:
    """Six 400 ms items with concurrency 2: never more than two RUNNING at once."""
    worker = ctx.ready_worker(concurrency=2)
    items = [{"do": "sleep", "ms": 400, "result": {"i": i}} for i in range(6)]
    items_out = {"type": "json", "schema": {"type": "object", "properties": {"items": {}}}}
    nodes = {
        "split": {**ctx.node(), "agent": {"model": ctx.model, "output": items_out}},
        "each": ctx.node("fanout_item", depends_on=["split"], fanout={"over": "node:split.items"}),
        "join": ctx.node("node:each", depends_on=["each"]),
    }
    run = ctx.start(nodes, "join", {"do": "complete", "result": {"items": items}})
    started, most = time.monotonic(), 0
    while True:
        snapshot = ctx.get(run.run_id)
        running = sum(
            1 for n in snapshot.nodes if "#" in n.node_uid and n.state == run_pb2.NODE_STATE_RUNNING
        )
        most = max(most, running)
        if snapshot.state in TERMINAL or time.monotonic() - started > 20:
            break
        time.sleep(0.02)
    elapsed = time.monotonic() - started
    expect_state(snapshot, run_pb2.RUN_STATE_COMPLETED)
    check(most <= 2, f"{most} items were RUNNING at once with concurrency 2")
    check(most == 2, f"at most {most} item RUNNING at once: concurrency 2 was not used")
    check(elapsed >= 1.1, f"six 400 ms items at concurrency 2 took only {elapsed:.2f}s")
    stop_cleanly(ctx, worker)


def scenario_retry_exhausted(ctx: Context) -> None:
    """A retryable failure is retried until the node's three attempts are spent."""
    worker = ctx.ready_worker()
    run = ctx.single(
        {"do": "fail", "error": "provider said no", "retryable": True},
        retry={"attempts": 3, "backoff_ms": 0},
    )
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    node = node_of(done, "a")
    check(node.attempts == 3, f"{node.attempts} attempts, expected 3: {describe(done)}")
    check("provider said no" in node.error, f"node error {node.error!r}")
    stop_cleanly(ctx, worker)


def scenario_not_retryable(ctx: Context) -> None:
    """A non-retryable NOT_APPLIED failure fails the node after one attempt."""
    worker = ctx.ready_worker()
    run = ctx.single(
        {"do": "fail", "error": "bad request", "retryable": False},
        retry={"attempts": 3, "backoff_ms": 0},
    )
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    check(node_of(done, "a").attempts == 1, f"retried a non-retryable failure: {describe(done)}")
    stop_cleanly(ctx, worker)


def scenario_lease_expiry(ctx: Context) -> None:
    """The test clock passes a stuck handler's lease: the runtime cancels the handler."""
    worker = ctx.ready_worker(lease_ms=3_000)
    run = ctx.single({"do": "hang"}, retry={"attempts": 1, "backoff_ms": 0}, effects="idempotent")
    running = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    attempt_id = node_of(running, "a").attempt_id
    time.sleep(0.3)  # let the claim's answer reach the worker
    ctx.server.advance(60_000)
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    seen = worker.wait_event("cancelled", 10, lambda e: e.get("attempt_id") == attempt_id)
    check(seen is not None, f"handler never saw the cancellation of {attempt_id}")
    stop_cleanly(ctx, worker)


def scenario_stop_while_running(ctx: Context) -> None:
    """StopRun while the handler hangs: the next heartbeat cancels it."""
    worker = ctx.ready_worker(lease_ms=3_000)
    run = ctx.single({"do": "hang"})
    running = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    attempt_id = node_of(running, "a").attempt_id
    ctx.server.client().runs.StopRun(
        run_pb2.StopRunRequest(run_id=run.run_id, reason="conformance"), timeout=10
    )
    seen = worker.wait_event("cancelled", 10, lambda e: e.get("attempt_id") == attempt_id)
    check(seen is not None, f"handler never saw the cancellation of {attempt_id}")
    # A stop is settled by the worker's report: CANCELLING until the runtime settled it.
    expect_state(ctx.wait_ended(run.run_id), run_pb2.RUN_STATE_CANCELLED)
    stop_cleanly(ctx, worker)


def stopped_and_reported(ctx: Context, then: dict[str, Any]) -> tuple[run_pb2.Run, dict[str, Any]]:
    """StopRun while an external node's handler hangs; the handler, cancelled, returns
    ``then``'s outcome. Returns the ended run and the payload of the event that settled
    the node (it must have been heard: no reconciliation, no lease expiry)."""
    worker = ctx.ready_worker(lease_ms=6_000)  # heartbeats about every 2 s
    run = ctx.single({"do": "hang", **then}, effects="external")
    running = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    attempt_id = node_of(running, "a").attempt_id
    stopping = ctx.server.client().runs.StopRun(
        run_pb2.StopRunRequest(run_id=run.run_id, reason="conformance"), timeout=10
    )
    check(
        stopping.run.state == run_pb2.RUN_STATE_CANCELLING,
        f"a stop under a running attempt must be CANCELLING: {describe(stopping.run)}",
    )
    seen = worker.wait_event("cancelled", 10, lambda e: e.get("attempt_id") == attempt_id)
    check(seen is not None, f"handler never saw the cancellation of {attempt_id}")
    # The test clock stands still: the lease never runs out here, only a report ends it.
    ended = ctx.wait_ended(run.run_id)
    expect_state(ended, run_pb2.RUN_STATE_CANCELLED)
    check(not reconciliations_of(ctx, run.run_id), "the report was not heard: a reconciliation")
    events = ctx.server.client().events.ListEvents(
        event_pb2.ListEventsRequest(run_id=run.run_id, limit=1000), timeout=10
    )
    settled = [
        json.loads(e.payload_json)
        for e in events.events
        if e.node_uid == "a"
        and e.kind in (event_pb2.EVENT_KIND_NODE_COMPLETED, event_pb2.EVENT_KIND_NODE_FAILED)
    ]
    check(bool(settled), f"no settlement event for node a: {describe(ended)}")
    check(settled[-1].get("after_stop") is True, f"not settled after the stop: {settled[-1]}")
    stop_cleanly(ctx, worker)
    return ended, settled[-1]


def scenario_cancelled_reports_not_applied(ctx: Context) -> None:
    """A cancelled handler reports NOT_APPLIED: the node is CANCELLED, nothing to reconcile."""
    ended, settled = stopped_and_reported(
        ctx, {"then": "not_applied", "error": "stopped before the call"}
    )
    check(node_of(ended, "a").state == run_pb2.NODE_STATE_CANCELLED, describe(ended))
    check(settled.get("effect") == "NOT_APPLIED", f"effect not NOT_APPLIED: {settled}")


def scenario_cancelled_reports_applied(ctx: Context) -> None:
    """A cancelled handler reports APPLIED with a result: kept on the node, not re-asked."""
    ended, settled = stopped_and_reported(ctx, {"then": "applied", "result": {"sent": 1}})
    check(node_of(ended, "a").state == run_pb2.NODE_STATE_DONE, describe(ended))
    check(settled.get("effect") == "APPLIED", f"effect not APPLIED: {settled}")
    found = ctx.server.client().runs.GetNodeResult(
        run_pb2.GetNodeResultRequest(run_id=ended.run_id, node_uid="a"), timeout=10
    )
    check(json.loads(found.result_json) == {"sent": 1}, f"result {found.result_json!r}")


def scenario_uncertain(ctx: Context) -> None:
    """UNCERTAIN as a failure and as a result: both leave the node BLOCKED."""
    worker = ctx.ready_worker()
    failed = ctx.single({"do": "uncertain", "error": "timed out mid-write"})
    completed = ctx.single({"do": "uncertain", "error": "unsure", "result": {"maybe": 1}})
    for run in (failed, completed):
        blocked = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_BLOCKED)
        check(node_of(blocked, "a").attempts == 1, f"uncertain was retried: {describe(blocked)}")
        check(blocked.state not in TERMINAL, f"blocked run ended: {describe(blocked)}")
        ctx.server.client().runs.StopRun(
            run_pb2.StopRunRequest(run_id=run.run_id, reason="cleanup"), timeout=10
        )
    stop_cleanly(ctx, worker)


def reconciliations_of(ctx: Context, run_id: str) -> list[Any]:
    request = reconciliation_pb2.ListReconciliationsRequest(run_id=run_id)
    return list(
        ctx.server.client().reconciliations.ListReconciliations(request, timeout=10).reconciliations
    )


def expect_reconciliation(ctx: Context, run: run_pb2.Run, text: str) -> None:
    """The node is BLOCKED after one attempt, and one reconciliation waits, naming ``text``."""
    blocked = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_BLOCKED)
    check(node_of(blocked, "a").attempts == 1, f"the effect was repeated: {describe(blocked)}")
    check(blocked.state not in TERMINAL, f"blocked run ended: {describe(blocked)}")
    pending = reconciliations_of(ctx, run.run_id)
    check(len(pending) == 1, f"{len(pending)} reconciliations, expected 1")
    check(not pending[0].completed, "the reconciliation says the attempt completed")
    check(text in pending[0].error, f"reconciliation error {pending[0].error!r} lacks {text!r}")
    ctx.server.client().runs.StopRun(
        run_pb2.StopRunRequest(run_id=run.run_id, reason="cleanup"), timeout=10
    )


def scenario_lease_lost_effectful(ctx: Context) -> None:
    """A lease lost on a node that declares no effects: no second attempt, a reconciliation."""
    worker = ctx.ready_worker(lease_ms=3_000)
    run = ctx.single({"do": "hang"}, retry={"attempts": 3, "backoff_ms": 0})
    running = ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    attempt_id = node_of(running, "a").attempt_id
    time.sleep(0.3)  # let the claim's answer reach the worker
    ctx.server.advance(60_000)
    seen = worker.wait_event("cancelled", 10, lambda e: e.get("attempt_id") == attempt_id)
    check(seen is not None, f"handler never saw the lost lease of {attempt_id}")
    expect_reconciliation(ctx, run, "lease expired")
    stop_cleanly(ctx, worker)


def scenario_crash_effectful(ctx: Context) -> None:
    """An uncaught handler error on a node with external effects settles UNCERTAIN."""
    worker = ctx.ready_worker()
    run = ctx.single(
        {"do": "raise", "error": "card gateway hung up"},
        retry={"attempts": 3, "backoff_ms": 0},
        effects="external",
    )
    expect_reconciliation(ctx, run, "card gateway hung up")
    stop_cleanly(ctx, worker)


def scenario_crash_idempotent(ctx: Context) -> None:
    """An uncaught handler error on an idempotent node is retried (NOT_APPLIED)."""
    worker = ctx.ready_worker()
    run = ctx.single(
        {"do": "raise", "error": "flaky search"},
        retry={"attempts": 2, "backoff_ms": 0},
        effects="idempotent",
    )
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    node = node_of(done, "a")
    check(node.attempts == 2, f"{node.attempts} attempts, expected 2: {describe(done)}")
    check("flaky search" in node.error, f"node error {node.error!r}")
    check(not reconciliations_of(ctx, run.run_id), "a reconciliation opened for a retry-safe node")
    stop_cleanly(ctx, worker)


def scenario_budget(ctx: Context) -> None:
    """A reported cost of 60.5 of a 100 budget: node b (up to 50) is refused dispatch."""
    worker = ctx.ready_worker()
    contract_id = f"wc-{ctx.model}"
    ctx.server.client().contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id=contract_id,
            work_order_id="wo-workers",
            criteria_json=json.dumps({"must": ["conform"]}),
            deadline_ms=ctx.server.now_ms + 3_600_000,
            budget_microcredits="100",
            profile="aiws.v1",
        ),
        timeout=10,
    )
    nodes = {
        "a": ctx.node(),
        "b": ctx.node("node:a", depends_on=["a"], max_cost_microcredits="50"),
    }
    run_input = {"do": "complete", "result": {"ok": True}, "cost": "60.5"}
    run = ctx.start(nodes, "b", run_input, contract_id=contract_id)
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    check(done.result_reason == "BUDGET_EXCEEDED", f"reason {done.result_reason!r}")
    contract = (
        ctx.server.client()
        .contracts.GetContract(contract_pb2.GetContractRequest(contract_id=contract_id), timeout=10)
        .contract
    )
    check(contract.spent_microcredits == "60.5", f"spent {contract.spent_microcredits!r}")
    stop_cleanly(ctx, worker)


def scenario_server_restart(ctx: Context) -> None:
    """The server is killed and restarted mid-task; the worker reconnects and settles."""
    worker = ctx.ready_worker()
    run = ctx.single({"do": "sleep", "ms": 2_500, "result": {"survived": True}})
    ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    ctx.server.restart()
    done = ctx.wait_ended(run.run_id, timeout_s=40)
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    check(json.loads(done.result_json) == {"survived": True}, f"result {done.result_json}")
    check(node_of(done, "a").attempts == 1, f"the attempt was not settled: {describe(done)}")
    # and it goes on claiming from the new server
    again = ctx.single({"after": "restart"})
    expect_state(ctx.wait_ended(again.run_id, timeout_s=30), run_pb2.RUN_STATE_COMPLETED)
    stop_cleanly(ctx, worker)


def scenario_drain(ctx: Context) -> None:
    """SIGTERM while a sleep is in flight: it is settled before the worker exits."""
    worker = ctx.ready_worker()
    run = ctx.single({"do": "sleep", "ms": 1_500, "result": {"drained": True}})
    ctx.wait_node(run.run_id, "a", run_pb2.NODE_STATE_RUNNING)
    time.sleep(0.2)  # the handler is running
    stop_cleanly(ctx, worker)
    done = ctx.get(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    check(json.loads(done.result_json) == {"drained": True}, f"result {done.result_json}")


def scenario_unserializable(ctx: Context) -> None:
    """A result JSON cannot encode fails the node at once, not retryable, with a clear error."""
    worker = ctx.ready_worker()
    started = time.monotonic()
    run = ctx.single({"do": "unserializable"}, retry={"attempts": 3, "backoff_ms": 0})
    done = ctx.wait_ended(run.run_id, timeout_s=15)
    expect_state(done, run_pb2.RUN_STATE_FAILED)
    node = node_of(done, "a")
    check(node.attempts == 1, f"retried an unserialisable result: {describe(done)}")
    check("serial" in node.error.lower(), f"error does not say it: {node.error!r}")
    check(time.monotonic() - started < 10, "the failure waited for something (a lease?)")
    stop_cleanly(ctx, worker)


def scenario_trace(ctx: Context) -> None:
    """The handler runs with the attempt's span (``Task.traceparent``) as its current span."""
    worker = ctx.ready_worker()
    run = ctx.single({"do": "trace"})
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    result = json.loads(done.result_json)
    check(isinstance(result, dict) and "echo" not in result, f"no trace action: {result!r}")
    handed, current = result.get("traceparent", ""), result.get("current", "")
    check(bool(handed), "the task carried no traceparent (is the server's tracing on?)")
    check(current == handed, f"current span {current!r} is not the attempt's {handed!r}")
    stop_cleanly(ctx, worker)


PROGRESS_STEPS = 3


def scenario_progress(ctx: Context) -> None:
    """The handler reports progress while it works (``{"do":"progress"}``): WatchRun shows
    the latest report live while the node runs, and GetRun keeps it once it settled."""
    worker = ctx.ready_worker()
    run = ctx.single({"do": "progress", "steps": PROGRESS_STEPS, "ms": 200, "hold_ms": 3_000})
    last = f"step {PROGRESS_STEPS} of {PROGRESS_STEPS}"
    live: list[run_pb2.AttemptProgress] = []
    stream = ctx.server.client().runs.WatchRun(
        run_pb2.WatchRunRequest(run_id=run.run_id), timeout=60
    )
    for message in stream:
        status = node_of(message.run, "a")
        if status.state == run_pb2.NODE_STATE_RUNNING and status.HasField("progress"):
            live.append(status.progress)
    check(bool(live), "WatchRun showed no progress while the node ran")
    check(live[-1].text == last, f"the last report seen live is {live[-1].text!r}, not {last!r}")
    data = json.loads(live[-1].data_json or "null")
    check(data == {"step": PROGRESS_STEPS, "of": PROGRESS_STEPS}, f"report data {data!r}")
    check(live[-1].reports <= PROGRESS_STEPS, f"{live[-1].reports} reports for 3 steps")
    done = ctx.wait_ended(run.run_id)
    expect_state(done, run_pb2.RUN_STATE_COMPLETED)
    kept = node_of(done, "a").progress
    check(kept.text == last and kept.attempt_id == node_of(done, "a").attempt_id, f"kept {kept}")
    result = json.loads(done.result_json)
    check(result == {"steps": PROGRESS_STEPS}, f"result {result}")
    stop_cleanly(ctx, worker)


def scenario_bad_token(ctx: Context) -> None:
    """A token that matches nobody: start fails loudly (UNAUTHENTICATED), exit non-zero."""
    worker = ctx.worker(token=BAD_TOKEN)
    try:
        code = worker.process.wait(timeout=300)  # includes a first build
    except subprocess.TimeoutExpired:
        raise ScenarioFailed(
            "worker with a bad token kept running (a silent retry loop?)"
        ) from None
    check(code != 0, "worker with a bad token exited 0")
    check(worker.wait_event("ready", 0.5) is None, "worker with a bad token printed ready")
    check("UNAUTHENTICATED" in worker.log_tail(50), "stderr does not name UNAUTHENTICATED")


SCENARIOS: dict[str, Callable[[Context], None]] = {
    "echo": scenario_echo,
    "fanout-out-of-order": scenario_fanout_out_of_order,
    "concurrency-limit": scenario_concurrency_limit,
    "retry-until-exhausted": scenario_retry_exhausted,
    "not-retryable-fails-at-once": scenario_not_retryable,
    "lease-expiry-cancels-handler": scenario_lease_expiry,
    "stop-while-running": scenario_stop_while_running,
    "cancelled-handler-reports-not-applied": scenario_cancelled_reports_not_applied,
    "cancelled-handler-reports-applied": scenario_cancelled_reports_applied,
    "uncertain-blocks-node": scenario_uncertain,
    "lease-lost-effectful-node-blocks": scenario_lease_lost_effectful,
    "crash-on-effectful-node-is-uncertain": scenario_crash_effectful,
    "crash-on-idempotent-node-retries": scenario_crash_idempotent,
    "cost-reaches-budget": scenario_budget,
    "server-restart-mid-task": scenario_server_restart,
    "graceful-shutdown-drains": scenario_drain,
    "unserializable-result": scenario_unserializable,
    "trace-continues": scenario_trace,
    "progress-is-watched": scenario_progress,
    "bad-token-fails-start": scenario_bad_token,
}


# --- running ------------------------------------------------------------------------------


@dataclass
class Outcome:
    scenario: str
    status: str  # pass | fail
    seconds: float
    detail: str = ""


def run_scenario(ctx: Context, name: str) -> Outcome:
    ctx.model = f"wc-{ctx.language}-{name}-{next(_ids)}"
    started = time.monotonic()
    try:
        SCENARIOS[name](ctx)
        return Outcome(name, "pass", time.monotonic() - started)
    except Exception as error:
        detail = f"{type(error).__name__}: {error}"
        if not isinstance(error, ScenarioFailed):
            detail += "\n" + traceback.format_exc(limit=4)
        for process in ctx.workers:
            detail += f"\n--- worker stderr ({process.log_path.name}) ---\n{process.log_tail()}"
        return Outcome(name, "fail", time.monotonic() - started, detail)
    finally:
        for process in ctx.workers:
            process.kill()
        ctx.workers.clear()
        if ctx.server.process is None or ctx.server.process.poll() is not None:
            ctx.server.start()  # a scenario that broke the server must not break the next


def write_results(
    results: Path, language: str, outcomes: list[Outcome], *, matrix: bool = True
) -> None:
    runs = results / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    with (runs / f"workers-{language}.jsonl").open("w", encoding="utf-8") as out:
        for outcome in outcomes:
            record = {
                "vector": f"workers/{outcome.scenario}",
                "status": outcome.status,
                "seconds": round(outcome.seconds, 2),
                "detail": outcome.detail.splitlines()[0] if outcome.detail else "",
            }
            out.write(json.dumps(record) + "\n")
    if matrix:
        write_matrix(results)


def write_matrix(results: Path) -> None:
    """The worker parity matrix from every ``runs/workers-<lang>.jsonl`` present."""
    statuses: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        path = results / "runs" / f"workers-{language}.jsonl"
        if path.exists():
            records = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
            statuses[language] = {r["vector"]: r["status"] for r in records}
    languages = [lang for lang in LANGUAGES if lang in statuses]
    rows = []
    for name in SCENARIOS:
        vector = f"workers/{name}"
        rows.append(
            {
                "vector": vector,
                "results": {x: statuses[x].get(vector, "missing") for x in languages},
            }
        )
    document = {"languages": languages, "scenarios": len(rows), "matrix": rows}
    (results / "workers-matrix.json").write_text(json.dumps(document, indent=1) + "\n", "utf-8")
    symbols = {"pass": "pass", "fail": "**FAIL**", "missing": "**missing**"}
    lines = [
        "# Worker conformance parity matrix",
        "",
        "Written by `conformance/workers/driver.py` (do not edit); scenarios are described in",
        "`conformance/workers/README.md`.",
        "",
        "| scenario | " + " | ".join(languages) + " |",
        "|---|" + "---|" * len(languages),
    ]
    for row in rows:
        cells = " | ".join(symbols[row["results"][x]] for x in languages)
        lines.append(f"| `{row['vector']}` | {cells} |")
    (results / "workers-matrix.md").write_text("\n".join(lines) + "\n", "utf-8")


@contextlib.contextmanager
def running_server(work: Path, python: str) -> Iterator[Server]:
    """The server, with tracing on: spans go to an OTLP receiver in this process."""
    from tests.support.traces import otel_env, receiving

    with receiving() as (_, endpoint):
        server = Server(work, python, {**os.environ, **otel_env(endpoint)})
        server.start()
        try:
            yield server
        finally:
            server.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO, help="checkout whose run.sh to use")
    parser.add_argument("--languages", default="", help="comma-separated; default: every run.sh")
    parser.add_argument("--scenarios", default="", help="comma-separated; default: all")
    parser.add_argument("--results", type=Path, help="default: ROOT/conformance/results")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("-v", "--verbose", action="store_true", help="print failure details")
    matrix = parser.add_mutually_exclusive_group()
    matrix.add_argument(
        "--no-matrix", action="store_true", help="write runs/workers-<lang>.jsonl, not the matrix"
    )
    matrix.add_argument(
        "--matrix-only", action="store_true", help="only write the matrix from runs/workers-*"
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    results = (args.results or root / "conformance" / "results").resolve()
    if args.matrix_only:
        write_matrix(results)
        return 0
    status = 0
    if args.languages:
        languages = [x.strip() for x in args.languages.split(",") if x.strip()]
    else:
        languages = [x for x in LANGUAGES if (root / f"conformance/workers/{x}/run.sh").exists()]
    names = [x.strip() for x in args.scenarios.split(",") if x.strip()] or list(SCENARIOS)
    unknown = [x for x in names if x not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenarios {unknown}; known: {', '.join(SCENARIOS)}")
    work = Path(tempfile.mkdtemp(prefix="praxis-workers-"))
    env = {
        **os.environ,
        "PRAXIS_ROOT": str(root),
        "PRAXIS_PYTHON": sys.executable,
        "PYTHONUNBUFFERED": "1",
    }
    try:
        with running_server(work, sys.executable) as server:
            for language in languages:
                run_sh = root / "conformance" / "workers" / language / "run.sh"
                if not run_sh.exists():
                    print(f"{language}: no {run_sh}", flush=True)
                    status = 1
                    continue
                ctx = Context(server, language, run_sh, work, env, args.verbose)
                outcomes = []
                for name in names:
                    outcome = run_scenario(ctx, name)
                    outcomes.append(outcome)
                    mark = "ok  " if outcome.status == "pass" else "FAIL"
                    print(f"{language}: {mark} {name} ({outcome.seconds:.1f}s)", flush=True)
                    if outcome.detail:
                        shown = outcome.detail if args.verbose else outcome.detail.splitlines()[0]
                        print("    " + shown.replace("\n", "\n    "), flush=True)
                passed = sum(1 for o in outcomes if o.status == "pass")
                failed = len(outcomes) - passed
                print(f"{language}: {passed} passed, {failed} failed", flush=True)
                if failed:
                    status = 1
                if set(names) == set(SCENARIOS):  # partial runs do not overwrite the matrix
                    write_results(results, language, outcomes, matrix=not args.no_matrix)
    finally:
        if args.keep:
            print(f"work directory kept: {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
