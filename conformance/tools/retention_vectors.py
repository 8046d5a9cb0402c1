"""Retention and archival (issue 27, item 2): ``vectors/retention.json``.

The conformance server's retention policy (``tests/support/conformance.py``) archives
the runs of work orders ``archived-*`` one day (``KEEP_MS``) after they finished, and no
other run. A test-clock change returns once the runs due at the new time are archived
(as it does once due timers are swept), so a vector sees the archive as soon as its
clock step returns. An archived run's RUN_ARCHIVED status carries ErrorInfo metadata
(run, archive file, digest, time, status); vectors compare the code and reason only.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import (
    AGENT,
    FAILED,
    ONE,
    RUNS,
    claim_one,
    complete,
    get_run,
    node_result,
    start,
    teach,
)
from vectorlib import clock, step, vector

Json = Any

KEEP_MS = 86_400_000  # RETENTION in tests/support/conformance.py
WORK_ORDER = "archived-${ns}"
ARCHIVED = (FAILED, "RUN_ARCHIVED")


def retention_vectors() -> list[dict[str, Json]]:
    """The vectors of the ``retention`` area."""
    return [
        vector(
            "retention/a-run-past-its-keep-is-archived",
            "A finished run of a work order whose keep has passed is archived: GetRun and "
            "GetNodeResult answer FAILED_PRECONDITION / RUN_ARCHIVED, ListRuns no longer "
            "lists it; one millisecond before, it was still there.",
            [
                teach(),
                start(ONE, workOrderId=WORK_ORDER),
                claim_one(),
                complete(),
                clock(advance_ms=KEEP_MS - 1),
                get_run({"runId": "${run}", "state": "RUN_STATE_COMPLETED"}),
                clock(advance_ms=1),
                get_run(error=ARCHIVED),
                node_result("a", error=ARCHIVED),
                get_run(principal="alice", error=ARCHIVED),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"workOrderId": WORK_ORDER},
                    response={"runs": None},
                ),
            ],
            RUNS,
        ),
        vector(
            "retention/a-start-repeating-an-archived-runs-request-id-is-archived",
            "A StartRun repeating the request id of a run since archived answers "
            "RUN_ARCHIVED and starts no second run; a new request id starts a new run.",
            [
                teach(),
                start(ONE, workOrderId=WORK_ORDER),
                claim_one(),
                complete(),
                clock(advance_ms=KEEP_MS),
                teach(),  # a model no worker claimed for a day is forgotten
                start(ONE, workOrderId=WORK_ORDER, error=ARCHIVED),
                start(ONE, workOrderId=WORK_ORDER, request_id="${ns}-again", capture="run2"),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"workOrderId": WORK_ORDER},
                    response={"runs": [{"runId": "${run2}"}]},
                ),
            ],
            RUNS,
        ),
    ]


AREAS = {
    "retention": (
        "Retention and archival: a finished run past its work order's keep is archived; "
        "GetRun, GetNodeResult and a repeated StartRun answer RUN_ARCHIVED.",
        retention_vectors,
    ),
}
