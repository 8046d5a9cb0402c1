"""Fan-out cost by width: server CPU per item must not grow with the number of items.

For each width N (100, 1,000, 3,000 and 10,000 items) a fresh ``praxis serve``
subprocess (SQLite, ``synchronous=FULL``) runs one fan-out ``split -> each (N items)
-> join``. One worker in this process claims up to 100 tasks at a time and completes
each with ``CompleteTask``. The server's CPU time (user + system, the server process and
any children, from ``/proc/<pid>/stat``) is read just before ``StartRun`` and after the
run completes; the figure is CPU per item, and the target (issue 8) is

    CPU per item at 10,000 items / CPU per item at 100 items <= 1.5

measured in the same invocation. Wall time per width is reported too.

With ``--profile`` the server of the widest run is sampled with py-spy (``pip install
py-spy``; not a project dependency) and the functions that dominate (own time, and
inclusive time of the server's own functions) are stored with the results.

Results go to stdout and ``benchmarks/results/fanout.json``.

    .venv/bin/python benchmarks/fanout_bench.py [--sizes 100,1000,3000,10000] [--profile]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import common_pb2, run_pb2, task_pb2
from praxis_client import connect
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node
from tests.support.server_process import ServerProcess, free_port, write_config

RESULTS = Path(__file__).parent / "results" / "fanout.json"
SIZES = (100, 1_000, 3_000, 10_000)
CLAIM = 100
TARGET = 1.5
ITEMS = {"type": "object", "properties": {"items": {"type": "array"}}}
FANOUT = definition(
    "join",
    split=node(output=json_out(ITEMS)),
    each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
    join=node("node:each", ("each",), json_out({"type": "array"})),
)
_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its live descendants (``--processes N``)."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / _TICK
    total, pending = 0.0, [pid]
    while pending:
        current = pending.pop()
        total += times.get(current, 0.0)
        pending.extend(children.get(current, ()))
    return total


def run_width(items: int, directory: Path, profile: Path | None) -> dict[str, Any]:
    """One fan-out of ``items`` items on a fresh server; its CPU and wall time."""
    server = ServerProcess(write_config(directory), free_port())
    server.start(timeout_s=120)  # a busy machine starts a server slowly
    assert server.process is not None
    pid = server.process.pid
    client = connect(server.address, token_of("agent"))
    spy = None
    try:
        if profile is not None:
            spy = subprocess.Popen(
                ["py-spy", "record", "--pid", str(pid), "--format", "raw", "--output",
                 str(profile), "--rate", "50", "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        cpu_before = cpu_seconds(pid)
        began = time.monotonic()
        run_id = client.runs.StartRun(
            run_pb2.StartRunRequest(request_id=f"fan-{items}", definition_json=json.dumps(FANOUT))
        ).run.run_id
        completed = 0
        joined = 0
        while True:
            tasks = client.tasks.ClaimTasks(
                task_pb2.ClaimTasksRequest(
                    worker_id="w1", models=["echo"], max_tasks=CLAIM, lease_ms=600_000,
                    wait_ms=1_000,
                )
            ).tasks  # fmt: skip
            for task in tasks:
                if task.node_uid == "split":
                    result: Any = {"items": list(range(items))}
                elif task.node_uid == "join":
                    joined = len(json.loads(task.input_json))
                    result = [joined]
                else:
                    result = {"item": task.node_uid}
                client.tasks.CompleteTask(
                    task_pb2.CompleteTaskRequest(
                        attempt_id=task.attempt_id,
                        worker_id="w1",
                        result_json=json.dumps(result),
                        effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                    )
                )
                completed += 1
            run = client.runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
            if run.state == run_pb2.RUN_STATE_COMPLETED:
                break
            if run.state not in (run_pb2.RUN_STATE_RUNNING, run_pb2.RUN_STATE_AWAITING_NODES):
                raise RuntimeError(f"run ended {run_pb2.RunState.Name(run.state)}")
        wall = time.monotonic() - began
        cpu = cpu_seconds(pid) - cpu_before
        assert joined == items and completed == items + 2, (joined, completed)
        assert run.node_count in (items + 3, 0)  # 0: a server older than node_count
    finally:
        client.close()
        if spy is not None:
            spy.send_signal(2)
            spy.wait(timeout=60)
        server.terminate()
    return {
        "items": items,
        "server_cpu_s": round(cpu, 3),
        "server_cpu_ms_per_item": round(1000 * cpu / items, 3),
        "wall_s": round(wall, 3),
        "wall_ms_per_item": round(1000 * wall / items, 3),
    }


def top_functions(raw: Path, count: int = 12) -> dict[str, Any]:
    """What a py-spy raw (collapsed stacks) profile spends its samples on: own time by
    function, and inclusive time of the server's own functions (``praxis/``)."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        if not stack or not samples.isdigit():
            continue
        frames = [_function(frame) for frame in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + int(samples)
        for frame in set(frames):
            if "praxis/" in frame:
                inclusive[frame] = inclusive.get(frame, 0) + int(samples)
        total += int(samples)

    def ranked(counts: dict[str, int]) -> list[dict[str, Any]]:
        top = sorted(counts.items(), key=lambda pair: -pair[1])[:count]
        return [{"function": name, "share": round(n / total, 3)} for name, n in top]

    return {"samples": total, "own": ranked(own), "inclusive_praxis": ranked(inclusive)}


def _function(frame: str) -> str:
    """``name (path:line)`` without the line, so that a function's lines add up."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit(':', 1)[0]})" if where else name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--profile", action="store_true", help="py-spy the widest run")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the JSON goes")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    if args.profile and shutil.which("py-spy") is None:
        parser.error("--profile needs py-spy on PATH (pip install py-spy)")
    widths = []
    profile: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as raw:
        for items in sizes:
            spied = Path(raw) / "profile.txt" if args.profile and items == sizes[-1] else None
            widths.append(run_width(items, Path(raw) / f"w{items}", spied))
            print(json.dumps(widths[-1]), flush=True)
            if spied is not None and spied.exists():
                profile = top_functions(spied)
    smallest, widest = widths[0], widths[-1]
    ratio = widest["server_cpu_ms_per_item"] / smallest["server_cpu_ms_per_item"]
    report = {
        "benchmark": "fanout",
        "command": "benchmarks/fanout_bench.py " + " ".join(sys.argv[1:]),
        "claim_batch": CLAIM,
        "widths": widths,
        "cpu_per_item_ratio": {
            "widest_over_smallest": round(ratio, 3),
            "widest": widest["items"],
            "smallest": smallest["items"],
            "target": TARGET,
            "met": ratio <= TARGET,
        },
        "profile": profile,
    }
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(
        f"server CPU per item: {smallest['server_cpu_ms_per_item']} ms at {smallest['items']}, "
        f"{widest['server_cpu_ms_per_item']} ms at {widest['items']}: ratio {ratio:.2f} "
        f"(target <= {TARGET})"
    )
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
