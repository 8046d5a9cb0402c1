"""scripts/lanes.sh, which runs the clients' lanes of ``make ci`` at the same time: every
lane runs to its end, each lane's output comes out whole, and any failure fails the whole."""

from __future__ import annotations

import subprocess
import time

from tests.support.paths import ROOT

LANES = ROOT / "scripts" / "lanes.sh"


def _lanes(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LANES), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_lanes_run_at_the_same_time_and_print_whole_in_their_order() -> None:
    began = time.monotonic()
    done = _lanes(
        "slow", "echo s1; sleep 2; echo s2 >&2",
        "quick", "sleep 2; echo q1",
    )  # fmt: skip
    assert time.monotonic() - began < 3.9  # side by side: one after the other takes 4 s
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        "==== slow: output ====",
        "s1",
        "s2",
        lines[3],
        "==== quick: output ====",
        "q1",
        lines[6],
    ]
    assert lines[3].startswith("==== slow: exit 0 after ")
    assert lines[6].startswith("==== quick: exit 0 after ")


def test_a_failed_lane_fails_the_whole_after_every_lane_ended() -> None:
    done = _lanes("bad", "echo b; exit 3", "good", "sleep 1; echo finished")
    assert done.returncode == 1
    assert "==== bad: exit 3 after " in done.stdout
    assert "finished\n==== good: exit 0 after " in done.stdout  # not cut short by "bad"
    assert done.stderr.splitlines()[-1] == "lanes: FAILED: bad"


def test_no_lane_or_a_lane_without_its_command_is_a_usage_error() -> None:
    assert _lanes().returncode == 2
    assert _lanes("alone").returncode == 2
