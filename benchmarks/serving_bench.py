"""Serving: held streams and long polls, idle watchers, idle workers; ratios in one run.

A ``praxis serve --processes 1`` subprocess (SQLite, ``synchronous=FULL``) is measured
(one process: its RSS and CPU are the figures), except for 3., which runs on ``praxis
serve`` with its default processes (one per core; ``--processes`` chooses):

1. Held calls: 1,000 ``WatchRun`` + 1,000 ``StreamEvents`` streams and 500 ``ClaimTasks``
   long polls are opened over 30 channels (HTTP/2 allows about 100 streams per
   connection) and held. With them held: health ``Check`` p50/p99 and unary ``GetRun``
   p50/p99 (sequential calls), the server's RSS, and its CPU while everything waits
   (10 s, between safety-net rechecks).
   Targets: health p99 <= 50 ms, GetRun p99 <= 100 ms.
2. Idle watchers: p50 of a 3-node chain (StartRun to the end of its WatchRun, one worker
   long-polling) without and then with 1,000 ``WatchRun`` streams held on other runs.
   Target: with / without <= 1.5.
3. Idle workers: p50 of the same chain while 50 workers long-poll for work (each settles
   what it ran and claims the next in one ``SettleTasks`` round trip, as the worker
   runtimes do), in no-op round trips (health ``Check`` p50 of 25 calls after each chain,
   so that a change of the machine's load weighs on both).
   Target: <= 30. Measured again on a server with ``synchronous=NORMAL`` (no flush per
   commit), which shows how much of the chain is the disk rather than serving.

Results go to stdout and ``benchmarks/results/serving.json``.

    make bench            # or: .venv/bin/python benchmarks/serving_bench.py
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import (
    common_pb2,
    event_pb2,
    event_pb2_grpc,
    run_pb2,
    run_pb2_grpc,
    task_pb2,
    task_pb2_grpc,
)
from praxis.serve.processes import default_processes
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "serving.json"
CHAIN3 = definition(
    "c",
    a=node(output=json_out()),
    b=node("node:a", ("a",), json_out()),
    c=node("node:b", ("b",), json_out()),
)
IDLE = definition("a", a=node(model="idle"))
STREAMS_PER_CHANNEL = 90


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def metadata(principal_id: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token_of(principal_id)}")]


def channel(address: str) -> grpc.Channel:
    """A channel with its own connection (no sharing of subchannels between channels)."""
    return grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])


def timed(call: Callable[[], Any], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        began = time.perf_counter()
        call()
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p99_ms": round(percentile(samples, 0.99), 3),
    }


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


class Held:
    """Streams and long polls held open over several channels."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.channels: list[grpc.Channel] = []
        self.calls: list[Any] = []
        self._used = STREAMS_PER_CHANNEL

    def _channel(self) -> grpc.Channel:
        if self._used >= STREAMS_PER_CHANNEL:
            self.channels.append(channel(self.address))
            self._used = 0
        self._used += 1
        return self.channels[-1]

    def watch(self, run_id: str) -> None:
        stream = run_pb2_grpc.RunServiceStub(self._channel()).WatchRun(
            run_pb2.WatchRunRequest(run_id=run_id), metadata=metadata("alice")
        )
        self.calls.append(stream)

    def events(self, run_id: str) -> None:
        stream = event_pb2_grpc.EventServiceStub(self._channel()).StreamEvents(
            event_pb2.StreamEventsRequest(run_id=run_id), metadata=metadata("alice")
        )
        self.calls.append(stream)

    def long_poll(self, index: int) -> None:
        future = task_pb2_grpc.TaskServiceStub(self._channel()).ClaimTasks.future(
            task_pb2.ClaimTasksRequest(
                worker_id=f"idle-{index}",
                models=["idle-model"],
                max_tasks=1,
                lease_ms=30_000,
                wait_ms=60_000,
            ),
            metadata=metadata("agent"),
        )
        self.calls.append(future)

    def close(self) -> None:
        for call in self.calls:
            call.cancel()
        for item in self.channels:
            item.close()


def start_runs(address: str, count: int, document: dict[str, Any], prefix: str) -> list[str]:
    with channel(address) as ch:
        runs = run_pb2_grpc.RunServiceStub(ch)
        return [
            runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"{prefix}-{index}", definition_json=json.dumps(document)
                ),
                metadata=metadata("alice"),
            ).run.run_id
            for index in range(count)
        ]


def held_calls(server: ServerProcess, streams: int, polls: int) -> dict[str, Any]:
    address, pid = server.address, server.process.pid  # type: ignore[union-attr]
    run_ids = start_runs(address, 100, IDLE, "held")
    probe = channel(address)
    health = health_pb2_grpc.HealthStub(probe)
    runs = run_pb2_grpc.RunServiceStub(probe)
    get = run_pb2.GetRunRequest(run_id=run_ids[0])
    before = {
        "health": summary(timed(lambda: health.Check(health_pb2.HealthCheckRequest()), 300)),
        "get_run": summary(timed(lambda: runs.GetRun(get, metadata=metadata("alice")), 300)),
        "rss_mb": rss_mb(pid),
    }
    held = Held(address)
    began = time.monotonic()
    for index in range(streams // 2):
        held.watch(run_ids[index % len(run_ids)])
        held.events(run_ids[index % len(run_ids)])
    for index in range(polls):
        held.long_poll(index)
    for call in held.calls[:streams]:
        next(call)  # every stream answered its first message: all are open
    opened_s = time.monotonic() - began
    time.sleep(1.0)
    cpu_before = cpu_s(pid)
    time.sleep(10.0)
    idle_cpu = (cpu_s(pid) - cpu_before) / 10.0
    during = {
        "health": summary(timed(lambda: health.Check(health_pb2.HealthCheckRequest()), 500)),
        "get_run": summary(timed(lambda: runs.GetRun(get, metadata=metadata("alice")), 500)),
        "rss_mb": rss_mb(pid),
        # Cores used while all wait, in a 10 s window before the first 60 s safety-net
        # recheck (each held call reads once per 48-60 s after that).
        "server_cpu_while_all_wait": round(idle_cpu, 3),
    }
    still_waiting = sum(1 for call in held.calls[streams:] if not call.done())
    held.close()
    probe.close()
    return {
        "streams": streams,
        "long_polls": polls,
        "long_polls_still_waiting": still_waiting,
        "seconds_to_open_all": round(opened_s, 2),
        "before": before,
        "held": during,
        "targets_met": during["health"]["p99_ms"] <= 50 and during["get_run"]["p99_ms"] <= 100,
    }


class Workers:
    """Worker threads long-polling for chain nodes and completing them at once."""

    def __init__(self, address: str, count: int) -> None:
        self.stop = threading.Event()
        self.received: dict[tuple[str, str], float] = {}  # (run, node) -> when it arrived
        self.channels = [channel(address) for _ in range(max(1, count // 50 + 1))]
        self.threads = [
            threading.Thread(target=self._loop, args=(index,), daemon=True)
            for index in range(count)
        ]
        for thread in self.threads:
            thread.start()

    def _loop(self, index: int) -> None:
        """Settles the task it ran and claims the next in one round trip (SettleTasks with
        a long-polling claim), as the workers of every runtime do."""
        tasks = task_pb2_grpc.TaskServiceStub(self.channels[index % len(self.channels)])
        name = f"worker-{index}"
        claim = task_pb2.ClaimTasksRequest(
            worker_id=name, models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
        )
        settlements: list[task_pb2.Settlement] = []
        while not self.stop.is_set():
            try:
                response = tasks.SettleTasks(
                    task_pb2.SettleTasksRequest(settlements=settlements, claim=claim),
                    metadata=metadata("agent"),
                )
            except grpc.RpcError:
                if not self.stop.is_set():
                    raise
                return
            arrived = time.perf_counter()
            for task in response.tasks:
                self.received[(task.run_id, task.node_id)] = arrived
            for result in response.results:
                assert result.WhichOneof("result") == "complete", result
            settlements = [
                task_pb2.Settlement(
                    complete=task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id,
                        worker_id=name,
                        result_json="{}",
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )
                for task in response.tasks
            ]

    def close(self) -> None:
        """Stops the workers: closing the channels cancels their long polls (waiting
        them out took 20 s)."""
        self.stop.set()
        for item in self.channels:
            item.close()
        for thread in self.threads:
            thread.join(timeout=10)


def chain_p50(
    address: str,
    count: int,
    prefix: str,
    workers: Workers | None = None,
    steps: dict[str, float] | None = None,
    between: Callable[[], None] | None = None,
) -> float:
    """The median time from StartRun to the end of WatchRun of a 3-node chain; with
    ``workers`` and ``steps``, also the median time from StartRun until each node's task
    reached a worker (``steps``: node id -> ms). ``between`` runs after each chain."""
    reached: dict[str, list[float]] = {node_id: [] for node_id in CHAIN3["nodes"]}
    with channel(address) as ch:
        runs = run_pb2_grpc.RunServiceStub(ch)
        samples = []
        for index in range(count):
            began = time.perf_counter()
            run = runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"{prefix}-{index}", definition_json=json.dumps(CHAIN3)
                ),
                metadata=metadata("alice"),
            ).run
            for update in runs.WatchRun(
                run_pb2.WatchRunRequest(run_id=run.run_id), metadata=metadata("alice")
            ):
                last = update.run
            assert last.state == run_pb2.RUN_STATE_COMPLETED, last
            samples.append((time.perf_counter() - began) * 1000)
            if between is not None:
                between()
            if workers is not None:
                for node_id, times in reached.items():
                    times.append((workers.received[(run.run_id, node_id)] - began) * 1000)
    if steps is not None and workers is not None:
        steps.update({node_id: round(statistics.median(t), 2) for node_id, t in reached.items()})
    return round(statistics.median(samples), 2)


def idle_watchers(server: ServerProcess, watchers: int, chains: int) -> dict[str, Any]:
    address = server.address
    run_ids = start_runs(address, 100, IDLE, "idle-watched")
    workers = Workers(address, 1)
    try:
        chain_p50(address, 5, "warm")
        without = chain_p50(address, chains, "quiet")
        held = Held(address)
        for index in range(watchers):
            held.watch(run_ids[index % len(run_ids)])
        for call in held.calls:
            next(call)
        with_watchers = chain_p50(address, chains, "watched")
        held.close()
    finally:
        workers.close()
    ratio = with_watchers / without
    return {
        "idle_watchers": watchers,
        "chains": chains,
        "chain_p50_ms_without": without,
        "chain_p50_ms_with": with_watchers,
        "ratio": round(ratio, 2),
        "target_met": ratio <= 1.5,
    }


def idle_workers(server: ServerProcess, count: int, chains: int) -> dict[str, Any]:
    address = server.address
    workers = Workers(address, count)
    try:
        time.sleep(1.0)  # every worker is waiting
        chain_p50(address, 5, "warm-workers")
        with channel(address) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            noops: list[float] = []

            def baseline() -> None:  # between the chains: the machine's load weighs on both
                noops.extend(timed(lambda: health.Check(health_pb2.HealthCheckRequest()), 25))

            baseline()
            steps: dict[str, float] = {}
            chain = chain_p50(address, chains, "workers", workers, steps, baseline)
            noop = statistics.median(noops)
    finally:
        workers.close()
    ratio = chain / noop
    return {
        "idle_workers": count,
        "chains": chains,
        "chain_p50_ms": chain,
        "node_at_worker_p50_ms": steps,  # from StartRun until each node's task arrived
        "noop_p50_ms": round(noop, 3),
        "round_trips": round(ratio, 1),
        "target_met": ratio <= 30,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--long-polls", type=int, default=500)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=50)
    parser.add_argument("--chains", type=int, default=40)
    parser.add_argument(
        "--processes",
        type=int,
        default=default_processes(),
        help="server processes of the idle-workers chain (default: as `praxis serve`)",
    )
    args = parser.parse_args()
    report: dict[str, Any] = {
        "command": "python benchmarks/serving_bench.py",
        "load_average": os.getloadavg(),
    }
    with tempfile.TemporaryDirectory() as directory:
        config = write_config(
            Path(directory),
            models=["echo", "idle"],
            serving={
                "max_streams": 20_000,
                "max_streams_per_principal": 10_000,
                "max_long_polls": 10_000,
                "max_long_polls_per_principal": 5_000,
            },
        )
        server = ServerProcess(config, free_port())
        server.start(timeout_s=60)
        try:
            report["held_calls"] = held_calls(server, args.streams, args.long_polls)
            print(json.dumps({"held_calls": report["held_calls"]}, indent=2), flush=True)
            report["idle_watchers"] = idle_watchers(server, args.watchers, args.chains)
            print(json.dumps({"idle_watchers": report["idle_watchers"]}, indent=2), flush=True)
            if args.processes == 1:
                report["idle_workers"] = idle_workers(server, args.workers, args.chains)
        finally:
            server.terminate()
        if args.processes != 1:  # the chain on the server as users run it
            server = ServerProcess(
                write_config(Path(directory) / "default", models=["echo", "idle"]),
                free_port(),
                "--processes",
                str(args.processes),
            )
            server.start(timeout_s=90)
            try:
                report["idle_workers"] = idle_workers(server, args.workers, args.chains)
            finally:
                server.terminate()
        report["idle_workers"]["server_processes"] = args.processes
        print(json.dumps({"idle_workers": report["idle_workers"]}, indent=2), flush=True)
        # The same chain when commits are not flushed to disk one by one: how much of the
        # round trips above is the disk rather than serving.
        config = write_config(Path(directory) / "normal", synchronous="NORMAL")
        server = ServerProcess(config, free_port(), "--processes", str(args.processes))
        server.start(timeout_s=60)
        try:
            report["idle_workers_synchronous_normal"] = idle_workers(
                server, args.workers, args.chains
            )
            print(json.dumps({"idle_workers_synchronous_normal": report[
                "idle_workers_synchronous_normal"]}, indent=2), flush=True)  # fmt: skip
        finally:
            server.terminate()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
