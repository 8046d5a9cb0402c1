"""The two ways an MCP client subscribes to a run, a wait or its replies, both served by
:class:`~praxis_mcp.watch.Watches`:

- ``subscriptions/listen`` (protocol 2026-07-28): the resources named in the stream's
  filter are watched while the stream is open; each change is published on the
  server's subscription bus, which sends ``notifications/resources/updated`` on the
  streams that asked for that URI.
- ``resources/subscribe`` / ``resources/unsubscribe`` (earlier protocol versions, what
  most hosts speak today): the resource is watched until unsubscribed, its run ends or
  its wait settles, and ``notifications/resources/updated`` goes to the connection that
  subscribed.

A subscription that cannot be watched is refused with an MCP error whose ``data`` is the
refusal as tools report it (``{"code", "reason", "message"}``): a resource the agent may
not read or that does not exist carries the server's reason; past the bound of watches,
``WATCH_LIMIT_REACHED``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    EmptyResult,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
    UnsubscribeRequestParams,
)

from praxis_mcp.actions import Refused
from praxis_mcp.watch import Target, TooManyWatches, Watches, target_of


def _refusal(problem: Refused | TooManyWatches, redact: Callable[[str], str]) -> MCPError:
    if isinstance(problem, Refused):
        code, data = INVALID_PARAMS, problem.as_dict()
    else:
        code = INTERNAL_ERROR
        data = {"code": "RESOURCE_EXHAUSTED", "reason": "WATCH_LIMIT_REACHED", "message": ""}
        data["message"] = str(problem)
    data = {key: redact(value) if isinstance(value, str) else value for key, value in data.items()}
    return MCPError(code, f"{data['reason']}: {data['message']}", {"error": data})


def _connection_of(ctx: Any) -> int:
    """The identity of the client connection a request came on. The SDK builds a new
    session object per request around the connection, which it keeps private; a
    subscription and its unsubscribe are matched on the connection."""
    return id(getattr(ctx.session, "_connection", ctx.session))


class Subscriptions:
    """Serves both kinds of subscription over one set of :class:`Watches`."""

    def __init__(self, watches: Watches, redact: Callable[[str], str]) -> None:
        self.watches = watches
        self.redact = redact
        self.bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self.bus, max_subscriptions=watches.limit)
        self._tasks: anyio.abc.TaskGroup | None = None
        self._legacy: dict[tuple[int, str], tuple[anyio.CancelScope, anyio.Event]] = {}

    @asynccontextmanager
    async def running(self) -> AsyncIterator[dict[str, Any]]:
        """The server's lifespan: the task group that ``resources/subscribe`` watches run in."""
        async with anyio.create_task_group() as tasks:
            self._tasks = tasks
            try:
                yield {}
            finally:
                self._tasks = None
                tasks.cancel_scope.cancel()

    async def _open(self, uris: list[str]) -> list[Target]:
        """The Praxis resources among ``uris``, checked and reserved (other URIs are not
        this server's to watch, and never change)."""
        targets = [target for target in map(target_of, uris) if target is not None]
        try:
            self.watches.reserve(len(targets))
        except TooManyWatches as problem:
            raise _refusal(problem, self.redact) from None
        try:
            for target in targets:
                await self.watches.check(target)
        except Refused as problem:
            self.watches.release(len(targets))
            raise _refusal(problem, self.redact) from None
        return targets

    async def _publish(self, uri: str) -> None:
        await self.bus.publish(ResourceUpdated(uri=uri))

    async def listen(
        self, ctx: Any, params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        """``subscriptions/listen``: watches the stream's resources while it is open."""
        targets = await self._open(list(params.notifications.resource_subscriptions or ()))
        try:
            async with anyio.create_task_group() as tasks:
                for target in targets:
                    tasks.start_soon(self.watches.follow, target, self._publish)
                try:
                    ended = await self._listen(ctx, params)
                finally:
                    tasks.cancel_scope.cancel()
        finally:
            self.watches.release(len(targets))
        return ended

    async def subscribe(self, ctx: Any, params: SubscribeRequestParams) -> EmptyResult:
        """``resources/subscribe``: watches one resource for the connection that asked."""
        uri = str(params.uri)
        if target_of(uri) is None:
            raise MCPError(INVALID_PARAMS, f"{uri} is not a resource of Praxis one can follow")
        tasks = self._tasks
        if tasks is None:  # only outside the server's lifespan: never silently
            raise MCPError(INTERNAL_ERROR, "the server is not running its subscriptions")
        key = (_connection_of(ctx), uri)
        if key in self._legacy:  # already watched for this connection
            return EmptyResult()
        scope, ended = anyio.CancelScope(), anyio.Event()
        self._legacy[key] = (scope, ended)  # before any await: a second subscribe is a no-op
        try:
            [target] = await self._open([uri])
        except MCPError:
            self._legacy.pop(key, None)
            ended.set()  # an unsubscribe that came meanwhile has nothing to wait for
            raise
        session = ctx.session

        async def tell(updated: str) -> None:
            try:
                await session.send_resource_updated(updated)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                scope.cancel()  # the session is gone: nobody is left to tell

        async def watch() -> None:
            try:
                with scope:
                    await self.watches.follow(target, tell)
            finally:
                self.watches.release(1)
                if self._legacy.get(key, (None,))[0] is scope:
                    del self._legacy[key]
                ended.set()

        tasks.start_soon(watch)
        return EmptyResult()

    async def unsubscribe(self, ctx: Any, params: UnsubscribeRequestParams) -> EmptyResult:
        """``resources/unsubscribe``: ends the connection's watch of the resource, and
        answers once its place is given back."""
        found = self._legacy.pop((_connection_of(ctx), str(params.uri)), None)
        if found is not None:
            scope, ended = found
            scope.cancel()
            await ended.wait()
        return EmptyResult()
