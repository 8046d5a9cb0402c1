"""What the asyncio server needs around the servicers: gates, where calls run, async aborts.

Streams and long polls are coroutines on the event loop: they hold no thread while they
wait. Open streams and waiting long polls are counted per principal and in total; past a
limit a call is refused at once with ``RESOURCE_EXHAUSTED`` instead of queueing.

Where a call's store work runs depends on the database:

**The hot calls run on the event loop itself.** Handing each call to a pool thread (and
on SQLite its write on to the writer thread) cost more than the work: a quarter of a
completion's CPU went to thread and GIL hand-offs (issue 40). So the unary methods of
:data:`ON_LOOP` run on the loop, and the database work of streams and long polls
(:meth:`Blocking.run`) too, each in a greenlet of its own
(:mod:`praxis.store.db.loop_calls`), and a call waiting for the database never holds
up the loop:

- **SQLite**: the database is in the process and a command's statements take
  microseconds, its one COMMIT (``synchronous=FULL``) about 0.2 ms. The writes of the
  calls of one turn of the loop share one COMMIT and one writers' turn, and a call
  waiting for it steps back to the loop.
- **PostgreSQL**: every statement is a round trip to another process. A call waiting
  for an answer (or a row lock, or a pooled connection) steps back to the loop, which
  watches the connection's socket and goes on with the call once it is ready
  (:mod:`praxis.store.db.loop_pg`).

Every other unary method (listings, exports, administration: work whose size a caller
chooses) keeps a pool thread, so it never stalls the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn, ParamSpec, TypeVar

import grpc
from grpc_status import rpc_status

from praxis.core.rejection import Code, Rejection
from praxis.limits import ServingLimits
from praxis.observability import metrics
from praxis.rpc.errors import to_status
from praxis.store.db import loop_calls

SHUTTING_DOWN = Rejection(
    Code.UNAVAILABLE, "SERVER_UNAVAILABLE", "the server is shutting down; reconnect and resume"
)
P = ParamSpec("P")
T = TypeVar("T")


class Gate:
    """Counts what is open, per principal and in total, against two limits.

    Used only on the event loop, so plain counters suffice.
    """

    def __init__(
        self, reason: str, what: str, total: int, per_principal: int, kind: str = ""
    ) -> None:
        self.kind = kind  # the metrics' label: stream or long_poll
        self.reason = reason
        self.what = what
        self.total = total
        self.per_principal = per_principal
        self.open = 0
        self._by_principal: Counter[str] = Counter()

    def enter(self, principal_id: str) -> Rejection | None:
        """Takes a slot, or the rejection when a limit is reached."""
        scope = ""
        if self.open >= self.total:
            scope = "total"
        elif self._by_principal[principal_id] >= self.per_principal:
            scope = "principal"
        if scope:
            limit = self.total if scope == "total" else self.per_principal
            metrics.refused(self.kind, scope)
            return Rejection(
                Code.RESOURCE_EXHAUSTED,
                self.reason,
                f"{self.what} limit reached ({scope}: {limit}); retry later",
                metadata=(("scope", scope), ("limit", str(limit))),
            )
        self.open += 1
        self._by_principal[principal_id] += 1
        metrics.gate_changed(self.kind, 1)
        return None

    def leave(self, principal_id: str) -> None:
        """Gives the slot back."""
        self.open -= 1
        self._by_principal[principal_id] -= 1
        metrics.gate_changed(self.kind, -1)
        if self._by_principal[principal_id] <= 0:
            del self._by_principal[principal_id]

    @contextlib.contextmanager
    def held(self, principal_id: str) -> Iterator[Rejection | None]:
        """A slot for the block; yields the rejection (and holds nothing) when full."""
        problem = self.enter(principal_id)
        try:
            yield problem
        finally:
            if problem is None:
                self.leave(principal_id)


class Gates:
    """The stream and long-poll gates of one server process."""

    def __init__(self, limits: ServingLimits) -> None:
        self.streams = Gate(
            "STREAM_LIMIT_REACHED",
            "open stream",
            limits.max_streams,
            limits.max_streams_per_principal,
            kind="stream",
        )
        self.long_polls = Gate(
            "LONG_POLL_LIMIT_REACHED",
            "waiting long poll",
            limits.max_long_polls,
            limits.max_long_polls_per_principal,
            kind="long_poll",
        )
        self.services = {
            prefix: Gate(
                "STREAM_LIMIT_REACHED",
                f"open {name} stream",
                limits.max_service_streams,
                limits.max_service_streams,
                kind="stream",
            )
            for prefix, name in SERVICE_STREAMS.items()
        }

    def streams_of(self, method: str) -> Gate:
        """The gate of a stream of ``method``: its service's own for health and
        reflection, the shared one for every other stream."""
        for prefix, gate in self.services.items():
            if method.startswith(prefix):
                return gate
        return self.streams


SERVICE_STREAMS = {"/grpc.health.v1.Health/": "health", "/grpc.reflection.": "reflection"}
"""Services whose streams have a gate of their own (method prefix -> name)."""


ON_LOOP = frozenset(
    {
        # the worker protocol (ClaimTasks and SettleTasks are coroutines already)
        "/aiws.engine.v1.TaskService/Heartbeat",
        "/aiws.engine.v1.TaskService/CompleteTask",
        "/aiws.engine.v1.TaskService/FailTask",
        # one run at a time
        "/aiws.engine.v1.RunService/StartRun",
        "/aiws.engine.v1.RunService/StopRun",
        "/aiws.engine.v1.RunService/GetRun",
        "/aiws.engine.v1.RunService/GetNodeResult",
        # registry commands, their approvals, and the reads of one definition
        "/aiws.engine.v1.RegistryService/Review",
        "/aiws.engine.v1.RegistryService/Execute",
        "/aiws.engine.v1.RegistryService/GetHead",
        "/aiws.engine.v1.RegistryService/GetProposal",
        "/aiws.engine.v1.ApprovalService/CreateApproval",
        "/aiws.engine.v1.ApprovalService/GetApproval",
    }
)
"""The synchronous unary methods that run on the event loop (see the module's
docstring): each reads and writes a bounded amount (one run, one definition, one batch
of at most ``MAX_SETTLEMENTS``)."""


class Blocking:
    """Runs blocking store calls: on the server's bounded executor, or (``on_loop``, as
    the server does) on the event loop itself, in the caller's task."""

    def __init__(self, executor: ThreadPoolExecutor | None = None, on_loop: bool = False) -> None:
        self.executor = executor
        self.on_loop = on_loop

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)``; the caller's task waits for it."""
        if self.on_loop:
            return await loop_calls.call(function, *args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, functools.partial(function, *args, **kwargs)
        )


class _LoopContext:
    """The call's context as a synchronous handler run on the loop sees it: its ``abort``
    records the status (as the executor's context for synchronous handlers does, see
    :func:`praxis.rpc.errors.abort`), and :func:`on_the_loop` ends the call with it."""

    def __init__(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        self._context = context
        self.aborted: tuple[Any, str, Any] | None = None

    def abort(self, code: Any, details: str = "", trailing_metadata: Any = ()) -> None:
        self.aborted = (code, details, trailing_metadata)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def on_the_loop(handler: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A synchronous unary handler as a coroutine that runs it on the event loop."""

    async def run(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        seen = _LoopContext(context)
        response = await loop_calls.call(handler, request, seen)
        if seen.aborted is not None:
            await context.abort(*seen.aborted)
        return response

    return run


async def abort_async(
    context: grpc.aio.ServicerContext[Any, Any], rejection: Rejection
) -> NoReturn:
    """Ends an async RPC with the rejection's status (code, ErrorInfo, BadRequest)."""
    status = rpc_status.to_status(to_status(rejection))
    await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("abort returned")  # pragma: no cover


async def unwrap_async(context: grpc.aio.ServicerContext[Any, Any], value: T | Rejection) -> T:
    """The value, or the async RPC ends with the rejection."""
    if isinstance(value, Rejection):
        await abort_async(context, value)
    return value
