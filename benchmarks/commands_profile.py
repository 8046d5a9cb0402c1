"""Where a one-process server spends its CPU on StartRun calls and registry commands.

A ``praxis serve`` (SQLite, ``synchronous=FULL``, one process) of this tree is driven by 8
clients with ``startrun_bench``'s or ``registry_bench``'s workload while ``perf record -g``
samples it on-CPU (1999 Hz): each sample goes to one bucket by its leaf frame and call
chain (the interpreter, sqlite3, gRPC's C core, protobuf, and the kernel's share split
into thread hand-offs (futex waits and wakes, context switches), file I/O (the WAL's
writes and fsyncs) and the network). Then ``py-spy record --gil`` samples which Python
code holds the interpreter, by package of the innermost frame (grpc.aio's Cython code
shows as ``asyncio`` ``Handle._run``, its caller). Each bucket is reported as a share and
as ms of server CPU per durable call (the server's CPU from /proc over the window; a
registry window's Review calls are in its CPU, not in its count, as in
``registry_bench``). Needs ``perf`` (``kernel.perf_event_paranoid`` <= 2 for one's own
processes) and py-spy (the ``dev`` extra). Results go to stdout and
``benchmarks/results/commands_profile.json``.

    .venv/bin/python benchmarks/commands_profile.py [--seconds 8] [--workloads start,registry]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.registry_bench import Worker, run_threads, server_cpu_s
from benchmarks.startrun_bench import bench_start
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "commands_profile.json"
PY_SPY = Path(sys.executable).with_name("py-spy")

# (bucket, what the call chain holds), first match wins; kernel leaves only.
KERNEL = (
    ("kernel: thread hand-offs (futex, context switches)", ("futex", "__schedule")),
    ("kernel: network and epoll", ("epoll", "tcp", "sock", "inet")),
    ("kernel: file I/O (WAL writes, fsync)", ("ext4", "fsync", "jbd2", "write", "read")),
)
LIBRARIES = (
    ("sqlite3", ("libsqlite3", "_sqlite3")),
    ("gRPC C core", ("cygrpc",)),
    ("protobuf (upb)", ("_message",)),
    ("Python interpreter", ("libpython", "_json", "_asyncio", "_map.", "_hashlib", "_queue")),
)
# Python packages by the path of the innermost frame (py-spy), first match wins.
PACKAGES = (
    ("praxis/store/db", "store/db: writer thread, statements, group commit"),
    ("praxis/store/wake", "store/wake: wake-ups"),
    ("praxis/store/runtime", "store/runtime"),
    ("praxis/store/registry", "store/registry"),
    ("praxis/store", "store: other slices"),
    ("praxis/core", "core: the pure reducers"),
    ("praxis/rpc", "rpc: servicers, conversion, interceptors"),
    ("praxis/authority", "authority"),
    ("praxis/", "praxis: other"),
    ("asyncio", "asyncio loop and grpc.aio (Cython)"),
    ("grpc/", "grpc (Python)"),
    ("concurrent/futures", "executor threads"),
    ("threading", "threading: locks, events"),
    ("sqlalchemy", "SQLAlchemy"),
    ("json", "json"),
)


def perf_bucket(frames: list[str]) -> str:
    """The bucket of one sample (``frames``: leaf first, each ``symbol (dso)``)."""
    leaf = frames[0] if frames else ""
    if "[kernel" in leaf:
        chain = " ".join(frames)
        for name, marks in KERNEL:
            if any(mark in chain for mark in marks):
                return name
        return "kernel: other"
    for frame in frames:  # a libc leaf counts for the library that called it
        for name, marks in LIBRARIES:
            if any(mark in frame for mark in marks):
                return name
    return "other (libc, loader)"


def perf_buckets(data: Path) -> collections.Counter[str]:
    script = subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "comm,tid,ip,sym,dso"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: collections.Counter[str] = collections.Counter()
    frames: list[str] = []
    for line in [*script.splitlines(), ""]:
        if not line.strip():
            if frames:
                found[perf_bucket(frames)] += 1
            frames = []
        elif line[0] not in " \t":  # a sample's header line
            frames = []
        else:
            frames.append(line.strip().split(None, 1)[-1])
    return found


def package_of(frame: str) -> str:
    match = re.search(r"\((.*?):\d+\)", frame)
    path = match.group(1) if match else frame
    for mark, name in PACKAGES:
        if mark in path:
            return name
    return "other Python"


def gil_buckets(raw: Path) -> collections.Counter[str]:
    found: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        found[package_of(stack.split(";")[-1])] += int(count)
    return found


def workload(address: str, name: str) -> Callable[[float], int]:
    """A function that drives ``name`` for some seconds and returns its durable calls."""
    if name == "start":
        return lambda seconds: int(bench_start(address, 8, seconds)["calls"])
    workers = [Worker(address, i, 16) for i in range(8)]
    for worker in workers:
        worker.register_all()

    def cycles(seconds: float) -> int:
        before = sum(w.commands for w in workers)
        run_threads(8, seconds, lambda i: workers[i].one_cycle)
        return sum(w.commands for w in workers) - before

    return cycles


def shares(found: collections.Counter[str], cpu_ms: float) -> dict[str, dict[str, float]]:
    total = sum(found.values()) or 1
    return {
        name: {"share": round(n / total, 3), "ms_per_call": round(cpu_ms * n / total, 3)}
        for name, n in found.most_common()
    }


def profile(name: str, seconds: float, directory: Path) -> dict[str, Any]:
    server = ServerProcess(
        write_config(directory / name, synchronous="FULL"), free_port(), "--processes", "1"
    )
    server.start(timeout_s=90)
    assert server.process is not None
    pid = server.process.pid
    try:
        drive = workload(server.address, name)
        drive(1.0)  # warm: connections, caches, prepared statements
        data = directory / f"{name}.perf.data"
        perf = subprocess.Popen(
            ["perf", "record", "-F", "1999", "-g", "-p", str(pid), "-o", str(data)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)
        began = server_cpu_s(pid)
        calls = drive(seconds)
        cpu_ms = (server_cpu_s(pid) - began) * 1000 / max(calls, 1)
        perf.send_signal(2)
        perf.wait()
        raw = directory / f"{name}.raw"
        spy = subprocess.Popen(
            [
                *(str(PY_SPY), "record", "-p", str(pid), "-f", "raw", "--threads", "--gil"),
                *("-r", "1000", "-d", str(int(seconds)), "-o", str(raw)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        drive(seconds + 1)
        spy.wait()
    finally:
        server.terminate()
    return {
        "durable_calls": calls,
        "server_cpu_ms_per_call": round(cpu_ms, 3),
        "on_cpu": shares(perf_buckets(data), cpu_ms),
        "interpreter_held_by": {k: v["share"] for k, v in shares(gil_buckets(raw), 1.0).items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workloads", default="start,registry")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "command": "python benchmarks/commands_profile.py " + " ".join(sys.argv[1:]),
        "load_average_start": os.getloadavg(),
    }
    with tempfile.TemporaryDirectory(prefix="praxis-profile-") as tmp:
        for name in args.workloads.split(","):
            report[name] = found = profile(name, args.seconds, Path(tmp))
            print(f"{name}: {found['server_cpu_ms_per_call']} ms of server CPU per call")
            for bucket, figures in found["on_cpu"].items():
                print(f"  {bucket:55s} {figures['share']:6.1%} {figures['ms_per_call']:.3f} ms")
            print("  the interpreter held by:")
            for package, share in list(found["interpreter_held_by"].items())[:12]:
                print(f"    {package:53s} {share:6.1%}")
    report["load_average_end"] = os.getloadavg()
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
