"""What a second server process adds, with the load spread evenly over the processes.

Row 1 of ``write_path_bench.py`` (``--processes 2`` / ``--processes 1``) runs
``runtime_bench``'s workload as it is, and two things in it are not the server's: each
of the 4 workers holds one HTTP/2 connection, which lands on whichever process the
kernel's ``SO_REUSEPORT`` hash picks (a round's split is 4-0 one time in eight, 3-1 one
time in two, 2-2 three times in eight), and the 200 runs are started one after another
from one connection, so a round is bound by StartRun's latency. This bench takes both
out, to measure what the writers' turn lets a second process add:

- **Workers placed evenly.** Worker processes (``runtime_bench.worker_main``, spawned)
  are started one at a time, and the server process that accepted each one's connection
  is read from ``/proc`` (the socket inodes each process holds, matched with the
  kernel's TCP table); a worker beyond its process's share is stopped, until every
  server process serves ``WORKERS / processes`` of them.
- **Runs started from 8 threads** over 4 connections placed the same way (evenly).

Each round runs ``runtime_bench``'s 200 runs (100 chains of 10 and 100 fan-outs split ->
8 items -> join, 2,000 node completions, from the first StartRun to the last
RUN_COMPLETED on one event stream) on a 1-process and on a 2-process server, the order
alternating; reported: completions/s, each server process's CPU (from /proc) and the
ratio of the medians. Linux only (``/proc``). Results go to stdout and
``benchmarks/results/processes.json``.

    .venv/bin/python benchmarks/processes_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import run_pb2
from benchmarks.registry_bench import server_cpu_s
from benchmarks.runtime_bench import CHAIN10, FANOUT10, RUNS, WORKERS, serve, wait_all, worker_main
from praxis_client import connect
from tests.support.harness import token_of

RESULTS = Path(__file__).parent / "results" / "processes.json"
STARTERS = 8  # threads starting runs
CONNECTIONS = 4  # the starters' connections, spread evenly over the server processes
PLACE_TRIES = 40  # workers started at most to place WORKERS of them evenly


# --- which server process holds a connection (/proc) ----------------------------------


def _socket_inodes(pid: int) -> set[int]:
    found = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    found.add(int(target[8:-1]))
    return found


def _established() -> list[tuple[int, int, int]]:
    """(local port, remote port, inode) of every established TCP connection."""
    rows = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "01":  # ESTABLISHED
                    local = int(fields[1].rsplit(":", 1)[1], 16)
                    remote = int(fields[2].rsplit(":", 1)[1], 16)
                    rows.append((local, remote, int(fields[9])))
    return rows


def server_of(client_pid: int, server_pids: list[int], port: int, known: set[int]) -> int | None:
    """The server process holding a connection of ``client_pid`` to ``port`` whose client
    port is not in ``known`` (``None`` until the connection is up); ``known`` gains it."""
    connections = _established()
    mine = _socket_inodes(client_pid)
    ports = {local for local, remote, inode in connections if remote == port and inode in mine}
    for server_pid in server_pids:
        held = _socket_inodes(server_pid)
        for local, remote, inode in connections:
            if local == port and inode in held and remote in ports - known:
                known.add(remote)
                return server_pid
    return None


def children(pid: int) -> list[int]:
    """The server processes of a ``praxis serve`` (itself when it has no children)."""
    with open(f"/proc/{pid}/task/{pid}/children") as listed:
        found = [int(child) for child in listed.read().split()]
    return found or [pid]


# --- a server with its load placed evenly ---------------------------------------------


@contextlib.contextmanager
def placed(directory: Path, processes: int) -> Iterator[dict[str, Any]]:
    """A ``praxis serve --processes N`` with WORKERS workers and CONNECTIONS starter
    connections spread evenly over its processes."""
    with serve(directory, processes) as server:
        port = int(server.address.rsplit(":", 1)[1])
        assert server.process is not None and server.process.pid is not None
        servers = children(server.process.pid)
        context = multiprocessing.get_context("spawn")
        counter, ready = context.Value("i", 0), context.Value("i", 0)
        share = WORKERS // len(servers)
        kept: dict[int, list[Any]] = {pid: [] for pid in servers}
        known: set[int] = set()
        tries = 0
        clients: list[Any] = []  # the starters' and the watcher's, closed at the end
        try:
            while min(len(workers) for workers in kept.values()) < share:
                tries += 1
                if tries > PLACE_TRIES:
                    raise RuntimeError(f"could not place {WORKERS} workers evenly")
                stop = context.Event()
                process = context.Process(
                    target=worker_main,
                    args=(server.address, f"w{tries}", stop, counter, ready),
                )
                process.start()
                assert process.pid is not None
                owner = _wait_owner(process.pid, servers, port, known)
                if len(kept[owner]) < share:
                    kept[owner].append((process, stop))
                else:
                    stop.set()
                    process.join(timeout=30)
            starters = _place_starters(server.address, servers, port, known)
            watcher = connect(server.address, token_of("agent"))
            clients += [*starters, watcher]
            time.sleep(1.0)  # let the workers start long-polling
            yield {
                "server": server,
                "servers": servers,
                "starters": starters,
                "watcher": watcher,
                "workers_started": tries,
            }
        finally:
            for client in clients:
                client.close()
            for workers in kept.values():
                for _process, stop in workers:
                    stop.set()
            for workers in kept.values():
                for process, _stop in workers:
                    process.join(timeout=30)


def _wait_owner(pid: int, servers: list[int], port: int, known: set[int]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        owner = server_of(pid, servers, port, known)
        if owner is not None:
            return owner
        time.sleep(0.05)
    raise RuntimeError(f"worker {pid} never connected")


def _place_starters(address: str, servers: list[int], port: int, known: set[int]) -> list[Any]:
    share = max(1, CONNECTIONS // len(servers))
    placed_on: dict[int, list[Any]] = {pid: [] for pid in servers}
    spare: list[Any] = []
    while min(len(clients) for clients in placed_on.values()) < share:
        if len(spare) + sum(map(len, placed_on.values())) >= PLACE_TRIES:
            raise RuntimeError(f"could not place {CONNECTIONS} starter connections evenly")
        client = connect(
            address, token_of("agent"), options=[("grpc.use_local_subchannel_pool", 1)]
        )
        with contextlib.suppress(Exception):  # any call opens the connection
            client.runs.GetRun(run_pb2.GetRunRequest(run_id="run_none"))
        owner = _wait_owner(os.getpid(), servers, port, known)
        (placed_on[owner] if len(placed_on[owner]) < share else spare).append(client)
    for client in spare:
        client.close()
    return [client for clients in placed_on.values() for client in clients]


def one_round(setup: dict[str, Any], round_: int, after: int) -> dict[str, Any]:
    """runtime_bench's 200 runs, started from STARTERS threads; completions/s and CPU."""
    starters, servers = setup["starters"], setup["servers"]

    def start(index: int) -> str:
        document = CHAIN10 if index % 2 == 0 else FANOUT10
        request = run_pb2.StartRunRequest(
            request_id=f"p-{round_}-{index}", definition_json=json.dumps(document)
        )
        return str(starters[index % len(starters)].runs.StartRun(request).run.run_id)

    before = [server_cpu_s(pid) for pid in servers]
    began = time.monotonic()
    with ThreadPoolExecutor(STARTERS) as pool:
        run_ids = list(pool.map(start, range(RUNS)))
    started = time.monotonic()
    cursor = wait_all(setup["watcher"], run_ids, after)
    elapsed = time.monotonic() - began
    return {
        "completions_per_s": round(RUNS * 10 / elapsed, 1),
        "start_phase_s": round(started - began, 3),
        "seconds": round(elapsed, 3),
        "server_cores_busy": [
            round((server_cpu_s(pid) - cpu) / elapsed, 2)
            for pid, cpu in zip(servers, before, strict=True)
        ],
        "cursor": cursor,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    measured: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as raw, contextlib.ExitStack() as stack:
        setups = {p: stack.enter_context(placed(Path(raw) / f"p{p}", p)) for p in (1, 2)}
        cursors = {1: 0, 2: 0}
        for round_ in range(args.rounds):
            for processes in (1, 2) if round_ % 2 == 0 else (2, 1):
                result = one_round(setups[processes], round_, cursors[processes])
                cursors[processes] = result.pop("cursor")
                measured[processes].append(result)
                print(f"round {round_ + 1}, --processes {processes}: {result}", file=sys.stderr)
    medians = {
        p: round(statistics.median(r["completions_per_s"] for r in measured[p]), 1) for p in (1, 2)
    }
    report = {
        "measure": "node completions/s, --processes 2 / --processes 1, load placed evenly",
        "ratio": round(medians[2] / medians[1], 3),
        "completions_per_s": medians,
        "rounds": {f"processes_{p}": measured[p] for p in (1, 2)},
        "workers": WORKERS,
        "starters": STARTERS,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "command": "benchmarks/processes_bench.py " + " ".join(sys.argv[1:]),
    }
    print(
        f"--processes 2 / --processes 1, load placed evenly: {report['ratio']}x "
        f"({medians[2]} / {medians[1]} completions/s)"
    )
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
