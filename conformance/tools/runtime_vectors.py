"""The runtime's vectors: runs and nodes, tasks and leases, fan-out and joins, events.

Imported by ``build_vectors.py``. Every vector claims work only for its own models
(``m-${ns}``, ``m-${ns}-b``...): ClaimTasks claims by model, so a per-vector model keeps
vectors (and languages) from claiming each other's tasks. A model is unknown to the engine
until a worker claims it or the server's config lists it, so each vector first teaches
its models with a ClaimTasks that does not wait (``teach``).

Determinism under the test clock: times are written as ``${t0+N}``; run ids are captured
(``run.runId``) and attempt ids too (``tasks.0.attemptId``), never predicted. A lease
that the clock steps past is refused with LEASE_EXPIRED whether or not the server's
sweeper has run yet; a re-dispatch after expiry is observed with a ClaimTasks that
long-polls (``waitMs``) until the sweeper has made the node ready again, so no vector
depends on the sweeper's timing. Retry backoffs are 0 where a re-dispatch is awaited:
the test clock does not move on its own.
"""

from __future__ import annotations

import json
from typing import Any

from vectorlib import (
    D1,
    REF,
    canonical,
    registered,
    step,
    vector,
)

Json = Any

AGENT = "agent"
FAILED = "FAILED_PRECONDITION"
INVALID = "INVALID_ARGUMENT"
MODEL = "m-${ns}"
LEASE = 60_000
WAIT = 5_000
TEXT_OUT = canonical({"type": "text"})
RUNS = ["aiws.engine.v1.RunService", "aiws.engine.v1.TaskService"]
EVENTS = [*RUNS, "aiws.engine.v1.EventService"]
_SKIP = object()


def model(tag: str = "") -> str:
    """The vector's model ``m-${ns}`` or a second one ``m-${ns}-<tag>``."""
    return MODEL if not tag else f"{MODEL}-{tag}"


# --- definitions ----------------------------------------------------------------------


def node(
    source: Json = "run_input",
    deps: tuple[str, ...] = (),
    output: Json = None,
    *,
    tag: str = "",
    **extra: Json,
) -> dict[str, Json]:
    """One node document (agent on the vector's model)."""
    agent: dict[str, Json] = {"model": model(tag)}
    if output is not None:
        agent["output"] = output
    spec: dict[str, Json] = {"agent": agent, "input": {"from": source}}
    if deps:
        spec["depends_on"] = list(deps)
    spec.update(extra)
    return spec


def json_out(schema: Json) -> dict[str, Json]:
    """A JSON output contract."""
    return {"type": "json", "schema": schema}


def definition(output: str, **nodes: Json) -> dict[str, Json]:
    """A version 1 definition whose output is node ``output``."""
    return {"version": 1, "nodes": nodes, "output": {"from": f"node:{output}"}}


ONE = definition("a", a=node())
ONE_NO_RETRY = definition("a", a=node(retry={"attempts": 1}))
ONE_JSON = definition("a", a=node(output=json_out({"type": "object"})))
ITEMS_SCHEMA = {"type": "object", "properties": {"items": {"type": "array"}}}


def fanout_def(split_schema: Json = None, over: str = "node:split.items") -> dict[str, Json]:
    """split -> each (fan-out over split.items) -> join (reads every item, in order)."""
    return definition(
        "join",
        split=node(output=json_out(ITEMS_SCHEMA if split_schema is None else split_schema)),
        each=node(
            "fanout_item",
            ("split",),
            json_out({"type": "string"}),
            fanout={"over": over},
            retry={"attempts": 1},
        ),
        join=node("node:each", ("each",), json_out({"type": "array"})),
    )


def document_text(document: Json) -> str:
    """A definition as compact JSON in document order (the order GetRun lists nodes in)."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


# --- steps ----------------------------------------------------------------------------


def teach(*tags: str, principal: str = AGENT) -> dict[str, Json]:
    """A ClaimTasks that does not wait: the engine learns the vector's models."""
    return step(
        principal,
        "TaskService",
        "ClaimTasks",
        {
            "workerId": "w-teach",
            "models": [model(t) for t in (tags or ("",))],
            "maxTasks": 1,
            "leaseMs": str(LEASE),
            "waitMs": "0",
        },
        response={"tasks": None},
    )


def start(
    document: Json = None,
    *,
    text: str | None = None,
    request_id: str = "${ns}-start",
    input_json: str | None = None,
    capture: str = "run",
    principal: str = AGENT,
    created: bool = True,
    run: Json = None,
    error: tuple[str, str] | None = None,
    advance_ms: int | None = None,
    **fields: Json,
) -> dict[str, Json]:
    """StartRun of an inline definition; captures the run id as ``${capture}``."""
    request: dict[str, Json] = {"requestId": request_id}
    if text is not None or document is not None:
        request["definitionJson"] = text if text is not None else document_text(document)
    if input_json is not None:
        request["inputJson"] = input_json
    request.update(fields)
    if error:
        return step(
            principal, "RunService", "StartRun", request, error=error, advance_ms=advance_ms
        )
    response: dict[str, Json] = {"created": True if created else None}
    response["run"] = run if run is not None else {"runId": "<any>"}
    return step(
        principal,
        "RunService",
        "StartRun",
        request,
        response=response,
        captures={capture: "run.runId"},
        advance_ms=advance_ms,
    )


def claim(
    tasks: list[Json] | None,
    *,
    tag: str = "",
    worker: str = "w1",
    max_tasks: int = 1,
    lease_ms: int = LEASE,
    wait_ms: int | None = None,
    captures: dict[str, str] | None = None,
    principal: str = AGENT,
    **clock_args: Any,
) -> dict[str, Json]:
    """ClaimTasks for the vector's model; ``tasks=None`` expects none (and does not wait)."""
    if wait_ms is None:
        wait_ms = 0 if tasks is None else WAIT
    return step(
        principal,
        "TaskService",
        "ClaimTasks",
        {
            "workerId": worker,
            "models": [model(tag)],
            "maxTasks": max_tasks,
            "leaseMs": str(lease_ms),
            "waitMs": str(wait_ms),
        },
        response={"tasks": tasks},
        captures=captures,
        **clock_args,
    )


def claim_one(att: str = "att", **kwargs: Any) -> dict[str, Json]:
    """Claims one task (any) and captures its attempt id as ``${att}``."""
    pattern = kwargs.pop("task", None) or {"attemptId": "<any>", "runId": "${run}"}
    return claim([pattern], captures={att: "tasks.0.attemptId"}, **kwargs)


def task(
    uid: str,
    *,
    attempt: int = 1,
    input_json: Json = "null",
    lease_until: str = f"${{t0+{LEASE}}}",
    tag: str = "",
    output: str = TEXT_OUT,
    run: str = "${run}",
    **extra: Json,
) -> dict[str, Json]:
    """The expected Task."""
    out: dict[str, Json] = {
        "attemptId": "<any>",
        "runId": run,
        "nodeUid": uid,
        "nodeId": uid.partition("#")[0],
        "attempt": attempt,
        "operationId": "<any>",
        "agent": {"model": model(tag), "outputJson": output},
        "inputJson": input_json,
        "leaseExpiresAtMs": lease_until,
        "revision": None,
    }
    out.update(extra)
    return out


def complete(
    att: str = "att",
    result: str = '"done"',
    *,
    worker: str = "w1",
    cost: str | None = None,
    effect: Json = "EFFECT_OUTCOME_APPLIED",
    response: Json = None,
    error: tuple[str, str] | None = None,
    principal: str = AGENT,
    **clock_args: Any,
) -> dict[str, Json]:
    """CompleteTask of the attempt captured as ``${att}``."""
    request: dict[str, Json] = {
        "attemptId": "${" + att + "}",
        "workerId": worker,
        "resultJson": result,
    }
    if effect is not None:
        request["effect"] = effect
    if cost is not None:
        request["costMicrocredits"] = cost
    if error:
        return step(principal, "TaskService", "CompleteTask", request, error=error, **clock_args)
    return step(
        principal,
        "TaskService",
        "CompleteTask",
        request,
        response={"replayed": None} if response is None else response,
        **clock_args,
    )


def fail(
    att: str = "att",
    message: str = "boom",
    *,
    retryable: bool = False,
    worker: str = "w1",
    cost: str | None = None,
    effect: str = "EFFECT_OUTCOME_NOT_APPLIED",
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """FailTask of the attempt captured as ``${att}``."""
    request: dict[str, Json] = {
        "attemptId": "${" + att + "}",
        "workerId": worker,
        "error": message,
        "effect": effect,
    }
    if retryable:
        request["retryable"] = True
    if cost is not None:
        request["costMicrocredits"] = cost
    if error:
        return step(AGENT, "TaskService", "FailTask", request, error=error)
    return step(AGENT, "TaskService", "FailTask", request, response=response or {})


def heartbeat(
    att: str = "att",
    lease_ms: int = LEASE,
    *,
    worker: str = "w1",
    response: Json = None,
    error: tuple[str, str] | None = None,
    progress: Json = None,
    **clock_args: Any,
) -> dict[str, Json]:
    """Heartbeat of the attempt captured as ``${att}`` (with a ProgressReport if given)."""
    request = {"attemptId": "${" + att + "}", "workerId": worker, "leaseMs": str(lease_ms)}
    if progress is not None:
        request["progress"] = progress
    if error:
        return step(AGENT, "TaskService", "Heartbeat", request, error=error, **clock_args)
    return step(AGENT, "TaskService", "Heartbeat", request, response=response, **clock_args)


def get_run(run: Json = None, *, rid: str = "${run}", principal: str = AGENT, **expect: Json):
    """GetRun; ``run`` is the expected Run pattern."""
    if "error" in expect:
        return step(principal, "RunService", "GetRun", {"runId": rid}, **expect)
    return step(principal, "RunService", "GetRun", {"runId": rid}, response={"run": run}, **expect)


def stop(reason: str = "operator stop", *, rid: str = "${run}", principal: str = AGENT, **expect):
    """StopRun."""
    request = {"runId": rid}
    if reason:
        request["reason"] = reason
    return step(principal, "RunService", "StopRun", request, **expect)


def node_result(uid: str, *, rid: str = "${run}", **expect: Json):
    """GetNodeResult."""
    return step(AGENT, "RunService", "GetNodeResult", {"runId": rid, "nodeUid": uid}, **expect)


def list_events(principal: str = AGENT, **request_and_expect: Json):
    """ListEvents; ``response``, ``error`` and ``captures`` are the expectation."""
    expect = {
        k: request_and_expect.pop(k)
        for k in ("response", "error", "captures")
        if k in request_and_expect
    }
    return step(principal, "EventService", "ListEvents", request_and_expect, **expect)


def list_nodes(
    request: dict[str, Json], *, rid: str = "${run}", principal: str = AGENT, **expect: Json
):
    """ListRunNodes of ``rid`` (``response``, ``error`` and ``captures`` as for a step)."""
    return step(principal, "RunService", "ListRunNodes", {"runId": rid, **request}, **expect)


def ack(subscriber: str, cursor: str, **expect: Json):
    """AckEvents."""
    request: dict[str, Json] = {"cursor": cursor}
    if subscriber:
        request["subscriber"] = subscriber
    return step(AGENT, "EventService", "AckEvents", request, **expect)


# --- expected snapshots ---------------------------------------------------------------


def nd(
    uid: str,
    state: str,
    *,
    attempts: int | None = None,
    att: str | None = None,
    result: bool = False,
    error: Json = _SKIP,
    items: int | None = None,
    not_before: str | None = None,
) -> dict[str, Json]:
    """The expected NodeStatus."""
    out: dict[str, Json] = {
        "nodeUid": uid,
        "nodeId": uid.partition("#")[0],
        "state": f"NODE_STATE_{state}",
        "attempts": attempts,
        "hasResult": True if result else None,
        "revision": None,
        "fanoutItems": items,
        "operationId": "<any>",
        "notBeforeMs": not_before,
    }
    if att is not None:
        out["attemptId"] = "${" + att + "}" if att != "<any>" else att
    elif not attempts:
        out["attemptId"] = None
    if error is not _SKIP:
        out["error"] = error
    return out


def snapshot(state: str, nodes: list[Json] | None = None, **fields: Json) -> dict[str, Json]:
    """The expected Run (``runId`` is ``${run}``)."""
    out: dict[str, Json] = {"runId": "${run}", "state": f"RUN_STATE_{state}"}
    if nodes is not None:
        out["nodes"] = nodes
    out.update(fields)
    return out


def event(kind: str, uid: str | None = None, at: str = "${t0}", run: str = "${run}") -> Json:
    """The expected Event (sequence numbers and payloads are run-specific)."""
    return {
        "seq": "<any>",
        "kind": f"EVENT_KIND_{kind}",
        "runId": run,
        "nodeUid": uid,
        "atMs": at,
        "payloadJson": "<any>",
    }


def one_done(result: str = '"done"', att: str = "att") -> list[Json]:
    """Teach, start ONE, claim and complete it."""
    return [
        teach(),
        start(ONE),
        claim_one(att),
        complete(att, result),
    ]


def started_and_claimed(document: Json = None, att: str = "att", **claim_args: Any) -> list[Json]:
    """Teach, start ``document`` (default ONE) and claim its first task."""
    return [teach(), start(document or ONE), claim_one(att, **claim_args)]


# --- runs -----------------------------------------------------------------------------


def runs_vectors() -> list[dict[str, Json]]:
    diamond = definition(
        "d",
        a=node(output=json_out({"type": "object"})),
        b=node("node:a", ("a",), json_out({"type": "object"}), tag="b"),
        c=node("node:a", ("a",), json_out({"type": "object"}), tag="c"),
        d=node(["node:b", "node:c"], ("b", "c"), tag="d"),
    )
    fresh = snapshot(
        "RUNNING",
        [nd("a", "READY")],
        resultJson=None,
        resultError=None,
        ref=None,
        revision=None,
        definitionDigest="${digest}",
        version="1",
        createdAtMs="${t0}",
        updatedAtMs="${t0}",
        finishedAtMs=None,
        requestId="${ns}-start",
        subscriber=None,
        contractId=None,
    )
    return [
        vector(
            "run/start-ad-hoc-returns-a-running-snapshot",
            "StartRun with an inline definition creates a RUNNING run whose only node is "
            "READY; the snapshot carries the definition digest, version 1 and t0.",
            [
                teach(),
                start(ONE, run=fresh | {"runId": "<any>", "definitionDigest": "<any>"}),
            ],
            RUNS,
        ),
        vector(
            "run/a-dry-run-start-answers-and-stores-nothing",
            "StartRun with dry_run answers the RUNNING run a start would make (its node "
            "READY) with dryRun set; its run id names no run, and the same request id "
            "then really starts a run.",
            [
                teach(),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {
                        "requestId": "${ns}-start",
                        "definitionJson": document_text(ONE),
                        "dryRun": True,
                    },
                    response={
                        "created": True,
                        "dryRun": True,
                        "run": {"state": "RUN_STATE_RUNNING", "nodes": [nd("a", "READY")]},
                    },
                    captures={"dry": "run.runId"},
                ),
                get_run(rid="${dry}", error=("NOT_FOUND", "RUN_NOT_FOUND")),
                start(ONE, run={"runId": "<any>", "state": "RUN_STATE_RUNNING"}),
            ],
            RUNS,
        ),
        vector(
            "run/get-run-returns-the-same-snapshot",
            "GetRun of a fresh run returns the snapshot StartRun returned.",
            [
                teach(),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-start", "definitionJson": document_text(ONE)},
                    response={"created": True},
                    captures={"run": "run.runId", "digest": "run.definitionDigest"},
                ),
                get_run(fresh),
            ],
            RUNS,
        ),
        vector(
            "run/duplicate-request-id-returns-the-existing-run",
            "A second StartRun with the same request_id and content returns the same run "
            "with created = false (absent), and no second run.",
            [
                teach(),
                start(ONE),
                start(ONE, created=False, run={"runId": "${run}", "version": "1"}),
            ],
            RUNS,
        ),
        vector(
            "run/request-id-with-other-content-is-rejected",
            "The same request_id with another input fails with REQUEST_ID_REUSED.",
            [
                teach(),
                start(ONE, input_json='{"x":1}'),
                start(
                    ONE,
                    input_json='{"x":2}',
                    error=("ALREADY_EXISTS", "REQUEST_ID_REUSED"),
                ),
            ],
            RUNS,
        ),
        vector(
            "run/request-ids-are-per-principal",
            "Another principal's identical request_id starts its own run.",
            [
                teach(),
                start(ONE),
                start(ONE, principal="bob", capture="run2", run={"requestId": "${ns}-start"}),
                get_run(snapshot("RUNNING") | {"runId": "${run2}"}, rid="${run2}"),
            ],
            RUNS,
        ),
        vector(
            "run/request-id-is-required",
            "StartRun without a request_id fails with FIELD_REQUIRED.",
            [teach(), start(ONE, request_id="", error=(INVALID, "FIELD_REQUIRED"))],
            RUNS,
        ),
        vector(
            "run/a-definition-source-is-required",
            "StartRun with neither definition_json nor ref fails with FIELD_REQUIRED.",
            [start(None, error=(INVALID, "FIELD_REQUIRED"))],
            RUNS,
        ),
        vector(
            "run/malformed-input-is-rejected",
            "input_json that is not JSON fails with DOCUMENT_MALFORMED.",
            [teach(), start(ONE, input_json="{", error=(INVALID, "DOCUMENT_MALFORMED"))],
            RUNS,
        ),
        vector(
            "run/fractional-input-number-is-rejected",
            "input_json with a fraction (1.5) fails with DOCUMENT_NUMBER_FORBIDDEN: "
            "quantities travel as decimal strings.",
            [
                teach(),
                start(ONE, input_json='{"x":1.5}', error=(INVALID, "DOCUMENT_NUMBER_FORBIDDEN")),
            ],
            RUNS,
        ),
        vector(
            "run/task-carries-the-run-input",
            "The first task's input_json is the canonical run input.",
            [
                teach(),
                start(ONE, input_json='{"b": 2, "a": [1, "x"]}'),
                claim([task("a", input_json='{"a":[1,"x"],"b":2}')]),
            ],
            RUNS,
        ),
        vector(
            "run/claimed-node-makes-the-run-await-nodes",
            "Once its only node is claimed the run is AWAITING_NODES and the node RUNNING "
            "under the claimed attempt.",
            [
                *started_and_claimed(),
                get_run(snapshot("AWAITING_NODES", [nd("a", "RUNNING", attempts=1, att="att")])),
            ],
            RUNS,
        ),
        vector(
            "run/completed-run-carries-the-output-result",
            "Completing the output node completes the run; result_json is the canonical "
            "result, finished_at_ms the completion time.",
            [
                teach(),
                start(ONE_JSON),
                claim_one(),
                complete("att", '{ "b": 1, "a": "x" }', advance_ms=250),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [nd("a", "DONE", attempts=1, att="att", result=True)],
                        resultJson='{"a":"x","b":1}',
                        resultError=None,
                        finishedAtMs="${t0+250}",
                        updatedAtMs="${t0+250}",
                        createdAtMs="${t0}",
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "run/diamond-joins-both-branches-by-name",
            "a feeds b and c; d joins them: d's input is an object keyed by node id.",
            [
                teach("", "b", "c", "d"),
                start(diamond, input_json='{"x":1}'),
                claim(
                    [task("a", input_json='{"x":1}', output="<any>")],
                    captures={"a": "tasks.0.attemptId"},
                ),
                complete("a", '{"from":"a"}'),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("a", "DONE", attempts=1, result=True),
                            nd("b", "READY"),
                            nd("c", "READY"),
                            nd("d", "PENDING"),
                        ],
                    )
                ),
                claim(
                    [task("b", tag="b", input_json='{"from":"a"}', output="<any>")],
                    tag="b",
                    captures={"b": "tasks.0.attemptId"},
                ),
                claim(
                    [task("c", tag="c", input_json='{"from":"a"}', output="<any>")],
                    tag="c",
                    captures={"c": "tasks.0.attemptId"},
                ),
                complete("c", '{"from":"c"}'),
                complete("b", '{"from":"b"}'),
                claim(
                    [task("d", tag="d", input_json='{"b":{"from":"b"},"c":{"from":"c"}}')],
                    tag="d",
                    captures={"d": "tasks.0.attemptId"},
                ),
                complete("d", '"joined"'),
                get_run(snapshot("COMPLETED", resultJson='"joined"')),
            ],
            RUNS,
        ),
        vector(
            "run/required-node-failure-fails-the-run",
            "A non-retryable failure of a required node fails the run: it is FAILING while "
            "its running sibling, asked to stop, has not reported; the sibling's result is "
            "still heard (DONE) and the run is FAILED, finished then.",
            [
                teach("", "b"),
                start(
                    definition(
                        "j",
                        a=node(output=json_out({"type": "string"})),
                        b=node(output=json_out({"type": "string"}), tag="b", effects="idempotent"),
                        j=node(["node:a", "node:b"], ("a", "b")),
                    )
                ),
                claim_one("a"),
                claim_one("b", tag="b"),
                fail("a", "model refused", response={"willRetry": None}),
                get_run(
                    snapshot(
                        "FAILING",
                        [
                            nd("a", "FAILED", attempts=1, att="a", error="model refused"),
                            nd("b", "STOPPING", attempts=1, att="b", error="<any>"),
                            nd("j", "CANCELLED"),
                        ],
                        resultError="<any>",
                        finishedAtMs=None,
                    )
                ),
                complete("b", '"late"', advance_ms=10),
                get_run(
                    snapshot(
                        "FAILED",
                        [
                            nd("a", "FAILED", attempts=1, att="a", error="model refused"),
                            nd("b", "DONE", attempts=1, att="b", result=True, error=None),
                            nd("j", "CANCELLED"),
                        ],
                        resultError="<any>",
                        finishedAtMs="${t0+10}",
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "run/orphan-branch-failure-does-not-fail-the-run",
            "A node outside the output's dependencies fails; the run still completes and "
            "the orphan's dependent is cancelled.",
            [
                teach("", "o"),
                start(
                    definition(
                        "main",
                        main=node(),
                        orphan=node(output=json_out({"type": "string"}), tag="o"),
                        after=node("node:orphan", ("orphan",), tag="o"),
                    )
                ),
                claim_one("o", tag="o"),
                fail("o", "orphan broke", response={"willRetry": None}),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("main", "READY"),
                            nd("orphan", "FAILED", attempts=1, error="orphan broke"),
                            nd("after", "CANCELLED"),
                        ],
                    )
                ),
                claim_one("m"),
                complete("m", '"fine"'),
                get_run(snapshot("COMPLETED", resultJson='"fine"', resultError=None)),
            ],
            RUNS,
        ),
        vector(
            "run/unfinished-orphan-is-asked-to-stop-when-the-output-completes",
            "A running orphan branch does not survive the output's completion: it is asked "
            "to stop (STOPPING; its heartbeat says cancelled) and the run is COMPLETING "
            "until its worker reports; NOT_APPLIED cancels it and the run is COMPLETED.",
            [
                teach("", "o"),
                start(definition("main", main=node(), orphan=node(tag="o", effects="none"))),
                claim_one("o", tag="o"),
                claim_one("m"),
                complete("m", '"fine"'),
                get_run(
                    snapshot(
                        "COMPLETING",
                        [
                            nd("main", "DONE", attempts=1, result=True),
                            nd("orphan", "STOPPING", attempts=1, error="<any>"),
                        ],
                        resultJson='"fine"',
                        finishedAtMs=None,
                    )
                ),
                heartbeat("o", response={"cancelled": True, "leaseExpiresAtMs": "<any>"}),
                fail("o", "stopped", response={"willRetry": None}),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [
                            nd("main", "DONE", attempts=1, result=True),
                            nd("orphan", "CANCELLED", attempts=1, error="<any>"),
                        ],
                        resultJson='"fine"',
                    )
                ),
                complete("o", '"late"', error=("ALREADY_EXISTS", "ATTEMPT_ALREADY_SETTLED")),
            ],
            RUNS,
        ),
        vector(
            "run/stop-cancels-the-run-and-its-nodes",
            "StopRun cancels the run with the reason as result_error: a node not yet "
            "running is CANCELLED at once, the running one is asked to stop (STOPPING) and "
            "the run is CANCELLING until its worker reports; nothing is claimable.",
            [
                teach(),
                start(definition("a", a=node(effects="none"), b=node(effects="none"))),
                claim_one(),
                stop(
                    "operator stop",
                    response={
                        "run": snapshot(
                            "CANCELLING",
                            [
                                nd("a", "STOPPING", attempts=1, error="<any>"),
                                nd("b", "CANCELLED", error="<any>"),
                            ],
                            resultError="operator stop",
                            finishedAtMs=None,
                        )
                    },
                ),
                claim(None),
                fail("att", "stopped", response={"willRetry": None}),
                get_run(
                    snapshot(
                        "CANCELLED",
                        [
                            nd("a", "CANCELLED", attempts=1, error="<any>"),
                            nd("b", "CANCELLED", error="<any>"),
                        ],
                        resultError="operator stop",
                        finishedAtMs="${t0}",
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "run/heartbeat-reports-cancellation-after-stop",
            "After StopRun the worker's next Heartbeat says cancelled (the lease is not "
            "extended), and the result it then reports is heard: the node is DONE and the "
            "run CANCELLED.",
            [
                *started_and_claimed(),
                stop(response={"run": snapshot("CANCELLING")}),
                heartbeat(response={"cancelled": True, "leaseExpiresAtMs": f"${{t0+{LEASE}}}"}),
                complete(response={"replayed": None}),
                get_run(snapshot("CANCELLED", [nd("a", "DONE", attempts=1, result=True)])),
            ],
            RUNS,
        ),
        vector(
            "run/stopping-an-ended-run-returns-it-unchanged",
            "StopRun of a completed run returns it unchanged (same version, COMPLETED).",
            [
                *one_done(),
                get_run(snapshot("COMPLETED"), captures={"v": "run.version"}),
                stop(response={"run": snapshot("COMPLETED", version="${v}", resultError=None)}),
            ],
            RUNS,
        ),
        vector(
            "run/stopping-twice-keeps-the-first-stop",
            "A second StopRun returns the cancelled run unchanged: same version and reason.",
            [
                teach(),
                start(ONE),
                stop(
                    "first", response={"run": snapshot("CANCELLED")}, captures={"v": "run.version"}
                ),
                stop(
                    "second",
                    response={"run": snapshot("CANCELLED", version="${v}", resultError="first")},
                ),
            ],
            RUNS,
        ),
        vector(
            "run/unknown-run-is-not-found",
            "GetRun, StopRun and GetNodeResult of an unknown run fail with RUN_NOT_FOUND.",
            [
                get_run(rid="run-${ns}", error=("NOT_FOUND", "RUN_NOT_FOUND")),
                stop(rid="run-${ns}", error=("NOT_FOUND", "RUN_NOT_FOUND")),
                node_result("a", rid="run-${ns}", error=("NOT_FOUND", "RUN_NOT_FOUND")),
            ],
            RUNS,
        ),
        vector(
            "run/malformed-run-id-is-rejected",
            "A run id with a space fails with IDENTIFIER_INVALID.",
            [get_run(rid="bad ${ns}", error=(INVALID, "IDENTIFIER_INVALID"))],
            RUNS,
        ),
        vector(
            "run/node-result-present-after-completion",
            "GetNodeResult returns the stored canonical result of a done node.",
            [
                teach(),
                start(ONE_JSON),
                claim_one(),
                complete("att", '{"z": 1, "a": 2}'),
                node_result("a", response={"present": True, "resultJson": '{"a":2,"z":1}'}),
            ],
            RUNS,
        ),
        vector(
            "run/node-result-absent-before-completion",
            "GetNodeResult of a node without a result says present = false (absent).",
            [
                teach(),
                start(ONE),
                node_result("a", response={"present": None, "resultJson": None}),
            ],
            RUNS,
        ),
        vector(
            "run/unknown-node-result-is-not-found",
            "GetNodeResult of a node the run does not have fails with NODE_NOT_FOUND.",
            [teach(), start(ONE), node_result("zz", error=("NOT_FOUND", "NODE_NOT_FOUND"))],
            RUNS,
        ),
        vector(
            "run/list-runs-pages-newest-first",
            "ListRuns returns the newest run first; its next_page_token leads to the previous one.",
            [
                teach(),
                start(ONE, request_id="${ns}-r1", capture="r1"),
                start(ONE, request_id="${ns}-r2", capture="r2", advance_ms=10),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"pageSize": 1},
                    response={"runs": [{"runId": "${r2}"}], "nextPageToken": "<any>"},
                    captures={"page": "nextPageToken"},
                ),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"pageSize": 1, "pageToken": "${page}"},
                    response={"runs": [{"runId": "${r1}"}]},
                ),
            ],
            RUNS,
        ),
        vector(
            "run/list-runs-filters-by-state",
            "ListRuns with a state returns only runs in that state, newest first.",
            [
                teach(),
                start(ONE, request_id="${ns}-c", capture="run"),
                claim_one(),
                complete(),
                start(ONE, request_id="${ns}-x", capture="cancelled", advance_ms=10),
                stop(rid="${cancelled}", response={"run": {"state": "RUN_STATE_CANCELLED"}}),
                start(ONE, request_id="${ns}-live", capture="live", advance_ms=10),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"state": "RUN_STATE_COMPLETED", "pageSize": 1},
                    response={"runs": [{"runId": "${run}", "state": "RUN_STATE_COMPLETED"}]},
                ),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"state": "RUN_STATE_CANCELLED", "pageSize": 1},
                    response={"runs": [{"runId": "${cancelled}"}]},
                ),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"pageSize": 1},
                    response={"runs": [{"runId": "${live}", "state": "RUN_STATE_RUNNING"}]},
                ),
            ],
            RUNS,
        ),
        vector(
            "run/list-runs-page-bounds",
            "ListRuns with page_size 1001, a foreign page token or an unknown state number "
            "is refused.",
            [
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"pageSize": 1001},
                    error=(INVALID, "PAGE_INVALID"),
                ),
                step(
                    AGENT,
                    "RunService",
                    "ListRuns",
                    {"pageToken": "garbage ${ns}"},
                    error=(INVALID, "PAGE_INVALID"),
                ),
                step(
                    AGENT, "RunService", "ListRuns", {"state": 99}, error=(INVALID, "ENUM_INVALID")
                ),
            ],
            RUNS,
        ),
        vector(
            "run/credentials-and-grants-are-required",
            "StartRun without a credential is UNAUTHENTICATED; a reader without run grants "
            "is ACTION_NOT_GRANTED.",
            [
                teach(),
                start(ONE, principal="", error=("UNAUTHENTICATED", "CREDENTIAL_MISSING")),
                start(ONE, principal="reader", error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")),
                start(ONE),
                stop(principal="reader", error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")),
            ],
            RUNS,
        ),
        vector(
            "run/governed-run-binds-the-head",
            "StartRun from a registered ref runs its head (revision 1) and binds it: "
            "GetHead reports BOUND to the run.",
            [
                *registered(),
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    response={
                        "created": True,
                        "run": {
                            "ref": REF,
                            "revision": "1",
                            "definitionDigest": D1,
                            "nodes": [nd("a", "READY") | {"revision": "1"}],
                        },
                    },
                    captures={"run": "run.runId"},
                ),
                step(
                    "alice",
                    "RegistryService",
                    "GetHead",
                    {"ref": REF},
                    response={
                        "head": {
                            "executionBinding": "EXECUTION_BINDING_BOUND",
                            "boundRunId": "${run}",
                        }
                    },
                ),
                stop(response={"run": snapshot("CANCELLED")}),
            ],
            [*RUNS, "aiws.engine.v1.RegistryService"],
        ),
        vector(
            "run/governed-run-of-an-unregistered-ref-is-not-found",
            "StartRun from a ref that was never registered fails with REF_NOT_FOUND.",
            [
                step(
                    AGENT,
                    "RunService",
                    "StartRun",
                    {"requestId": "${ns}-gov", "ref": REF},
                    error=("NOT_FOUND", "REF_NOT_FOUND"),
                )
            ],
            RUNS,
        ),
    ]


# --- definitions (validation) ---------------------------------------------------------


def definition_vectors() -> list[dict[str, Json]]:
    def invalid_def(name: str, why: str, document: Json, reason: str = "DEFINITION_INVALID"):
        return vector(
            f"definition/{name}",
            why,
            [teach(), start(document, error=(INVALID, reason))],
            RUNS,
        )

    return [
        invalid_def(
            "function-policy-out-of-bounds-is-rejected",
            "A function policy with an empty pattern, or with a key other than allow and "
            "deny, fails with DEFINITION_INVALID (patterns are 1 to 256 characters, at most "
            "256 of them per list).",
            {
                "version": 1,
                "default_functions": {"allow": ["ok"], "only": ["x"]},
                "nodes": {"a": node(agent={"model": MODEL, "functions": [""]})},
                "output": {"from": "node:a"},
            },
        ),
        invalid_def(
            "provider-longer-than-256-characters-is-rejected",
            "A node's agent.provider is at most 256 characters; a longer one fails with "
            "DEFINITION_INVALID.",
            definition("a", a=node(agent={"model": MODEL, "provider": "p" * 257})),
        ),
        invalid_def(
            "cycle-is-rejected",
            "Two nodes that depend on each other fail with DEFINITION_INVALID.",
            definition(
                "a",
                a=node("node:b", ("b",), json_out({"type": "string"})),
                b=node("node:a", ("a",), json_out({"type": "string"})),
            ),
        ),
        invalid_def(
            "unknown-key-is-rejected",
            "An unknown node key fails with DEFINITION_INVALID; nothing is ignored.",
            definition("a", a=node(colour="blue")),
        ),
        invalid_def(
            "future-version-is-rejected",
            "A definition with version 2 fails with DEFINITION_INVALID.",
            {**ONE, "version": 2},
        ),
        invalid_def(
            "output-must-name-a-node",
            "output.from naming a missing node fails with DEFINITION_INVALID.",
            {**ONE, "output": {"from": "node:nope"}},
        ),
        invalid_def(
            "node-id-with-a-dot-is-rejected",
            "Node ids exclude '#', '.' and '/': 'x.y' fails with DEFINITION_INVALID.",
            definition("x.y", **{"x.y": node()}),
        ),
        invalid_def(
            "read-node-must-declare-json-output",
            "A node read by another must declare a JSON output with a type.",
            definition("b", a=node(), b=node("node:a", ("a",))),
        ),
        invalid_def(
            "dependency-must-be-consumed",
            "A dependency that neither the input nor a fan-out reads fails.",
            definition(
                "b", a=node(output=json_out({"type": "string"})), b=node("run_input", ("a",))
            ),
        ),
        invalid_def(
            "fanout-over-a-declared-non-array-is-rejected",
            "A fan-out path the schema declares as a string fails at StartRun.",
            fanout_def({"type": "object", "properties": {"items": {"type": "string"}}}),
        ),
        invalid_def(
            "fanout-item-needs-a-fanout",
            "input.from fanout_item on a node without fanout fails.",
            definition("a", a=node("fanout_item")),
        ),
        invalid_def(
            "unsupported-schema-keyword-is-rejected",
            "An output schema keyword outside the supported subset (pattern) fails.",
            definition("a", a=node(output=json_out({"type": "string", "pattern": "x"}))),
        ),
        invalid_def(
            "non-object-document-is-rejected",
            "A definition that is a JSON array fails with DEFINITION_INVALID.",
            [],
        ),
        vector(
            "definition/duplicate-keys-are-rejected",
            "A definition document with a duplicate key fails with DOCUMENT_DUPLICATE_KEY.",
            [
                teach(),
                start(
                    text='{"version":1,"version":1,"nodes":{},"output":{"from":"node:a"}}',
                    error=(INVALID, "DOCUMENT_DUPLICATE_KEY"),
                ),
            ],
            RUNS,
        ),
        invalid_def(
            "unknown-model-is-rejected",
            "A model no worker has claimed and no config lists fails with MODEL_UNKNOWN.",
            definition(
                "a", a={"agent": {"model": "unknown-${ns}"}, "input": {"from": "run_input"}}
            ),
            "MODEL_UNKNOWN",
        ),
        invalid_def(
            "unknown-model-with-other-problems-is-definition-invalid",
            "MODEL_UNKNOWN is reserved for definitions whose only problem is the model; "
            "with another problem the reason is DEFINITION_INVALID.",
            definition(
                "a",
                a={"agent": {"model": "unknown-${ns}"}, "input": {"from": "run_input"}, "x": 1},
            ),
        ),
        vector(
            "definition/claiming-a-model-makes-it-known",
            "StartRun fails with MODEL_UNKNOWN until a worker claims the model; then it "
            "starts, and the same worker receives the task.",
            [
                start(ONE, error=(INVALID, "MODEL_UNKNOWN")),
                teach(),
                start(ONE),
                claim([task("a")]),
            ],
            RUNS,
        ),
    ]


# --- tasks ----------------------------------------------------------------------------


def settle(
    settlements: list[Json],
    results: list[Json] | None = None,
    *,
    claim_request: Json = None,
    tasks: list[Json] | None = None,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
) -> dict[str, Json]:
    """SettleTasks of ``settlements`` (each ``{"complete": ...}`` or ``{"fail": ...}``)."""
    request: dict[str, Json] = {"settlements": settlements}
    if claim_request is not None:
        request["claim"] = claim_request
    if error:
        return step(AGENT, "TaskService", "SettleTasks", request, error=error)
    return step(
        AGENT,
        "TaskService",
        "SettleTasks",
        request,
        response={"results": results, "tasks": tasks},
        captures=captures,
    )


def completion(att: str, result: str = '"done"', worker: str = "w1") -> dict[str, Json]:
    """One Settlement that completes the attempt captured as ``${att}``."""
    return {
        "complete": {
            "attemptId": "${" + att + "}",
            "workerId": worker,
            "resultJson": result,
            "effect": "EFFECT_OUTCOME_APPLIED",
        }
    }


def settle_vectors() -> list[dict[str, Json]]:
    two = definition("b", a=node(), b=node())
    chain = definition("b", a=node(output=json_out({"type": "object"})), b=node("node:a", ("a",)))
    claim_next = {
        "workerId": "w1",
        "models": [model()],
        "maxTasks": 10,
        "leaseMs": str(LEASE),
        "waitMs": "0",
    }
    ok = {"attemptId": "<any>", "error": None}  # settled (an empty `complete` answer)
    return [
        vector(
            "settle/batch-answers-each-settlement-on-its-own",
            "SettleTasks with a valid completion, a foreign worker's, a stale (already "
            "settled with another result) one and one naming no outcome: each is answered "
            "on its own, and only the valid one changes the run.",
            [
                teach(),
                start(two),
                claim([task("a")], captures={"a1": "tasks.0.attemptId"}),
                claim([task("b")], captures={"a2": "tasks.0.attemptId"}),
                complete("a1", '"first"'),
                settle(
                    [
                        completion("a2"),
                        completion("a1", '"second"'),
                        completion("a1", '"first"'),
                        completion("a2", '"x"', worker="w-other"),
                        {},
                    ],
                    [
                        {"attemptId": "${a2}", "error": None},
                        {
                            "attemptId": "${a1}",
                            "error": {"code": 6, "reason": "ATTEMPT_ALREADY_SETTLED"},
                        },
                        {"attemptId": "${a1}", "complete": {"replayed": True}},
                        {
                            "attemptId": "${a2}",
                            "error": {"code": 6, "reason": "ATTEMPT_ALREADY_SETTLED"},
                        },
                        {"attemptId": None, "error": {"code": 3, "reason": "FIELD_REQUIRED"}},
                    ],
                ),
                get_run(snapshot("COMPLETED")),
            ],
            RUNS,
        ),
        vector(
            "settle/complete-and-claim-the-next-task-in-one-call",
            "SettleTasks with a claim: the completion readies the next node and the same "
            "call leases it.",
            [
                teach(),
                start(chain),
                claim_one(),
                settle(
                    [completion("att", '{"v":1}')],
                    [ok],
                    claim_request=claim_next,
                    tasks=[task("b", input_json='{"v":1}')],
                    captures={"b": "tasks.0.attemptId"},
                ),
                settle([completion("b")], [ok]),
                get_run(snapshot("COMPLETED")),
            ],
            RUNS,
        ),
        vector(
            "settle/foreign-worker-is-refused-and-the-holder-settles",
            "A settlement by a worker that does not hold the attempt answers "
            "WORKER_MISMATCH (FAILED_PRECONDITION) in its result; the holder then settles.",
            [
                *started_and_claimed(),
                settle(
                    [completion("att", worker="w2")],
                    [
                        {
                            "attemptId": "${att}",
                            "error": {"code": 9, "reason": "WORKER_MISMATCH"},
                        }
                    ],
                ),
                settle([completion("att")], [ok]),
            ],
            RUNS,
        ),
        vector(
            "settle/invalid-claim-refuses-the-whole-call",
            "An invalid claim part (lease below 1,000 ms) fails the call with "
            "LEASE_INVALID before anything is settled; the attempt can still complete.",
            [
                *started_and_claimed(),
                settle(
                    [completion("att")],
                    claim_request={**claim_next, "leaseMs": "5"},
                    error=(INVALID, "LEASE_INVALID"),
                ),
                complete(),
            ],
            RUNS,
        ),
    ]


def tasks_vectors() -> list[dict[str, Json]]:
    retry_twice = definition(
        "a", a=node(retry={"attempts": 2, "backoff_ms": 0}, effects="idempotent")
    )
    contract = definition(
        "a",
        a=node(
            output=json_out(
                {
                    "type": "object",
                    "required": ["score"],
                    "properties": {"score": {"type": "integer"}, "tag": {"enum": ["a", "b"]}},
                    "additionalProperties": False,
                }
            )
        ),
    )

    def cost_refused(name: str, cost: str, reason: str = "DECIMAL_NOT_CANONICAL"):
        return vector(
            f"cost/{name}",
            f"cost_microcredits {cost!r} fails with {reason}; the attempt stays open and a "
            "canonical cost then settles it.",
            [
                *started_and_claimed(),
                complete(cost=cost, error=(INVALID, reason)),
                complete(cost="150"),
            ],
            RUNS,
        )

    def result_refused(name: str, why: str, text: str, reason: str, document: Json = None):
        return vector(
            f"result/{name}",
            why,
            [
                *started_and_claimed(document or contract),
                complete(result=text, error=(INVALID, reason)),
                complete(result='{"score":1}'),
            ],
            RUNS,
        )

    return [
        vector(
            "task/claim-returns-the-task-with-its-agent-and-lease",
            "ClaimTasks returns the READY node as a task: attempt 1, the agent's model, "
            "prompt, functions and output contract, the template, the run input, the lease "
            "and the timeout deadline.",
            [
                teach(),
                start(
                    definition(
                        "a",
                        a={
                            "agent": {
                                "model": MODEL,
                                "system_prompt": "be brief",
                                "functions": ["search"],
                            },
                            "input": {"from": "run_input", "template": "Summarize:"},
                            "timeout_ms": 120000,
                        },
                    ),
                    input_json='{"text":"hello"}',
                ),
                claim(
                    [
                        task(
                            "a",
                            input_json='{"text":"hello"}',
                            lease_until="${t0+30000}",
                            agent={
                                "model": MODEL,
                                "systemPrompt": "be brief",
                                "functionsJson": '{"allow":["search"],"deny":[]}',
                                "outputJson": TEXT_OUT,
                            },
                            template="Summarize:",
                            deadlineMs="${t0+120000}",
                        )
                    ],
                    lease_ms=30000,
                ),
            ],
            RUNS,
        ),
        vector(
            "task/agent-settings-reach-the-worker",
            "The node's provider travels in the task, and its function policy arrives "
            "normalized to {allow, deny}: a node that declares none gets every function "
            '(allow ["*"]), a node without agent.functions inherits default_functions '
            '(a missing allow is ["*"]), and a node\'s own list is its allow list, sorted '
            "and deduplicated.",
            [
                teach(),
                start(
                    {
                        "version": 1,
                        "nodes": {
                            "a": {
                                "agent": {
                                    "model": MODEL,
                                    "provider": "acme-cloud",
                                    "functions": ["web.*", "calc", "calc"],
                                },
                                "input": {"from": "run_input"},
                            },
                        },
                        "output": {"from": "node:a"},
                    }
                ),
                claim(
                    [
                        task(
                            "a",
                            agent={
                                "model": MODEL,
                                "provider": "acme-cloud",
                                "functionsJson": '{"allow":["calc","web.*"],"deny":[]}',
                                "outputJson": TEXT_OUT,
                            },
                        )
                    ]
                ),
                start(
                    {
                        "version": 1,
                        "default_functions": {"deny": ["shell.*"]},
                        "nodes": {"a": node()},
                        "output": {"from": "node:a"},
                    },
                    request_id="${ns}-start-2",
                    capture="run2",
                ),
                claim(
                    [
                        task(
                            "a",
                            run="${run2}",
                            agent={
                                "model": MODEL,
                                "provider": None,
                                "functionsJson": '{"allow":["*"],"deny":["shell.*"]}',
                                "outputJson": TEXT_OUT,
                            },
                        )
                    ]
                ),
                start(ONE, request_id="${ns}-start-3", capture="run3"),
                claim(
                    [
                        task(
                            "a",
                            run="${run3}",
                            agent={
                                "model": MODEL,
                                "functionsJson": '{"allow":["*"],"deny":[]}',
                                "outputJson": TEXT_OUT,
                            },
                        )
                    ]
                ),
            ],
            RUNS,
        ),
        vector(
            "task/attempt-id-is-the-one-the-run-reports",
            "The claimed attempt id and operation id are the ones GetRun shows for the node.",
            [
                teach(),
                start(ONE),
                claim(
                    [task("a")],
                    captures={"att": "tasks.0.attemptId", "op": "tasks.0.operationId"},
                ),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [nd("a", "RUNNING", attempts=1, att="att") | {"operationId": "${op}"}],
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "task/claim-takes-at-most-max-tasks",
            "Three ready nodes and max_tasks 2: the claim returns two, the next claim one.",
            [
                teach(),
                start(definition("a", a=node(), b=node(), c=node())),
                claim([{"runId": "${run}"}, {"runId": "${run}"}], max_tasks=2),
                claim([{"runId": "${run}"}], max_tasks=2),
                claim(None),
            ],
            RUNS,
        ),
        vector(
            "task/claimed-task-is-not-claimed-again",
            "A leased task is not handed to a second worker while its lease lasts.",
            [*started_and_claimed(), claim(None, worker="w2")],
            RUNS,
        ),
        vector(
            "task/complete-settles-once-and-replays",
            "Completing again with the same payload is a replay (replayed = true).",
            [
                *started_and_claimed(),
                complete(),
                complete(response={"replayed": True}),
                get_run(snapshot("COMPLETED", resultJson='"done"')),
            ],
            RUNS,
        ),
        vector(
            "task/complete-again-with-another-result-is-refused",
            "Completing a settled attempt with a different result fails with "
            "ATTEMPT_ALREADY_SETTLED; the first result stands.",
            [
                *started_and_claimed(),
                complete(),
                complete(result='"other"', error=("ALREADY_EXISTS", "ATTEMPT_ALREADY_SETTLED")),
                node_result("a", response={"present": True, "resultJson": '"done"'}),
            ],
            RUNS,
        ),
        vector(
            "task/fail-after-complete-is-refused",
            "FailTask of a completed attempt fails with ATTEMPT_ALREADY_SETTLED.",
            [
                *started_and_claimed(),
                complete(),
                fail(error=("ALREADY_EXISTS", "ATTEMPT_ALREADY_SETTLED")),
            ],
            RUNS,
        ),
        vector(
            "task/fail-replays-with-the-same-answer",
            "FailTask twice with the same payload: the second is replayed with the same "
            "will_retry.",
            [
                *started_and_claimed(retry_twice),
                fail(retryable=True, response={"willRetry": True, "replayed": None}),
                fail(retryable=True, response={"willRetry": True, "replayed": True}),
            ],
            RUNS,
        ),
        vector(
            "task/retryable-failure-redispatches-with-a-new-attempt",
            "A retryable failure within the budget makes the node READY again; the next "
            "claim is attempt 2 and the old attempt cannot complete.",
            [
                *started_and_claimed(retry_twice, "att1"),
                fail("att1", retryable=True, response={"willRetry": True}),
                get_run(
                    snapshot(
                        "RUNNING", [nd("a", "READY", attempts=1, error="boom", not_before="${t0}")]
                    )
                ),
                claim([task("a", attempt=2)], captures={"att2": "tasks.0.attemptId"}),
                complete("att1", error=("ALREADY_EXISTS", "ATTEMPT_ALREADY_SETTLED")),
                complete("att2"),
                get_run(
                    snapshot("COMPLETED", [nd("a", "DONE", attempts=2, att="att2", result=True)])
                ),
            ],
            RUNS,
        ),
        vector(
            "task/non-retryable-failure-fails-the-node",
            "retryable = false fails the node at once although budget remains.",
            [
                *started_and_claimed(retry_twice),
                fail(response={"willRetry": None}),
                get_run(snapshot("FAILED", [nd("a", "FAILED", attempts=1, error="boom")])),
                claim(None),
            ],
            RUNS,
        ),
        vector(
            "task/retry-budget-spent-fails-the-run",
            "A retryable failure of the last allowed attempt fails the node and the run.",
            [
                *started_and_claimed(ONE_NO_RETRY),
                fail(retryable=True, response={"willRetry": None}),
                get_run(snapshot("FAILED", resultError="<any>")),
            ],
            RUNS,
        ),
        vector(
            "task/retry-waits-out-the-backoff",
            "After a retryable failure with backoff 5000 ms the node is READY with "
            "not_before_ms = now + 5000; nothing is claimable until the clock passes it.",
            [
                *started_and_claimed(
                    definition("a", a=node(retry={"attempts": 3, "backoff_ms": 5000}))
                ),
                fail(retryable=True, response={"willRetry": True}),
                get_run(
                    snapshot("RUNNING", [nd("a", "READY", attempts=1, not_before="${t0+5000}")])
                ),
                claim(None),
                claim(None, advance_ms=4999),
                claim([task("a", attempt=2, lease_until="${t0+65000}")], advance_ms=1),
            ],
            RUNS,
        ),
        vector(
            "task/uncertain-effect-is-not-retried",
            "A retryable failure whose effect is UNCERTAIN is not retried automatically: "
            "a reviewed reconciliation must come first.",
            [
                *started_and_claimed(retry_twice),
                fail(
                    retryable=True, effect="EFFECT_OUTCOME_UNCERTAIN", response={"willRetry": None}
                ),
                claim(None),
            ],
            RUNS,
        ),
        vector(
            "lease/expired-lease-refuses-heartbeat-and-result",
            "Once the clock passes the lease, Heartbeat and CompleteTask of that attempt "
            "fail with LEASE_EXPIRED.",
            [
                *started_and_claimed(retry_twice, lease_ms=5000),
                heartbeat(error=(FAILED, "LEASE_EXPIRED"), advance_ms=5000),
                complete(error=(FAILED, "LEASE_EXPIRED")),
            ],
            RUNS,
        ),
        vector(
            "lease/expired-lease-redispatches-as-a-new-attempt",
            "After the lease expires the node is re-dispatched (a waiting claim receives "
            "attempt 2); the stale attempt stays refused and the new one completes the run.",
            [
                *started_and_claimed(retry_twice, "att1", lease_ms=5000),
                claim(
                    [task("a", attempt=2, lease_until="${t0+65000}")],
                    worker="w2",
                    captures={"att2": "tasks.0.attemptId"},
                    advance_ms=5000,
                ),
                complete("att1", '"stale"', error=(FAILED, "LEASE_EXPIRED")),
                heartbeat("att1", error=(FAILED, "LEASE_EXPIRED")),
                complete("att2", '"fresh"', worker="w2"),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [nd("a", "DONE", attempts=2, att="att2", result=True)],
                        resultJson='"fresh"',
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "lease/heartbeat-extends-the-lease",
            "A Heartbeat before expiry moves the lease to now + lease_ms; the attempt then "
            "completes after its original lease would have ended.",
            [
                *started_and_claimed(lease_ms=5000),
                heartbeat(
                    lease_ms=5000,
                    response={"leaseExpiresAtMs": "${t0+9000}", "cancelled": None},
                    advance_ms=4000,
                ),
                complete(advance_ms=4000),
                get_run(snapshot("COMPLETED")),
            ],
            RUNS,
        ),
        vector(
            "lease/timeout-redispatches-with-a-fresh-deadline",
            "An attempt running past the node's timeout_ms is timed out and re-dispatched; "
            "the timed-out attempt is refused with LEASE_EXPIRED.",
            [
                *started_and_claimed(
                    definition(
                        "a",
                        a=node(
                            timeout_ms=2000,
                            retry={"attempts": 2, "backoff_ms": 0},
                            effects="idempotent",
                        ),
                    ),
                    "att1",
                    task={"attemptId": "<any>", "deadlineMs": "${t0+2000}"},
                ),
                claim(
                    [task("a", attempt=2, lease_until="${t0+62000}", deadlineMs="${t0+4000}")],
                    captures={"att2": "tasks.0.attemptId"},
                    advance_ms=2000,
                ),
                heartbeat("att1", error=(FAILED, "LEASE_EXPIRED")),
                complete("att2"),
            ],
            RUNS,
        ),
        vector(
            "task/other-worker-cannot-settle",
            "CompleteTask by a worker id other than the claimer's fails with WORKER_MISMATCH.",
            [*started_and_claimed(), complete(worker="w2", error=(FAILED, "WORKER_MISMATCH"))],
            RUNS,
        ),
        vector(
            "task/unknown-attempt-is-not-found",
            "CompleteTask of an attempt id nobody issued fails with ATTEMPT_NOT_FOUND.",
            [
                step(
                    AGENT,
                    "TaskService",
                    "CompleteTask",
                    {
                        "attemptId": "att_${ns}",
                        "workerId": "w1",
                        "resultJson": '"x"',
                        "effect": "EFFECT_OUTCOME_APPLIED",
                    },
                    error=("NOT_FOUND", "ATTEMPT_NOT_FOUND"),
                )
            ],
            RUNS,
        ),
        vector(
            "task/effect-is-required",
            "CompleteTask without an effect (UNSPECIFIED) fails with ENUM_INVALID; an "
            "unknown effect number too.",
            [
                *started_and_claimed(),
                complete(effect=None, error=(INVALID, "ENUM_INVALID")),
                complete(effect=99, error=(INVALID, "ENUM_INVALID")),
                complete(),
            ],
            RUNS,
        ),
        vector(
            "task/claim-parameters-are-bounded",
            "ClaimTasks refuses a lease under 1 s, a wait over 60 s, max_tasks 0 and no models.",
            [
                step(
                    AGENT,
                    "TaskService",
                    "ClaimTasks",
                    {"workerId": "w1", "models": [MODEL], "maxTasks": 1, "leaseMs": "999"},
                    error=(INVALID, "LEASE_INVALID"),
                ),
                step(
                    AGENT,
                    "TaskService",
                    "ClaimTasks",
                    {
                        "workerId": "w1",
                        "models": [MODEL],
                        "maxTasks": 1,
                        "leaseMs": "5000",
                        "waitMs": "60001",
                    },
                    error=(INVALID, "LEASE_INVALID"),
                ),
                step(
                    AGENT,
                    "TaskService",
                    "ClaimTasks",
                    {"workerId": "w1", "models": [MODEL], "leaseMs": "5000"},
                    error=(INVALID, "PAGE_INVALID"),
                ),
                step(
                    AGENT,
                    "TaskService",
                    "ClaimTasks",
                    {"workerId": "w1", "maxTasks": 1, "leaseMs": "5000"},
                    error=(INVALID, "FIELD_REQUIRED"),
                ),
            ],
            RUNS,
        ),
        vector(
            "task/heartbeat-lease-is-bounded",
            "Heartbeat with lease_ms 0 fails with LEASE_INVALID.",
            [*started_and_claimed(), heartbeat(lease_ms=0, error=(INVALID, "LEASE_INVALID"))],
            RUNS,
        ),
        vector(
            "task/workers-need-the-task-grant",
            "A service account without task grants cannot claim: ACTION_NOT_GRANTED.",
            [
                step(
                    "service",
                    "TaskService",
                    "ClaimTasks",
                    {"workerId": "w1", "models": [MODEL], "maxTasks": 1, "leaseMs": "5000"},
                    error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED"),
                )
            ],
            RUNS,
        ),
        result_refused(
            "missing-required-property-breaks-the-contract",
            "A result without the schema's required property fails with "
            "RESULT_CONTRACT_VIOLATION; a conforming result then completes.",
            '{"tag":"a"}',
            "RESULT_CONTRACT_VIOLATION",
        ),
        result_refused(
            "wrong-type-breaks-the-contract",
            "A string where the schema says integer fails with RESULT_CONTRACT_VIOLATION.",
            '{"score":"1"}',
            "RESULT_CONTRACT_VIOLATION",
        ),
        result_refused(
            "enum-and-additional-properties-are-enforced",
            "A value outside the enum, or a key outside properties, breaks the contract.",
            '{"score":1,"tag":"c"}',
            "RESULT_CONTRACT_VIOLATION",
        ),
        vector(
            "result/text-output-needs-a-json-string",
            "A node with a text output refuses an object result.",
            [
                *started_and_claimed(),
                complete(result='{"a":1}', error=(INVALID, "RESULT_CONTRACT_VIOLATION")),
                complete(),
            ],
            RUNS,
        ),
        result_refused(
            "fractional-number-is-refused",
            "A result with a fraction fails with DOCUMENT_NUMBER_FORBIDDEN.",
            '{"score":1.5}',
            "DOCUMENT_NUMBER_FORBIDDEN",
        ),
        result_refused(
            "integer-beyond-2-53-is-refused",
            "A result integer above 2^53-1 fails with DOCUMENT_NUMBER_FORBIDDEN.",
            '{"score":9007199254740993}',
            "DOCUMENT_NUMBER_FORBIDDEN",
        ),
        result_refused(
            "malformed-result-is-refused",
            "A result that is not JSON fails with DOCUMENT_MALFORMED.",
            '{"score":',
            "DOCUMENT_MALFORMED",
        ),
        result_refused(
            "duplicate-key-result-is-refused",
            "A result with a duplicate key fails with DOCUMENT_DUPLICATE_KEY.",
            '{"score":1,"score":2}',
            "DOCUMENT_DUPLICATE_KEY",
        ),
        result_refused(
            "empty-result-is-required",
            "An empty result_json fails with FIELD_REQUIRED.",
            "",
            "FIELD_REQUIRED",
        ),
        vector(
            "result/oversized-result-is-refused",
            "A result over the 1 MiB cap fails with RESULT_TOO_LARGE; a small one then "
            "completes the attempt.",
            [
                *started_and_claimed(),
                complete(
                    result='"' + "x" * (1024 * 1024) + '"', error=(INVALID, "RESULT_TOO_LARGE")
                ),
                complete(),
            ],
            RUNS,
        ),
        cost_refused("trailing-fractional-zero-is-refused", "1.50"),
        cost_refused("negative-zero-is-refused", "-0"),
        cost_refused("exponent-is-refused", "1e3"),
        cost_refused("plus-sign-is-refused", "+1"),
        cost_refused("leading-zero-is-refused", "01"),
        cost_refused("bare-fraction-is-refused", ".5"),
        cost_refused("negative-cost-is-refused", "-1", "COST_INVALID"),
        vector(
            "cost/fail-task-checks-the-cost-too",
            "FailTask refuses a non-canonical cost exactly like CompleteTask.",
            [
                *started_and_claimed(),
                fail(cost="2.0", error=(INVALID, "DECIMAL_NOT_CANONICAL")),
                fail(cost="2", response={"willRetry": None}),
            ],
            RUNS,
        ),
        vector(
            "cost/exact-large-decimal-is-accepted",
            "A canonical cost with 27 significant digits (18 integer, 9 fraction; more than "
            "a double holds) is accepted as is, and settling again with it is a replay.",
            [
                *started_and_claimed(),
                complete(cost="123456789012345678.123456789"),
                complete(cost="123456789012345678.123456789", response={"replayed": True}),
            ],
            RUNS,
        ),
    ]


# --- fan-out and joins ----------------------------------------------------------------


def fanout_vectors() -> list[dict[str, Json]]:
    items = [f"v{i}" for i in range(13)]
    item_captures = {f"a{i}": f"tasks.{i}.attemptId" for i in range(13)} | {
        f"in{i}": f"tasks.{i}.inputJson" for i in range(13)
    }
    joined = canonical(items)
    fan13 = [
        teach(),
        start(fanout_def()),
        claim_one("split"),
        complete("split", canonical({"items": items})),
        claim(
            [{"runId": "${run}", "nodeId": "each", "attempt": 1}] * 13,
            max_tasks=20,
            captures=item_captures,
        ),
        *[complete(f"a{i}", f"${{in{i}}}") for i in reversed(range(13))],
    ]
    return [
        vector(
            "fanout/thirteen-items-gather-in-numeric-order",
            "A fan-out over 13 items: each item's input is its array element, and the join "
            "receives the results in numeric item order (#2 before #10), not text order.",
            [
                *fan13,
                claim(
                    [task("join", input_json=joined, output="<any>")],
                    captures={"join": "tasks.0.attemptId", "joined": "tasks.0.inputJson"},
                ),
                complete("join", "${joined}"),
                get_run(snapshot("COMPLETED", resultJson=joined)),
            ],
            RUNS,
        ),
        vector(
            "fanout/items-are-listed-in-numeric-order",
            "GetRun lists the fan-out node, then its items each#0 ... each#12 in numeric "
            "order, then the join.",
            [
                *fan13,
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("split", "DONE", attempts=1, result=True),
                            nd("each", "DONE", result=True, items=13),
                            *[nd(f"each#{i}", "DONE", attempts=1, result=True) for i in range(13)],
                            nd("join", "READY"),
                        ],
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/list-run-nodes-pages-in-definition-then-item-order",
            "ListRunNodes pages through the nodes and items in definition then item order; "
            "each page's next_page_token leads to the next, the last has none. A fan-out "
            "parent counts its finished items (fanout_items_done).",
            [
                *fan13,
                list_nodes(
                    {"pageSize": 5},
                    response={
                        "nodes": [
                            nd("split", "DONE", attempts=1, result=True),
                            {**nd("each", "DONE", result=True, items=13), "fanoutItemsDone": 13},
                            *[nd(f"each#{i}", "DONE", attempts=1, result=True) for i in range(3)],
                        ],
                        "nextPageToken": "<any>",
                        "version": "<any>",
                    },
                    captures={"p2": "nextPageToken"},
                ),
                list_nodes(
                    {"pageSize": 5, "pageToken": "${p2}"},
                    response={
                        "nodes": [{"nodeUid": f"each#{i}"} for i in range(3, 8)],
                        "nextPageToken": "<any>",
                    },
                    captures={"p3": "nextPageToken"},
                ),
                list_nodes(
                    {"pageSize": 5, "pageToken": "${p3}"},
                    response={
                        "nodes": [{"nodeUid": f"each#{i}"} for i in range(8, 13)],
                        "nextPageToken": "<any>",
                    },
                    captures={"p4": "nextPageToken"},
                ),
                list_nodes(
                    {"pageSize": 5, "pageToken": "${p4}"},
                    response={"nodes": [nd("join", "READY")], "nextPageToken": None},
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/list-run-nodes-filters-by-node-and-state",
            "ListRunNodes with a node_id lists that node and its items; with a state, only "
            "nodes in that state; page_size 0 means 500.",
            [
                *fan13,
                list_nodes(
                    {"nodeId": "each", "state": "NODE_STATE_DONE"},
                    response={
                        "nodes": [{"nodeUid": "each"}]
                        + [{"nodeUid": f"each#{i}"} for i in range(13)],
                        "nextPageToken": None,
                    },
                ),
                list_nodes(
                    {"state": "NODE_STATE_READY"},
                    response={"nodes": [{"nodeUid": "join"}], "nextPageToken": None},
                ),
                list_nodes({"state": "NODE_STATE_BLOCKED"}, response={"nodes": None}),
            ],
            RUNS,
        ),
        vector(
            "fanout/list-run-nodes-refusals",
            "ListRunNodes refuses a page_size over 1000, a token it did not issue for this "
            "listing, an unknown state number, an unknown node and run, and a caller "
            "without run grants, like GetRun.",
            [
                teach(),
                start(fanout_def()),
                list_nodes({"pageSize": 1}, captures={"page": "nextPageToken"}),
                list_nodes({"pageSize": 1001}, error=(INVALID, "PAGE_INVALID")),
                list_nodes({"pageSize": -1}, error=(INVALID, "PAGE_INVALID")),
                list_nodes({"pageToken": "garbage-${ns}"}, error=(INVALID, "PAGE_INVALID")),
                list_nodes(
                    {"pageToken": "${page}", "nodeId": "each"}, error=(INVALID, "PAGE_INVALID")
                ),
                list_nodes({"state": 99}, error=(INVALID, "ENUM_INVALID")),
                list_nodes({"nodeId": "nope"}, error=("NOT_FOUND", "NODE_NOT_FOUND")),
                list_nodes({}, rid="run_missing_${ns}", error=("NOT_FOUND", "RUN_NOT_FOUND")),
                list_nodes(
                    {}, principal="reader", error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/wide-run-snapshots-omit-items",
            "A run of more than 1,000 nodes and items lists only its definition's nodes in "
            "GetRun (items_omitted, node_count); ListRunNodes reads the items.",
            [
                teach(),
                start(fanout_def()),
                claim_one("split"),
                complete("split", canonical({"items": list(range(1000))})),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("split", "DONE", attempts=1, result=True),
                            {**nd("each", "EXPANDED", items=1000), "fanoutItemsDone": None},
                            nd("join", "PENDING"),
                        ],
                        nodeCount=1003,
                        itemsOmitted=True,
                    )
                ),
                list_nodes(
                    {"nodeId": "each", "pageSize": 2, "state": "NODE_STATE_READY"},
                    response={
                        "nodes": [nd("each#0", "READY"), nd("each#1", "READY")],
                        "nextPageToken": "<any>",
                    },
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/group-result-is-the-items-in-order",
            "GetNodeResult of the fan-out node is the array of item results in item "
            "order; of one item, that item's result.",
            [
                *fan13,
                node_result("each", response={"present": True, "resultJson": joined}),
                node_result("each#11", response={"present": True, "resultJson": '"v11"'}),
            ],
            RUNS,
        ),
        vector(
            "fanout/items-expand-only-when-the-source-is-done",
            "While the source runs, the fan-out node is PENDING with no items.",
            [
                teach(),
                start(fanout_def()),
                claim_one("split"),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("split", "RUNNING", attempts=1),
                            nd("each", "PENDING"),
                            nd("join", "PENDING"),
                        ],
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/empty-array-completes-vacuously",
            "A fan-out over an empty array is DONE at once without items; the join "
            "receives an empty array.",
            [
                teach(),
                start(fanout_def()),
                claim_one("split"),
                complete("split", '{"items":[]}'),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("split", "DONE", attempts=1, result=True),
                            nd("each", "DONE", result=True, items=None),
                            nd("join", "READY"),
                        ],
                    )
                ),
                claim(
                    [task("join", input_json="[]", output="<any>")],
                    captures={"join": "tasks.0.attemptId"},
                ),
                complete("join", "[]"),
                get_run(snapshot("COMPLETED", resultJson="[]")),
            ],
            RUNS,
        ),
        vector(
            "fanout/non-array-fails-the-run",
            "A fan-out whose path holds an object (the schema did not say) fails the "
            "fan-out node and the run instead of hanging.",
            [
                teach(),
                start(fanout_def({"type": "object"})),
                claim_one("split"),
                complete("split", '{"items":{"not":"an array"}}'),
                get_run(
                    snapshot(
                        "FAILED",
                        [
                            nd("split", "DONE", attempts=1, result=True),
                            nd("each", "FAILED", error="<any>"),
                            nd("join", "CANCELLED"),
                        ],
                        resultError="<any>",
                    )
                ),
                claim(None),
            ],
            RUNS,
        ),
        vector(
            "fanout/missing-path-fails-the-run",
            "A fan-out whose path is absent from the result fails the run.",
            [
                teach(),
                start(fanout_def({"type": "object"})),
                claim_one("split"),
                complete("split", '{"other":[1]}'),
                get_run(snapshot("FAILED", resultError="<any>")),
            ],
            RUNS,
        ),
        vector(
            "fanout/over-the-whole-result",
            "fanout.over node:<dep> without a path fans out over the result itself.",
            [
                teach(),
                start(
                    definition(
                        "each",
                        split=node(output=json_out({"type": "array"})),
                        each=node(
                            "fanout_item",
                            ("split",),
                            json_out({"type": "integer"}),
                            fanout={"over": "node:split"},
                        ),
                    )
                ),
                claim_one("split"),
                complete("split", "[7,8]"),
                claim(
                    [{"nodeId": "each"}, {"nodeId": "each"}],
                    max_tasks=5,
                    captures={
                        "x": "tasks.0.attemptId",
                        "xi": "tasks.0.inputJson",
                        "y": "tasks.1.attemptId",
                        "yi": "tasks.1.inputJson",
                    },
                ),
                complete("y", "${yi}"),
                complete("x", "${xi}"),
                get_run(snapshot("COMPLETED", resultJson="[7,8]")),
            ],
            RUNS,
        ),
        vector(
            "fanout/failed-item-fails-the-group-and-the-run",
            "A non-retryable failure of one item fails the fan-out node and the run; the "
            "other running item is asked to stop (the run is FAILING), and its worker's "
            "NOT_APPLIED report cancels it: the run is FAILED.",
            [
                teach(),
                start(fanout_def()),
                claim_one("split"),
                complete("split", '{"items":["p","q"]}'),
                claim(
                    [{"nodeId": "each"}, {"nodeId": "each"}],
                    max_tasks=5,
                    captures={"x": "tasks.0.attemptId", "y": "tasks.1.attemptId"},
                ),
                fail("x", "item broke", response={"willRetry": None}),
                get_run(snapshot("FAILING", resultError="<any>")),
                fail("y", "stopped", response={"willRetry": None}),
                get_run(snapshot("FAILED", resultError="<any>")),
            ],
            RUNS,
        ),
        vector(
            "fanout/join-of-two-nodes-is-keyed-by-node",
            "A node reading [node:a, node:b] receives {a: ..., b: ...} whichever finished first.",
            [
                teach("", "b", "j"),
                start(
                    definition(
                        "j",
                        a=node(output=json_out({"type": "integer"})),
                        b=node(output=json_out({"type": "integer"}), tag="b"),
                        j=node(["node:b", "node:a"], ("a", "b"), tag="j"),
                    )
                ),
                claim_one("b", tag="b"),
                complete("b", "2"),
                get_run(
                    snapshot(
                        "RUNNING",
                        [
                            nd("a", "READY"),
                            nd("b", "DONE", attempts=1, result=True),
                            nd("j", "PENDING"),
                        ],
                    )
                ),
                claim_one("a"),
                complete("a", "1"),
                claim(
                    [task("j", tag="j", input_json='{"a":1,"b":2}')],
                    tag="j",
                    captures={"j": "tasks.0.attemptId"},
                ),
            ],
            RUNS,
        ),
        vector(
            "fanout/fanout-over-a-fanout-is-rejected",
            "A fan-out over a fan-out group fails validation with DEFINITION_INVALID.",
            [
                teach(),
                start(
                    definition(
                        "again",
                        split=node(output=json_out(ITEMS_SCHEMA)),
                        each=node(
                            "fanout_item",
                            ("split",),
                            json_out({"type": "array"}),
                            fanout={"over": "node:split.items"},
                        ),
                        again=node(
                            "fanout_item",
                            ("each",),
                            json_out({"type": "string"}),
                            fanout={"over": "node:each"},
                        ),
                    ),
                    error=(INVALID, "DEFINITION_INVALID"),
                ),
            ],
            RUNS,
        ),
    ]


# --- events ---------------------------------------------------------------------------


def events_vectors() -> list[dict[str, Json]]:
    sub = "sub-${ns}"
    lifecycle = [
        event("RUN_STARTED"),
        event("NODE_DISPATCHED", "a"),
        event("NODE_COMPLETED", "a"),
        event("RUN_COMPLETED"),
    ]
    return [
        vector(
            "events/run-lifecycle-in-order",
            "A one-node run writes RUN_STARTED, NODE_DISPATCHED, NODE_COMPLETED and "
            "RUN_COMPLETED, in that order, for that run.",
            [*one_done(), list_events(runId="${run}", response={"events": lifecycle})],
            EVENTS,
        ),
        vector(
            "events/paging-with-after-and-limit",
            "limit 2 returns the first two events and next_after = the second's seq; "
            "after = next_after returns the rest.",
            [
                *one_done(),
                list_events(
                    runId="${run}",
                    limit=2,
                    response={"events": lifecycle[:2]},
                    captures={"e1": "events.1.seq", "next": "nextAfter"},
                ),
                list_events(runId="${run}", limit=2, response={"nextAfter": "${e1}"}),
                list_events(
                    runId="${run}",
                    after="${next}",
                    response={"events": lifecycle[2:]},
                    captures={"e3": "events.1.seq"},
                ),
                list_events(
                    runId="${run}",
                    after="${e3}",
                    response={"events": None, "nextAfter": "${e3}"},
                ),
            ],
            EVENTS,
        ),
        vector(
            "events/sequence-numbers-increase",
            "Each event's seq is greater than the previous: reading after each one's seq "
            "returns exactly the events that follow it.",
            [
                *one_done(),
                list_events(
                    runId="${run}",
                    response={"events": lifecycle},
                    captures={"s0": "events.0.seq", "s2": "events.2.seq"},
                ),
                list_events(runId="${run}", after="${s0}", response={"events": lifecycle[1:]}),
                list_events(runId="${run}", after="${s2}", response={"events": lifecycle[3:]}),
            ],
            EVENTS,
        ),
        vector(
            "events/failed-run-events",
            "A non-retryable failure writes NODE_FAILED then RUN_FAILED.",
            [
                *started_and_claimed(),
                fail(response={"willRetry": None}),
                list_events(
                    runId="${run}",
                    response={
                        "events": [
                            event("RUN_STARTED"),
                            event("NODE_DISPATCHED", "a"),
                            event("NODE_FAILED", "a"),
                            event("RUN_FAILED"),
                        ]
                    },
                ),
            ],
            EVENTS,
        ),
        vector(
            "events/stopped-run-writes-run-cancelled",
            "StopRun writes RUN_CANCELLED at the stop time.",
            [
                teach(),
                start(ONE),
                stop(response={"run": snapshot("CANCELLED")}, advance_ms=40),
                list_events(
                    runId="${run}",
                    response={
                        "events": [
                            event("RUN_STARTED"),
                            event("RUN_CANCELLED", at="${t0+40}"),
                        ]
                    },
                ),
            ],
            EVENTS,
        ),
        vector(
            "events/fanout-writes-node-expanded",
            "A fan-out over two items writes NODE_EXPANDED for the fan-out node after the "
            "source completes.",
            [
                teach(),
                start(fanout_def()),
                claim_one("split"),
                complete("split", '{"items":["p","q"]}'),
                list_events(
                    runId="${run}",
                    response={
                        "events": [
                            event("RUN_STARTED"),
                            event("NODE_DISPATCHED", "split"),
                            event("NODE_COMPLETED", "split"),
                            event("NODE_EXPANDED", "each"),
                        ]
                    },
                ),
            ],
            EVENTS,
        ),
        vector(
            "events/event-times-follow-the-clock",
            "Each event's at_ms is the test clock at the command that wrote it.",
            [
                teach(),
                start(ONE),
                claim_one(advance_ms=100),
                complete(advance_ms=200),
                list_events(
                    runId="${run}",
                    response={
                        "events": [
                            event("RUN_STARTED"),
                            event("NODE_DISPATCHED", "a", at="${t0+100}"),
                            event("NODE_COMPLETED", "a", at="${t0+300}"),
                            event("RUN_COMPLETED", at="${t0+300}"),
                        ]
                    },
                ),
            ],
            EVENTS,
        ),
        vector(
            "events/subscriber-filter-selects-its-runs",
            "ListEvents by subscriber returns only events of runs started with it.",
            [
                teach(),
                start(ONE, request_id="${ns}-mine", subscriber=sub, capture="run"),
                start(ONE, request_id="${ns}-other", capture="other"),
                list_events(subscriber=sub, response={"events": [event("RUN_STARTED")]}),
                get_run(snapshot("RUNNING", subscriber=sub)),
            ],
            EVENTS,
        ),
        vector(
            "events/ack-moves-forward-only",
            "AckEvents records the cursor; a lower cursor leaves it where it was.",
            [
                *one_done(),
                list_events(
                    runId="${run}",
                    response={"events": lifecycle},
                    captures={"s1": "events.1.seq", "s2": "events.2.seq"},
                ),
                ack(sub, "${s2}", response={"cursor": "${s2}"}),
                ack(sub, "${s1}", response={"cursor": "${s2}"}),
                ack(sub, "0", response={"cursor": "${s2}"}),
            ],
            EVENTS,
        ),
        vector(
            "events/ack-past-the-end-is-refused",
            "A cursor beyond the last event fails with PAGE_INVALID.",
            [ack(sub, "9223372036854775807", error=(INVALID, "PAGE_INVALID"))],
            EVENTS,
        ),
        vector(
            "events/ack-needs-a-subscriber",
            "AckEvents without a subscriber fails with FIELD_REQUIRED.",
            [ack("", "1", error=(INVALID, "FIELD_REQUIRED"))],
            EVENTS,
        ),
        vector(
            "events/negative-cursor-is-refused",
            "ListEvents after -1 and AckEvents cursor -1 fail with PAGE_INVALID.",
            [
                list_events(after="-1", error=(INVALID, "PAGE_INVALID")),
                ack(sub, "-1", error=(INVALID, "PAGE_INVALID")),
            ],
            EVENTS,
        ),
        vector(
            "events/cursor-above-2-53-returns-an-empty-page",
            "after = 2^63-1 returns no events and echoes the cursor exactly.",
            [
                list_events(
                    after="9223372036854775807",
                    response={"events": None, "nextAfter": "9223372036854775807"},
                )
            ],
            EVENTS,
        ),
        vector(
            "events/limit-is-bounded",
            "ListEvents with limit 1001 fails with PAGE_INVALID.",
            [list_events(limit=1001, error=(INVALID, "PAGE_INVALID"))],
            EVENTS,
        ),
        vector(
            "events/unknown-run-has-no-events",
            "ListEvents filtered to a run that does not exist returns an empty page.",
            [list_events(runId="run-${ns}", response={"events": None})],
            EVENTS,
        ),
        vector(
            "events/reading-needs-a-grant",
            "ListEvents without a credential is UNAUTHENTICATED; a reader without event "
            "grants is ACTION_NOT_GRANTED.",
            [
                list_events("", error=("UNAUTHENTICATED", "CREDENTIAL_MISSING")),
                list_events("reader", error=("PERMISSION_DENIED", "ACTION_NOT_GRANTED")),
            ],
            EVENTS,
        ),
    ]


# --- progress reported with heartbeats --------------------------------------------------


def progress_vectors() -> list[dict[str, Json]]:
    """Progress reports: the latest per attempt shown by GetRun and ListRunNodes; reports
    past their bounds refuse the heartbeat."""
    shown = {
        "attemptId": "${att}",
        "text": "2 of 3",
        "dataJson": '{"done":2,"total":3}',
        "reportedAtMs": "${t0+1000}",
        "reports": "2",
    }
    return [
        vector(
            "progress/latest-report-is-shown",
            "A Heartbeat carrying a ProgressReport makes it the attempt's progress; a later "
            "report replaces it (reports counts them, data_json is kept canonical), and "
            "GetRun and ListRunNodes show it on the node.",
            [
                *started_and_claimed(),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [{**nd("a", "RUNNING", attempts=1, att="att"), "progress": None}],
                    )
                ),
                heartbeat(progress={"text": "1 of 3"}, response={"cancelled": None}),
                heartbeat(
                    progress={"text": "2 of 3", "dataJson": '{ "total": 3, "done": 2 }'},
                    response={"cancelled": None},
                    advance_ms=1000,
                ),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [{**nd("a", "RUNNING", attempts=1, att="att"), "progress": shown}],
                    )
                ),
                list_nodes({}, response={"nodes": [{"nodeUid": "a", "progress": shown}]}),
                complete(),
                get_run(
                    snapshot(
                        "COMPLETED",
                        [
                            {
                                **nd("a", "DONE", attempts=1, att="att", result=True),
                                "progress": shown,
                            }
                        ],
                    )
                ),
            ],
            RUNS,
        ),
        vector(
            "progress/report-is-bounded",
            "A ProgressReport whose text passes 512 UTF-8 bytes fails with TEXT_TOO_LONG, "
            "whose data_json passes 1,024 bytes with DOCUMENT_TOO_LARGE, and malformed JSON "
            "with DOCUMENT_MALFORMED; the refused heartbeat keeps nothing.",
            [
                *started_and_claimed(),
                heartbeat(progress={"text": "x" * 513}, error=(INVALID, "TEXT_TOO_LONG")),
                heartbeat(
                    progress={"dataJson": json.dumps({"log": "y" * 1100})},
                    error=(INVALID, "DOCUMENT_TOO_LARGE"),
                ),
                heartbeat(progress={"dataJson": "{oops"}, error=(INVALID, "DOCUMENT_MALFORMED")),
                get_run(
                    snapshot(
                        "AWAITING_NODES",
                        [{**nd("a", "RUNNING", attempts=1, att="att"), "progress": None}],
                    )
                ),
                heartbeat(progress={"text": "x" * 512}, response={"cancelled": None}),
            ],
            RUNS,
        ),
    ]
