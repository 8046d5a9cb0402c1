"""The serving limits of one process: what ``config.json``'s ``serving`` object sets.

Read by :mod:`praxis.serve.config` (the file), :mod:`praxis.app` (the executor) and
:mod:`praxis.rpc.serving` (the gates), so it sits below all three.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class ServingLimits:
    """Per-process serving limits (the ``serving`` object of ``config.json``).

    Attributes:
        max_streams: Open streams (WatchRun, StreamEvents, WatchInbox) of the process
            in total.
        max_streams_per_principal: Open streams of one principal.
        max_service_streams: Open streams of the health service (``Watch``) and, apart,
            of the reflection service: they need no credential and count under no other
            limit, so no other call can take their slots (nor they another call's).
        max_long_polls: ClaimTasks and SettleTasks calls waiting with ``wait_ms`` > 0.
        max_long_polls_per_principal: Waiting long polls of one principal.
        executor_threads: Threads running the unary RPCs that do not run on the event
            loop (listings, exports, administration: :data:`praxis.rpc.serving.ON_LOOP`
            lists those that do); the event loop never waits for them.
        recheck_ms: The safety net of waiting streams and long polls: how long they wait
            without a wake-up before reading again. Commits of every server process on
            this machine wake them at once; lower it only when servers on several
            machines share one PostgreSQL database.
    """

    max_streams: int = 10_000
    max_streams_per_principal: int = 2_500
    max_service_streams: int = 1_000
    max_long_polls: int = 5_000
    max_long_polls_per_principal: int = 1_000
    executor_threads: int = 8
    recheck_ms: int = 60_000

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"serving.{item.name} must be a positive integer")
