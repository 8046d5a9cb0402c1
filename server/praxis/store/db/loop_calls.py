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

On PostgreSQL the calls run on the loop the same way, and each of their waits for the
database (an answer, a pooled connection) parks the call (:mod:`praxis.store.db.loop_pg`).
A parked call is resumed straight from the loop callback that readies it (its socket's
reader, its future's done callback), not through its task: a PostgreSQL command parks
about ten times, and a task's wake-up per wait would cost more than the round trip.
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
    """The greenlet of one store call on the loop: what its task awaits (``finished``,
    done once it has ended) and how it ended (``outcome``)."""

    finished: asyncio.Future[None]
    outcome: tuple[bool, Any]


def _outcome(function: Callable[[], Any]) -> tuple[bool, Any]:
    """The body of a call's greenlet: ``function``'s value or error, never raised (it
    would surface in whichever loop callback resumed the call)."""
    try:
        return True, function()
    except BaseException as error:  # handed to the call's caller
        return False, error


async def call(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` on the loop, in the caller's context; its writes
    wait for the loop's group commit without holding up the loop."""
    child = _LoopCall(functools.partial(_outcome, functools.partial(function, *args, **kwargs)))
    child.gr_context = contextvars.copy_context()
    child.finished = asyncio.get_running_loop().create_future()
    _ended(child, child.switch())  # runs until it parks or ends
    cancelled = False
    while not child.dead:
        try:
            await child.finished  # a cancellation cancels it: the call goes on regardless
        except asyncio.CancelledError:
            cancelled = True  # its work goes on (a write may be queued): see it through
            if not child.dead:
                child.finished = asyncio.get_running_loop().create_future()
    if cancelled:
        raise asyncio.CancelledError
    ok, result = child.outcome
    if not ok:
        raise result
    return cast(T, result)


def inside() -> bool:
    """Whether this code runs in a store call on the loop (:func:`call`)."""
    return isinstance(getcurrent(), _LoopCall)


def current() -> Any:
    """The store call on the loop this code runs in (see :func:`park`)."""
    found = getcurrent()
    assert isinstance(found, _LoopCall)
    return found


def resume(child: Any, value: Any) -> None:
    """Goes on with the parked store call ``child`` (a loop callback: a socket ready, a
    future done), its :func:`park` returning ``value``, until it parks again or ends."""
    _ended(child, child.switch(value))


def _ended(child: Any, outcome: Any) -> None:
    """Keeps ``outcome`` and wakes the call's task once its greenlet has ended."""
    if child.dead:
        child.outcome = outcome
        if not child.finished.done():
            child.finished.set_result(None)


def park() -> Any:
    """Steps back to the loop (from inside :func:`call`) until a loop callback calls
    :func:`resume` with this call (:func:`current`), which it must have arranged for."""
    parent = getcurrent().parent
    assert parent is not None  # a store call's greenlet: the loop's is its parent
    return parent.switch()


def wait(future: asyncio.Future[Any]) -> None:
    """Steps back to the loop until ``future`` is done (from inside :func:`call`)."""
    future.add_done_callback(functools.partial(_done, current()))
    park()


def _done(child: Any, _future: asyncio.Future[Any]) -> None:
    resume(child, None)
