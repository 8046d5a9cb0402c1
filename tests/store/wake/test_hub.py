"""Wake-ups: topics, counted wake-ups of long polls, the datagram format."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from praxis.store.wake.hub import (
    ALL,
    MAX_DATAGRAM,
    PRINCIPAL,
    Hub,
    UnixBroadcast,
    call_soon,
    decode,
    encode,
    merged,
    principal_topic,
    run_topic,
    work_topic,
)


def _run(body: Callable[[Hub], Awaitable[Any]], hub: Hub | None = None) -> Any:
    async def main() -> Any:
        found = hub or Hub()
        found.attach(asyncio.get_running_loop())
        try:
            return await body(found)
        finally:
            found.close()

    return asyncio.run(main())


async def _settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_waiter_wakes_only_for_its_own_topics() -> None:
    async def body(hub: Hub) -> None:
        with hub.subscribe([run_topic("r1")]) as mine, hub.subscribe([run_topic("r2")]) as other:
            hub.publish({run_topic("r1"): 0})
            await _settle()
            assert mine.is_set and not other.is_set
            assert await mine.wait(5)
            assert not await other.wait(0.01)  # the safety-net timeout

    _run(body)


def test_a_wake_up_between_clear_and_wait_is_not_lost() -> None:
    async def body(hub: Hub) -> None:
        with hub.subscribe([run_topic("r")]) as waiter:
            waiter.clear()
            hub.publish({run_topic("r"): 0})  # the commit lands while the waiter reads
            await _settle()
            assert await waiter.wait(5)

    _run(body)


def test_counted_wake_ups_wake_that_many_waiters_in_turn() -> None:
    async def body(hub: Hub) -> None:
        topic = work_topic("echo")
        subscriptions = [hub.subscribe([topic]) for _ in range(5)]
        for subscription in subscriptions:
            subscription.__enter__()
        hub.publish({topic: 2})
        await _settle()
        assert [s.is_set for s in subscriptions] == [True, True, False, False, False]
        for subscription in subscriptions[:2]:
            subscription.clear()
        hub.publish({topic: 1})  # the first two went to the back of the queue
        await _settle()
        assert [s.is_set for s in subscriptions] == [False, False, True, False, False]
        subscriptions[2].__exit__(None, None, None)  # leaves without using its wake-up
        await _settle()
        assert [s.is_set for s in subscriptions] == [False, False, True, True, False]
        subscriptions[3].clear()
        subscriptions[3].pass_on()  # took a full batch: another waiter looks
        assert subscriptions[4].is_set
        for subscription in subscriptions[:2] + subscriptions[3:]:
            subscription.__exit__(None, None, None)

    _run(body)


def test_wild_cards_and_everything() -> None:
    events: list[threading.Event] = [threading.Event()]

    async def body(hub: Hub) -> None:
        hub.on_any(events[0])
        with hub.subscribe([run_topic("a")]) as a, hub.subscribe([work_topic("m")]) as m:
            hub.publish({"run:*": 0})
            await _settle()
            assert a.is_set and not m.is_set
            assert not events[0].is_set()
            hub.everything()
            await _settle()
            assert m.is_set and events[0].is_set()
            hub.shut()
            a.clear()
            assert not await a.wait(30)  # a closing hub never waits

    _run(body)


def test_datagrams_round_trip_and_collapse_when_too_long() -> None:
    wakes = {run_topic("r1"): 0, work_topic("echo"): 3, ALL: 0}
    assert decode(encode(wakes)) == wakes
    many = {run_topic(f"run_{index:060d}"): 0 for index in range(1000)}
    data = encode({**many, work_topic("echo"): 2})
    assert len(data) <= MAX_DATAGRAM
    assert decode(data) == {"run:*": 0, "work:*": 0}
    assert decode(b"garbage\n2 work:echo\nx y") == {work_topic("echo"): 2}


def test_two_hubs_on_one_directory_wake_each_other(tmp_path: Path) -> None:
    async def body(first: Hub) -> None:
        second = Hub(UnixBroadcast(tmp_path / "wake"))
        second.attach(asyncio.get_running_loop())
        try:
            with second.subscribe([run_topic("r")]) as waiter:
                first.publish({run_topic("r"): 0})
                assert await waiter.wait(5)
        finally:
            second.close()
        assert len(list((tmp_path / "wake").iterdir())) == 1  # the second unregistered

    _run(body, Hub(UnixBroadcast(tmp_path / "wake")))


def test_delivered_listeners_run_before_waiters_wake_from_any_process(tmp_path: Path) -> None:
    seen: list[str] = []

    async def body(first: Hub) -> None:
        second = Hub(UnixBroadcast(tmp_path / "wake"))
        second.on_delivered(PRINCIPAL, lambda: seen.append("forgot"))
        second.attach(asyncio.get_running_loop())
        try:
            with second.subscribe([principal_topic("carol")]) as waiter:
                first.publish({run_topic("r"): 0})  # not a principal's: no call
                first.publish({principal_topic("carol"): 0})  # from another process
                assert await waiter.wait(5)
                seen.append("woke")
                assert seen == ["forgot", "woke"]
                second.publish({principal_topic("dave"): 0})  # from its own
                second.everything()  # wake-ups may have been lost: forget as well
                await _settle()
                assert seen == ["forgot", "woke", "forgot", "forgot"]
        finally:
            second.close()

    _run(body, Hub(UnixBroadcast(tmp_path / "wake")))


def test_merged_wake_ups_add_counts_and_keep_all() -> None:
    first = {work_topic("echo"): 2, run_topic("a"): 0}
    second = {work_topic("echo"): 3, work_topic("x"): 1, run_topic("a"): 0}
    assert merged([first, second]) == {work_topic("echo"): 5, work_topic("x"): 1, run_topic("a"): 0}
    assert merged([{"work:m": 0}, {"work:m": 4}]) == {"work:m": 0}


def test_call_soon_queues_directly_on_the_loop_and_through_the_pipe_from_elsewhere() -> None:
    """Issue 40: a write made on the loop publishes its wake-ups without the self-pipe
    (a syscall and a wake-up of the loop each); another thread still goes through it."""
    ran: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        threadsafe = loop.call_soon_threadsafe
        piped: list[object] = []

        def counted(callback: object, *args: object) -> object:
            piped.append(callback)
            return threadsafe(callback, *args)  # type: ignore[arg-type]

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        call_soon(loop, ran.append, "loop")
        await asyncio.sleep(0)
        assert ran == ["loop"] and piped == []
        other = threading.Thread(target=call_soon, args=(loop, ran.append, "thread"))
        other.start()
        other.join()
        await asyncio.sleep(0.05)
        assert ran == ["loop", "thread"] and len(piped) == 1

    asyncio.run(main())
