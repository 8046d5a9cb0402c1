"""SimulationService: dry runs of a definition, evaluated by the pure core."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import event_pb2, simulation_pb2, simulation_pb2_grpc
from praxis.core import money, values
from praxis.core import run as runs
from praxis.core import simulation as core
from praxis.core.records import Ref
from praxis.core.rejection import Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.rpc.runs import RUN_STATES, run_to_proto
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.simulation import Request, Simulated, SimulationStore

_KINDS = {
    simulation_pb2.SCRIPTED_OUTCOME_KIND_COMPLETE: core.Kind.COMPLETE,
    simulation_pb2.SCRIPTED_OUTCOME_KIND_FAIL: core.Kind.FAIL,
    simulation_pb2.SCRIPTED_OUTCOME_KIND_UNCERTAIN: core.Kind.UNCERTAIN,
    simulation_pb2.SCRIPTED_OUTCOME_KIND_LEASE_LOST: core.Kind.LEASE_LOST,
    simulation_pb2.SCRIPTED_OUTCOME_KIND_ANSWER: core.Kind.ANSWER,
    simulation_pb2.SCRIPTED_OUTCOME_KIND_RECONCILE: core.Kind.RECONCILE,
}
_ACTIONS = {action: f"SIMULATION_STEP_ACTION_{action.value}" for action in core.Action}
_ENDS = {end: f"SIMULATION_END_{end.value}" for end in core.End}


def scripted_from_proto(
    index: int, entry: simulation_pb2.ScriptedOutcome, profile: values.DocumentProfile
) -> core.Scripted | Rejection:
    """One scripted outcome, its documents parsed and its cost checked."""
    path = f"script[{index}]"
    kind = _KINDS.get(entry.kind)
    if kind is None:
        return invalid("ENUM_INVALID", f"{path}.kind", "set a ScriptedOutcomeKind")
    result: values.JsonValue = None
    if entry.result_json:
        parsed = values.parse_document(entry.result_json, f"{path}.result_json", profile)
        if isinstance(parsed, Rejection):
            return parsed
        result = parsed
    cost = entry.cost_microcredits or "0"
    amount = money.parse_amount(cost, f"{path}.cost_microcredits")
    if isinstance(amount, Rejection):
        return amount
    return core.Scripted(
        node=entry.node,
        kind=kind,
        result=result,
        error=entry.error,
        retryable=entry.retryable,
        cost_microcredits=cost,
        duration_ms=entry.duration_ms,
        applied=entry.applied,
    )


def request_from_proto(
    request: simulation_pb2.SimulateRunRequest, profile: values.DocumentProfile
) -> Request | Rejection:
    """The store's request of a wire request."""
    if len(request.script) > core.MAX_SCRIPT:
        return invalid("SCRIPT_INVALID", "script", f"at most {core.MAX_SCRIPT} outcomes")
    script: list[core.Scripted] = []
    for index, entry in enumerate(request.script):
        found = scripted_from_proto(index, entry, profile)
        if isinstance(found, Rejection):
            return found
        script.append(found)
    ref = None
    if request.HasField("ref"):
        ref = Ref(request.ref.work_order_id, request.ref.run_id)
    return Request(
        definition_json=request.definition_json,
        ref=ref,
        revision=request.revision,
        input_json=request.input_json,
        start_at_ms=request.start_at_ms,
        script=script,
        work_order_id=request.work_order_id,
        lease_ms=request.lease_ms,
        run_timeout_ms=request.run_timeout_ms,
    )


def simulated_to_proto(simulated: Simulated) -> simulation_pb2.SimulateRunResponse:
    """Every step, the run at the end and why the simulation stopped."""
    simulation = simulated.simulation
    completed = simulation.state.status is runs.RunStatus.COMPLETED
    result_json = values.canonical_json(simulation.result) if completed else ""
    response = simulation_pb2.SimulateRunResponse(
        end=_ENDS[simulation.end], waiting_on=simulation.waiting_on, result_json=result_json
    )
    seq = 0
    for step in simulation.steps:
        out = response.steps.add(
            at_ms=step.at_ms,
            action=_ACTIONS[step.action],
            node_uid=step.node_uid,
            attempt=step.attempt,
            state=RUN_STATES[step.status],
            input_json=values.canonical_json(step.input)
            if step.action is core.Action.DISPATCH
            else "",
            refusal_reason=step.refusal.reason if step.refusal else "",
        )
        for event in step.events:
            seq += 1
            payload = dict(event.payload)
            if event.kind == "RUN_COMPLETED":
                payload["result"] = simulation.result
            out.events.append(
                event_pb2.Event(
                    seq=seq,
                    kind=f"EVENT_KIND_{event.kind}",
                    run_id=core.RUN_ID,
                    node_uid=event.node_uid,
                    at_ms=step.at_ms,
                    payload_json=values.canonical_json(payload),
                )
            )
    record = RunRecord(
        state=simulation.state,
        principal_id="",
        request_id="",
        work_order_id=simulated.work_order_id,
        ref_run_id=simulated.ref.run_id if simulated.ref else "",
        subscriber="",
        contract_id="",
        input_json=simulated.input_json,
        result_json=result_json,
    )
    response.run.CopyFrom(run_to_proto(record))
    return response


class SimulationServicer(simulation_pb2_grpc.SimulationServiceServicer):
    """SimulationService over a :class:`SimulationStore`."""

    def __init__(self, store: SimulationStore) -> None:
        self.store = store

    def SimulateRun(  # gRPC method name
        self, request: simulation_pb2.SimulateRunRequest, context: grpc.ServicerContext
    ) -> simulation_pb2.SimulateRunResponse:
        decoded = unwrap(context, request_from_proto(request, self.store.profile))
        return simulated_to_proto(unwrap(context, self.store.simulate(principal(), decoded)))
