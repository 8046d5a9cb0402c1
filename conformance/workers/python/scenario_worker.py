"""The Python scenario worker (conformance/workers/README.md): the public runtime, scripted.

Runs ``praxis_client.worker.Worker`` with the scripted handler until SIGTERM, printing
``ready``, ``cancelled`` and ``stopped`` events as JSON lines on stdout.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time
from typing import Any

from praxis_client import connect
from praxis_client.worker import (
    Applied,
    NotApplied,
    TaskContext,
    Uncertain,
    Worker,
    WorkerError,
)

_print_lock = threading.Lock()


def emit(**event: Any) -> None:
    with _print_lock:
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()


def handle(task: TaskContext) -> Any:
    """The scripted handler: the input's ``do`` decides."""
    spec = task.input
    if not isinstance(spec, dict) or "do" not in spec:
        return {"echo": spec}
    action = spec["do"]
    if action == "complete":
        return Applied(spec.get("result", spec), cost=spec.get("cost"))
    if action == "fail":
        raise NotApplied(spec.get("error", "failed"), retryable=bool(spec.get("retryable")))
    if action == "uncertain":
        if "result" in spec:
            return Uncertain(spec.get("error", "uncertain"), result=spec["result"])
        return Uncertain(spec.get("error", "uncertain"))
    if action == "raise":
        raise RuntimeError(spec.get("error", "raised"))
    if action == "sleep":
        if task.cancelled.wait(spec.get("ms", 0) / 1000):
            emit(event="cancelled", attempt_id=task.attempt_id)
        return spec.get("result", spec)
    if action == "hang":
        while not task.cancelled.wait(0.05):
            pass
        emit(event="cancelled", attempt_id=task.attempt_id)
        if spec.get("then") == "not_applied":  # stopped before the effect: say so
            raise NotApplied(spec.get("error", "stopped before the effect"))
        if spec.get("then") == "applied":  # the effect happened before the stop landed
            return Applied(spec.get("result", {"hung": True}))
        return {"hung": True}
    if action == "progress":
        steps = int(spec.get("steps", 1))
        for step in range(1, steps + 1):
            task.progress(f"step {step} of {steps}", {"step": step, "of": steps})
            if task.cancelled.wait(spec.get("ms", 0) / 1000):
                break
        task.cancelled.wait(spec.get("hold_ms", 0) / 1000)
        return {"steps": steps}
    if action == "unserializable":
        return {"a set": {1, 2, 3}}
    if action == "trace":
        return {"traceparent": task.traceparent, "current": current_traceparent()}
    return {"echo": spec}


def current_traceparent() -> str:
    """The span context current inside the handler, as a ``traceparent`` ('' if none)."""
    from opentelemetry import trace

    found = trace.get_current_span().get_span_context()
    if not found.is_valid:
        return ""
    return f"00-{found.trace_id:032x}-{found.span_id:016x}-{int(found.trace_flags):02x}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--worker-id", required=True)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--lease-ms", type=int, default=30_000)
    args = parser.parse_args()
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s"
    )
    worker = Worker(
        connect(args.address, args.token),
        [args.model],
        handle,
        worker_id=args.worker_id,
        concurrency=args.concurrency,
        lease_ms=args.lease_ms,
    )
    worker.install_signal_handlers()
    try:
        worker.start()
    except WorkerError as error:
        print(f"scenario worker: {error}", file=sys.stderr, flush=True)
        return 2
    emit(event="ready")
    try:
        worker.run()
    except WorkerError as error:
        print(f"scenario worker: {error}", file=sys.stderr, flush=True)
        return 3
    emit(event="stopped")
    return 0


if __name__ == "__main__":
    started = time.monotonic()
    sys.exit(main())
