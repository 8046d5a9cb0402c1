"""TestClock listeners: every server sharing one test clock hears its changes."""

from __future__ import annotations

from praxis.clock import TestClock


def test_changed_calls_every_listener_until_unwatched() -> None:
    clock = TestClock(1_000)
    heard: list[str] = []

    def first() -> None:
        heard.append("first")

    def second() -> None:
        heard.append("second")

    clock.watch(first)
    clock.watch(second)
    clock.advance(5)
    clock.changed()
    assert heard == ["first", "second"] and clock.now_ms() == 1_005
    clock.unwatch(first)
    clock.unwatch(first)  # a second unwatch does nothing
    clock.changed()
    assert heard == ["first", "second", "second"]
