"""The interpreter's settings for a serving process, applied once it is up.

The switch interval: the event loop (gRPC, the hot RPCs' checks and reads) and the
database's writer thread share the interpreter. The writer gives it up around every
SQLite statement and its fsync; taking it back from a busy loop waits for the loop's
switch interval, 5 ms by default, so a batch of a few dozen statements could wait longer
for the interpreter than it ran. At ``SWITCH_INTERVAL_S`` the writer is back within half
a millisecond. Measured in issue 40 (same run, alternating, against the writer-only
step): completions per no-op call 0.5x of it at 5 ms, 1.0-1.1x at 0.5 ms; StartRun per
no-op 0.65x and 0.97x (``benchmarks/results/loop.json`` has the final comparison).

The garbage collector is left as it is: freezing what start-up built and collecting the
young generation after 20,000 allocations instead of 700 measured 1.3x StartRun per
no-op but 1.1-1.2x the server CPU per node completion, in the same run.
"""

from __future__ import annotations

import sys

SWITCH_INTERVAL_S = 0.0005
"""How long a thread may hold the interpreter while another waits for it."""


def tune_interpreter() -> None:
    """Shortens the interpreter's switch interval (see the module docstring)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
