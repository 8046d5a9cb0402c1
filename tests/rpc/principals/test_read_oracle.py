"""One answer for "no such run" and "not yours" on every read of one run, and on the
commands that name one (issue 37).

``docs/security.md`` promises that a caller whose grants do not cover a stored subject gets
``PERMISSION_DENIED`` / ``ACTION_NOT_GRANTED`` whether it exists or not, and that a grant
that misses only by its purpose or its window answers the same (it must not tell the
subject exists). Three callers are refused: ``scoped`` (a grant on other work orders),
``purposed`` (every action, but only for the purpose ``payments``) and ``ended`` (every
action, in a window that is over). Each read must give each of them the same answer for an
existing run of another's as for a run id that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import (
    assessment_pb2,
    common_pb2,
    handoff_pb2,
    principal_pb2,
    reconciliation_pb2,
    run_pb2,
    wait_pb2,
)
from praxis_client import Client, connect, error_details
from tests.support.execution import settle, start_run
from tests.support.harness import T0, Harness
from tests.support.runtime import claim, definition, json_out, node

DENIED = (grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED")
SINGLE = definition("a", a=node(output=json_out()))

READS: dict[str, Callable[[Client, str], Any]] = {
    "GetRun": lambda c, r: c.runs.GetRun(run_pb2.GetRunRequest(run_id=r)),
    "GetNodeResult": lambda c, r: c.runs.GetNodeResult(
        run_pb2.GetNodeResultRequest(run_id=r, node_uid="a")
    ),
    "ListRunNodes": lambda c, r: c.runs.ListRunNodes(run_pb2.ListRunNodesRequest(run_id=r)),
    "WatchRun": lambda c, r: next(iter(c.runs.WatchRun(run_pb2.WatchRunRequest(run_id=r)))),
    "ReviewResume": lambda c, r: c.runs.ReviewResume(
        run_pb2.ReviewResumeRequest(run_id=r, reason="again")
    ),
    "StopRun": lambda c, r: c.runs.StopRun(run_pb2.StopRunRequest(run_id=r, reason="stop")),
    "ListReconciliations": lambda c, r: c.reconciliations.ListReconciliations(
        reconciliation_pb2.ListReconciliationsRequest(run_id=r)
    ),
    "ListWaits": lambda c, r: c.waits.ListWaits(wait_pb2.ListWaitsRequest(run_id=r)),
    "ListAssessments": lambda c, r: c.assessments.ListAssessments(
        assessment_pb2.ListAssessmentsRequest(run_id=r)
    ),
    "GetAcceptance": lambda c, r: c.assessments.GetAcceptance(
        assessment_pb2.GetAcceptanceRequest(run_id=r)
    ),
}


def refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    details = error_details(caught.value)
    return details.code, details.reason


@pytest.fixture
def callers(model: Harness) -> Iterator[dict[str, Client]]:
    """``purposed`` and ``ended``, created at runtime, and ``scoped`` from the file."""
    grants = {
        "purposed": principal_pb2.Grant(actions=["*"], purposes=["payments"]),
        "ended": principal_pb2.Grant(actions=["*"], not_before_ms=1, not_after_ms=T0),
    }
    made: dict[str, Client] = {}
    try:
        for name, grant in grants.items():
            created = model.client("alice").principals.CreatePrincipal(
                principal_pb2.CreatePrincipalRequest(
                    principal_id=name, kind=common_pb2.PRINCIPAL_KIND_HUMAN, grants=[grant]
                )
            )
            made[name] = connect(model.address, created.token)
        yield {**made, "scoped": model.client("scoped")}
    finally:
        for client in made.values():
            client.close()


@pytest.mark.parametrize("read", sorted(READS))
def test_a_missing_run_and_anothers_run_answer_alike(
    model: Harness, callers: dict[str, Client], read: str
) -> None:
    run = start_run(model, SINGLE)  # the agent's, in the default work order
    call = READS[read]
    for name, client in callers.items():
        present = refusal(lambda c=client: call(c, run.run_id))
        absent = refusal(lambda c=client: call(c, "run_absent"))
        assert (present, absent) == (DENIED, DENIED), (read, name)
    # A caller whose grant covers every work order learns that the run does not exist.
    assert refusal(lambda: call(model.client("alice"), "run_absent"))[0] == (
        grpc.StatusCode.NOT_FOUND
    )


def test_acknowledging_a_handoff_answers_alike(model: Harness, callers: dict[str, Client]) -> None:
    run = start_run(model, SINGLE)
    [task] = claim(model)
    settle(model, task, {"draft": "text"})
    offered = model.client("agent").handoffs.CreateHandoff(
        handoff_pb2.CreateHandoffRequest(
            request_id="h-1", run_id=run.run_id, node_uid="a", to_principal_id="agent2"
        )
    )

    def acknowledge(client: Client, delivery_id: str) -> Any:
        return client.handoffs.AcknowledgeHandoff(
            handoff_pb2.AcknowledgeHandoffRequest(delivery_id=delivery_id)
        )

    for name, client in callers.items():
        present = refusal(lambda c=client: acknowledge(c, offered.handoff.delivery_id))
        absent = refusal(lambda c=client: acknowledge(c, "dlv_absent"))
        assert (present, absent) == (DENIED, DENIED), name
