"""Blocking store calls on the event loop, their writes gathered into one group commit.

On SQLite the server runs its hot calls on the event loop (:mod:`praxis.rpc.serving`):
the stores are synchronous, and a thread hand-off per call cost more than the call. Each
such call runs in a greenlet of its own (:func:`call`). When it asks for a write
(:meth:`praxis.store.db.database.Database.transact`), the write is queued and the
greenlet steps back to the loop (:func:`wait`), which goes on with the other calls. Once
the loop has run what was ready, it writes the queue as one batch, each command in its
own SAVEPOINT under one COMMIT (group commit, one writers' turn), and each call goes on
from where it stopped, with its own write's answer, once that COMMIT is durable.

So a call reads and decides on the loop, without a thread, and concurrent calls still
share their COMMIT as the writer thread's callers do; a call's write is durable before
the call goes on, as everywhere else. When another server process holds the writers'
turn (or this process's writer thread writes), a thread waits for it and the loop goes
on meanwhile: the calls it serves then join the batch that waits. A call cancelled while
it waits (its caller went away) is still driven to its end: its write was queued and its
answer is dropped.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

from greenlet import getcurrent, greenlet

P = ParamSpec("P")
T = TypeVar("T")


class _LoopCall(greenlet):
    """The greenlet of one store call on the loop."""


async def call(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` on the loop, in the caller's context; its writes
    wait for the loop's group commit without holding up the loop."""
    child = _LoopCall(functools.partial(function, *args, **kwargs))
    child.gr_context = contextvars.copy_context()
    waiting = child.switch()
    cancelled = False
    while not child.dead:
        try:
            await asyncio.shield(waiting)
        except asyncio.CancelledError:
            cancelled = True  # the write is queued: see it through, then give up
            continue
        waiting = child.switch()
    if cancelled:
        raise asyncio.CancelledError
    return cast(T, waiting)


def inside() -> bool:
    """Whether this code runs in a store call on the loop (:func:`call`)."""
    return isinstance(getcurrent(), _LoopCall)


def wait(future: asyncio.Future[Any]) -> None:
    """Steps back to the loop until ``future`` is done (from inside :func:`call`)."""
    parent = getcurrent().parent
    assert parent is not None  # a store call's greenlet: the loop's is its parent
    parent.switch(future)
