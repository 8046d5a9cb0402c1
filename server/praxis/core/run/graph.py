"""The DAG transitions: retry or fail a node, cancel, complete, probe results, promote
dependents, expand fan-outs, settle and finish the run."""

from __future__ import annotations

from collections.abc import Mapping

from praxis.core import jsonschema, values
from praxis.core.definition import Definition, Node
from praxis.core.frozen import evolve
from praxis.core.rejection import Code, FieldViolation, Rejection
from praxis.core.run.state import (
    DECIDED,
    ENDING,
    ENDS_AS,
    HOLDING,
    LIVE,
    REQUIRED,
    TERMINAL,
    Attempt,
    AttemptStatus,
    Effect,
    NodeRun,
    NodeStatus,
    RunState,
    RunStatus,
    item_uid,
    ordered_uids,
)
from praxis.core.run.work import Work


def check_result(spec: Node, result: values.JsonValue) -> Rejection | None:
    """A RESULT_CONTRACT_VIOLATION when ``result`` breaks the node's output contract."""
    contract = spec.agent.output
    if contract.kind == "text":
        problems = [] if isinstance(result, str) else ["$: a text output must be a JSON string"]
    else:
        problems = jsonschema.validate(result, contract.schema)
    if not problems:
        return None
    return Rejection(
        Code.INVALID_ARGUMENT,
        "RESULT_CONTRACT_VIOLATION",
        f"the result breaks node {spec.node_id!r}'s output contract: {problems[0]}",
        tuple(FieldViolation("result_json", problem) for problem in problems),
    )


def ended_attempt(
    work: Work, node: NodeRun, status: AttemptStatus, effect: Effect | None = None
) -> Attempt:
    """The record of a live attempt that ended without the worker's report."""
    return Attempt(
        node.attempt_id,
        work.state.run_id,
        node.uid,
        node.attempts,
        node.worker_id,
        status=status,
        effect=effect.value if effect else "",
        at_ms=work.now,
    )


def block(work: Work, node: NodeRun, why: str, effect: Effect | None = None) -> None:
    """Blocks a node until a reviewed reconciliation decides its uncertain effect.

    ``effect``: the effect the attempt reported, noted on the NODE_BLOCKED event.
    """
    work.set(
        evolve(
            node,
            status=NodeStatus.BLOCKED,
            lease_expires_at_ms=0,
            deadline_ms=0,
            error=f"RECONCILIATION_REQUIRED: {why}",
            effect=Effect.UNCERTAIN.value,
        )
    )
    payload: dict[str, values.JsonValue] = {"attempt_id": node.attempt_id, "attempt": node.attempts}
    if effect is not None:
        payload["effect"] = effect.value
    work.emit("NODE_BLOCKED", node.uid, **payload)


def unreported(work: Work, node: NodeRun, status: AttemptStatus, why: str) -> bool:
    """Ends a RUNNING or STOPPING node's attempt that ended without the worker's report
    (its lease expired or it timed out; for a STOPPING node, after it was asked to stop).

    For a node whose declared effects make a repeat safe (``none``, ``idempotent``) this
    only records the attempt and returns False: the caller retries or cancels the node.
    Otherwise (``external``, or undeclared: the safe default) the effect is never
    assumed: the attempt's effect is UNCERTAIN and the node blocks for a reconciliation.
    """
    spec = work.spec(node)
    if spec.retry_safe:
        work.attempts.append(ended_attempt(work, node, status))
        return False
    work.attempts.append(ended_attempt(work, node, status, Effect.UNCERTAIN))
    declared = f"declares effects {spec.effects!r}" if spec.effects else "declares no effects"
    block(
        work,
        node,
        f"{why} before the worker reported, and node {node.node_id!r} {declared}: "
        "its effect is uncertain",
        Effect.UNCERTAIN,
    )
    return True


def retry_or_fail(work: Work, node: NodeRun, error: str, retryable: bool) -> bool:
    """Schedules the next attempt within the budget, or fails the node. True on retry."""
    retry = work.spec(node).retry
    cleared = evolve(node, lease_expires_at_ms=0, deadline_ms=0, error=error)
    if retryable and node.attempts - node.attempt_base < retry.attempts:
        not_before = work.now + retry.delay_ms(node.attempts)
        work.set(evolve(cleared, status=NodeStatus.READY, not_before_ms=not_before))
        work.emit("NODE_FAILED", node.uid, error=error, will_retry=True, attempt=node.attempts)
        return True
    work.set(evolve(cleared, status=NodeStatus.FAILED))
    work.emit("NODE_FAILED", node.uid, error=error, will_retry=False, attempt=node.attempts)
    _node_failed(work, work.nodes[node.uid])
    return False


def _node_failed(work: Work, node: NodeRun) -> None:
    """Propagates a node's failure: to its fan-out group, its dependents, the run."""
    if work.status in DECIDED:
        return  # a settlement recorded after the outcome was decided changes only the node
    if node.item >= 0:
        parent = work.nodes[node.node_id]
        if parent.status is not NodeStatus.EXPANDED:
            return
        _cancel_items(work, parent, f"item {node.item} failed")
        failed = evolve(parent, status=NodeStatus.FAILED, error=f"{node.uid}: {node.error}")
        work.set(failed)
        work.emit("NODE_FAILED", failed.uid, error=failed.error, will_retry=False)
        node = failed
    if node.node_id in work.definition.required:
        work.reason = work.reason or "NODE_FAILED"
        finish(work, RunStatus.FAILED, _failure_summary(work))
        return
    pending = list(work.definition.dependents.get(node.node_id, ()))
    while pending:
        dependent = work.nodes.get(pending.pop())
        if dependent is not None and dependent.status is NodeStatus.PENDING:
            work.set(
                evolve(
                    dependent,
                    status=NodeStatus.CANCELLED,
                    error=f"dependency {node.node_id!r} failed",
                )
            )
            pending.extend(work.definition.dependents.get(dependent.node_id, ()))


def _failure_summary(work: Work) -> str:
    errors = [
        f"{node.uid}: {node.error}"
        for node in (work.nodes[n] for n in work.definition.nodes if n in work.nodes)
        if node.status is NodeStatus.FAILED
    ]
    return "required node failed: " + "; ".join(errors)


def _cancel_items(work: Work, parent: NodeRun, why: str) -> None:
    for index in range(parent.items):
        item = work.nodes[item_uid(parent.node_id, index)]
        if item.status in LIVE:
            cancel(work, item, why)


def cancel(work: Work, node: NodeRun, why: str) -> None:
    """Cancels a live node. A RUNNING one is asked to stop instead (STOPPING): its
    worker's report settles it (:func:`stopped`), or the end of its lease does
    (:func:`unreported`); a STOPPING one is left to its report."""
    if node.status is NodeStatus.STOPPING:
        return
    if node.status is NodeStatus.RUNNING:
        work.set(evolve(node, status=NodeStatus.STOPPING, error=f"STOP_REQUESTED: {why}"))
        return
    work.set(
        evolve(
            node,
            status=NodeStatus.CANCELLED,
            error=node.error or why,
            lease_expires_at_ms=0,
            deadline_ms=0,
            not_before_ms=0,
        )
    )


def stopped(work: Work, node: NodeRun, why: str, attempt: Attempt | None = None) -> None:
    """Ends a STOPPING node (or a RUNNING one whose attempt was never delivered) as
    CANCELLED: its worker reported the effect not applied, its attempt was given back
    undelivered, or its lease ran out on a node whose effects are retry-safe.
    ``attempt``: the attempt's record to write (``None`` when the caller writes it)."""
    if attempt is not None:
        work.attempts.append(attempt)
    work.set(
        evolve(
            node,
            status=NodeStatus.CANCELLED,
            error=why,
            lease_expires_at_ms=0,
            deadline_ms=0,
            not_before_ms=0,
        )
    )


def node_done(work: Work, node: NodeRun, result: values.JsonValue) -> None:
    done = evolve(
        node,
        status=NodeStatus.DONE,
        has_result=True,
        lease_expires_at_ms=0,
        deadline_ms=0,
        arrays=_probes(work.definition, node.node_id, result) if node.item < 0 else {},
    )
    work.set(done)
    work.emit("NODE_COMPLETED", node.uid, attempt_id=node.attempt_id, attempt=node.attempts)
    if node.item < 0:
        promote(work, list(work.definition.dependents.get(node.node_id, ())))
        return
    parent = work.nodes[node.node_id]
    if parent.status is not NodeStatus.EXPANDED:
        return
    parent = evolve(parent, items_done=parent.items_done + 1)
    work.set(parent)
    if parent.items_done == parent.items:
        work.set(evolve(parent, status=NodeStatus.DONE, has_result=True))
        work.emit("NODE_COMPLETED", parent.uid, items=parent.items)
        promote(work, list(work.definition.dependents.get(parent.node_id, ())))


def _probes(definition: Definition, node_id: str, result: values.JsonValue) -> dict[str, int | str]:
    """Array lengths (or why there is none) at each path a fan-out reads from a result."""
    probes: dict[str, int | str] = {}
    for consumer in definition.fanout_consumers.get(node_id, ()):
        fanout = definition.nodes[consumer].fanout
        assert fanout is not None
        probes[fanout.path_text] = probe(node_id, fanout.path, result)
    return probes


def probe(node_id: str, path: tuple[str, ...], result: values.JsonValue) -> int | str:
    """The length of the array at ``path`` in ``result``, or why there is none."""
    where = f"node:{node_id}" + "".join(f".{key}" for key in path)
    value = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return f"fan-out over {where}: the path does not exist in the result"
        value = value[key]
    if not isinstance(value, list):
        kind = "object" if isinstance(value, dict) else type(value).__name__
        if value is None:
            kind = "null"
        return f"fan-out over {where}: the value is {kind}, not an array"
    return len(value)


def revision_sources(state: RunState, definition: Definition) -> list[str]:
    """Finished fan-out sources whose results a revision needs for new fan-out paths."""
    needed = []
    for node_id, consumers in definition.fanout_consumers.items():
        node = state.nodes.get(node_id)
        if node is None or node.status is not NodeStatus.DONE:
            continue
        for consumer in consumers:
            fanout = definition.nodes[consumer].fanout
            assert fanout is not None
            if fanout.path_text not in node.arrays:
                needed.append(node_id)
                break
    return needed


def reprobe(work: Work, results: Mapping[str, values.JsonValue]) -> None:
    for node_id in revision_sources(work.state, work.definition):
        node = work.nodes[node_id]
        arrays = dict(node.arrays)
        for path, found in _probes(work.definition, node_id, results.get(node_id)).items():
            arrays.setdefault(path, found)
        work.set(evolve(node, arrays=arrays))


def promote(work: Work, candidates: list[str]) -> None:
    """Makes each PENDING candidate whose dependencies are all done READY (or expands it)."""
    pending = list(dict.fromkeys(candidates))
    while pending:
        node = work.nodes.get(pending.pop(0))
        if node is None or node.status is not NodeStatus.PENDING or work.status in DECIDED:
            continue
        spec = work.spec(node)
        if any(work.nodes[dep].status is not NodeStatus.DONE for dep in spec.depends_on):
            continue
        if spec.wait is not None:
            expires = work.now + spec.wait.expires_in_ms
            work.set(evolve(node, status=NodeStatus.WAITING, deadline_ms=expires))
            work.emit("NODE_WAITING", node.uid, expires_at_ms=expires)
        elif spec.fanout is None:
            work.set(evolve(node, status=NodeStatus.READY, not_before_ms=0))
        elif _expand(work, node, spec):
            pending.extend(work.definition.dependents.get(node.node_id, ()))


def _expand(work: Work, node: NodeRun, spec: Node) -> bool:
    """Expands a fan-out node into its items. True when it finished at once (empty)."""
    assert spec.fanout is not None
    found = work.nodes[spec.fanout.node].arrays.get(spec.fanout.path_text)
    if found is None:
        found = f"fan-out over node:{spec.fanout.node}: the source result was not probed"
    limits = work.limits
    if isinstance(found, int) and found > limits.max_fanout_items:
        found = f"fan-out of {found} items exceeds the cap of {limits.max_fanout_items}"
    elif isinstance(found, int) and len(work.nodes) + found > limits.max_run_nodes:
        found = f"fan-out of {found} items exceeds the run's cap of {limits.max_run_nodes} nodes"
    if isinstance(found, str):
        failed = evolve(node, status=NodeStatus.FAILED, error=found)
        work.set(failed)
        work.emit("NODE_FAILED", node.uid, error=found, will_retry=False)
        _node_failed(work, failed)
        return False
    work.emit("NODE_EXPANDED", node.uid, items=found)
    if found == 0:
        work.set(evolve(node, status=NodeStatus.DONE, has_result=True))
        work.emit("NODE_COMPLETED", node.uid, items=0)
        return True
    work.set(evolve(node, status=NodeStatus.EXPANDED, items=found))
    for index in range(found):
        uid = item_uid(node.node_id, index)
        work.set(NodeRun(uid, node.node_id, index, NodeStatus.READY, revision=node.revision))
    return False


def settle(work: Work) -> None:
    """Decides the run's outcome when its output is done (:func:`finish`), ends a run
    whose outcome is decided once nothing is unsettled (:func:`conclude`), otherwise
    recomputes RUNNING/AWAITING."""
    if work.status in TERMINAL:
        return
    if work.status in ENDING:
        conclude(work)
        return
    output = work.nodes[work.definition.output]
    if output.status is NodeStatus.DONE:
        finish(work, RunStatus.COMPLETED, "")
        return
    waiting = work.count(NodeStatus.PENDING, REQUIRED) + work.count(NodeStatus.READY, REQUIRED) > 0
    work.status = RunStatus.RUNNING if waiting else RunStatus.AWAITING_NODES


_ENDING_OF = {ends_as: ending for ending, ends_as in ENDS_AS.items()}
_END_EVENTS = {
    RunStatus.COMPLETED: "RUN_COMPLETED",
    RunStatus.FAILED: "RUN_FAILED",
    RunStatus.CANCELLED: "RUN_CANCELLED",
}


def finish(work: Work, status: RunStatus, error: str) -> None:
    """Decides the run's outcome (``status``, terminal) and ends it once nothing it
    started is unsettled.

    Every live node outside the outcome is cancelled; a RUNNING one is asked to stop
    (STOPPING) and keeps its attempt until the worker reports or the lease runs out. A
    BLOCKED node keeps its pending reconciliation: an uncertain effect is never
    forgotten. Until each stopping attempt has settled (and, for a completion, each
    uncertain effect was reconciled) the run is COMPLETING, FAILING or CANCELLING, and
    its RUN_COMPLETED, RUN_FAILED or RUN_CANCELLED event waits for the real end.
    """
    work.status, work.result_error = _ENDING_OF[status], error
    why = "run ended" if status is not RunStatus.CANCELLED else f"run cancelled: {error}"
    for node in [work.nodes[uid] for uid in ordered_uids(work.definition, work.nodes)]:
        if node.status in LIVE and node.status is not NodeStatus.BLOCKED:
            cancel(work, node, why)
    if unsettled(work):
        work.emit(
            "RUN_ENDING",
            status=status.value,
            result_error=error,
            stopping=work.count(NodeStatus.STOPPING),
            blocked=work.count(NodeStatus.BLOCKED) if status is RunStatus.COMPLETED else 0,
        )
    conclude(work)


def unsettled(work: Work) -> int:
    """How many nodes hold the end of a run whose outcome is decided: attempts still
    live, and for a completion uncertain effects awaiting a reconciliation."""
    live = sum(work.count(status) for status in HOLDING)
    if work.status is RunStatus.COMPLETING:
        live += work.count(NodeStatus.BLOCKED)
    return live


def conclude(work: Work) -> None:
    """Ends a run whose outcome is decided once nothing is unsettled."""
    if work.status not in ENDING or unsettled(work):
        return
    status = ENDS_AS[work.status]
    work.status, work.finished_at = status, work.now
    work.emit(_END_EVENTS[status], status=status.value, result_error=work.result_error)
