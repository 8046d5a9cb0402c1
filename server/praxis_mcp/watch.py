"""Resource subscriptions: a subscribed run or wait is followed with the server's own
``WatchRun`` stream, and its subscribers receive ``notifications/resources/updated`` when
it changes, so an agent is told instead of polling (docs/agents.md, "Being told").

A watch is one task per subscribed resource of a subscription, holding one ``WatchRun``
stream in one worker thread (the gRPC client blocks); at most
:data:`~praxis_mcp.limits.MAX_WATCHES` watches exist at once in the process, and a
subscription past that bound is refused, never queued. Nothing is held per tool call:
``wait_for_run`` and ``get_answer`` keep their own bounded waits.

A run's resource is updated at each new version of the run (the last one when it ends);
a wait's, at each change of its state (opened, answered, expired, cancelled); the
agent's replies', at each reply posted into its subscription (``StreamEvents``). A
subscription to a run that already ended, or to a wait already settled, is updated once
at once, so a subscriber that came late still hears it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import anyio.from_thread
import anyio.to_thread
import grpc

from aiws.engine.v1 import event_pb2, run_pb2, wait_pb2
from praxis_client.helpers import TERMINAL
from praxis_mcp import views
from praxis_mcp.actions import Praxis, Refused, server_call
from praxis_mcp.limits import MAX_WATCHES

RETRY_S = 1.0
"""How long a watch waits before following again after the server became unavailable."""

logger = logging.getLogger(__name__)

Notify = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class Target:
    """A resource a subscriber may follow: a run or a wait."""

    kind: Literal["run", "wait", "replies"]
    ident: str
    uri: str


def target_of(uri: str) -> Target | None:
    """The run or wait a resource URI names (or the agent's replies), or ``None`` when it
    names none of them."""
    if uri == views.REPLIES_URI:
        return Target("replies", "", uri)
    for kind, template in (("run", views.RUN_URI), ("wait", views.WAIT_URI)):
        prefix = template.split("{", 1)[0]
        ident = uri.removeprefix(prefix)
        if uri.startswith(prefix) and ident and "/" not in ident:
            return Target(kind, ident, uri)  # type: ignore[arg-type]  # kind is one of both
    return None


class TooManyWatches(Exception):
    """More resources would be watched at once than :data:`MAX_WATCHES`."""


class _Lost(Exception):
    """The server ended a followed stream with a refusal (a revoked grant, its stream
    limits): the subscriber is told once, and reading the resource says why."""


class Follow:
    """Follows one target in a worker thread until its run ends, its wait settles or
    :meth:`stop` is called (from any thread)."""

    def __init__(self, praxis: Praxis, target: Target) -> None:
        self.praxis = praxis
        self.target = target
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._call: Any = None

    def stop(self) -> None:
        """Ends the follow: cancels the open stream, so the worker thread returns."""
        self._stopped.set()
        with self._lock:
            if self._call is not None:
                self._call.cancel()

    def run(self, changed: Callable[[], None]) -> None:
        """Calls ``changed()`` (in this thread) each time the resource changed."""
        try:
            if self.target.kind == "run":
                self._follow_run(changed)
            elif self.target.kind == "wait":
                self._follow_wait(changed)
            else:
                self._follow_replies(changed)
        except (_Lost, Refused) as lost:
            logger.warning("watch of %s ended: %s", self.target.uri, lost)
            changed()
        except Exception:  # a bug or a refusal ends this watch only, logged
            if not self._stopped.is_set():
                logger.exception("watch of %s ended", self.target.uri)

    def _open(self, call: Any) -> Any:
        with self._lock:
            self._call = call
            if self._stopped.is_set():
                call.cancel()
        return call

    def _snapshots(self, run_id: str) -> Iterator[run_pb2.Run]:
        """The run's snapshots from WatchRun, following again after an outage."""
        while not self._stopped.is_set():
            request = run_pb2.WatchRunRequest(run_id=run_id)
            call = self._open(self.praxis.client.runs.WatchRun(request))
            try:
                for reply in call:
                    yield reply.run
                return  # the stream ends when the run ends
            except grpc.RpcError as error:
                if self._stopped.is_set():
                    return
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise _Lost(error.code().name) from None
            self._stopped.wait(RETRY_S)

    def _follow_replies(self, changed: Callable[[], None]) -> None:
        """Each reply posted into the agent's subscription past its acknowledged
        position (and those already waiting there, once at once)."""
        after = 0  # the server starts after the subscriber's acknowledged position
        while not self._stopped.is_set():
            request = event_pb2.StreamEventsRequest(
                after=after, subscriber=self.praxis.reply_subscriber
            )
            call = self._open(self.praxis.client.events.StreamEvents(request))
            try:
                for reply in call:
                    after = reply.event.seq
                    if reply.event.kind == event_pb2.EVENT_KIND_RUN_REPLY:
                        changed()
                return
            except grpc.RpcError as error:
                if self._stopped.is_set():
                    return
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise _Lost(error.code().name) from None
            self._stopped.wait(RETRY_S)

    def _follow_run(self, changed: Callable[[], None]) -> None:
        seen: int | None = None
        for run in self._snapshots(self.target.ident):
            if seen is None:
                seen = run.version
                if run.state in TERMINAL:
                    changed()
                continue
            if run.version > seen:
                seen = run.version
                changed()
            if run.state in TERMINAL:
                return

    def _wait_state(self) -> int:
        request = wait_pb2.GetWaitRequest(wait_id=self.target.ident)
        found: int = server_call(lambda: self.praxis.client.waits.GetWait(request)).wait.state
        return found

    def _follow_wait(self, changed: Callable[[], None]) -> None:
        request = wait_pb2.GetWaitRequest(wait_id=self.target.ident)
        first = server_call(lambda: self.praxis.client.waits.GetWait(request)).wait
        state = first.state
        if state not in views.WAIT_OPEN:
            changed()
            return
        for _run in self._snapshots(first.run_id):
            now = self._wait_state()
            if now != state:
                state = now
                changed()
            if state not in views.WAIT_OPEN:
                return


class Watches:
    """The watches of one process, bounded by ``limit``."""

    def __init__(self, praxis: Praxis, limit: int = MAX_WATCHES) -> None:
        self.praxis = praxis
        self.limit = limit
        self.active = 0
        self._threads = anyio.CapacityLimiter(limit)

    def reserve(self, count: int) -> None:
        """Takes ``count`` watches of the bound, or refuses them all."""
        if self.active + count > self.limit:
            raise TooManyWatches(
                f"at most {self.limit} resources are watched at once ({self.active} are): "
                "unsubscribe from some first"
            )
        self.active += count

    def release(self, count: int) -> None:
        """Gives back ``count`` watches taken with :meth:`reserve`."""
        self.active -= count

    async def check(self, target: Target) -> None:
        """Refuses (:class:`~praxis_mcp.actions.Refused`) a target the agent may not read
        or that does not exist, before anyone is told it is watched."""
        if target.kind == "replies":
            await anyio.to_thread.run_sync(self.praxis.reply_position)
            return
        read = self.praxis.get_run if target.kind == "run" else self.praxis.get_wait
        await anyio.to_thread.run_sync(read, target.ident)

    async def follow(self, target: Target, notify: Notify) -> None:
        """Follows ``target`` and awaits ``notify(uri)`` at each change, until it can no
        longer change or the caller is cancelled. The caller holds a reserved watch."""
        follow = Follow(self.praxis, target)
        send, receive = anyio.create_memory_object_stream[None](1)

        def offer() -> None:  # on the event loop: changes coalesce while one is pending
            with contextlib.suppress(anyio.WouldBlock, anyio.ClosedResourceError):
                send.send_nowait(None)

        def changed() -> None:  # in the worker thread
            try:
                anyio.from_thread.run_sync(offer)
            except RuntimeError:  # the event loop is gone: nobody is left to tell
                follow.stop()

        async def in_thread() -> None:
            try:
                await anyio.to_thread.run_sync(
                    follow.run, changed, limiter=self._threads, abandon_on_cancel=True
                )
            finally:
                send.close()

        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(in_thread)
                async with receive:
                    async for _ in receive:
                        await notify(target.uri)
        finally:
            follow.stop()
