"""What observability costs: node completions/s with it off and on, in the same run.

Each mode is a row of :data:`MODES`: the extra ``praxis serve`` arguments and the extra
environment of the server. ``metrics`` serves Prometheus metrics (``--metrics-listen``)
and is scraped every second while the workload runs, as Prometheus would; ``tracing``
turns OpenTelemetry on through the standard ``OTEL_*`` environment and exports every RPC, run,
node and attempt span over OTLP to a collector stand-in in this process that counts them
(a round of ``tracing`` that received no span fails the benchmark).

Every round starts a fresh ``praxis serve --processes 2`` (SQLite, ``synchronous=FULL``)
per mode, in turn (the modes are interleaved, so they share the machine's load), and 4
worker processes (batch claims, long poll; the worker of ``runtime_bench.py``) execute
``RUNS`` runs of 10 nodes: half chains of 10, half fan-outs (split -> 8 items -> join).
Completions per second run from the first StartRun to the last run's end. Reported: each
mode's median over the rounds, and its ratio to ``off`` (the median of the per-round
ratios). Targets: metrics on >= 0.95x of off, tracing on >= 0.85x of off.

Results go to stdout and ``benchmarks/results/observability.json``.

    .venv/bin/python benchmarks/observability_bench.py [--rounds N] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent import futures
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from runtime_bench import CHAIN10, FANOUT10, wait_all, worker_main

from aiws.engine.v1 import run_pb2
from praxis_client import connect
from tests.support.harness import token_of
from tests.support.server_process import free_port, write_config

RESULTS = Path(__file__).parent / "results" / "observability.json"
WORKERS = 4
PROCESSES = os.environ.get("BENCH_PROCESSES", "2")
METRICS_PORT = "{metrics_port}"  # replaced by a free port when the mode starts
OTLP_ENDPOINT = "{otlp_endpoint}"  # replaced by the span sink's endpoint

MODES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "off": ((), {}),
    "metrics": (("--metrics-listen", f"127.0.0.1:{METRICS_PORT}"), {}),
    "tracing": (
        (),
        {
            "OTEL_TRACES_EXPORTER": "otlp",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": OTLP_ENDPOINT,
            "OTEL_SERVICE_NAME": "praxis-bench",
        },
    ),
}
"""Mode -> (extra ``praxis serve`` arguments, extra environment)."""

TARGETS = {"metrics": 0.95, "tracing": 0.85}
"""The lowest acceptable ratio to ``off`` per mode."""


class SpanSink(trace_service_pb2_grpc.TraceServiceServicer):
    """A collector stand-in: counts the spans exported to it, keeps nothing else."""

    def __init__(self) -> None:
        self.spans = 0
        self._lock = threading.Lock()
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self, self._server)
        self.endpoint = f"http://127.0.0.1:{self._server.add_insecure_port('127.0.0.1:0')}"
        self._server.start()

    def Export(  # gRPC method name
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: grpc.ServicerContext
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        count = sum(len(s.spans) for r in request.resource_spans for s in r.scope_spans)
        with self._lock:
            self.spans += count
        return trace_service_pb2.ExportTraceServiceResponse()

    def stop(self) -> None:
        self._server.stop(0)


SINK: SpanSink | None = None  # started by main()


class Server:
    """One ``praxis serve`` subprocess of a mode, and a 1 s scraper when it has metrics."""

    def __init__(self, directory: Path, args: tuple[str, ...], env: dict[str, str]) -> None:
        metrics_port = str(free_port())
        self.args = [arg.replace(METRICS_PORT, metrics_port) for arg in args]
        self.metrics_port = int(metrics_port) if "--metrics-listen" in args else None
        command = [
            sys.executable, "-m", "praxis.serve.cli", "serve",
            "--config", str(write_config(directory)),
            "--listen", f"127.0.0.1:{free_port()}",
            "--processes", PROCESSES, "--log-level", "WARNING", *self.args,
        ]  # fmt: skip
        directory.mkdir(parents=True, exist_ok=True)
        self.log = directory / "server.log"  # read back when a scrape fails
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self.log.open("w"),
            text=True,
            env={**os.environ, **{k: _endpoint(v) for k, v in env.items()}},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the server did not start: {command}")
        self.address = json.loads(line)["listening"]
        self.scrapes = 0
        self.scrape_errors: list[str] = []
        self._stop = threading.Event()
        self._scraper = threading.Thread(target=self._scrape, daemon=True)
        if self.metrics_port is not None:
            self._scraper.start()

    def _scrape(self) -> None:
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        while not self._stop.wait(1.0):
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    response.read()
                self.scrapes += 1
            except OSError as error:  # reported with the server's log, never hidden
                self.scrape_errors.append(f"{error}: {self.log.read_text()[-2000:]}")

    def cpu_seconds(self) -> float:
        """CPU time (user + system) of the server's processes so far (Linux /proc)."""
        pids = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            pids += [int(pid) for pid in children.read_text().split()]
        ticks = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self._stop.set()
        if self._scraper.is_alive():
            self._scraper.join(timeout=15)
        self.process.terminate()
        self.process.wait(timeout=60)


def _endpoint(value: str) -> str:
    assert SINK is not None
    return value.replace(OTLP_ENDPOINT, SINK.endpoint)


def worker(address: str, name: str, stop: Any, counter: Any, ready: Any) -> None:
    """``runtime_bench``'s worker, once this spawned process has imported everything."""
    ready.put(name)
    worker_main(address, name, stop, counter)


def one_round(directory: Path, mode: str, runs: int, round_: int) -> dict[str, Any]:
    """Node completions/s of ``runs`` runs on a fresh server of ``mode``."""
    args, env = MODES[mode]
    assert SINK is not None
    spans_before = SINK.spans
    server = Server(directory / f"{mode}-{round_}", args, env)
    context = multiprocessing.get_context("spawn")
    stop, counter, ready = context.Event(), context.Value("i", 0), context.Queue()
    workers = [
        context.Process(target=worker, args=(server.address, f"w{i}", stop, counter, ready))
        for i in range(WORKERS)
    ]
    for process in workers:
        process.start()
    client = connect(server.address, token_of("agent"))
    try:
        for _ in workers:
            ready.get(timeout=120)  # every worker has started (spawning is not measured)
        time.sleep(0.5)  # and is long-polling
        began, cpu = time.monotonic(), server.cpu_seconds()
        run_ids = [
            client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id=f"bench-{index}",
                    definition_json=json.dumps(CHAIN10 if index % 2 == 0 else FANOUT10),
                )
            ).run.run_id
            for index in range(runs)
        ]
        wait_all(client, run_ids)
        elapsed = time.monotonic() - began
        cpu = server.cpu_seconds() - cpu
    finally:
        stop.set()
        for process in workers:
            process.join(timeout=30)
        client.close()
        server.stop()
    return {
        "completions_per_s": round(runs * 10 / elapsed, 1),
        "seconds": round(elapsed, 3),
        "server_cpu_ms_per_completion": round(cpu * 1000 / (runs * 10), 3),
        "scrapes": server.scrapes,
        "scrape_errors": server.scrape_errors,
        "spans_exported": SINK.spans - spans_before,  # flushed when the server stops
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=100)
    options = parser.parse_args(argv)
    global SINK
    SINK = SpanSink()
    rounds: list[dict[str, dict[str, Any]]] = []
    load_start = round(os.getloadavg()[0], 2)  # what else the machine was doing
    with tempfile.TemporaryDirectory() as raw:
        for round_ in range(options.rounds):
            order = list(MODES) if round_ % 2 == 0 else list(reversed(MODES))
            done = {mode: one_round(Path(raw), mode, options.runs, round_) for mode in order}
            rounds.append(done)
            if "tracing" in done and done["tracing"]["spans_exported"] == 0:
                raise SystemExit("tracing mode exported no span: is tracing wired?")
            print(f"round {round_}: " + ", ".join(
                f"{mode} {rounds[-1][mode]['completions_per_s']}/s" for mode in MODES
            ), flush=True)  # fmt: skip
    SINK.stop()
    report = summarize(rounds, options.runs)
    report["load_average_1m"] = {"start": load_start, "end": round(os.getloadavg()[0], 2)}
    print_table(report)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {RESULTS}")
    return 0


def summarize(rounds: list[dict[str, dict[str, Any]]], runs: int) -> dict[str, Any]:
    modes: dict[str, Any] = {}
    for mode in MODES:
        per_round = [r[mode]["completions_per_s"] for r in rounds]
        ratios = [r[mode]["completions_per_s"] / r["off"]["completions_per_s"] for r in rounds]
        cpu = [r[mode]["server_cpu_ms_per_completion"] for r in rounds]
        cpu_ratios = [
            r[mode]["server_cpu_ms_per_completion"] / r["off"]["server_cpu_ms_per_completion"]
            for r in rounds
        ]
        modes[mode] = {
            "args": list(MODES[mode][0]),
            "env": MODES[mode][1],
            "completions_per_s": statistics.median(per_round),
            "rounds": per_round,
            "vs_off": round(statistics.median(ratios), 3),
            "vs_off_rounds": [round(ratio, 3) for ratio in ratios],
            "target_vs_off_min": TARGETS.get(mode),
            "scrapes": sum(r[mode]["scrapes"] for r in rounds),
            "scrape_errors": [e for r in rounds for e in r[mode]["scrape_errors"]],
            "spans_exported": [r[mode]["spans_exported"] for r in rounds],
            # Server CPU per completion: the overhead itself, less sensitive than
            # completions/s to what else the machine runs.
            "server_cpu_ms_per_completion": statistics.median(cpu),
            "server_cpu_rounds": cpu,
            "cpu_vs_off": round(statistics.median(cpu_ratios), 3),
            "cpu_vs_off_rounds": [round(ratio, 3) for ratio in cpu_ratios],
        }
    return {
        "command": "benchmarks/observability_bench.py",
        "workload": {
            "runs": runs,
            "node_completions": runs * 10,
            "workers": WORKERS,
            "processes": int(PROCESSES),
            "rounds": len(rounds),
        },
        "modes": modes,
    }


def print_table(report: dict[str, Any]) -> None:
    print(f"{'mode':<10} {'completions/s':>14} {'vs off':>7} {'target':>8} "
          f"{'cpu ms/node':>12} {'cpu vs off':>10}  rounds (completions/s)")  # fmt: skip
    for mode, row in report["modes"].items():
        target = f">= {row['target_vs_off_min']}" if row["target_vs_off_min"] else "baseline"
        rounds = " ".join(str(x) for x in row["rounds"])
        cpu, cpu_ratio = row["server_cpu_ms_per_completion"], row["cpu_vs_off"]
        print(f"{mode:<10} {row['completions_per_s']:>14} {row['vs_off']:>7} {target:>8} "
              f"{cpu:>12} {cpu_ratio:>10}  {rounds}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
