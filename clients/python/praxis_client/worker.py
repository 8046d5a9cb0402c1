"""The worker runtime: you write the handler; it claims, heartbeats, settles and drains.

It follows the one worker specification every Praxis client shares (``docs/workers.md``)::

    from praxis_client import connect
    from praxis_client.worker import Worker

    def handle(task):                        # a praxis_client.worker.TaskContext
        return {"summary": task.input["text"][:100]}

    worker = Worker(connect(address, token), ["my-model"], handle, concurrency=4)
    worker.install_signal_handlers()         # SIGTERM/SIGINT stop it gracefully
    worker.run()                             # raises at once on a bad token

A handler may be a plain function or an ``async def``. It reports its effect outcome by
what it returns or raises:

- a plain value, or :class:`Applied` ``(result, cost=...)``: completed, effect APPLIED;
- :class:`NotApplied` ``(error, retryable=...)`` (return or raise): failed, NOT_APPLIED;
- :class:`Uncertain` ``(error, result=..., cost=...)`` (return or raise): effect
  UNCERTAIN, which blocks the node until a human reconciles it;
- :class:`PermanentError`: failed, NOT_APPLIED, not retryable;
- any other exception (a crash): on a node that declares its effects ``none`` or
  ``idempotent`` (``task.retry_safe``), failed, NOT_APPLIED, retryable; on any other node
  (``external``, or undeclared) the effect is never assumed: UNCERTAIN with the error
  text, which blocks the node until a human reconciles it.

``task.progress(text, data)`` reports how far the handler got (``praxis runs watch``, the
console and ``GetRun`` show it): it rides on the attempt's next heartbeat, sent at once
unless the previous heartbeat was less than :data:`PROGRESS_INTERVAL_S` ago, and only the
latest report waiting is sent.

``task.cancelled`` (a :class:`threading.Event`) is set when a heartbeat learns that the
run was stopped or the lease lost; ``async def`` handlers are also cancelled through
``asyncio``. A result that JSON cannot encode fails the task at once, not retryable.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
import queue
import random
import signal
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import grpc

from aiws.engine.v1 import common_pb2, task_pb2
from praxis_client.client import Client
from praxis_client.errors import CallError, error_details
from praxis_client.tracing import attempt_context
from praxis_client.values import canonical_decimal, parse_decimal

log = logging.getLogger("praxis_client.worker")

TRANSIENT = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.ABORTED,
    }
)
GONE = frozenset(
    {
        "LEASE_EXPIRED",
        "ATTEMPT_SUPERSEDED",
        "ATTEMPT_NOT_FOUND",
        "RUN_TERMINAL",
        "WORKER_MISMATCH",
        "ATTEMPT_ALREADY_SETTLED",
    }
)
FATAL = frozenset(
    {
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)
_RETRY_SAFE = frozenset({task_pb2.NODE_EFFECTS_NONE, task_pb2.NODE_EFFECTS_IDEMPOTENT})
MAX_ERROR_CHARS = 4000
MAX_PROGRESS_TEXT_BYTES = 512
"""A progress report's text, in UTF-8 bytes (the server's cap)."""
MAX_PROGRESS_DATA_BYTES = 1024
"""A progress report's data, as compact JSON in UTF-8 bytes (the server's cap)."""
PROGRESS_INTERVAL_S = 1.0
"""A progress report waits at most this long after the attempt's previous heartbeat."""
MAX_BATCH = 100
_NO_RESULT: Any = object()


# --- outcomes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """Completed with ``result``; the effect was applied. ``cost`` in microcredits."""

    result: Any
    cost: str | Decimal | int | None = None


class NotApplied(Exception):  # an outcome, named as the other runtimes name it
    """Failed; the effect was not applied. Return it or raise it."""

    def __init__(
        self, error: str, *, retryable: bool = False, cost: str | Decimal | int | None = None
    ) -> None:
        super().__init__(error)
        self.error = error
        self.retryable = retryable
        self.cost = cost


class Uncertain(Exception):
    """The effect may or may not have happened: the node blocks until reconciled.

    Without ``result`` it settles as a failure; with one, as a completion.
    """

    def __init__(
        self,
        error: str = "the effect is uncertain",
        *,
        result: Any = _NO_RESULT,
        cost: str | Decimal | int | None = None,
    ) -> None:
        super().__init__(error)
        self.error = error
        self.result = result
        self.cost = cost


class PermanentError(Exception):
    """Raise from a handler to fail the task without a retry (NOT_APPLIED)."""


class WorkerError(RuntimeError):
    """The worker cannot work: a fatal answer to a claim (a bad token, a missing grant)."""

    def __init__(self, message: str, details: CallError | None = None) -> None:
        super().__init__(message)
        self.details = details


# --- the handler's view -------------------------------------------------------------------


def function_policy(functions_json: str) -> dict[str, list[str]]:
    """``Task.agent.functions_json`` as ``{"allow": [...], "deny": [...]}``; every
    function when empty (a server before the policy was normalized)."""
    if not functions_json:
        return {"allow": ["*"], "deny": []}
    raw = json.loads(functions_json)
    return {"allow": list(raw.get("allow", [])), "deny": list(raw.get("deny", []))}


def _glob(pattern: str, text: str) -> bool:
    """Whether ``text`` matches ``pattern`` whole, ``*`` matching any run of characters."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return text == pattern
    if not text.startswith(parts[0]) or len(text) < len(parts[0]) + len(parts[-1]):
        return False
    if not text.endswith(parts[-1]):
        return False
    position, end = len(parts[0]), len(text) - len(parts[-1])
    for middle in parts[1:-1]:
        found = text.find(middle, position, end)
        if found < 0:
            return False
        position = found + len(middle)
    return True


@dataclass
class TaskContext:
    """One claimed attempt, as a handler sees it."""

    proto: task_pb2.Task
    input: Any
    cancelled: threading.Event = field(default_factory=threading.Event)
    _on_cancel: list[Callable[[], None]] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _report: task_pb2.ProgressReport | None = field(default=None, repr=False)
    _on_progress: Callable[[], None] | None = field(default=None, repr=False)

    @property
    def task(self) -> task_pb2.Task:
        """The claimed ``Task`` message."""
        return self.proto

    @property
    def attempt_id(self) -> str:
        return self.proto.attempt_id

    @property
    def run_id(self) -> str:
        return self.proto.run_id

    @property
    def node_uid(self) -> str:
        """``node_id`` or ``node_id#i``."""
        return self.proto.node_uid

    @property
    def attempt(self) -> int:
        return self.proto.attempt

    @property
    def traceparent(self) -> str:
        """The attempt's span as a W3C ``traceparent`` ('' when the server has tracing off).

        With ``opentelemetry-api`` installed the runtime already makes it the handler's
        parent span; use this to propagate it elsewhere (an HTTP call, a subprocess).
        """
        return self.proto.traceparent

    @property
    def retry_safe(self) -> bool:
        """Whether the node declares its effects ``none`` or ``idempotent``: only then is
        an uncaught error reported as NOT_APPLIED and retried (otherwise UNCERTAIN)."""
        return self.proto.effects in _RETRY_SAFE

    @property
    def output(self) -> Any:
        """The node's output contract (``{"type": "text"}`` or ``{"type": "json", ...}``)."""
        return json.loads(self.proto.agent.output_json or '{"type": "text"}')

    @property
    def provider(self) -> str:
        """The provider the node asks to run its model with ('' leaves it to the worker's
        own routing). A worker that cannot serve it fails the attempt as NOT_APPLIED
        rather than run the model elsewhere (docs/workers.md, "The agent's settings")."""
        return self.proto.agent.provider

    @property
    def functions(self) -> dict[str, list[str]]:
        """The node's function policy, ``{"allow": [...], "deny": [...]}``: the agent may
        call only the functions :meth:`function_allowed` permits."""
        return function_policy(self.proto.agent.functions_json)

    def function_allowed(self, function_id: str) -> bool:
        """Whether the node's policy lets its agent call ``function_id``: a pattern match
        in ``allow`` (``*`` is any run of characters) and none in ``deny``. The runtime
        cannot see the agent's calls: the handler MUST offer only permitted functions
        and refuse any other call."""
        policy = self.functions
        allowed = any(_glob(pattern, function_id) for pattern in policy["allow"])
        return allowed and not any(_glob(pattern, function_id) for pattern in policy["deny"])

    def is_cancelled(self) -> bool:
        return self.cancelled.is_set()

    def progress(self, text: str = "", data: Any = None) -> None:
        """Reports progress: a short ``text`` and/or JSON-encodable ``data``.

        The report replaces any earlier one not yet sent and goes with the attempt's next
        heartbeat, at once unless the previous heartbeat was under
        :data:`PROGRESS_INTERVAL_S` ago; the server keeps the attempt's latest report.
        A report made as the handler returns may be dropped (settling sends none).

        Raises:
            ValueError: ``text`` is over 512 UTF-8 bytes, or ``data`` cannot be encoded
                as JSON or is over 1,024 bytes of it.
        """
        report = progress_report(text, data)
        with self._lock:
            self._report = report
            notify = self._on_progress
        if notify is not None:
            notify()

    def _take_progress(self) -> task_pb2.ProgressReport | None:
        with self._lock:
            report, self._report = self._report, None
        return report

    def _restore_progress(self, report: task_pb2.ProgressReport | None) -> None:
        """Keeps an unsent report for the next heartbeat, unless a newer one is waiting."""
        with self._lock:
            if self._report is None:
                self._report = report

    def cancel(self) -> None:
        """Signals cancellation to the handler (the runtime calls this)."""
        with self._lock:
            if self.cancelled.is_set():
                return
            self.cancelled.set()
            callbacks = list(self._on_cancel)
        for callback in callbacks:
            callback()

    def _add_cancel_callback(self, callback: Callable[[], None]) -> None:
        with self._lock:
            if not self.cancelled.is_set():
                self._on_cancel.append(callback)
                return
        callback()


def progress_report(text: str = "", data: Any = None) -> task_pb2.ProgressReport:
    """The ProgressReport of ``text`` and ``data``, checked against the server's caps.

    Raises:
        ValueError: ``text`` is over 512 UTF-8 bytes, or ``data`` is not JSON-encodable
            (finite numbers only) or encodes to over 1,024 bytes.
    """
    if len(text.encode("utf-8")) > MAX_PROGRESS_TEXT_BYTES:
        raise ValueError(f"progress text: at most {MAX_PROGRESS_TEXT_BYTES} UTF-8 bytes")
    data_json = ""
    if data is not None:
        try:
            data_json = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise ValueError(f"progress data: not JSON-encodable ({error})") from error
        _check_numbers(data)
        if len(data_json.encode("utf-8")) > MAX_PROGRESS_DATA_BYTES:
            raise ValueError(f"progress data: at most {MAX_PROGRESS_DATA_BYTES} bytes of JSON")
    return task_pb2.ProgressReport(text=text, data_json=data_json)


def _check_numbers(value: Any) -> None:
    """Raises ValueError for a number the document profile refuses (a fraction, or an
    integer past 2^53 - 1): send those as strings."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) > 2**53 - 1:
            raise ValueError("progress data: integers beyond 2^53 - 1 go as strings")
        return
    if isinstance(value, float):
        raise ValueError("progress data: fractions go as strings (safe integers only)")
    items = value.values() if isinstance(value, dict) else value
    for item in items:
        _check_numbers(item)


Task = TaskContext  # the name of earlier releases
Handler = Callable[[TaskContext], Any]


@dataclass
class Counters:
    """What the worker settled so far."""

    completed: int = 0
    failed: int = 0
    uncertain: int = 0
    dropped: int = 0
    in_flight: int = 0


# --- settlement ---------------------------------------------------------------------------


@dataclass
class _Settlement:
    ctx: TaskContext
    message: task_pb2.CompleteTaskRequest | task_pb2.FailTaskRequest
    kind: str  # completed | failed | uncertain
    retried_invalid: bool = False  # a refused completion already turned into a failure
    slot: bool = False  # holds its handler's slot, for a claim riding on the settle call


def _cost_text(cost: object) -> str:
    """The canonical microcredits string; ValueError for anything else."""
    if cost is None:
        return ""
    if isinstance(cost, bool | float):
        raise ValueError(f"invalid cost {cost!r}: pass a canonical decimal string or Decimal")
    if isinstance(cost, str):
        value = parse_decimal(cost)
        text = cost
    elif isinstance(cost, Decimal | int):
        value = Decimal(cost)
        text = canonical_decimal(value)
    else:
        raise ValueError(f"invalid cost {cost!r}: not a decimal")
    if value < 0:
        raise ValueError(f"invalid cost {cost!r}: negative")
    return text


class Backoff:
    """Exponential backoff from 100 ms, doubling, capped at 5 s, with full jitter."""

    def __init__(self, first_s: float = 0.1, cap_s: float = 5.0) -> None:
        self.first_s, self.cap_s, self.failures = first_s, cap_s, 0

    def next_delay(self) -> float:
        ceiling = min(self.cap_s, self.first_s * (2**self.failures))
        self.failures += 1
        return random.uniform(ceiling / 2, ceiling)

    def reset(self) -> None:
        self.failures = 0


class Worker:
    """Claims tasks for ``models`` and runs ``handler`` on each, ``concurrency`` at a time.

    Args:
        client: A :func:`praxis_client.connect` client; only ``client.tasks`` is used.
        models: The models to claim; at least one.
        handler: A function or ``async def`` taking a :class:`TaskContext`.
        worker_id: Settles must use the claiming id; random per worker by default.
        concurrency: At most this many handlers run at once (1 to 100).
        lease_ms: The lease asked at claim and at every heartbeat.
        poll_ms: How long a claim waits for work (a long poll, at most 60 000).
        batch_settle: Settle through ``SettleTasks`` (falls back to CompleteTask/FailTask
            on a server without it).
        drain_timeout_s: How long :meth:`stop` waits for the handlers in hand.
    """

    def __init__(
        self,
        client: Client,
        models: Sequence[str],
        handler: Handler,
        *,
        worker_id: str | None = None,
        concurrency: int = 1,
        lease_ms: int = 30_000,
        poll_ms: int = 10_000,
        batch_settle: bool = True,
        drain_timeout_s: float = 30.0,
    ) -> None:
        if not models:
            raise ValueError("models: name at least one")
        if not 1 <= concurrency <= 100:
            raise ValueError("concurrency: 1 to 100")
        if not 1_000 <= lease_ms <= 3_600_000:
            raise ValueError("lease_ms: 1000 to 3600000")
        if not 0 <= poll_ms <= 60_000:
            raise ValueError("poll_ms: 0 to 60000")
        self.client = client
        self.models = list(models)
        self.handler = handler
        self.worker_id = worker_id or f"worker-{uuid.uuid4().hex[:12]}"
        self.concurrency = concurrency
        self.lease_ms = lease_ms
        self.poll_ms = poll_ms
        self.batch_settle = batch_settle
        self.drain_timeout_s = drain_timeout_s
        self.counters = Counters()
        self.error: WorkerError | None = None
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._shutdown_lock = threading.Lock()
        self._shutdown_started = False
        self._slots = threading.Semaphore(concurrency)
        self._lock = threading.Lock()
        self._in_hand: dict[str, TaskContext] = {}  # claimed and not yet settled
        self._next_beat: dict[str, float] = {}
        self._last_beat: dict[str, float] = {}  # when each attempt's latest heartbeat went
        self._running = 0  # handlers not yet returned
        self._idle = threading.Condition(self._lock)
        self._claim_future: Any = None
        self._settle_queue: queue.Queue[_Settlement] = queue.Queue()
        self._unsettled = 0  # queued or being sent
        self._thread: threading.Thread | None = None
        self._threads: list[threading.Thread] = []
        self._pool: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = False
        self._stopped_threads = False
        self._claim_on_settle = True  # claims ride on SettleTasks (off: benchmarks only)

    # --- counters, kept for earlier releases -----------------------------------------------

    @property
    def completed(self) -> int:
        return self.counters.completed

    @property
    def failed(self) -> int:
        return self.counters.failed

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> Worker:
        """Sends the first claim and starts working in background threads.

        Raises:
            WorkerError: the first claim was refused for good (UNAUTHENTICATED,
                PERMISSION_DENIED, INVALID_ARGUMENT, UNIMPLEMENTED); nothing keeps running.
        """
        if self._started:
            return self
        self._started = True
        first: list[task_pb2.Task] = []
        try:
            first = list(
                self.client.tasks.ClaimTasks(
                    self._claim_request(self.concurrency, 0), timeout=30
                ).tasks
            )
        except grpc.RpcError as error:
            details = error_details(error)
            if error.code() in FATAL:
                self._started = False
                raise WorkerError(
                    f"worker {self.worker_id} cannot start: {details.code.name} "
                    f"{details.reason}: {details.message}",
                    details,
                ) from error
            log.warning("first claim failed (%s); retrying with backoff", details.code.name)
        self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="praxis-task")
        for target, name in (
            (self._claim_loop, "praxis-claim"),
            (self._heartbeats, "praxis-heartbeat"),
            (self._settler, "praxis-settle"),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(thread)
        self._thread = self._threads[0]
        for proto in first:
            self._slots.acquire()
            self._dispatch(proto)
        for thread in self._threads:
            thread.start()
        log.info(
            "worker %s started: models %s, concurrency %d, lease %d ms",
            self.worker_id,
            ",".join(self.models),
            self.concurrency,
            self.lease_ms,
        )
        return self

    def run(self) -> None:
        """Starts (unless started), works until a stop is requested, then drains.

        Raises:
            WorkerError: start failed, or a later claim was refused for good.
        """
        self.start()
        while not self._stopping.wait(0.5):
            pass
        self.stop()
        if self.error is not None:
            raise self.error

    def request_stop(self) -> None:
        """Asks for a graceful stop without waiting for it (safe in a signal handler)."""
        self._stopping.set()
        future = self._claim_future
        if future is not None:
            future.cancel()

    def stop(self, timeout_s: float | None = None) -> None:
        """Stops claiming, waits for the handlers in hand, settles them, then returns.

        Args:
            timeout_s: How long to wait for handlers (default ``drain_timeout_s``); after
                it, the remaining handlers are cancelled and their leases left to expire.
        """
        self.request_stop()
        with self._shutdown_lock:
            if self._shutdown_started:
                first = False
            else:
                self._shutdown_started = first = True
        if not first:
            self._stopped.wait()
            return
        try:
            self._drain(self.drain_timeout_s if timeout_s is None else timeout_s)
        finally:
            self._stopped.set()

    def wait(self, timeout_s: float | None = None) -> WorkerError | None:
        """Waits until the worker stopped; the fatal error that stopped it, if any."""
        self._stopped.wait(timeout_s)
        return self.error

    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT request a graceful stop (call from the main thread)."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self.request_stop())

    def _drain(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        if self._thread is not None:
            self._thread.join(max(0.0, deadline - time.monotonic()))
        with self._idle:
            while self._running or self._unsettled:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._idle.wait(min(left, 0.1))
            leftover = list(self._in_hand.values())
        if leftover:
            log.warning("drain timed out: %d attempts left to expire on the server", len(leftover))
            for ctx in leftover:
                ctx.cancel()
        self._stop_threads()
        log.info(
            "worker %s stopped: %d completed, %d failed, %d uncertain, %d dropped",
            self.worker_id,
            self.counters.completed,
            self.counters.failed,
            self.counters.uncertain,
            self.counters.dropped,
        )

    def _stop_threads(self) -> None:
        self._stopped_threads = True
        for thread in self._threads[1:]:
            thread.join(5)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)

    def _finished(self) -> bool:
        return self._stopped_threads

    # --- claiming --------------------------------------------------------------------------

    def _claim_request(self, count: int, wait_ms: int) -> task_pb2.ClaimTasksRequest:
        return task_pb2.ClaimTasksRequest(
            worker_id=self.worker_id,
            models=self.models,
            max_tasks=min(count, MAX_BATCH),
            lease_ms=self.lease_ms,
            wait_ms=wait_ms,
        )

    def _claim_loop(self) -> None:
        backoff = Backoff()
        trouble = False
        while not self._stopping.is_set():
            free = self._acquire_free()
            if not free:
                continue
            try:
                tasks = self._claim(free)
            except grpc.RpcError as error:
                self._release(free)
                details = error_details(error)
                if error.code() == grpc.StatusCode.CANCELLED and self._stopping.is_set():
                    return
                if error.code() in FATAL:
                    self.error = WorkerError(
                        f"worker {self.worker_id} stopped: {details.code.name} "
                        f"{details.reason}: {details.message}",
                        details,
                    )
                    log.error("%s", self.error)
                    self.request_stop()
                    threading.Thread(target=self.stop, name="praxis-stop", daemon=True).start()
                    return
                if not trouble:
                    log.warning("claim failed (%s); retrying with backoff", details.code.name)
                trouble = True
                self._stopping.wait(backoff.next_delay())
                continue
            if trouble:
                log.info("worker %s reconnected", self.worker_id)
                trouble = False
            backoff.reset()
            self._release(free - len(tasks))
            for proto in tasks:
                self._dispatch(proto)

    def _claim(self, free: int) -> list[task_pb2.Task]:
        future = self.client.tasks.ClaimTasks.future(
            self._claim_request(free, self.poll_ms), timeout=self.poll_ms / 1000 + 10
        )
        self._claim_future = future
        try:
            if self._stopping.is_set():
                future.cancel()
            tasks = list(future.result().tasks)
        except grpc.FutureCancelledError:
            return []  # stop() cancelled the long poll
        finally:
            self._claim_future = None
        log.debug("claimed %d of %d", len(tasks), free)
        return tasks

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

    # --- one task ---------------------------------------------------------------------------

    def _dispatch(self, proto: task_pb2.Task) -> None:
        """Runs a claimed task in the pool (the caller holds its slot)."""
        try:
            parsed = json.loads(proto.input_json or "null")
        except ValueError:
            parsed = None
        ctx = TaskContext(proto, parsed)
        ctx._on_progress = functools.partial(self._progress_due, proto.attempt_id)
        with self._lock:
            self._in_hand[proto.attempt_id] = ctx
            self._next_beat[proto.attempt_id] = time.monotonic() + self._beat_interval()
            self._running += 1
            self.counters.in_flight = len(self._in_hand)
        assert self._pool is not None
        self._pool.submit(self._handle, ctx)

    def _handle(self, ctx: TaskContext) -> None:
        try:
            settlement = self._outcome(ctx)
        except BaseException as error:  # a bug in the runtime must not leak the slot
            log.exception("worker bug while handling %s", ctx.node_uid)
            settlement = self._failure(ctx, f"worker error: {error!r}", False, "", 2)
        finally:
            with self._idle:
                self._running -= 1
                self._unsettled += 1
                self._idle.notify_all()
        # In batch mode the slot travels with the settlement: the SettleTasks call that
        # carries it claims the next task in the same round trip (docs/workers.md 3).
        if self.batch_settle and self._claim_on_settle and not self._stopping.is_set():
            settlement.slot = True
        else:
            self._slots.release()
        self._submit(settlement)

    def _outcome(self, ctx: TaskContext) -> _Settlement:
        """Runs the handler and turns what it returned or raised into a settlement."""
        try:
            value = self._call_handler(ctx)
        except (NotApplied, Uncertain) as outcome:
            value = outcome
        except PermanentError as error:
            value = NotApplied(f"{type(error).__name__}: {error}", retryable=False)
        except asyncio.CancelledError:
            # Cancelled mid-work (a stop, a lost lease, a drain's deadline): the effect is
            # as unknown as after a crash.
            value = (
                NotApplied("cancelled", retryable=True)
                if ctx.retry_safe
                else Uncertain("cancelled")
            )
        except Exception as error:
            log.warning("handler failed on %s", ctx.node_uid, exc_info=True)
            text = f"{type(error).__name__}: {error}"
            # A crash says nothing of the effect: assumed only where a repeat is safe.
            value = NotApplied(text, retryable=True) if ctx.retry_safe else Uncertain(text)
        return self._settlement_of(ctx, value)

    def _call_handler(self, ctx: TaskContext) -> Any:
        # The attempt's span is the handler's parent (praxis_client.tracing; optional).
        with attempt_context(ctx.traceparent):
            if inspect.iscoroutinefunction(self.handler):
                return self._await(ctx, self.handler(ctx))
            value = self.handler(ctx)
            if inspect.isawaitable(value):
                return self._await(ctx, value)
            return value

    def _await(self, ctx: TaskContext, awaitable: Any) -> Any:
        loop = self._event_loop()

        async def wrapped() -> Any:
            return await awaitable

        future = asyncio.run_coroutine_threadsafe(wrapped(), loop)

        def cancel() -> None:
            loop.call_soon_threadsafe(future.cancel)

        ctx._add_cancel_callback(cancel)
        try:
            return future.result()
        except Exception as error:
            if type(error).__name__ == "CancelledError":  # concurrent or asyncio flavour
                raise asyncio.CancelledError() from error
            raise

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                threading.Thread(target=serve, name="praxis-asyncio", daemon=True).start()
                ready.wait()
                self._loop = loop
            return self._loop

    def _settlement_of(self, ctx: TaskContext, value: Any) -> _Settlement:
        if isinstance(value, NotApplied):
            return self._failure(ctx, value.error, value.retryable, value.cost, 2)
        if isinstance(value, Uncertain):
            if value.result is _NO_RESULT:
                return self._failure(ctx, value.error, False, value.cost, 3, "uncertain")
            return self._completion(ctx, value.result, value.cost, 3)
        if isinstance(value, Applied):
            return self._completion(ctx, value.result, value.cost, 1)
        return self._completion(ctx, value, None, 1)

    def _completion(self, ctx: TaskContext, result: Any, cost: object, effect: int) -> _Settlement:
        try:
            cost_text = _cost_text(cost)
        except ValueError as error:
            log.error("invalid cost from the handler of %s: %s", ctx.node_uid, error)
            return self._failure(ctx, str(error), False, None, effect)
        try:
            result_json = json.dumps(result, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            message = f"result is not JSON-serialisable: {type(error).__name__}: {error}"
            log.error("handler of %s: %s", ctx.node_uid, message)
            return self._failure(ctx, message, False, cost, effect)
        request = task_pb2.CompleteTaskRequest(
            attempt_id=ctx.attempt_id,
            worker_id=self.worker_id,
            result_json=result_json,
            effect=effect,  # type: ignore[arg-type]
            cost_microcredits=cost_text,
        )
        kind = "uncertain" if effect == common_pb2.EFFECT_OUTCOME_UNCERTAIN else "completed"
        return _Settlement(ctx, request, kind)

    def _failure(
        self,
        ctx: TaskContext,
        error: str,
        retryable: bool,
        cost: object,
        effect: int,
        kind: str = "failed",
    ) -> _Settlement:
        try:
            cost_text = _cost_text(cost)
        except ValueError as problem:
            log.error("invalid cost from the handler of %s: %s", ctx.node_uid, problem)
            error, retryable, cost_text = f"{problem} (while failing: {error})", False, ""
        request = task_pb2.FailTaskRequest(
            attempt_id=ctx.attempt_id,
            worker_id=self.worker_id,
            error=error[:MAX_ERROR_CHARS] or "failed",
            retryable=retryable,
            effect=effect,  # type: ignore[arg-type]
            cost_microcredits=cost_text,
        )
        return _Settlement(ctx, request, kind)

    # --- settling ---------------------------------------------------------------------------

    def _submit(self, settlement: _Settlement) -> None:
        if self.batch_settle:
            self._settle_queue.put(settlement)
        else:
            self._settle_one(settlement)

    def _settler(self) -> None:
        """Sends queued settlements in batches (SettleTasks) until stopped and drained."""
        backoff = Backoff()
        while True:
            try:
                first = self._settle_queue.get(timeout=0.05)
            except queue.Empty:
                if self._finished():
                    return
                continue
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._settle_queue.get_nowait())
                except queue.Empty:
                    break
            if not self.batch_settle:
                for settlement in batch:
                    self._settle_one(settlement)
                continue
            self._send_batch(batch, backoff)

    def _send_batch(self, batch: list[_Settlement], backoff: Backoff) -> None:
        """One SettleTasks call (retried while transient), claiming with the freed slots."""
        slots = sum(1 for settlement in batch if settlement.slot)
        for settlement in batch:
            settlement.slot = False  # the slots now belong to this call
        while True:
            if slots and self._stopping.is_set():
                self._release(slots)
                slots = 0
            request = task_pb2.SettleTasksRequest(settlements=[_wrap(s) for s in batch])
            if slots:
                request.claim.CopyFrom(self._claim_request(slots, 0))
            try:
                reply = self.client.tasks.SettleTasks(request, timeout=30)
                break
            except Exception as error:
                code = error.code() if isinstance(error, grpc.RpcError) else None
                if code is not None and code in TRANSIENT and not self._drain_expired():
                    if not backoff.failures:
                        log.warning("settle failed (%s); retrying", code.name)
                    time.sleep(backoff.next_delay())
                    continue
                self._release(slots)
                if code is None:  # a bug: never stop settling
                    log.exception("SettleTasks failed; settling one by one")
                elif code == grpc.StatusCode.UNIMPLEMENTED:
                    log.info("the server has no SettleTasks; settling one by one")
                    self.batch_settle = False
                else:
                    for settlement in batch:
                        self._answered(settlement, error_details(error))
                    return
                for settlement in batch:
                    self._settle_one(settlement)
                return
        backoff.reset()
        claimed = list(reply.tasks)[:slots]
        self._release(slots - len(claimed))
        for proto in claimed:  # before the answers, so that a drain waits for them
            self._dispatch(proto)
        for settlement, result in zip(batch, reply.results, strict=False):
            if result.WhichOneof("result") == "error":
                problem = CallError(
                    _code_of(result.error.code), result.error.reason, "", result.error.message, ()
                )
                self._answered(settlement, problem)
            else:
                self._answered(settlement, None)

    def _settle_one(self, settlement: _Settlement) -> None:
        """Settles with CompleteTask or FailTask, retrying transient errors."""
        if settlement.slot:  # no claim rides on a unary settle
            settlement.slot = False
            self._slots.release()
        backoff = Backoff()
        while True:
            method = (
                self.client.tasks.CompleteTask
                if isinstance(settlement.message, task_pb2.CompleteTaskRequest)
                else self.client.tasks.FailTask
            )
            try:
                method(settlement.message, timeout=30)
            except Exception as error:
                if not isinstance(error, grpc.RpcError):  # a bug: book it, never hang
                    log.exception("settling %s failed", settlement.ctx.node_uid)
                    problem = CallError(grpc.StatusCode.INTERNAL, "", "", repr(error), ())
                    self._answered(settlement, problem)
                    return
                if error.code() in TRANSIENT and not self._drain_expired():
                    if not backoff.failures:
                        log.warning("settle failed (%s); retrying", error.code().name)
                    time.sleep(backoff.next_delay())
                    continue
                self._answered(settlement, error_details(error))
                return
            self._answered(settlement, None)
            return

    def _drain_expired(self) -> bool:
        return self._finished()

    def _answered(self, settlement: _Settlement, problem: CallError | None) -> None:
        """Books one settlement's answer (``problem`` None: accepted)."""
        ctx = settlement.ctx
        if problem is not None and problem.code == grpc.StatusCode.INVALID_ARGUMENT:
            message = settlement.message
            if isinstance(message, task_pb2.CompleteTaskRequest) and not settlement.retried_invalid:
                log.error(
                    "result of %s rejected: %s: %s", ctx.node_uid, problem.reason, problem.message
                )
                failure = task_pb2.FailTaskRequest(
                    attempt_id=message.attempt_id,
                    worker_id=message.worker_id,
                    error=f"result rejected: {problem.reason}: {problem.message}"[:MAX_ERROR_CHARS],
                    retryable=problem.reason == "RESULT_CONTRACT_VIOLATION",
                    effect=message.effect,
                    cost_microcredits=message.cost_microcredits,
                )
                self._submit(_Settlement(ctx, failure, "failed", retried_invalid=True))
                return
        with self._idle:
            if problem is None:
                setattr(self.counters, settlement.kind, getattr(self.counters, settlement.kind) + 1)
                log.debug("settled %s (%s)", ctx.node_uid, settlement.kind)
            else:
                self.counters.dropped += 1
                if problem.reason in GONE:
                    log.info("result of %s dropped: %s", ctx.node_uid, problem.reason)
                else:
                    log.error(
                        "settling %s refused: %s %s: %s",
                        ctx.node_uid,
                        problem.code.name,
                        problem.reason,
                        problem.message,
                    )
            self._in_hand.pop(ctx.attempt_id, None)
            self._next_beat.pop(ctx.attempt_id, None)
            self._last_beat.pop(ctx.attempt_id, None)
            self.counters.in_flight = len(self._in_hand)
            self._unsettled -= 1
            self._idle.notify_all()

    # --- heartbeats --------------------------------------------------------------------------

    def _beat_interval(self) -> float:
        return max(self.lease_ms / 3000, 0.2)

    def _heartbeats(self) -> None:
        """Extends each lease in hand every third of the lease, until the worker stopped."""
        while not self._finished():
            time.sleep(0.05)
            now = time.monotonic()
            with self._lock:
                due = [
                    self._in_hand[a]
                    for a, at in self._next_beat.items()
                    if at <= now and a in self._in_hand
                ]
                for ctx in due:
                    self._next_beat[ctx.attempt_id] = now + self._beat_interval()
                    self._last_beat[ctx.attempt_id] = now
            for ctx in due:
                self._beat(ctx)

    def _progress_due(self, attempt_id: str) -> None:
        """Brings the attempt's next heartbeat forward for a progress report: at once, or
        :data:`PROGRESS_INTERVAL_S` after its previous one (the rate limit)."""
        with self._lock:
            planned = self._next_beat.get(attempt_id)
            if planned is None:
                return  # settled or lost: the report is not sent
            soon = max(time.monotonic(), self._last_beat.get(attempt_id, 0.0) + PROGRESS_INTERVAL_S)
            self._next_beat[attempt_id] = min(planned, soon)

    def _beat(self, ctx: TaskContext) -> None:
        report = ctx._take_progress()
        try:
            reply = self.client.tasks.Heartbeat(
                task_pb2.HeartbeatRequest(
                    attempt_id=ctx.attempt_id,
                    worker_id=self.worker_id,
                    lease_ms=self.lease_ms,
                    progress=report,
                ),
                timeout=10,
            )
        except grpc.RpcError as error:
            details = error_details(error)
            if details.reason in GONE:
                log.info("attempt %s lost: %s; cancelling", ctx.node_uid, details.reason)
                self._cancel(ctx)
            elif report is not None and details.code == grpc.StatusCode.INVALID_ARGUMENT:
                log.warning("progress of %s refused (%s)", ctx.node_uid, details.reason)
                self._beat(ctx)  # the lease still needs extending: again, without it
            else:
                log.warning("heartbeat of %s failed (%s)", ctx.node_uid, details.code.name)
                if details.code in TRANSIENT:
                    ctx._restore_progress(report)  # sent with the next heartbeat
            return
        if reply.cancelled:
            log.info("attempt %s cancelled by the server", ctx.node_uid)
            self._cancel(ctx)

    def _cancel(self, ctx: TaskContext) -> None:
        with self._lock:
            self._next_beat.pop(ctx.attempt_id, None)
            self._last_beat.pop(ctx.attempt_id, None)
        ctx.cancel()


def _wrap(settlement: _Settlement) -> task_pb2.Settlement:
    if isinstance(settlement.message, task_pb2.CompleteTaskRequest):
        return task_pb2.Settlement(complete=settlement.message)
    return task_pb2.Settlement(fail=settlement.message)


def _code_of(number: int) -> grpc.StatusCode:
    for code in grpc.StatusCode:
        if code.value[0] == number:
            return code
    return grpc.StatusCode.UNKNOWN


__all__ = [
    "Applied",
    "Backoff",
    "Counters",
    "Handler",
    "NotApplied",
    "PermanentError",
    "Task",
    "TaskContext",
    "Uncertain",
    "Worker",
    "WorkerError",
    "progress_report",
]
