"""Issue 26's write-path table, every row from one run, each a ratio of the same run.

The machine (2 cores) is shared and noisy, so every row is the ratio of two figures this
run measures close together in time, with the functions of the other benches (imported,
not copied). The phases run one after another (row 2 first: ``pg_replicas_bench`` forks
its workers, which it should do before this process has used gRPC); both figures of a
row come from the same phase, and where a phase has rounds the two sides alternate.

1. Node completions/s, ``--processes 2`` / ``--processes 1`` (SQLite). Two ``praxis
   serve`` servers, one of 1 process and one of 2, each with ``runtime_bench``'s 4 worker
   processes long-polling it (``runtime_bench.served``; each worker settles what it ran
   and claims up to 16 tasks in one ``SettleTasks``). Each round runs ``runtime_bench``'s
   workload (``praxis_throughput``: 200 runs, 100 chains of 10 and 100 fan-outs split ->
   8 items -> join, 2,000 node completions, from the first StartRun to the last
   RUN_COMPLETED) on both servers, the order alternating round by round; 3 rounds. The
   row is the median of the 2-process rates over the median of the 1-process rates.
2. Machine CPU per completion, PostgreSQL / SQLite. ``pg_replicas_bench.measure`` runs 100
   runs of the same workload on one replica (one server process) with 4 worker processes,
   on SQLite and on a fresh database of a throwaway PostgreSQL cluster (the binaries of
   ``tests.support.postgres``), alternating, 2 rounds of each: the CPU of the server, of
   the cluster's processes and of the workers (from /proc) per completion. The row is the
   median on PostgreSQL over the median on SQLite. Without PostgreSQL installed the row
   says "not measured: no PostgreSQL" (value null in the JSON).
3. 3-node chain p50 with idle workers, in no-op round trips: ``serving_bench.idle_workers``
   on a server of ``praxis serve``'s default processes (one per core): 50 worker threads
   long-poll for work (``SettleTasks``: settle what ran, claim the next), 5 chains warm
   up, then the p50 of 500 sequential health ``Check`` calls and of 40 chains started one
   after another (StartRun to the end of WatchRun): chain p50 over no-op p50.
4. Node completions/s over no-op calls/s (8 threads): in each round of 1., on the
   2-process server, ``runtime_bench``'s order: 3 s of ``registry_bench.bench_noop``
   (health ``Check`` from 8 threads, each its own connection), the workload, then DBOS
   (8.); the median of the rounds' ratios.
5. Server CPU per completion / per no-op: the same two windows of each round, through
   ``registry_bench.CpuMeter`` (the server's processes, from /proc). Per completion is all
   the server did in the workload's window (StartRun, GetRun and the event stream
   included) over its 2,000 completions; the median of the rounds' ratios.
6. StartRun/s over no-op calls/s, 8 clients: ``startrun_bench.bench_pair`` (4 alternating
   windows of each, 4 s of no-op and 8 s of StartRun in all) on a fresh server (default
   processes, ``synchronous=FULL``).
7. Registry command/s over no-op calls/s, 8 clients: ``registry_bench.bench_pair``
   (cycles of PROPOSE, Review + CreateApproval, ACTIVATE; the same alternation) on a fresh
   server (default processes, ``synchronous=FULL``).
8. Node completions/s vs DBOS: in each round of 1., the 2-process server's rate over that
   of ``runtime_bench.dbos_baseline`` (200 workflows of 10 steps, DBOS in-process on a
   fresh SQLite database) measured right after it; the median of the rounds' ratios.

``--quick`` shrinks every workload and window for a smoke run (about a minute;
its figures are not the table's); ``--rows 1,4`` runs only the phases those rows need (a
full run takes about 3 minutes on the 2-core machine). Results go to stdout (measure,
value, the issue's "today", target, met) and ``benchmarks/results/write_path.json``:
every row's value and samples, each phase's raw rounds, duration and load average, the
load average at the start and end, the commit of the server code measured (where the
interpreter's ``praxis`` package comes from), the server processes of each row and the
command. Progress and the reused benches' own lines go to stderr; no other bench's
results file is written.

    .venv/bin/python benchmarks/write_path_bench.py [--quick] [--rows 1,4]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import praxis
from benchmarks import pg_replicas_bench, registry_bench, startrun_bench
from benchmarks.registry_bench import CpuMeter, bench_noop
from benchmarks.runtime_bench import dbos_baseline, praxis_throughput, serve, served
from benchmarks.serving_bench import idle_workers
from praxis.serve.processes import default_processes
from tests.support.postgres import Cluster, binaries

RESULTS = Path(__file__).parent / "results" / "write_path.json"
NO_POSTGRES = "not measured: no PostgreSQL"
CLIENTS = 8  # no-op threads and durable clients of rows 4, 6 and 7

Found = tuple[dict[int, dict[str, Any]], Any]
"""What a phase found: its rows (value, None when not measured; server_processes;
samples; note) and its raw rounds."""


@dataclasses.dataclass(frozen=True)
class Target:
    """One row of the issue's table; ``target`` is ">= bound" or "<= bound", with the
    value's unit ("x" or none)."""

    measure: str
    today: str
    target: str
    digits: int = 2

    def met(self, value: float | None) -> bool:
        if value is None:
            return False
        bound = float(self.target[2:].strip().removesuffix("x"))
        return value >= bound if self.target.startswith(">=") else value <= bound

    def shown(self, value: float | None, note: str) -> str:
        unit = "x" if self.target.endswith("x") else ""
        return note if value is None else f"{value:.{self.digits}f}{unit}"


TARGETS = {
    1: Target("node completions/s, --processes 2 / --processes 1 (SQLite)", "1.0x", ">= 1.5x"),
    2: Target("machine CPU per completion, PostgreSQL / SQLite", "3.2x", "<= 2.0x"),
    3: Target("3-node chain p50 with {workers} idle workers, in no-op round trips", "32-38",
              "<= 20", digits=1),
    4: Target("node completions/s / no-op calls/s (8 threads)", "0.09-0.26", ">= 0.3", 3),
    5: Target("server CPU per completion / per no-op", "5-8x", "<= 3x"),
    6: Target("StartRun/s / no-op (8 clients)", "0.19-0.24", ">= 0.35", 3),
    7: Target("registry command/s / no-op (8 clients)", "0.20", ">= 0.35", 3),
    8: Target("node completions/s vs DBOS", "2.2x", ">= 3x"),
}  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How much each phase measures."""

    runs: int  # runs of runtime_bench's workload a round (10 completions each): rows 1, 4, 5, 8
    rounds: int  # rounds of rows 1, 4, 5 and 8
    noop_s: float  # the no-op window of each round (rows 4, 5)
    pg_runs: int  # runs of each pg_replicas_bench.measure (row 2)
    pg_rounds: int  # rounds of SQLite and PostgreSQL (row 2)
    idle_workers: int  # row 3
    chains: int  # row 3
    seconds: float  # rows 6 and 7: seconds of durable calls (and half as many of no-op)


FULL = Sizes(
    runs=200, rounds=3, noop_s=3.0, pg_runs=100, pg_rounds=4, idle_workers=50, chains=40,
    seconds=8.0,
)  # fmt: skip
QUICK = Sizes(
    runs=40, rounds=2, noop_s=1.0, pg_runs=40, pg_rounds=1, idle_workers=50, chains=10,
    seconds=2.0,
)  # fmt: skip


def load_average() -> list[float]:
    return [round(load, 2) for load in os.getloadavg()]


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def median_ratio(
    rounds: list[dict[str, Any]], top: tuple[str, str], bottom: tuple[str, str]
) -> dict[str, Any]:
    """The median over ``rounds`` of ``round[top] / round[bottom]``, with each round's."""
    samples = [r[top[0]][top[1]] / r[bottom[0]][bottom[1]] for r in rounds]
    return {
        "value": statistics.median(samples),
        "samples": [round(sample, 4) for sample in samples],
        "of": f"{'.'.join(top)} / {'.'.join(bottom)}",
    }


# --- row 2 -----------------------------------------------------------------------------


def postgres_cpu(sizes: Sizes, directory: Path, rows: frozenset[int]) -> Found:
    """Machine CPU per completion on PostgreSQL (one replica) and on SQLite, alternating."""
    bin_dir = binaries()
    if bin_dir is None:
        progress(f"row 2 {NO_POSTGRES} (scripts/install_postgres.sh)")
        return {2: {"value": None, "server_processes": 1, "note": NO_POSTGRES}}, None
    cluster = Cluster(bin_dir)
    setups: dict[str, list[dict[str, Any]]] = {"sqlite-1": [], "postgres-1": []}
    try:
        for round_ in range(sizes.pg_rounds):
            where = directory / f"pg-round-{round_}"
            for label in list(setups)[:: 1 if round_ % 2 == 0 else -1]:
                on_postgres = label.startswith("postgres")
                url = cluster.create_database() if on_postgres else f"sqlite:///{where / 'db'}"
                setups[label].append(
                    pg_replicas_bench.measure(
                        label, url, 1, sizes.pg_runs, where, cluster if on_postgres else None
                    )
                )
    finally:
        cluster.stop()
    cpu = {
        label: statistics.median(found["cpu_ms_per_completion"] for found in rounds)
        for label, rounds in setups.items()
    }
    return {
        2: {
            "value": cpu["postgres-1"] / cpu["sqlite-1"],
            "server_processes": 1,
            "samples": {
                "cpu_ms_per_completion_median": cpu,
                **{
                    label: [found["cpu_ms_per_completion"] for found in rounds]
                    for label, rounds in setups.items()
                },
            },
        }
    }, setups


# --- rows 1, 4, 5 and 8 ----------------------------------------------------------------


def runtime_round(
    setup: tuple[Any, Any, tuple[int, ...]],
    round_: int,
    sizes: Sizes,
    directory: Path,
    with_noop: bool,
    with_dbos: bool,
    after: int = 0,
) -> dict[str, Any]:
    """``runtime_bench``'s round on one server: the no-op window (if asked), the workload,
    then DBOS (if asked), each with the CPU of the server (and workers) per call.
    ``after``: the event cursor the server's previous round ended at (the round's is
    returned as ``cursor``)."""
    server, client, worker_pids = setup
    found: dict[str, Any] = {}
    windows: list[tuple[str, Callable[[], dict[str, Any]], str]] = []
    if with_noop:
        noop = functools.partial(bench_noop, server.address, CLIENTS, sizes.noop_s)
        windows.append(("noop", noop, "calls"))
    workload = functools.partial(praxis_throughput, client, round_, sizes.runs, after)
    windows.append(("praxis", workload, "node_completions"))
    for name, window, calls_key in windows:
        meter = CpuMeter(server.process.pid, worker_pids)
        found[name] = {**meter.measure(window, calls_key), **meter.report()}
    found["cursor"] = found["praxis"].pop("cursor")
    if with_dbos:
        with ThreadPoolExecutor(max_workers=1) as pool:  # off the main thread, as runtime_bench
            found["dbos"] = pool.submit(dbos_baseline, directory, round_, sizes.runs).result()
    return found


def runtime(sizes: Sizes, directory: Path, rows: frozenset[int]) -> Found:
    """Rounds of the workload on a 1-process and a 2-process server, alternating; the
    2-process server's rounds with the no-op window and DBOS."""
    settings = (1, 2) if 1 in rows else (2,)
    measured: dict[int, list[dict[str, Any]]] = {processes: [] for processes in settings}
    cursors = dict.fromkeys(settings, 0)  # each server's event stream, round to round
    with contextlib.ExitStack() as stack:
        setups = {p: stack.enter_context(served(directory / f"p{p}", p)) for p in settings}
        for round_ in range(sizes.rounds):
            for processes in settings[:: 1 if round_ % 2 == 0 else -1]:
                progress(f"  round {round_ + 1}/{sizes.rounds}, --processes {processes}")
                result = runtime_round(
                    setups[processes], round_, sizes, directory,
                    with_noop=processes == 2 and bool(rows & {4, 5}),
                    with_dbos=processes == 2 and 8 in rows,
                    after=cursors[processes],
                )  # fmt: skip
                cursors[processes] = result.pop("cursor")
                measured[processes].append(result)
    two = measured[2]
    found: dict[int, dict[str, Any]] = {}
    if 1 in rows:
        rates = {
            f"processes_{p}": [r["praxis"]["completions_per_s"] for r in rounds]
            for p, rounds in measured.items()
        }
        medians = {key: statistics.median(samples) for key, samples in rates.items()}
        found[1] = {
            "value": medians["processes_2"] / medians["processes_1"],
            "samples": {"completions_per_s": rates, "medians": medians},
        }
    if rows & {4, 5}:
        found[4] = median_ratio(two, ("praxis", "completions_per_s"), ("noop", "calls_per_s"))
        found[5] = median_ratio(
            two, ("praxis", "server_cpu_ms_per_call"), ("noop", "server_cpu_ms_per_call")
        )
    if 8 in rows:
        found[8] = median_ratio(two, ("praxis", "completions_per_s"), ("dbos", "steps_per_s"))
    for row in found:
        found[row]["server_processes"] = "2 and 1" if row == 1 else 2
    return found, {f"processes_{p}": rounds for p, rounds in measured.items()}


# --- row 3 -----------------------------------------------------------------------------


def chain_round_trips(sizes: Sizes, directory: Path, rows: frozenset[int]) -> Found:
    processes = default_processes()
    with serve(directory / "serving", processes, models=["echo", "idle"]) as server:
        found = idle_workers(server, sizes.idle_workers, sizes.chains)
    return {
        3: {
            "value": found["chain_p50_ms"] / found["noop_p50_ms"],
            "server_processes": processes,
            "idle_workers": found["idle_workers"],
            "samples": {key: value for key, value in found.items() if key != "target_met"},
        }
    }, None


# --- rows 6 and 7 ----------------------------------------------------------------------

PAIRS = {
    6: ("startrun", startrun_bench.bench_pair, "calls_per_s"),
    7: ("registry", registry_bench.bench_pair, "commands_per_s"),
}


def to_noop(row: int, sizes: Sizes, directory: Path, rows: frozenset[int]) -> Found:
    """Durable calls/s over no-op calls/s from 8 clients, in alternating windows."""
    name, bench_pair, rate = PAIRS[row]
    processes = default_processes()
    with serve(directory / name, processes, synchronous="FULL") as server:
        noop, durable = bench_pair(server.address, CLIENTS, sizes.seconds, server.process.pid)
    return {
        row: {
            "value": durable[rate] / noop["calls_per_s"],
            "server_processes": processes,
            "samples": {"noop": noop, name: durable},
        }
    }, None


PHASES: list[tuple[str, frozenset[int], Callable[[Sizes, Path, frozenset[int]], Found]]] = [
    ("postgres", frozenset({2}), postgres_cpu),
    ("runtime", frozenset({1, 4, 5, 8}), runtime),
    ("serving", frozenset({3}), chain_round_trips),
    ("startrun", frozenset({6}), functools.partial(to_noop, 6)),
    ("registry", frozenset({7}), functools.partial(to_noop, 7)),
]


# --- main ------------------------------------------------------------------------------


def commit() -> dict[str, Any]:
    """The commit of the server code measured: the checkout this interpreter's ``praxis``
    package comes from (the servers run ``python -m praxis.serve.cli``), which need not
    be the one this script is in."""
    server_code = Path(praxis.__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=server_code, capture_output=True, text=True, check=False
        ).stdout.strip()

    return {
        "commit": git("rev-parse", "--short", "HEAD") or None,
        "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
    }


def row_numbers(allowed: frozenset[int], text: str) -> frozenset[int]:
    """The rows a ``--rows`` argument names (each one of ``allowed``)."""
    named = f"rows are numbers {min(allowed)}-{max(allowed)}: {text}"
    try:
        rows = frozenset(int(part) for part in text.split(",") if part.strip())
    except ValueError as error:
        raise argparse.ArgumentTypeError(named) from error
    if not rows or not rows <= allowed:
        raise argparse.ArgumentTypeError(named)
    return rows


@dataclasses.dataclass(frozen=True)
class Table:
    """An issue's table over these phases: its targets by row, where its results go, and
    ``derive``, which may rewrite the rows from the phases' raw rounds (another issue's
    reading of the same measurement) and add extra phases of its own."""

    script: str
    description: str
    targets: dict[int, Target]
    results: Path
    extra_phases: tuple[
        tuple[str, frozenset[int], Callable[[Sizes, Path, frozenset[int]], Found]], ...
    ] = ()
    derive: Callable[[dict[str, dict[str, Any]], dict[str, Any]], None] = lambda rows, phases: None


ISSUE_26 = Table(
    "benchmarks/write_path_bench.py", (__doc__ or "").splitlines()[0], TARGETS, RESULTS
)


def main(table: Table = ISSUE_26) -> int:
    numbers = sorted(table.targets)
    parser = argparse.ArgumentParser(description=table.description)
    parser.add_argument("--quick", action="store_true", help="small workloads (a smoke run)")
    parser.add_argument(
        "--rows",
        type=functools.partial(row_numbers, frozenset(numbers)),
        default=frozenset(numbers),
        help="rows to measure, e.g. 1,4",
    )
    parser.add_argument("--output", type=Path, default=table.results)
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    report: dict[str, Any] = {
        "command": " ".join([f"python {table.script}", *sys.argv[1:]]),
        **commit(),
        "quick": args.quick,
        "sizes": dataclasses.asdict(sizes),
        "cores": os.cpu_count(),
        "default_server_processes": default_processes(),
        "load_average_start": load_average(),
        "phases": {},
        "rows": {},
    }
    began = time.monotonic()
    found_rows: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="praxis-bench-") as scratch:
        for name, needs, phase in [*PHASES, *table.extra_phases]:
            if not needs & args.rows:
                continue
            progress(f"{name}: rows {', '.join(str(row) for row in sorted(needs & args.rows))}")
            load, started = load_average(), time.monotonic()
            with contextlib.redirect_stdout(sys.stderr):  # the reused benches' own lines
                found, rounds = phase(sizes, Path(scratch), args.rows)
            report["phases"][name] = {
                "seconds": round(time.monotonic() - started, 1),
                "load_average_start": load,
                "load_average_end": load_average(),
                **({"rounds": rounds} if rounds is not None else {}),
            }
            for row, result in found.items():
                if row in args.rows:
                    found_rows[row] = {**found_rows.get(row, {}), **result}
    raw = {str(row): result for row, result in found_rows.items()}
    table.derive(raw, report["phases"])
    report["rows"] = {
        key: described(table.targets[int(key)], result)
        for key, result in sorted(raw.items(), key=lambda item: int(item[0]))
        if int(key) in table.targets
    }
    report["seconds"] = round(time.monotonic() - began, 1)
    report["load_average_end"] = load_average()
    print_table(report)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.output}")
    return 0


def described(target: Target, result: dict[str, Any]) -> dict[str, Any]:
    """A row of the report: the issue's words, the value, and whether it meets the target."""
    value = result.pop("value")
    note = result.pop("note", "")
    return {
        "measure": target.measure.format(workers=result.get("idle_workers", "")),
        "value": None if value is None else round(value, 4),
        "shown": target.shown(value, note),
        "today": target.today,
        "target": target.target,
        "met": target.met(value),
        **({"note": note} if note else {}),
        **result,
    }


def print_table(report: dict[str, Any]) -> None:
    header = ("measure", "value", 'issue\'s "today"', "target", "met")
    lines = [
        (r["measure"], r["shown"], r["today"], r["target"], "yes" if r["met"] else "no")
        for r in report["rows"].values()
    ]
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]
    for line in [header, tuple("-" * width for width in widths), *lines]:
        print(" | ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
    for key, row in report["rows"].items():
        if row.get("detail"):
            print(f"row {key}: {row['detail']}")
    print(
        f"\n{report['seconds']} s; load average {report['load_average_start']} at the start, "
        f"{report['load_average_end']} at the end; commit {report['commit']}"
        + (" (with uncommitted changes)" if report["uncommitted_changes"] else "")
    )


if __name__ == "__main__":
    sys.exit(main())
