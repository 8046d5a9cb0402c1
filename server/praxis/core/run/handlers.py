""":func:`apply` and one handler per command."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import immutables

from praxis.core import contract, jsonschema, values
from praxis.core.definition import DEFAULT_LIMITS, Limits, Node
from praxis.core.frozen import evolve
from praxis.core.rejection import Code, FieldViolation, Rejection, not_found, precondition
from praxis.core.run import replace as replace_run
from praxis.core.run.commands import (
    Command,
    Complete,
    Dispatch,
    Expire,
    Fail,
    Heartbeat,
    Outcome,
    Reconcile,
    Reply,
    Resume,
    Return,
    Revise,
    SatisfyWait,
    Start,
    Stop,
    attempt_id,
)
from praxis.core.run.graph import (
    block,
    cancel,
    check_result,
    ended_attempt,
    finish,
    node_done,
    promote,
    reprobe,
    retry_or_fail,
    settle,
    stopped,
    unreported,
)
from praxis.core.run.queues import timer_due
from praxis.core.run.state import (
    DECIDED,
    HOLDING,
    TERMINAL,
    Attempt,
    AttemptStatus,
    Effect,
    NodeRun,
    NodeStatus,
    RunState,
    RunStatus,
    order_key,
    ordered_uids,
    reservation,
)
from praxis.core.run.work import Work


def apply(
    state: RunState | None, command: Command, now_ms: int, limits: Limits = DEFAULT_LIMITS
) -> Outcome | Rejection:
    """Decides one command.

    Args:
        state: The run's snapshot (``None`` only for :class:`Start`).
        command: The command.
        now_ms: The current time.
        limits: Caps on fan-outs and run size.

    Returns:
        The writes of the command, or why it is refused.
    """
    if isinstance(command, Start):
        return _start(command, now_ms, limits)
    if state is None:
        return not_found("RUN_NOT_FOUND", "no such run")
    work = Work(state, now_ms, limits)
    return _HANDLERS[type(command)](work, command)


def _start(command: Start, now: int, limits: Limits) -> Outcome:
    nodes = immutables.Map(
        (node_id, NodeRun(node_id, node_id, revision=command.revision))
        for node_id in command.definition.nodes
    )
    state = RunState(
        command.run_id,
        command.definition,
        command.revision,
        nodes,
        deadline_ms=command.deadline_ms,
    )
    work = Work(state, now, limits)
    work.emit("RUN_STARTED", revision=command.revision, digest=command.definition.digest)
    promote(work, [n for n, spec in command.definition.nodes.items() if not spec.depends_on])
    settle(work)
    return work.outcome()


def _dispatch(work: Work, command: Dispatch) -> Outcome | Rejection:
    if work.status in DECIDED:
        return precondition("RUN_TERMINAL", "the run has ended")
    node = work.nodes.get(command.uid)
    if node is None or node.status is not NodeStatus.READY or node.not_before_ms > work.now:
        return precondition("ATTEMPT_SUPERSEDED", f"node {command.uid!r} is not ready")
    run_due = 0 < work.state.deadline_ms <= work.now
    if run_due or 0 < node.deadline_ms <= work.now:
        # Past the run's deadline or the node's schedule-to-start: never leased, whether
        # or not a sweep has expired it yet (claims skip paused work, so nothing is held).
        return _expire(work, Expire())
    spec = work.spec(node)
    refused = _refusal(work, command, spec)
    if refused is not None:
        reason, message = refused
        work.emit("DISPATCH_REFUSED", node.uid, reason=reason, message=message)
        work.reason = work.reason or reason
        retry_or_fail(work, node, f"{reason}: {message}", retryable=False)
        settle(work)
        return work.outcome()
    number = node.attempts + 1
    base = lease_base(work)
    dispatched = evolve(
        node,
        status=NodeStatus.RUNNING,
        attempts=number,
        attempt_id=attempt_id(work.state.run_id, node.uid, number),
        worker_id=command.worker_id,
        lease_expires_at_ms=base + command.lease_ms,
        deadline_ms=base + spec.timeout_ms if spec.timeout_ms else 0,
        not_before_ms=0,
    )
    work.set(dispatched)
    work.attempts.append(
        Attempt(
            dispatched.attempt_id,
            work.state.run_id,
            node.uid,
            number,
            command.worker_id,
            at_ms=work.now,
            principal_id=command.principal_id,
        )
    )
    work.emit(
        "NODE_DISPATCHED",
        node.uid,
        attempt=number,
        attempt_id=dispatched.attempt_id,
        worker_id=command.worker_id,
    )
    settle(work)
    return work.outcome(Reply(lease_expires_at_ms=dispatched.lease_expires_at_ms))


def _return(work: Work, command: Return) -> Outcome | Rejection:
    node = work.nodes.get(command.uid)
    if (
        work.status in TERMINAL
        or node is None
        or node.status not in HOLDING
        or node.attempt_id != command.attempt_id
        or node.worker_id != command.worker_id
    ):
        return precondition("ATTEMPT_SUPERSEDED", "the attempt was superseded or cancelled")
    if node.status is NodeStatus.STOPPING:
        # Asked to stop before it was ever delivered: nothing ran, nothing to hear.
        undelivered = ended_attempt(work, node, AttemptStatus.CANCELLED, Effect.NOT_APPLIED)
        stopped(work, node, node.error or "cancelled before delivery", undelivered)
        settle(work)
        return work.outcome()
    work.attempts.append(ended_attempt(work, node, AttemptStatus.CANCELLED))
    work.set(
        evolve(
            node,
            status=NodeStatus.READY,
            lease_expires_at_ms=0,
            deadline_ms=0,
            not_before_ms=0,
            attempt_base=node.attempt_base + 1,  # never delivered: not a try of its policy
        )
    )
    work.emit(
        "NODE_RETURNED",
        node.uid,
        attempt=node.attempts,
        attempt_id=node.attempt_id,
        worker_id=command.worker_id,
    )
    settle(work)
    return work.outcome()


def lease_base(work: Work) -> int:
    """When a lease or timeout granted now starts: the later of now and the run's last
    update (the clock's high-water mark for this run), so that a lease granted while the
    clock reads behind does not expire early once the clock is corrected."""
    return max(work.now, work.state.updated_at_ms)


def _refusal(work: Work, command: Dispatch, spec: Node) -> tuple[str, str] | None:
    """Why this dispatch is refused: an input over the cap, or the allowance (counting
    the run's running reserves)."""
    if command.input_bytes > work.limits.max_input_bytes:
        return (
            "INPUT_TOO_LARGE",
            f"the node's gathered input is {command.input_bytes} bytes; the cap is "
            f"{work.limits.max_input_bytes}",
        )
    if command.allowance is None:
        return None
    reserve = reservation(work.definition, spec.node_id)
    return contract.refusal(command.allowance, reserve, work.reserved, spec.timeout_ms, work.now)


def _live_attempt(work: Work, attempt: Attempt, worker_id: str) -> NodeRun | Rejection:
    """The node an unsettled attempt may still act on, or why it may not."""
    if attempt.worker_id != worker_id:
        return precondition("WORKER_MISMATCH", "the attempt is held by another worker")
    if attempt.status in (AttemptStatus.EXPIRED, AttemptStatus.TIMED_OUT):
        return precondition("LEASE_EXPIRED", f"the attempt {attempt.status.name.lower()}")
    node = work.nodes.get(attempt.node_uid)
    if (
        attempt.status is AttemptStatus.CANCELLED
        or work.status in TERMINAL
        or node is None
        or node.status not in HOLDING
        or node.attempt_id != attempt.attempt_id
    ):
        return precondition("ATTEMPT_SUPERSEDED", "the attempt was superseded or cancelled")
    if node.lease_expires_at_ms <= work.now:
        return precondition("LEASE_EXPIRED", "the attempt's lease expired")
    return node


def _noop(work: Work, reply: Reply = Reply()) -> Outcome:
    return Outcome(work.state, reply=reply, noop=True)


def _heartbeat(work: Work, command: Heartbeat) -> Outcome | Rejection:
    if command.attempt.status in (AttemptStatus.COMPLETED, AttemptStatus.FAILED):
        return _noop(work, Reply(cancelled=True))  # settled: nothing left to do
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        if node.reason == "ATTEMPT_SUPERSEDED":
            return _noop(work, Reply(cancelled=True))
        return node
    if node.status is NodeStatus.STOPPING:
        # Asked to stop: the lease is not extended; the report is heard until it ends.
        return _noop(work, Reply(cancelled=True, lease_expires_at_ms=node.lease_expires_at_ms))
    lease = max(node.lease_expires_at_ms, lease_base(work) + command.lease_ms)
    work.set(evolve(node, lease_expires_at_ms=lease))
    return work.outcome(Reply(lease_expires_at_ms=lease))


def _settled(attempt: Attempt, status: AttemptStatus, digest: str) -> Reply | Rejection | None:
    """A replay for the same settlement, a refusal for another, ``None`` if unsettled."""
    if attempt.status not in (AttemptStatus.COMPLETED, AttemptStatus.FAILED):
        return None
    if attempt.status is status and attempt.payload_digest == digest:
        return Reply(replayed=True, will_retry=attempt.will_retry)
    return Rejection(
        Code.ALREADY_EXISTS,
        "ATTEMPT_ALREADY_SETTLED",
        f"the attempt was already settled as {attempt.status.name.lower()}",
    )


def _complete(work: Work, command: Complete) -> Outcome | Rejection:
    digest = values.digest(
        {
            "result": command.result,
            "effect": command.effect.value,
            "cost": command.cost_microcredits,
        }
    )
    settled = _settled(command.attempt, AttemptStatus.COMPLETED, digest)
    if isinstance(settled, Reply):
        return _noop(work, settled)
    if settled is not None:
        return settled
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        return node
    problem = check_result(work.spec(node), command.result)
    if problem:
        return problem
    work.attempts.append(
        evolve(
            command.attempt,
            status=AttemptStatus.COMPLETED,
            payload_digest=digest,
            effect=command.effect.value,
            cost_microcredits=command.cost_microcredits,
            at_ms=work.now,
        )
    )
    mark = len(work.events)
    if command.effect is Effect.UNCERTAIN:
        block(work, node, "the attempt completed with an uncertain effect")
    else:
        work.result = (node.uid, command.result)
        asked = node.status is NodeStatus.STOPPING
        node_done(work, evolve(node, error="") if asked else node, command.result)
        if asked:  # settled after a stop: the result is kept, nothing runs past it
            _tag(work, mark, node.uid, "after_stop", True)
    _tag_effect(work, mark, node.uid, command.effect)
    work.note_effect(node.uid, command.effect.value)
    settle(work)
    return work.outcome()


_SETTLING_EVENTS = frozenset({"NODE_COMPLETED", "NODE_FAILED", "NODE_BLOCKED"})


def _tag_effect(work: Work, mark: int, uid: str, effect: Effect) -> None:
    """Adds the attempt's reported ``effect`` to the event(s) its settlement wrote for
    its node (``NODE_COMPLETED``, ``NODE_FAILED`` or ``NODE_BLOCKED``)."""
    _tag(work, mark, uid, "effect", effect.value)


def _tag(work: Work, mark: int, uid: str, key: str, value: values.JsonValue) -> None:
    """Adds ``key`` to the settling event(s) written since ``mark`` for node ``uid``."""
    for index in range(mark, len(work.events)):
        event = work.events[index]
        if event.node_uid == uid and event.kind in _SETTLING_EVENTS:
            work.events[index] = replace(event, payload={**event.payload, key: value})


def _fail(work: Work, command: Fail) -> Outcome | Rejection:
    digest = values.digest(
        {
            "error": command.error,
            "retryable": command.retryable,
            "effect": command.effect.value,
            "cost": command.cost_microcredits,
        }
    )
    settled = _settled(command.attempt, AttemptStatus.FAILED, digest)
    if isinstance(settled, Reply):
        return _noop(work, settled)
    if settled is not None:
        return settled
    node = _live_attempt(work, command.attempt, command.worker_id)
    if isinstance(node, Rejection):
        return node
    # An uncertain effect is never retried automatically: the execution model requires a
    # reviewed reconciliation first, so the node blocks instead of repeating the effect.
    will_retry = False
    mark = len(work.events)
    if command.effect is Effect.UNCERTAIN:
        block(work, node, f"the attempt failed with an uncertain effect: {command.error}")
    elif node.status is NodeStatus.STOPPING:
        _stopped_failure(work, node, command)
        _tag(work, mark, node.uid, "after_stop", True)
    else:
        will_retry = retry_or_fail(work, node, command.error, command.retryable)
    _tag_effect(work, mark, node.uid, command.effect)
    work.note_effect(node.uid, command.effect.value)
    work.attempts.append(
        evolve(
            command.attempt,
            status=AttemptStatus.FAILED,
            payload_digest=digest,
            will_retry=will_retry,
            effect=command.effect.value,
            cost_microcredits=command.cost_microcredits,
            at_ms=work.now,
        )
    )
    settle(work)
    return work.outcome(Reply(will_retry=will_retry))


def _stopped_failure(work: Work, node: NodeRun, command: Fail) -> None:
    """Settles a STOPPING node by its worker's failure report: never retried. Not applied:
    the node is CANCELLED, as the stop asked; applied: it FAILED with the effect kept."""
    asked = node.error.removeprefix("STOP_REQUESTED: ")
    if command.effect is Effect.NOT_APPLIED:
        stopped(work, node, f"{asked}; the worker reported the effect not applied")
        work.emit(
            "NODE_FAILED", node.uid, error=command.error, will_retry=False, attempt=node.attempts
        )
        return
    retry_or_fail(work, node, f"{asked}; the effect was applied: {command.error}", False)


def _expire(work: Work, command: Expire) -> Outcome | Rejection:
    if work.status in TERMINAL:
        return _noop(work)
    deadline = work.state.deadline_ms
    past = bool(deadline and deadline <= work.now and work.status not in DECIDED)
    if past:
        # Its live attempts are asked to stop; those whose leases already ran out are
        # settled below, as by any sweep.
        work.reason = "DEADLINE_EXCEEDED"
        finish(work, RunStatus.FAILED, f"the run's deadline passed (at {deadline} ms)")
    # Only READY, RUNNING and WAITING nodes have timers (``timed``); no command makes a
    # node RUNNING here, so the candidates are among those timed before the sweep.
    assert work.state.timed is not None
    timed = sorted(work.state.timed.keys(), key=order_key(work.definition))
    waits = [
        node
        for node in (work.nodes[uid] for uid in timed)
        if node.status is NodeStatus.WAITING and node.deadline_ms <= work.now
    ]
    expired = [node for node in waits if _expire_wait(work, node)]
    unclaimed = [
        node
        for node in (work.nodes[uid] for uid in timed)
        if node.status is NodeStatus.READY and 0 < node.deadline_ms <= work.now
    ]
    for node in unclaimed:
        _expire_unclaimed(work, node, command.held)
    due = [
        node
        for node in (work.nodes[uid] for uid in timed)
        if node.status in HOLDING and timer_due(node) <= work.now
    ]
    for node in due:
        current = work.nodes[node.uid]
        if current.status not in HOLDING:
            continue  # settled by an earlier expiry in this sweep
        if current.lease_expires_at_ms <= work.now:
            status, error = AttemptStatus.EXPIRED, "lease expired"
        else:
            status = AttemptStatus.TIMED_OUT
            error = f"timed out after {work.spec(current).timeout_ms} ms"
        why = (
            "the attempt's lease expired"
            if status is AttemptStatus.EXPIRED
            else (f"the attempt {error}")
        )
        if current.status is NodeStatus.STOPPING:
            why = f"asked to stop, then {why}"
        if unreported(work, current, status, why):
            continue
        if current.status is NodeStatus.STOPPING:
            stopped(work, current, f"{current.error.removeprefix('STOP_REQUESTED: ')}; {error}")
        else:
            retry_or_fail(work, current, error, retryable=True)
    if not past and not due and not expired and not unclaimed:
        return _noop(work)
    settle(work)
    return work.outcome()


def _expire_unclaimed(work: Work, node: NodeRun, held: bool) -> None:
    """A ready node no worker claimed before its schedule-to-start deadline fails, naming
    its model; while its work order is paused or held its timer is re-armed instead."""
    current = work.nodes[node.uid]
    if work.status in DECIDED or current.status is not NodeStatus.READY:
        return
    spec = work.spec(current)
    wait = spec.schedule_to_start_ms
    if held:
        work.set(evolve(current, deadline_ms=work.now + wait))
        return
    model = spec.agent.model
    work.emit("NODE_UNCLAIMED", current.uid, model=model, schedule_to_start_ms=wait)
    work.reason = work.reason or "SCHEDULE_TO_START_TIMEOUT"
    retry_or_fail(
        work,
        current,
        f"SCHEDULE_TO_START_TIMEOUT: no worker claimed it within {wait} ms; no worker "
        f"serves model {model!r}",
        retryable=False,
    )


def _expire_wait(work: Work, node: NodeRun) -> bool:
    """Expires one due wait: it fails, or takes its default. False when deferred.

    An outcome stores at most one result, so a second default in the same command is
    deferred: its timer row stays due and the next sweep takes it.
    """
    if work.status in DECIDED or work.nodes[node.uid].status is not NodeStatus.WAITING:
        return False
    wait = work.spec(node).wait
    assert wait is not None
    if wait.on_expiry == "default":
        if work.result is not None:
            return False
        work.emit("WAIT_EXPIRED", node.uid, on_expiry="default")
        work.result = (node.uid, wait.default)
        node_done(work, evolve(node, error="wait expired; took the default"), wait.default)
        return True
    work.emit("WAIT_EXPIRED", node.uid, on_expiry="fail")
    work.reason = work.reason or "WAIT_EXPIRED"
    retry_or_fail(work, node, "WAIT_EXPIRED: the wait expired", retryable=False)
    return True


def _satisfy(work: Work, command: SatisfyWait) -> Outcome | Rejection:
    node = work.nodes.get(command.uid)
    if node is None or work.spec(node).wait is None:
        return not_found("WAIT_NOT_FOUND", f"node {command.uid!r} is not a wait")
    wait = work.spec(node).wait
    assert wait is not None
    if node.status is NodeStatus.DONE and not node.error:
        return precondition("WAIT_ALREADY_SATISFIED", "the wait was already satisfied")
    if node.status in (NodeStatus.DONE, NodeStatus.FAILED) or (
        node.status is NodeStatus.WAITING and node.deadline_ms <= work.now
    ):
        return precondition("WAIT_EXPIRED", "the wait expired")
    if work.status in DECIDED or node.status is NodeStatus.CANCELLED:
        return precondition("RUN_TERMINAL", "the run has ended")
    if node.status is not NodeStatus.WAITING:
        return precondition("WAIT_NOT_OPEN", "the wait's dependencies have not finished")
    problems = jsonschema.validate(command.payload, wait.schema)
    if problems:
        return Rejection(
            Code.INVALID_ARGUMENT,
            "WAIT_PAYLOAD_INVALID",
            f"the payload does not match the wait's schema: {problems[0]}",
            tuple(FieldViolation("payload_json", problem) for problem in problems),
        )
    work.emit("WAIT_SATISFIED", node.uid)
    work.result = (node.uid, command.payload)
    node_done(work, node, command.payload)
    settle(work)
    return work.outcome()


def _reconcile(work: Work, command: Reconcile) -> Outcome | Rejection:
    node = work.nodes.get(command.uid)
    if (
        node is None
        or node.status is not NodeStatus.BLOCKED
        or node.attempt_id != command.attempt_id
    ):
        return precondition(
            "RECONCILIATION_NOT_PENDING", f"attempt {command.attempt_id!r} awaits no decision"
        )
    work.emit("NODE_RECONCILED", node.uid, attempt_id=command.attempt_id, applied=command.applied)
    decided = Effect.APPLIED if command.applied else Effect.NOT_APPLIED
    unblocked = evolve(node, error="", effect=decided.value)
    if command.applied and command.completed:
        work.result = (node.uid, command.result)
        node_done(work, unblocked, command.result)
    elif command.applied:
        retry_or_fail(work, unblocked, "the effect was applied but the attempt failed", False)
    elif work.status in DECIDED:
        # The run's outcome is decided: the orphan is settled, never run again.
        cancel(work, unblocked, "the effect was not applied; the run had ended")
    else:
        retry_or_fail(work, unblocked, "the effect was not applied; retrying", True)
    settle(work)
    return work.outcome()


def _stop(work: Work, command: Stop) -> Outcome | Rejection:
    if work.status in DECIDED:
        return _noop(work)  # ended, or its outcome decided and settling
    work.reason = command.result_reason
    finish(work, RunStatus.CANCELLED, command.reason or "stopped")
    return work.outcome()


def _revise(work: Work, command: Revise) -> Outcome | Rejection:
    if work.status in DECIDED:
        return _noop(work)
    new = command.definition
    plain = [work.nodes[node_id] for node_id in work.definition.nodes if node_id in work.nodes]
    conflicts = [
        FieldViolation(
            f"nodes.{node.node_id}",
            f"node {node.node_id!r} is {node.status.name.lower()} and the revision "
            + ("removes it" if node.node_id not in new.nodes else "changes it"),
        )
        for node in plain
        if node.dispatched
        and (
            node.node_id not in new.nodes
            or new.nodes[node.node_id].spec_digest != work.spec(node).spec_digest
        )
    ]
    if conflicts:
        return Rejection(
            Code.FAILED_PRECONDITION,
            "REVISION_CONFLICT",
            "the activation would change nodes already dispatched or finished: "
            + ", ".join(sorted(v.field[6:] for v in conflicts)),
            tuple(conflicts),
        )
    old_revision = work.revision
    for node in plain:
        if not node.dispatched:
            if node.node_id in new.nodes:
                work.set(NodeRun(node.uid, node.node_id, revision=command.revision))
            else:
                work.remove(node.uid)
    for node_id in new.nodes:
        if node_id not in work.nodes:
            work.set(NodeRun(node_id, node_id, revision=command.revision))
    work.definition, work.revision = new, command.revision
    work.recount_required()  # which nodes decide the outcome may have changed
    reprobe(work, command.source_results)
    work.emit("RUN_REVISED", revision=command.revision, previous_revision=old_revision)
    promote(
        work,
        [
            node_id
            for node_id in new.nodes
            if node_id in work.nodes and work.nodes[node_id].status is NodeStatus.PENDING
        ],
    )
    settle(work)
    return work.outcome()


def _resume(work: Work, command: Resume) -> Outcome | Rejection:
    if work.status not in (RunStatus.FAILED, RunStatus.CANCELLED):
        return precondition(
            "RUN_NOT_RESUMABLE",
            f"only a failed or cancelled run can be resumed; this one is {work.status.name}",
        )
    if work.count(NodeStatus.BLOCKED):
        return precondition(
            "RECONCILIATION_REQUIRED",
            f"{work.count(NodeStatus.BLOCKED)} node(s) await a reconciliation: decide "
            "their uncertain effects before resuming",
        )
    if command.deadline_ms and command.deadline_ms <= work.now:
        return precondition("DEADLINE_EXCEEDED", "the run's deadline has passed")
    replaced: frozenset[str] = frozenset()
    if command.definition is not None:
        refused = replace_run.conflicts(work.state, command.definition)
        if refused:
            return refused
        changes = replace_run.changes(work.state, command.definition)
        replaced = frozenset(change.node_id for change in changes)
        work.definition, work.revision = command.definition, command.revision
    work.status, work.result_error, work.finished_at, work.reason = RunStatus.RUNNING, "", 0, ""
    work.deadline = command.deadline_ms
    again = []
    for uid in ordered_uids(work.definition, work.nodes):
        node = work.nodes[uid]
        if node.status in (NodeStatus.FAILED, NodeStatus.CANCELLED):
            again.append(uid)
            work.set(_again(work, node, node.node_id in replaced, command.revision))
        elif node.node_id in replaced:  # never ran: it simply follows the head
            work.set(evolve(node, revision=command.revision))
    extra: dict[str, Any] = {}
    if command.definition is not None:
        extra = {"revision": command.revision, "replaced": sorted(replaced)}
    work.emit("RUN_RESUMED", by=command.by, reason=command.reason, nodes=len(again), **extra)
    promote(work, [uid for uid in again if work.nodes[uid].status is NodeStatus.PENDING])
    settle(work)
    return work.outcome()


def _again(work: Work, node: NodeRun, replaced: bool = False, revision: int = 0) -> NodeRun:
    """A failed or cancelled node made ready to run again by a resume.

    Its operation id is kept where repeating the effect is safe (:func:`same_operation`);
    otherwise it begins a new operation, as it does when a resume onto the head
    ``replaced`` its spec (then it also takes the head's ``revision``). A fan-out parent
    with items goes back to EXPANDED (its unfinished items become READY); any other node
    goes back to PENDING, to be promoted when its dependencies are done.
    """
    status = NodeStatus.PENDING
    if node.item >= 0:
        status = NodeStatus.READY
    elif node.items:
        status = NodeStatus.EXPANDED
    same = same_operation(work.spec(node), node) and not replaced
    return evolve(
        node,
        status=status,
        error="",
        attempt_base=node.attempts,
        operation=node.operation if same else node.operation + 1,
        revision=revision if replaced else node.revision,
        effect="",
        lease_expires_at_ms=0,
        deadline_ms=0,
        not_before_ms=0,
        finished_at_ms=0,
    )


def same_operation(spec: Node, node: NodeRun) -> bool:
    """Whether a resume runs ``node`` again under its operation id: its declared effects
    make a repeat safe, its last attempt's effect was settled as not applied, or it made
    no attempt since the last resume."""
    attempted = node.attempts > node.attempt_base
    return spec.retry_safe or node.effect == Effect.NOT_APPLIED.value or not attempted


_HANDLERS: dict[type, Callable[[Work, Any], Outcome | Rejection]] = {
    Dispatch: _dispatch,
    Return: _return,
    Heartbeat: _heartbeat,
    Complete: _complete,
    Fail: _fail,
    Expire: _expire,
    Stop: _stop,
    Revise: _revise,
    Reconcile: _reconcile,
    SatisfyWait: _satisfy,
    Resume: _resume,
}
