"""Dry runs (issue 42, item 3): ``vectors/simulation.json``.

SimulationService.SimulateRun plays a definition forward with the server's pure core
under a script of outcomes, on a clock the request gives, and writes nothing. Every
language must see the same sequence for the same script: each vector asserts the whole
list of steps (action, node, attempt, time, the run's state after it) and the kinds and
sequence numbers of the events each step appended, as the contract
(``simulation.proto``) defines them. Attempt ids and digests are not predicted.
"""

from __future__ import annotations

from typing import Any

from runtime_vectors import AGENT, INVALID, definition, document_text, json_out, node
from vectorlib import step, vector

Json = Any

SERVICES = ["aiws.engine.v1.SimulationService", "aiws.engine.v1.RunService"]
START = 1_700_000_000_000
CHAIN = definition("b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",)))


def at(offset_ms: int) -> str:
    """An epoch-ms time ``offset_ms`` after the simulated start, as proto-JSON (int64)."""
    return str(START + offset_ms)


def outcome(node_id: str, kind: str, result_json: str | None = None, **fields: Json) -> Json:
    """A ScriptedOutcome."""
    found: dict[str, Json] = {"node": node_id, "kind": f"SCRIPTED_OUTCOME_KIND_{kind}"}
    if result_json is not None:
        found["resultJson"] = result_json
    return {**found, **fields}


def simulate(script: list[Json], response: Json = None, error: Any = None, **fields: Json):
    """SimulateRun of ``CHAIN`` (unless ``definitionJson`` is given) from ``START``."""
    request = {
        "definitionJson": document_text(CHAIN),
        "startAtMs": str(START),
        "script": script,
        **fields,
    }
    if error:
        return step(AGENT, "SimulationService", "SimulateRun", request, error=error)
    return step(AGENT, "SimulationService", "SimulateRun", request, response=response)


def sim_step(
    offset_ms: int,
    action: str,
    uid: str | None,
    attempt: int | None,
    state: str,
    events: list[tuple[int, str]],
    **fields: Json,
) -> Json:
    """One expected SimulationStep; ``events`` are (seq, kind) pairs."""
    return {
        "atMs": at(offset_ms),
        "action": f"SIMULATION_STEP_ACTION_{action}",
        "nodeUid": uid,
        "attempt": attempt,
        "state": f"RUN_STATE_{state}",
        "events": [
            {"seq": str(seq), "kind": f"EVENT_KIND_{kind}", "runId": "run_simulated"}
            for seq, kind in events
        ]
        or None,
        **fields,
    }


def simulation_vectors() -> list[dict[str, Json]]:
    return [
        vector(
            "simulation/a-chain-completes-as-scripted",
            'a completes after 500 ms with {"x":1}, b after 250 ms with "report": five '
            "steps (start, dispatch and completion of each), b receives a's result as its "
            "input, the run completes at start + 750 ms with b's result.",
            [
                simulate(
                    [
                        outcome("a", "COMPLETE", '{"x":1}', durationMs="500"),
                        outcome("b", "COMPLETE", '"report"', durationMs="250"),
                    ],
                    {
                        "steps": [
                            sim_step(0, "START", None, None, "RUNNING", [(1, "RUN_STARTED")]),
                            sim_step(
                                0,
                                "DISPATCH",
                                "a",
                                1,
                                "RUNNING",
                                [(2, "NODE_DISPATCHED")],
                                inputJson="null",
                            ),
                            sim_step(500, "COMPLETE", "a", 1, "RUNNING", [(3, "NODE_COMPLETED")]),
                            sim_step(
                                500,
                                "DISPATCH",
                                "b",
                                1,
                                "AWAITING_NODES",
                                [(4, "NODE_DISPATCHED")],
                                inputJson='{"x":1}',
                            ),
                            sim_step(
                                750,
                                "COMPLETE",
                                "b",
                                1,
                                "COMPLETED",
                                [(5, "NODE_COMPLETED"), (6, "RUN_COMPLETED")],
                            ),
                        ],
                        "run": {"runId": "run_simulated", "state": "RUN_STATE_COMPLETED"},
                        "end": "SIMULATION_END_RUN_ENDED",
                        "waitingOn": None,
                        "resultJson": '"report"',
                    },
                ),
            ],
            SERVICES,
        ),
        vector(
            "simulation/a-silent-worker-on-an-undeclared-node-needs-a-human",
            "a declares no effects and its worker never reports: at the end of its 5 s "
            "lease a is BLOCKED (its effect uncertain) and the simulation ends needing a "
            "reconciliation of a; with one (not applied) and a second attempt's result the "
            "run completes.",
            [
                simulate(
                    [outcome("a", "LEASE_LOST")],
                    {
                        "steps": [
                            sim_step(0, "START", None, None, "RUNNING", [(1, "RUN_STARTED")]),
                            sim_step(
                                0,
                                "DISPATCH",
                                "a",
                                1,
                                "AWAITING_NODES",
                                [(2, "NODE_DISPATCHED")],
                                inputJson="null",
                            ),
                            sim_step(
                                5000, "EXPIRE", "a", 1, "AWAITING_NODES", [(3, "NODE_BLOCKED")]
                            ),
                        ],
                        "end": "SIMULATION_END_NEEDS_SCRIPT",
                        "waitingOn": "a",
                        "resultJson": None,
                    },
                    leaseMs="5000",
                    definitionJson=document_text(definition("a", a=node())),
                ),
                simulate(
                    [
                        outcome("a", "LEASE_LOST"),
                        outcome("a", "RECONCILE", applied=False),
                        outcome("a", "COMPLETE", '"second"'),
                    ],
                    {"end": "SIMULATION_END_RUN_ENDED", "resultJson": '"second"'},
                    leaseMs="5000",
                    definitionJson=document_text(definition("a", a=node())),
                ),
            ],
            SERVICES,
        ),
        vector(
            "simulation/a-retryable-failure-waits-its-backoff",
            "a fails (retryable) after 10 ms; its second attempt is dispatched after the "
            "1 s backoff, at start + 1010 ms, and completes.",
            [
                simulate(
                    [
                        outcome("a", "FAIL", error="flaky", retryable=True, durationMs="10"),
                        outcome("a", "COMPLETE", '"ok"'),
                    ],
                    {
                        "steps": [
                            sim_step(0, "START", None, None, "RUNNING", [(1, "RUN_STARTED")]),
                            sim_step(
                                0,
                                "DISPATCH",
                                "a",
                                1,
                                "AWAITING_NODES",
                                [(2, "NODE_DISPATCHED")],
                                inputJson="null",
                            ),
                            sim_step(10, "FAIL", "a", 1, "RUNNING", [(3, "NODE_FAILED")]),
                            sim_step(
                                1010,
                                "DISPATCH",
                                "a",
                                2,
                                "AWAITING_NODES",
                                [(4, "NODE_DISPATCHED")],
                                inputJson="null",
                            ),
                            sim_step(
                                1010,
                                "COMPLETE",
                                "a",
                                2,
                                "COMPLETED",
                                [(5, "NODE_COMPLETED"), (6, "RUN_COMPLETED")],
                            ),
                        ],
                        "end": "SIMULATION_END_RUN_ENDED",
                        "resultJson": '"ok"',
                    },
                    definitionJson=document_text(
                        definition("a", a=node(retry={"attempts": 2, "backoff_ms": 1000}))
                    ),
                ),
            ],
            SERVICES,
        ),
        vector(
            "simulation/a-bad-script-is-refused-and-nothing-is-stored",
            "A script naming no node of the definition is SCRIPT_INVALID; a simulation "
            "writes nothing: its run id names no run.",
            [
                simulate([outcome("zzz", "COMPLETE", "{}")], error=(INVALID, "SCRIPT_INVALID")),
                simulate([outcome("a", "COMPLETE", "{}")], {"waitingOn": "b"}),
                step(
                    AGENT,
                    "RunService",
                    "GetRun",
                    {"runId": "run_simulated"},
                    error=("NOT_FOUND", "RUN_NOT_FOUND"),
                ),
            ],
            SERVICES,
        ),
    ]


AREAS = {
    "simulation": (
        "SimulationService: dry runs of a definition by the server's pure core under a "
        "script of outcomes, the same steps and events in every language, nothing stored.",
        simulation_vectors,
    ),
}
