"""The clock-step rule of every registry command (core.gates.clock_step)."""

from __future__ import annotations

from praxis.core.gates import clock_step


def test_a_clock_behind_the_mark_past_the_tolerance_is_refused() -> None:
    assert (
        clock_step(now_ms=94_999, high_water_ms=100_000, tolerance_ms=5_000, step_ms=0) == "behind"
    )
    assert clock_step(now_ms=95_000, high_water_ms=100_000, tolerance_ms=5_000, step_ms=0) == "keep"


def test_the_mark_advances_past_its_step() -> None:
    assert clock_step(100_001, 100_000, 5_000, 0) == "advance"
    assert clock_step(100_250, 100_000, 5_000, 250) == "keep"  # PostgreSQL: in steps
    assert clock_step(100_251, 100_000, 5_000, 250) == "advance"
