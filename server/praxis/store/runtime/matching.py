"""Ready work handed straight to a waiting long poll (Temporal's sync match).

A long poll with nothing to claim parks a :class:`Waiter` here before it sleeps. The
write transaction that readies attempts of a model leases them to the oldest waiter of
that model parked in the same process, in the same transaction, just before its COMMIT
(:meth:`praxis.store.runtime.tasks.TaskStore.hand_off`); once the COMMIT succeeded the
waiter is handed its tasks and woken, and a failed COMMIT parks it again with nothing.
Waiters in other server processes are woken by the commit's wake-ups and claim, as
before.

A waiter moves PARKED -> OFFERED (a transaction is leasing to it) -> DELIVERED (its
tasks committed) or back to PARKED; it leaves at any point. A poll that goes away
(its call cancelled) while its waiter is OFFERED or DELIVERED gives the tasks back at
once (:class:`praxis.core.run.Return`): the attempts are ready again and not counted,
never left for their leases to expire, and no task is handed to two polls.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from praxis.core.records import Principal


class Claim(Protocol):
    """What a parked poll claims (:class:`praxis.store.runtime.tasks.Claim`)."""

    @property
    def worker_id(self) -> str: ...

    @property
    def models(self) -> Sequence[str]: ...


C = TypeVar("C", bound=Claim)  # what a waiter claims
T = TypeVar("T")  # what it is handed (praxis.store.runtime.tasks.TaskView)


class State(enum.Enum):
    PARKED = "PARKED"
    OFFERED = "OFFERED"
    DELIVERED = "DELIVERED"
    LEFT = "LEFT"


class Waiter(Generic[C, T]):
    """One parked long poll: what it claims, and how to wake it (from any thread)."""

    __slots__ = (
        "abandoned",
        "claim",
        "leaving",
        "may_lease",
        "principal",
        "state",
        "tasks",
        "wake",
    )

    def __init__(
        self,
        claim: C,
        principal: Principal,
        may_lease: Callable[[], bool],
        wake: Callable[[], None],
    ) -> None:
        self.claim = claim
        self.principal = principal
        self.may_lease = may_lease  # its credential is still accepted
        self.wake = wake  # thread-safe: wakes the poll's wait
        self.state = State.PARKED
        self.tasks: list[T] = []
        self.leaving = False  # its poll left while a transaction was leasing to it
        self.abandoned = False  # its poll went away: its tasks go back


class Waiters(Generic[C, T]):
    """The long polls parked in this process, by model, oldest first."""

    def __init__(self, give_back: Callable[[str, list[T]], None]) -> None:
        self._lock = threading.Lock()
        self._by_model: dict[str, dict[Waiter[C, T], None]] = {}
        self._give_back = give_back  # (worker id, tasks): returns them, not on this thread

    def park(self, waiter: Waiter[C, T]) -> Waiter[C, T]:
        """Makes ``waiter`` (PARKED) a candidate for the next hand-off of its models."""
        with self._lock:
            self._add(waiter)
        return waiter

    def take(self, model: str) -> Waiter[C, T] | None:
        """The oldest waiter parked for ``model``, now OFFERED (no longer a candidate)."""
        with self._lock:
            parked = self._by_model.get(model)
            if not parked:
                return None
            waiter = next(iter(parked))
            self._remove(waiter)
            waiter.state = State.OFFERED
            return waiter

    def decide(self, waiter: Waiter[C, T], tasks: list[T]) -> None:
        """What an OFFERED waiter got once its transaction ended: ``tasks`` (committed)
        or nothing (parked again, unless its poll left or went away meanwhile)."""
        back: list[T] = []
        with self._lock:
            if waiter.abandoned:
                waiter.state, back = State.LEFT, tasks
            elif tasks:
                waiter.state, waiter.tasks = State.DELIVERED, tasks
            elif waiter.leaving:
                waiter.state = State.LEFT
            else:
                waiter.state = State.PARKED
                self._add(waiter)
                return
        if back:
            self._give_back(waiter.claim.worker_id, back)
        elif not waiter.abandoned:
            waiter.wake()

    def leave(self, waiter: Waiter[C, T]) -> list[T] | None:
        """Its poll stops waiting: the tasks handed to it, or ``None`` while a transaction
        is leasing to it (its :attr:`Waiter.wake` comes once that is decided)."""
        with self._lock:
            if waiter.state is State.OFFERED:
                waiter.leaving = True
                return None
            if waiter.state is State.PARKED:
                self._remove(waiter)
            tasks, waiter.tasks = waiter.tasks, []
            waiter.state = State.LEFT
            return tasks

    def abandon(self, waiter: Waiter[C, T]) -> None:
        """Its poll went away (cancelled): whatever was or will be handed to it goes back."""
        with self._lock:
            if waiter.state is State.OFFERED:
                waiter.abandoned = True
                return
            if waiter.state is State.PARKED:
                self._remove(waiter)
            tasks, waiter.tasks = waiter.tasks, []
            waiter.state = State.LEFT
        if tasks:
            self._give_back(waiter.claim.worker_id, tasks)

    def parked(self) -> int:
        """How many waiters are parked (each counted once)."""
        with self._lock:
            return len({w for parked in self._by_model.values() for w in parked})

    def _add(self, waiter: Waiter[C, T]) -> None:
        for model in waiter.claim.models:
            self._by_model.setdefault(model, {})[waiter] = None

    def _remove(self, waiter: Waiter[C, T]) -> None:
        for model in waiter.claim.models:
            parked = self._by_model.get(model)
            if parked is not None:
                parked.pop(waiter, None)
                if not parked:
                    del self._by_model[model]
