"""Durable registry throughput and latency over loopback gRPC, against a no-op baseline.

A ``praxis serve`` subprocess (SQLite, ``synchronous=FULL``) is driven by 1 and 8
concurrent clients, each cycling PROPOSE (agent), Review + CreateApproval (human) and
ACTIVATE (human) over its own work orders. In the same run the same server answers the
gRPC health check (a no-op) from the same number of clients, in windows alternating with
the durable ones (``ROUNDS``): that rate is the baseline, since these machines are shared
and noisy.

Durable commands are the three writes per cycle (PROPOSE, CreateApproval, ACTIVATE);
latency percentiles are per durable command. Each window also reports the CPU per call
of the server and of the clients and the cores it kept busy, and the durable run its
``cpu_bound_ratio``: the ratio the two rates would have if both were bound by CPU alone
(see ``CpuMeter``). Results go to stdout and
``benchmarks/results/registry.json``.

    make bench            # or: .venv/bin/python benchmarks/registry_bench.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import contextlib
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

from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import approval_pb2, registry_pb2
from praxis.serve.processes import default_processes
from praxis_client import connect
from tests.support.harness import token_of
from tests.support.registry import activate_cmd, propose_cmd, ref, register_cmd, variant
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "registry.json"

# Each client its own TCP connection, as separate client processes would have: channels
# of one process to one address otherwise share one subchannel, and every call of the
# bench would reach the same one of ``praxis serve``'s processes.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


class Worker:
    """One client thread cycling commands over its own work orders."""

    def __init__(self, address: str, index: int, work_orders: int) -> None:
        self.human = connect(address, token_of("alice"), options=OWN_CONNECTION)
        self.agent = connect(address, token_of("agent"), options=OWN_CONNECTION)
        self.refs = [ref(f"bench-{index}-{n}", "run") for n in range(work_orders)]
        self.revisions = {r.work_order_id: 1 for r in self.refs}
        self.epochs = self.human.registry.GetEpochs(
            registry_pb2.GetEpochsRequest(work_order_id=self.refs[0].work_order_id)
        ).epochs
        self.latencies: list[float] = []
        self.commands = 0
        self.cycle = 0

    def register_all(self) -> None:
        for r in self.refs:
            command = register_cmd(r, f"{r.work_order_id}-ap-reg")
            self._approve(command, f"{r.work_order_id}-ap-reg", timed=False)
            self._execute(self.human, f"{r.work_order_id}-reg", command, timed=False)

    def _timed(self, call: Callable[[], Any], timed: bool) -> Any:
        start = time.perf_counter()
        result = call()
        if timed:
            self.latencies.append(time.perf_counter() - start)
            self.commands += 1
        return result

    def _approve(
        self, command: registry_pb2.RegistryCommand, approval_id: str, timed: bool = True
    ) -> None:
        review = self.human.registry.Review(
            registry_pb2.ReviewRequest(epochs=self.epochs, command=command)
        )
        request = approval_pb2.CreateApprovalRequest(
            approval_id=approval_id,
            material_digest=review.material_digest,
            expires_at_ms=int(time.time() * 1000) + 3_600_000,
        )
        self._timed(lambda: self.human.approvals.CreateApproval(request), timed)

    def _execute(
        self,
        client: Any,
        request_id: str,
        command: registry_pb2.RegistryCommand,
        timed: bool = True,
    ) -> None:
        request = registry_pb2.ExecuteRequest(
            epochs=self.epochs, request_id=request_id, command=command
        )
        self._timed(lambda: client.registry.Execute(request), timed)

    def one_cycle(self) -> None:
        r = self.refs[self.cycle % len(self.refs)]
        self.cycle += 1
        base = self.revisions[r.work_order_id]
        proposal = f"{r.work_order_id}-p{base}"
        self._execute(
            self.agent,
            f"{proposal}-prop",
            propose_cmd(r, proposal, base, variant(base + 1)),
        )
        activate = activate_cmd(r, proposal, base, f"{proposal}-ap")
        self._approve(activate, f"{proposal}-ap")
        self._execute(self.human, f"{proposal}-act", activate)
        self.revisions[r.work_order_id] = base + 1

    def close(self) -> None:
        self.human.close()
        self.agent.close()


def run_threads(count: int, seconds: float, body: Callable[[int], Callable[[], None]]) -> float:
    """Runs ``body(i)()`` in a loop on ``count`` threads for ``seconds``; returns elapsed."""
    stop = threading.Event()
    steps = [body(i) for i in range(count)]

    def loop(step: Callable[[], None]) -> None:
        while not stop.is_set():
            step()

    threads = [threading.Thread(target=loop, args=(s,)) for s in steps]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def server_cpu_s(pid: int) -> float:
    """User plus system CPU seconds of a process and its live child processes (the
    server processes ``praxis serve --processes N`` starts)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    total = ticks / os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else []:
        with contextlib.suppress(FileNotFoundError):  # exited meanwhile
            total += server_cpu_s(int(child))
    return total


class CpuMeter:
    """CPU seconds spent by the server processes and by this (client) process over the
    windows measured with it: the CPU cost of a call on each side, and how many of the
    machine's cores the window kept busy. When a rate is bound by CPU, the ratio of two
    rates is the inverse ratio of their costs per call (``cpu_bound_ratio``); a measured
    ratio below that one is time spent waiting (a serialized section), not working."""

    def __init__(self, pid: int, clients: tuple[int, ...] = ()) -> None:
        self.pid = pid
        self.clients = clients  # client processes besides this one (worker processes)
        self.server_s = self.client_s = self.elapsed_s = 0.0
        self.calls = 0

    def measure(self, window: Callable[[], dict[str, Any]], calls_key: str = "calls") -> Any:
        """Runs ``window()`` (a result with ``calls_key`` and ``seconds``) and adds its
        CPU time and calls; returns the result."""
        server, client, began = server_cpu_s(self.pid), self._client_s(), time.perf_counter()
        result = window()
        self.elapsed_s += time.perf_counter() - began
        self.server_s += server_cpu_s(self.pid) - server
        self.client_s += self._client_s() - client
        self.calls += result[calls_key]
        return result

    def report(self) -> dict[str, float]:
        calls = max(1, self.calls)
        return {
            "server_cpu_ms_per_call": round(self.server_s * 1000 / calls, 3),
            "client_cpu_ms_per_call": round(self.client_s * 1000 / calls, 3),
            "cores_busy": round((self.server_s + self.client_s) / max(self.elapsed_s, 1e-9), 2),
        }

    def cost_ms(self) -> float:
        """Server and client CPU per call, in ms."""
        return (self.server_s + self.client_s) * 1000 / max(1, self.calls)

    def _client_s(self) -> float:
        times = os.times()
        return times.user + times.system + sum(server_cpu_s(pid) for pid in self.clients)


def cpu_bound_ratio(noop: CpuMeter, durable: CpuMeter) -> float:
    """The durable/no-op rate ratio if both were bound by CPU alone (see CpuMeter)."""
    return round(noop.cost_ms() / max(durable.cost_ms(), 1e-9), 3)


ROUNDS = 4
"""The no-op and the durable windows alternate this many times, so that a change of the
machine's load during the run weighs on both rates alike."""


def bench_pair(
    address: str, clients: int, seconds: float, pid: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """No-op calls and durable commands from ``clients`` clients in alternating windows
    (``seconds / 2`` of no-op and ``seconds`` of commands in all): both rates."""
    workers = [Worker(address, i + 1000 * clients, 16) for i in range(clients)]
    for worker in workers:
        worker.register_all()
    noops: list[dict[str, Any]] = []
    elapsed = 0.0
    noop_cpu, durable_cpu = CpuMeter(pid), CpuMeter(pid)

    def commands() -> dict[str, Any]:
        before = sum(w.commands for w in workers)
        took = run_threads(clients, seconds / ROUNDS, lambda i: workers[i].one_cycle)
        return {"seconds": took, "calls": sum(w.commands for w in workers) - before}

    for _ in range(ROUNDS):
        noops.append(noop_cpu.measure(lambda: bench_noop(address, clients, seconds / 2 / ROUNDS)))
        elapsed += durable_cpu.measure(commands)["seconds"]
    calls = sum(window["calls"] for window in noops)
    noop = {
        "clients": clients,
        "calls": calls,
        "calls_per_s": calls / sum(window["calls"] / window["calls_per_s"] for window in noops),
        "p50_ms": statistics.median(window["p50_ms"] for window in noops),
        "p99_ms": max(window["p99_ms"] for window in noops),
        **noop_cpu.report(),
    }
    # Server CPU per durable command: the Review of each cycle included.
    durable = _durable(workers, clients, elapsed)
    durable.update(durable_cpu.report(), cpu_bound_ratio=cpu_bound_ratio(noop_cpu, durable_cpu))
    return noop, durable


def _durable(workers: list[Worker], clients: int, elapsed: float) -> dict[str, Any]:
    latencies = [x for w in workers for x in w.latencies]
    commands = sum(w.commands for w in workers)
    for worker in workers:
        worker.close()
    return {
        "clients": clients,
        "commands": commands,
        "commands_per_s": commands / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else 0.0,
    }


def bench_noop(address: str, clients: int, seconds: float) -> dict[str, Any]:
    import grpc

    channels = [grpc.insecure_channel(address, options=OWN_CONNECTION) for _ in range(clients)]
    stubs = [health_pb2_grpc.HealthStub(c) for c in channels]
    latencies: list[list[float]] = [[] for _ in range(clients)]

    def step(i: int) -> Callable[[], None]:
        def call() -> None:
            start = time.perf_counter()
            stubs[i].Check(health_pb2.HealthCheckRequest())
            latencies[i].append(time.perf_counter() - start)

        return call

    elapsed = run_threads(clients, seconds, step)
    flat = [x for per in latencies for x in per]
    for channel in channels:
        channel.close()
    return {
        "clients": clients,
        "calls": len(flat),
        "calls_per_s": len(flat) / elapsed,
        "p50_ms": percentile(flat, 0.50) * 1000,
        "p99_ms": percentile(flat, 0.99) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--processes",
        type=int,
        default=default_processes(),
        help="server processes (default: as `praxis serve`, one per core)",
    )
    args = parser.parse_args()
    results: dict[str, Any] = {
        "command": "python benchmarks/registry_bench.py",
        "server_processes": args.processes,
        "load_average": os.getloadavg(),
        "synchronous": "FULL",
        "seconds": args.seconds,
        "runs": [],
    }
    with tempfile.TemporaryDirectory(prefix="praxis-bench-") as tmp:
        server = ServerProcess(
            write_config(Path(tmp), synchronous="FULL"),
            free_port(),
            "--processes",
            str(args.processes),
        )
        server.start(timeout_s=90)
        try:
            for clients in (1, 8):
                assert server.process is not None
                noop, durable = bench_pair(
                    server.address, clients, args.seconds, server.process.pid
                )
                durable["ratio_to_noop"] = durable["commands_per_s"] / noop["calls_per_s"]
                results["runs"].append({"noop": noop, "durable": durable})
        finally:
            server.terminate()
    print(
        f"{'clients':>7} {'noop/s':>9} {'noop p99':>9} {'cmds/s':>9} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'ratio':>6} {'cpu ms/cmd':>10} {'cpu-bound':>9} {'cores':>11}"
    )
    for run in results["runs"]:
        noop, durable = run["noop"], run["durable"]
        print(
            f"{durable['clients']:>7} {noop['calls_per_s']:>9.0f} {noop['p99_ms']:>9.2f} "
            f"{durable['commands_per_s']:>9.0f} {durable['p50_ms']:>7.2f} "
            f"{durable['p99_ms']:>7.2f} {durable['ratio_to_noop']:>6.2f} "
            f"{durable['server_cpu_ms_per_call']:>10.2f} {durable['cpu_bound_ratio']:>9.2f} "
            f"{noop['cores_busy']:>5.2f}/{durable['cores_busy']:<5.2f}"
        )
    eight = results["runs"][-1]["durable"]
    results["targets"] = {
        "commands_per_s_8_clients >= 1000": eight["commands_per_s"] >= 1000,
        "ratio_to_noop >= 0.5": eight["ratio_to_noop"] >= 0.5,
        "p99_ms <= 25": eight["p99_ms"] <= 25,
    }
    print(json.dumps(results["targets"], indent=2))
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
