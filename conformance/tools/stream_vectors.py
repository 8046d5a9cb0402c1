"""The server streams' vectors: RunService.WatchRun and EventService.StreamEvents.

Imported by ``build_vectors.py``. A stream step reads exactly the messages it names (5 s
at most), then expects the end the server chose, or cancels, or keeps the stream open
(``keep``) so that later steps can drive the run and ``resume`` reading it. Every vector
reads after each change it makes, so a watcher never sees two changes folded into one
snapshot, and "nothing else was sent" is shown by the next message being the expected
one (never by waiting for silence).

The event log is installation-wide and the server's sweeper writes events for other
vectors' runs whenever the clock moves, so every StreamEvents here is filtered by run id
or by subscriber; cursors are captured, never predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runtime_vectors import (
    AGENT,
    EVENTS,
    INVALID,
    ONE,
    ack,
    claim_one,
    complete,
    event,
    fail,
    get_run,
    list_events,
    nd,
    one_done,
    snapshot,
    start,
    started_and_claimed,
    stop,
    teach,
)
from vectorlib import resume_stream, stream_step, vector

Json = Any

WATCH = ["aiws.engine.v1.RunService", "aiws.engine.v1.TaskService"]
UNAUTH = ("UNAUTHENTICATED", "CREDENTIAL_MISSING")
DENIED = ("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
READY = snapshot("RUNNING", [nd("a", "READY")], version="1")
CLAIMED = snapshot("AWAITING_NODES", [nd("a", "RUNNING", attempts=1, att="att")])
DONE = snapshot(
    "COMPLETED",
    [nd("a", "DONE", attempts=1, att="att", result=True)],
    resultJson='"done"',
    resultError=None,
)


def watch(
    messages: Sequence[Json] = (),
    *,
    rid: str = "${run}",
    principal: str = AGENT,
    **expect: Any,
) -> dict[str, Json]:
    """WatchRun of ``rid``; ``messages`` are expected ``Run`` patterns."""
    return stream_step(
        principal,
        "RunService",
        "WatchRun",
        {"runId": rid},
        [{"run": run} for run in messages],
        **expect,
    )


def watched(name: str, *runs: Json, **expect: Any) -> dict[str, Json]:
    """Reads on from the WatchRun kept as ``name``."""
    return resume_stream(name, [{"run": run} for run in runs], **expect)


def events_stream(
    events: Sequence[Json] = (),
    *,
    principal: str = AGENT,
    keep: str = "",
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
    **request: Json,
) -> dict[str, Json]:
    """StreamEvents with ``request`` (``after``, ``runId``, ``subscriber``)."""
    return stream_step(
        principal,
        "EventService",
        "StreamEvents",
        request,
        [{"event": e} for e in events],
        keep=keep,
        error=error,
        captures=captures,
    )


def streamed(name: str, *events: Json, **expect: Any) -> dict[str, Json]:
    """Reads on from the StreamEvents kept as ``name``."""
    return resume_stream(name, [{"event": e} for e in events], **expect)


def seq(e: Json, value: str) -> Json:
    """An expected event with its exact (captured) sequence number."""
    return e | {"seq": value}


def streams_vectors() -> list[dict[str, Json]]:
    sub = "sub-${ns}"
    return [
        # --- WatchRun -----------------------------------------------------------------
        vector(
            "watch/driven-run-ends-completed",
            "WatchRun sends the current snapshot, then one after each change while the "
            "run is claimed and completed, and ends the stream itself after COMPLETED.",
            [
                teach(),
                start(ONE),
                watch([READY], keep="w"),
                claim_one(),
                watched("w", CLAIMED),
                complete(),
                watched("w", DONE, end=True),
            ],
            WATCH,
        ),
        vector(
            "watch/finished-run-sends-one-snapshot-and-ends",
            "WatchRun of a completed run sends exactly one snapshot, equal to GetRun's, and ends.",
            [
                *one_done(),
                get_run(snapshot("COMPLETED"), captures={"v": "run.version"}),
                watch([DONE | {"version": "${v}"}], end=True),
            ],
            WATCH,
        ),
        vector(
            "watch/failed-run-ends-failed",
            "WatchRun of a run whose only node failed sends the FAILED snapshot and ends.",
            [
                *started_and_claimed(),
                fail(response={"willRetry": None}),
                watch(
                    [snapshot("FAILED", [nd("a", "FAILED", attempts=1, error="boom")])],
                    end=True,
                ),
            ],
            WATCH,
        ),
        vector(
            "watch/stopped-run-ends-cancelled",
            "A run stopped while watched: the watcher gets the CANCELLED snapshot and the "
            "stream ends.",
            [
                teach(),
                start(ONE),
                watch([READY], keep="w"),
                stop(response={"run": snapshot("CANCELLED")}, advance_ms=40),
                watched(
                    "w",
                    snapshot("CANCELLED", [nd("a", "CANCELLED")], resultError="<any>"),
                    end=True,
                ),
            ],
            WATCH,
        ),
        vector(
            "watch/two-watchers-see-the-same-snapshots",
            "Two watchers of one run each get the READY snapshot, then the COMPLETED one "
            "after the run is driven to its end.",
            [
                teach(),
                start(ONE),
                watch([READY], keep="w1"),
                watch([READY], principal="alice", keep="w2"),
                claim_one(),
                watched("w1", CLAIMED),
                watched("w2", CLAIMED),
                complete(),
                watched("w2", DONE, end=True),
                watched("w1", DONE, end=True),
            ],
            WATCH,
        ),
        vector(
            "watch/unknown-run-is-not-found",
            "WatchRun of a run that does not exist fails with RUN_NOT_FOUND.",
            [watch(rid="run-${ns}", error=("NOT_FOUND", "RUN_NOT_FOUND"))],
            WATCH,
        ),
        vector(
            "watch/invalid-run-id-is-refused",
            "WatchRun of a run id that is not an identifier fails with IDENTIFIER_INVALID.",
            [watch(rid="bad ${ns}", error=(INVALID, "IDENTIFIER_INVALID"))],
            WATCH,
        ),
        vector(
            "watch/needs-a-credential",
            "WatchRun without a credential is UNAUTHENTICATED (CREDENTIAL_MISSING).",
            [teach(), start(ONE), watch(principal="", error=UNAUTH)],
            WATCH,
        ),
        # --- StreamEvents -------------------------------------------------------------
        vector(
            "stream/after-a-cursor-delivers-the-later-events",
            "StreamEvents after the captured seq of a run's second event delivers its third "
            "and fourth events, in order, with the seqs ListEvents shows.",
            [
                *one_done(),
                list_events(
                    runId="${run}",
                    response={"events": "<any>"},
                    captures={"s1": "events.1.seq", "s2": "events.2.seq", "s3": "events.3.seq"},
                ),
                events_stream(
                    [
                        seq(event("NODE_COMPLETED", "a"), "${s2}"),
                        seq(event("RUN_COMPLETED"), "${s3}"),
                    ],
                    after="${s1}",
                    runId="${run}",
                ),
            ],
            EVENTS,
        ),
        vector(
            "stream/live-events-follow-the-backlog",
            "StreamEvents of a running run delivers RUN_STARTED, then each event as the run "
            "is claimed and completed, without the stream ending.",
            [
                teach(),
                start(ONE),
                events_stream(
                    [event("RUN_STARTED")],
                    runId="${run}",
                    keep="e",
                    captures={"s0": "0.event.seq"},
                ),
                claim_one(advance_ms=100),
                streamed("e", event("NODE_DISPATCHED", "a", at="${t0+100}")),
                complete(advance_ms=200),
                streamed(
                    "e",
                    event("NODE_COMPLETED", "a", at="${t0+300}"),
                    event("RUN_COMPLETED", at="${t0+300}"),
                ),
                list_events(
                    runId="${run}",
                    limit=1,
                    response={"events": [seq(event("RUN_STARTED"), "${s0}")]},
                ),
            ],
            EVENTS,
        ),
        vector(
            "stream/run-filter-excludes-other-runs",
            "StreamEvents filtered by run id delivers only that run's events, though "
            "another run starts and stops in between.",
            [
                teach(),
                start(ONE, request_id="${ns}-mine", capture="run"),
                events_stream([event("RUN_STARTED")], runId="${run}", keep="e"),
                start(ONE, request_id="${ns}-other", capture="other"),
                stop(rid="${other}", response={"run": "<any>"}),
                stop(response={"run": "<any>"}, advance_ms=10),
                streamed("e", event("RUN_CANCELLED", at="${t0+10}")),
            ],
            EVENTS,
        ),
        vector(
            "stream/subscriber-resumes-after-its-acknowledged-position",
            "With a subscriber and no cursor, StreamEvents starts after the subscriber's "
            "acknowledged position; the next message is a later run's first event.",
            [
                teach(),
                start(ONE, subscriber=sub),
                claim_one(),
                complete(),
                list_events(
                    subscriber=sub,
                    response={"events": "<any>"},
                    captures={"s1": "events.1.seq"},
                ),
                ack(sub, "${s1}", response={"cursor": "${s1}"}),
                events_stream(
                    [event("NODE_COMPLETED", "a"), event("RUN_COMPLETED")],
                    subscriber=sub,
                    keep="e",
                ),
                start(ONE, request_id="${ns}-again", subscriber=sub, capture="again"),
                streamed("e", event("RUN_STARTED", run="${again}")),
            ],
            EVENTS,
        ),
        vector(
            "stream/subscriber-without-acknowledgement-starts-at-the-beginning",
            "A subscriber that never acknowledged streams every event of its runs from the first.",
            [
                *one_done_for(sub),
                events_stream(
                    [
                        event("RUN_STARTED"),
                        event("NODE_DISPATCHED", "a"),
                        event("NODE_COMPLETED", "a"),
                        event("RUN_COMPLETED"),
                    ],
                    subscriber=sub,
                ),
            ],
            EVENTS,
        ),
        vector(
            "stream/explicit-cursor-overrides-the-subscriber-position",
            "With a subscriber and a cursor, StreamEvents starts after the cursor, not "
            "after the acknowledged position.",
            [
                *one_done_for(sub),
                list_events(
                    subscriber=sub,
                    response={"events": "<any>"},
                    captures={"s0": "events.0.seq", "s2": "events.2.seq"},
                ),
                ack(sub, "${s2}", response={"cursor": "${s2}"}),
                events_stream(
                    [event("NODE_DISPATCHED", "a"), event("NODE_COMPLETED", "a")],
                    subscriber=sub,
                    after="${s0}",
                ),
            ],
            EVENTS,
        ),
        vector(
            "stream/negative-cursor-is-refused",
            "StreamEvents after -1 fails with PAGE_INVALID.",
            [events_stream(after="-1", error=(INVALID, "PAGE_INVALID"))],
            EVENTS,
        ),
        vector(
            "stream/invalid-filters-are-refused",
            "StreamEvents with a run id or subscriber that is not an identifier fails with "
            "IDENTIFIER_INVALID.",
            [
                events_stream(runId="bad ${ns}", error=(INVALID, "IDENTIFIER_INVALID")),
                events_stream(subscriber="bad ${ns}", error=(INVALID, "IDENTIFIER_INVALID")),
            ],
            EVENTS,
        ),
        vector(
            "stream/reading-needs-a-grant",
            "StreamEvents without a credential is UNAUTHENTICATED (CREDENTIAL_MISSING); a "
            "reader without event grants is ACTION_NOT_GRANTED.",
            [
                events_stream(principal="", runId="run-${ns}", error=UNAUTH),
                events_stream(principal="reader", runId="run-${ns}", error=DENIED),
            ],
            EVENTS,
        ),
    ]


def one_done_for(subscriber: str) -> list[Json]:
    """Teach, start ONE with ``subscriber``, claim and complete it."""
    return [teach(), start(ONE, subscriber=subscriber), claim_one(), complete()]
