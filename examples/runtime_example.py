"""The workflow runtime in one command: a fan-out and join executed by two workers.

Starts ``praxis serve`` on a temporary data directory, connects two workers written with
the Python worker helper (each is just a handler function), starts a run that plans a
list of topics, researches each topic in parallel (fan-out) and joins the findings in
topic order, prints the run's progress as WatchRun streams it, then its result. Exits
non-zero if a check fails.

Run it with ``.venv/bin/python examples/runtime_example.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from aiws.engine.v1 import event_pb2, run_pb2
from praxis_client import connect
from praxis_client.worker import Task, Worker

TOPICS = ["durability", "leases", "fan-out", "joins", "events", "revisions"]

DEFINITION = {
    "version": 1,
    "nodes": {
        "plan": {
            "agent": {
                "model": "echo",
                "system_prompt": "List the topics to research.",
                "output": {
                    "type": "json",
                    "schema": {
                        "type": "object",
                        "required": ["topics"],
                        "properties": {"topics": {"type": "array", "items": {"type": "string"}}},
                    },
                },
            },
            "input": {"from": "run_input"},
        },
        "research": {
            "agent": {
                "model": "echo",
                "output": {
                    "type": "json",
                    "schema": {
                        "type": "object",
                        "required": ["topic", "finding"],
                        "properties": {
                            "topic": {"type": "string"},
                            "finding": {"type": "string"},
                        },
                    },
                },
            },
            "input": {"from": "fanout_item", "template": "Research this topic:"},
            "depends_on": ["plan"],
            "fanout": {"over": "node:plan.topics"},
            "timeout_ms": 30_000,
            "retry": {"attempts": 3, "backoff_ms": 200},
        },
        "report": {
            "agent": {"model": "echo", "output": {"type": "text"}},
            "input": {"from": "node:research", "template": "Write the report:"},
            "depends_on": ["research"],
        },
    },
    "output": {"from": "node:report"},
}


def start_server(data_dir: Path) -> tuple[subprocess.Popen[str], str]:
    """``praxis serve`` on a free port; returns the process and its address."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "praxis.serve.cli",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            str(data_dir),
            "--log-level",
            "WARNING",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise SystemExit("the server did not start")
    return process, json.loads(line)["listening"]


def handler(name: str, done: Counter[str]) -> Any:
    """A worker's handler: what a real agent would do, faked deterministically."""

    def handle(task: Task) -> object:
        done[name] += 1
        time.sleep(0.05)  # pretend to think
        node = task.proto.node_id
        if node == "plan":
            return {"topics": task.input["topics"]}
        if node == "research":
            return {"topic": task.input, "finding": f"{task.input}: checked by {name}"}
        return "\n".join(f"- {item['finding']}" for item in task.input)

    return handle


def progress(run: run_pb2.Run) -> str:
    counts = Counter(run_pb2.NodeState.Name(n.state)[11:].lower() for n in run.nodes)
    state = run_pb2.RunState.Name(run.state)[10:].lower()
    return f"v{run.version:<3} {state:<15} " + ", ".join(
        f"{k} {v}" for k, v in sorted(counts.items())
    )


def main() -> int:
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        server, address = start_server(Path(directory))
        credentials = json.loads((Path(directory) / "credentials.json").read_text())
        token = credentials["local-agent"]["token"]
        done: Counter[str] = Counter()
        workers = [
            Worker(
                connect(address, token),
                ["echo"],
                handler(name, done),
                worker_id=name,
                concurrency=2,
                poll_ms=500,
            ).start()
            for name in ("worker-a", "worker-b")
        ]
        client = connect(address, token)
        try:
            print(f"server at {address}; two workers waiting")
            started = client.runs.StartRun(
                run_pb2.StartRunRequest(
                    request_id="example-run-1",
                    definition_json=json.dumps(DEFINITION),
                    input_json=json.dumps({"topics": TOPICS}),
                    subscriber="example",
                )
            )
            run_id = started.run.run_id
            print(f"started {run_id}")
            last = started.run
            for update in client.runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id)):
                last = update.run
                print("  " + progress(last))
            print(
                f"\nresult ({run_pb2.RunState.Name(last.state)}):\n{json.loads(last.result_json)}"
            )
            print(f"tasks per worker: {dict(done)}")
            events = client.events.ListEvents(
                event_pb2.ListEventsRequest(subscriber="example", limit=1000)
            ).events
            print(
                f"{len(events)} events for subscriber 'example', last: "
                f"{event_pb2.EventKind.Name(events[-1].kind)}"
            )
            expected = "\n".join(f"- {t}: checked by" for t in TOPICS)
            lines = json.loads(last.result_json).splitlines() if last.result_json else []
            if last.state != run_pb2.RUN_STATE_COMPLETED:
                failures.append(f"run ended {run_pb2.RunState.Name(last.state)}")
            if [line.rsplit(" by ", 1)[0] for line in lines] != [
                line.rsplit(" by", 1)[0] for line in expected.splitlines()
            ]:
                failures.append("the join did not keep topic order")
            if sum(done.values()) != len(TOPICS) + 2:
                failures.append(f"expected {len(TOPICS) + 2} tasks, workers did {dict(done)}")
            if events[-1].kind != event_pb2.EVENT_KIND_RUN_COMPLETED:
                failures.append("the last event is not RUN_COMPLETED")
        finally:
            for worker in workers:
                worker.stop()
            client.close()
            server.terminate()
            server.wait(timeout=20)
    for failure in failures:
        print(f"CHECK FAILED: {failure}", file=sys.stderr)
    print("all checks passed" if not failures else "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
