"""A worker loop: you write the handler, the helper claims, heartbeats and settles.

Example::

    from praxis_client import connect
    from praxis_client.worker import Worker

    def handle(task):                      # a praxis_client.worker.Task
        return {"summary": task.input["text"][:100]}   # or raise to fail

    worker = Worker(connect(address, token), ["echo"], handle, concurrency=4)
    worker.install_signal_handlers()       # SIGTERM/SIGINT stop it cleanly
    worker.run()                           # blocks until stop()

The handler gets the parsed input, the agent spec and a ``cancelled`` event that is set
when a heartbeat learns the run was stopped or the attempt superseded. Its return value
(any JSON value; a string for text outputs) completes the task; an exception fails it
(retryable unless it is a :class:`PermanentError`). Stopping finishes the tasks in hand
and claims no more.
"""

from __future__ import annotations

import json
import logging
import signal
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import grpc

from aiws.engine.v1 import common_pb2, task_pb2
from praxis_client.client import Client

log = logging.getLogger("praxis_client.worker")

_GONE = ("ATTEMPT_SUPERSEDED", "LEASE_EXPIRED", "RUN_TERMINAL", "ATTEMPT_NOT_FOUND")
_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


class PermanentError(Exception):
    """Raise from a handler to fail the task without a retry."""


@dataclass
class Task:
    """One claimed attempt, as a handler sees it."""

    proto: task_pb2.Task
    input: Any
    cancelled: threading.Event = field(default_factory=threading.Event)

    @property
    def node_uid(self) -> str:
        """``node_id`` or ``node_id#i``."""
        return self.proto.node_uid

    @property
    def output(self) -> Any:
        """The node's output contract (``{"type": "text"}`` or ``{"type": "json", ...}``)."""
        return json.loads(self.proto.agent.output_json or '{"type": "text"}')


Handler = Callable[[Task], Any]


class Worker:
    """Claims tasks for ``models`` and runs ``handler`` on each, ``concurrency`` at a time."""

    def __init__(
        self,
        client: Client,
        models: Sequence[str],
        handler: Handler,
        *,
        worker_id: str | None = None,
        concurrency: int = 1,
        lease_ms: int = 30_000,
        poll_ms: int = 1_000,
    ) -> None:
        self.client = client
        self.models = list(models)
        self.handler = handler
        self.worker_id = worker_id or f"worker-{uuid.uuid4().hex[:12]}"
        self.concurrency = concurrency
        self.lease_ms = lease_ms
        self.poll_ms = poll_ms
        self.completed = 0
        self.failed = 0
        self._stopping = threading.Event()
        self._slots = threading.Semaphore(concurrency)
        self._inflight: dict[str, Task] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    # --- lifecycle ------------------------------------------------------------------

    def run(self) -> None:
        """Claims and handles tasks until :meth:`stop`; then drains the tasks in hand."""
        beats = threading.Thread(target=self._heartbeats, name="praxis-heartbeat", daemon=True)
        beats.start()
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="praxis-task") as pool:
            while not self._stopping.is_set():
                free = self._acquire_free()
                if not free:
                    continue
                tasks = self._claim(free)
                self._release(free - len(tasks))
                for proto in tasks:
                    task = Task(proto, json.loads(proto.input_json or "null"))
                    with self._lock:
                        self._inflight[proto.attempt_id] = task
                    pool.submit(self._handle, task)
        beats.join(timeout=5)

    def start(self) -> Worker:
        """Runs the worker in a background thread."""
        self._thread = threading.Thread(target=self.run, name="praxis-worker", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout_s: float | None = 30.0) -> None:
        """Stops claiming, waits for the tasks in hand to settle."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT stop the worker cleanly (call from the main thread)."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self._stopping.set())

    # --- claiming ---------------------------------------------------------------------

    def _acquire_free(self) -> int:
        if not self._slots.acquire(timeout=0.2):
            return 0
        free = 1
        while free < self.concurrency and self._slots.acquire(blocking=False):
            free += 1
        return free

    def _release(self, count: int) -> None:
        for _ in range(count):
            self._slots.release()

    def _claim(self, count: int) -> list[task_pb2.Task]:
        request = task_pb2.ClaimTasksRequest(
            worker_id=self.worker_id,
            models=self.models,
            max_tasks=min(count, 100),
            lease_ms=self.lease_ms,
            wait_ms=self.poll_ms,
        )
        try:
            return list(
                self.client.tasks.ClaimTasks(request, timeout=self.poll_ms / 1000 + 30).tasks
            )
        except grpc.RpcError as error:
            if error.code() not in _TRANSIENT:
                raise
            log.warning("claim failed (%s); retrying", error.code().name)
            self._stopping.wait(0.5)
            return []

    # --- one task ---------------------------------------------------------------------

    def _handle(self, task: Task) -> None:
        try:
            try:
                result = self.handler(task)
            except Exception as error:  # the handler's failure is the task's failure
                self._settle_failure(task, error)
            else:
                self._settle_result(task, result)
        finally:
            with self._lock:
                self._inflight.pop(task.proto.attempt_id, None)
            self._slots.release()

    def _settle_result(self, task: Task, result: Any) -> None:
        request = task_pb2.CompleteTaskRequest(
            attempt_id=task.proto.attempt_id,
            worker_id=self.worker_id,
            result_json=json.dumps(result, ensure_ascii=False),
            effect=common_pb2.EFFECT_OUTCOME_APPLIED,
        )
        if self._call(self.client.tasks.CompleteTask, request, task):
            self.completed += 1

    def _settle_failure(self, task: Task, error: Exception) -> None:
        request = task_pb2.FailTaskRequest(
            attempt_id=task.proto.attempt_id,
            worker_id=self.worker_id,
            error=f"{type(error).__name__}: {error}"[:4000],
            retryable=not isinstance(error, PermanentError),
            effect=common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
        )
        if self._call(self.client.tasks.FailTask, request, task):
            self.failed += 1

    def _call(self, method: Callable[..., Any], request: Any, task: Task) -> bool:
        """Settles, retrying transient failures (settling is idempotent). True if accepted."""
        from praxis_client.errors import error_details

        for delay in (0.1, 0.3, 1.0, 3.0, 0.0):
            try:
                method(request, timeout=30)
                return True
            except grpc.RpcError as error:
                reason = error_details(error).reason
                if reason in _GONE:
                    log.info("result of %s dropped: %s", task.node_uid, reason)
                    return False
                if error.code() not in _TRANSIENT or not delay:
                    raise
                time.sleep(delay)
        return False

    # --- heartbeats -------------------------------------------------------------------

    def _heartbeats(self) -> None:
        """Extends every lease in hand each third of the lease, until drained after stop."""
        interval = max(self.lease_ms / 3000, 0.2)
        last = time.monotonic()
        while True:
            if self._stopping.is_set():
                with self._lock:
                    if not self._inflight:
                        return
                time.sleep(0.05)
            else:
                self._stopping.wait(0.05)
            if time.monotonic() - last < interval:
                continue
            last = time.monotonic()
            with self._lock:
                tasks = list(self._inflight.values())
            for task in tasks:
                self._beat(task)

    def _beat(self, task: Task) -> None:
        try:
            reply = self.client.tasks.Heartbeat(
                task_pb2.HeartbeatRequest(
                    attempt_id=task.proto.attempt_id,
                    worker_id=self.worker_id,
                    lease_ms=self.lease_ms,
                ),
                timeout=10,
            )
            if reply.cancelled:
                task.cancelled.set()
        except grpc.RpcError as error:
            from praxis_client.errors import error_details

            if error_details(error).reason in _GONE:
                task.cancelled.set()
