"""The parked long polls of a process (praxis.store.runtime.matching): who is offered,
what a transaction's end hands each, and what goes back when a poll leaves or vanishes."""

from __future__ import annotations

from dataclasses import dataclass, field

from praxis.core.records import Principal, PrincipalKind
from praxis.store.runtime.matching import State, Waiter, Waiters


@dataclass(frozen=True)
class Wanted:
    worker_id: str
    models: list[str] = field(default_factory=lambda: ["echo"])


class Recorder:
    def __init__(self) -> None:
        self.given_back: list[tuple[str, list[str]]] = []
        self.woken: list[str] = []
        self.waiters: Waiters[Wanted, str] = Waiters(
            lambda worker, tasks: self.given_back.append((worker, tasks))
        )

    def park(self, worker: str, models: list[str] | None = None) -> Waiter[Wanted, str]:
        wanted = Wanted(worker, models or ["echo"])
        principal = Principal("agent", PrincipalKind.AGENT)
        return self.waiters.park(
            Waiter(wanted, principal, lambda: True, lambda: self.woken.append(worker))
        )


def test_the_oldest_waiter_of_a_model_is_offered_once() -> None:
    r = Recorder()
    first, second = r.park("w1", ["echo", "other"]), r.park("w2")
    assert r.waiters.take("other") is first
    assert r.waiters.take("echo") is second  # first is offered, no longer a candidate
    assert r.waiters.take("echo") is None and r.waiters.parked() == 0


def test_a_committed_offer_is_delivered_and_a_failed_one_parks_again() -> None:
    r = Recorder()
    waiter = r.park("w1")
    assert r.waiters.take("echo") is waiter
    r.waiters.decide(waiter, [])  # the COMMIT failed: parked again, not woken
    assert waiter.state is State.PARKED and r.woken == [] and r.waiters.parked() == 1
    assert r.waiters.take("echo") is waiter
    r.waiters.decide(waiter, ["t1"])
    assert r.woken == ["w1"] and r.waiters.leave(waiter) == ["t1"]
    assert r.waiters.leave(waiter) == []  # handed once


def test_a_poll_leaving_during_an_offer_waits_for_its_end() -> None:
    r = Recorder()
    waiter = r.park("w1")
    r.waiters.take("echo")
    assert r.waiters.leave(waiter) is None  # a transaction is leasing to it
    r.waiters.decide(waiter, [])
    assert r.woken == ["w1"] and r.waiters.leave(waiter) == [] and r.waiters.parked() == 0


def test_what_a_vanished_poll_is_or_was_handed_goes_back() -> None:
    r = Recorder()
    offered, delivered, idle = r.park("w1"), r.park("w2"), r.park("w3")
    r.waiters.take("echo")
    r.waiters.take("echo")
    r.waiters.abandon(offered)  # cancelled mid-offer: its tasks go back once decided
    assert r.given_back == []
    r.waiters.decide(offered, ["t1"])
    r.waiters.decide(delivered, ["t2"])
    r.waiters.abandon(delivered)  # cancelled after delivery, before it was answered
    r.waiters.abandon(idle)
    assert r.given_back == [("w1", ["t1"]), ("w2", ["t2"])]
    assert r.woken == ["w2"] and r.waiters.parked() == 0
