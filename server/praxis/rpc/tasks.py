"""TaskService: workers claim attempts (long poll), heartbeat and settle them."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Any

import grpc

from aiws.engine.v1 import common_pb2, task_pb2, task_pb2_grpc
from praxis.clock import Clock
from praxis.core import functions, progress, values
from praxis.core import run as core
from praxis.core.rejection import Rejection, invalid
from praxis.limits import ServingLimits
from praxis.rpc.auth import Credential, credential, principal
from praxis.rpc.errors import code_number, unwrap
from praxis.rpc.serving import Blocking, Gates, abort_async
from praxis.store.runtime.matching import Waiter
from praxis.store.runtime.tasks import Claim, Settlement, TaskStore, TaskView, check_claim
from praxis.store.wake.hub import Hub, Subscription, call_soon, work_topic

CONTENDED_RETRY_S = 0.05
"""How soon a long poll claims again after its claim skipped a run another transaction held
(PostgreSQL replicas): that transaction's commit may wake nobody."""


_EFFECTS: dict[int, core.Effect] = {
    common_pb2.EFFECT_OUTCOME_APPLIED: core.Effect.APPLIED,
    common_pb2.EFFECT_OUTCOME_NOT_APPLIED: core.Effect.NOT_APPLIED,
    common_pb2.EFFECT_OUTCOME_UNCERTAIN: core.Effect.UNCERTAIN,
}


def task_to_proto(task: TaskView) -> task_pb2.Task:
    """A leased attempt as the worker sees it."""
    agent = task.agent
    return task_pb2.Task(
        attempt_id=task.attempt_id,
        run_id=task.run_id,
        node_uid=task.node_uid,
        node_id=task.node_id,
        attempt=task.attempt,
        operation_id=task.operation_id,
        agent=task_pb2.AgentSpec(
            model=agent.model,
            system_prompt=agent.system_prompt,
            functions_json=values.canonical_json(functions.normalize(agent.functions)),
            output_json=values.canonical_json(
                {"type": "text"}
                if agent.output.kind == "text"
                else {"type": "json", "schema": agent.output.schema}
            ),
            provider=agent.provider,
        ),
        input_json=task.input_json,
        template=task.template,
        deadline_ms=task.deadline_ms,
        lease_expires_at_ms=task.lease_expires_at_ms,
        traceparent=task.traceparent,
        revision=task.revision,
        effects=_NODE_EFFECTS[task.effects],
    )


_NODE_EFFECTS = {
    "": task_pb2.NODE_EFFECTS_UNSPECIFIED,
    "none": task_pb2.NODE_EFFECTS_NONE,
    "idempotent": task_pb2.NODE_EFFECTS_IDEMPOTENT,
    "external": task_pb2.NODE_EFFECTS_EXTERNAL,
}


def effect_from_proto(value: int) -> core.Effect | Rejection:
    """The core effect, or ENUM_INVALID for unspecified or unknown values."""
    effect = _EFFECTS.get(value)
    if effect is None:
        return invalid("ENUM_INVALID", "effect", "effect must be APPLIED, NOT_APPLIED or UNCERTAIN")
    return effect


class TaskServicer(task_pb2_grpc.TaskServiceServicer):
    """TaskService over a :class:`TaskStore`."""

    def __init__(
        self,
        store: TaskStore,
        hub: Hub,
        clock: Clock,
        blocking: Blocking | None = None,
        gates: Gates | None = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock = clock
        self.blocking = blocking or Blocking()
        self.gates = gates or Gates(ServingLimits())

    async def ClaimTasks(  # gRPC method name
        self, request: task_pb2.ClaimTasksRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> task_pb2.ClaimTasksResponse:
        models = list(request.models)
        problem = check_claim(
            request.worker_id, models, request.max_tasks, request.lease_ms, request.wait_ms
        )
        if problem:
            await abort_async(context, problem)
        checked = credential()
        tasks = await checked.unwrap(
            context,
            await self.claim_waiting(
                checked,
                request.worker_id,
                models,
                request.max_tasks,
                request.lease_ms,
                request.wait_ms,
            ),
        )
        return task_pb2.ClaimTasksResponse(tasks=[task_to_proto(t) for t in tasks])

    async def claim_waiting(
        self,
        checked: Credential,
        worker_id: str,
        models: list[str],
        max_tasks: int,
        lease_ms: int,
        wait_ms: int,
        subscribed: Subscription | None = None,
    ) -> list[TaskView] | Rejection:
        """Claims at once, or waits up to ``wait_ms`` for work (the long poll).

        The wait holds no thread: it awaits the ``work:<model>`` wake-ups that commits in
        any server process publish, plus a timer for the earliest retry backoff. A
        waiting call takes a long-poll slot (:class:`Gates`); past the limit it is
        refused with LONG_POLL_LIMIT_REACHED. SettleTasks passes the subscription it
        took before its batch's own claim found nothing (``subscribed``, which includes
        the credential's topic): then the first claim happens only if a wake-up came since.

        The caller's credential (``checked``) is authenticated again before each claim,
        and a revocation or rotation of its principal wakes the wait: a refused
        credential ends the call with its rejection, leasing nothing.
        """
        caller = checked.principal
        claim = functools.partial(self.store.claim, caller, worker_id, models, max_tasks, lease_ms)
        if wait_ms <= 0:
            result: list[TaskView] | Rejection = await self.blocking.run(claim)
            return result
        deadline = time.monotonic() + wait_ms / 1000
        request = Claim(worker_id, models, max_tasks, lease_ms, caller.principal_id)
        with self.gates.long_polls.held(caller.principal_id) as refused:
            if refused is not None:
                return refused
            if subscribed is not None:
                return await self._wait_for_work(
                    subscribed, checked, claim, deadline, request, subscribed.is_set
                )
            topics = [*(work_topic(model) for model in models), checked.topic]
            with self.hub.subscribe(topics) as work:
                return await self._wait_for_work(work, checked, claim, deadline, request, True)

    async def _wait_for_work(
        self,
        work: Subscription,
        checked: Credential,
        claim: Callable[[], list[TaskView] | Rejection],
        deadline: float,
        request: Claim,
        claim_first: bool,
    ) -> list[TaskView] | Rejection:
        """Claims whenever ``work`` is woken, until tasks come or ``deadline`` passes;
        while it sleeps a commit may hand it tasks (:meth:`_parked`)."""
        models, max_tasks = request.models, request.max_tasks
        claiming, skipped = claim_first, False
        while True:
            if claiming:
                work.clear()
                problem = checked.problem()  # revoked or rotated away: no lease
                if problem is not None:
                    return problem
                before = self.store.claims_skipped
                tasks = await self.blocking.run(claim)
                skipped = self.store.claims_skipped != before
                if isinstance(tasks, Rejection) or tasks:
                    if isinstance(tasks, list) and len(tasks) >= max_tasks:
                        work.pass_on()  # more may be ready: let another waiter look
                    return tasks
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.hub.closing:
                return []
            if work.is_set:
                claiming = True
                continue
            # A read, not a claim: what a timeout costs while nothing is ready.
            upcoming = await self.blocking.run(self._until_backoff_ends, models)
            if upcoming <= 0 and not claiming:
                claiming = True  # a backoff ended (or a wake-up was lost): claim now
                continue
            if upcoming <= 0 and skipped:
                upcoming = CONTENDED_RETRY_S  # ready rows of a run another transaction held
            elif upcoming <= 0:
                upcoming = self.hub.recheck_s()  # ready rows no claim takes: paused work orders
            claiming, handed = await self._parked(work, checked, request, min(remaining, upcoming))
            if handed:
                return handed

    async def _parked(
        self, work: Subscription, checked: Credential, request: Claim, timeout_s: float
    ) -> tuple[bool, list[TaskView]]:
        """Waits like ``work.wait`` while parked for a hand-off of ready work
        (:mod:`praxis.store.runtime.matching`): whether a wake-up came, and the tasks a
        commit handed this poll. A poll cancelled meanwhile (its caller went away) gives
        back what it was or is being handed."""
        loop = asyncio.get_running_loop()
        decided = asyncio.Event()

        def wake() -> None:  # on the loop
            decided.set()
            work.nudge()

        def wake_from_any_thread() -> None:
            if asyncio._get_running_loop() is loop:
                wake()  # a commit made on the loop: this poll answers before its writer goes on
            else:
                call_soon(loop, wake)

        waiter = self.store.waiters.park(
            Waiter(
                request, checked.principal, lambda: checked.problem() is None, wake_from_any_thread
            )
        )
        try:
            woken = await work.wait(timeout_s)
            handed = self.store.waiters.leave(waiter)
            while handed is None:  # a commit is leasing to it right now: await its end
                await decided.wait()
                handed = self.store.waiters.leave(waiter)
        except BaseException:
            self.store.waiters.abandon(waiter)
            raise
        return woken, handed

    def _until_backoff_ends(self, models: list[str]) -> float:
        """Seconds until the earliest retry backoff of ``models`` ends, at most the recheck."""
        upcoming = self.store.next_ready_ms(models)
        if upcoming is None:
            return self.hub.recheck_s()
        return max(0.0, min(self.hub.recheck_s(), (upcoming - self.clock.now_ms()) / 1000))

    def ListModels(
        self, request: task_pb2.ListModelsRequest, context: grpc.ServicerContext
    ) -> task_pb2.ListModelsResponse:
        models = unwrap(context, self.store.list_models(principal()))
        return task_pb2.ListModelsResponse(
            models=[
                task_pb2.Model(
                    name=name,
                    source=task_pb2.MODEL_SOURCE_CONFIG
                    if configured
                    else task_pb2.MODEL_SOURCE_WORKER,
                    expires_at_ms=expires_at_ms,
                )
                for name, configured, expires_at_ms in models
            ]
        )

    def Heartbeat(
        self, request: task_pb2.HeartbeatRequest, context: grpc.ServicerContext
    ) -> task_pb2.HeartbeatResponse:
        report = None
        if request.HasField("progress"):
            report = unwrap(
                context, progress.check(request.progress.text, request.progress.data_json)
            )
        reply = unwrap(
            context,
            self.store.heartbeat(
                principal(), request.attempt_id, request.worker_id, request.lease_ms, report
            ),
        )
        return task_pb2.HeartbeatResponse(
            lease_expires_at_ms=reply.lease_expires_at_ms,
            cancelled=reply.cancelled,
            paused=reply.paused,
        )

    def CompleteTask(
        self, request: task_pb2.CompleteTaskRequest, context: grpc.ServicerContext
    ) -> task_pb2.CompleteTaskResponse:
        settlement = unwrap(context, settlement_of(request))
        reply = unwrap(context, self.store.complete(principal(), settlement))
        return task_pb2.CompleteTaskResponse(replayed=reply.replayed)

    def FailTask(
        self, request: task_pb2.FailTaskRequest, context: grpc.ServicerContext
    ) -> task_pb2.FailTaskResponse:
        settlement = unwrap(context, settlement_of(request))
        reply = unwrap(context, self.store.fail(principal(), settlement))
        return task_pb2.FailTaskResponse(will_retry=reply.will_retry, replayed=reply.replayed)

    async def SettleTasks(
        self, request: task_pb2.SettleTasksRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> task_pb2.SettleTasksResponse:
        claim = request.claim if request.HasField("claim") else None
        if claim is not None:
            problem = check_claim(
                claim.worker_id, list(claim.models), claim.max_tasks, claim.lease_ms, claim.wait_ms
            )
            if problem:
                await abort_async(context, _prefixed(problem, "claim."))
        chosen: list[Settlement] = []
        refused: dict[int, Rejection] = {}
        for index, item in enumerate(request.settlements):
            found = settlement_from_proto(item, f"settlements[{index}]")
            if isinstance(found, Rejection):
                refused[index] = found
            else:
                chosen.append(found)
        checked = credential()
        models = list(claim.models) if claim is not None else []
        # Subscribed before the batch's own claim, so no wake-up after it is missed.
        topics = [*(work_topic(model) for model in models), checked.topic]
        with self.hub.subscribe(topics) as work:
            settled = await self.blocking.run(
                self.store.settle_many,
                checked.principal,
                chosen,
                None
                if claim is None
                else Claim(claim.worker_id, models, claim.max_tasks, claim.lease_ms),
            )
            replies, tasks = await checked.unwrap(context, settled)
            if claim is not None and not tasks and claim.wait_ms > 0:
                tasks = await checked.unwrap(
                    context,
                    await self.claim_waiting(
                        checked,
                        claim.worker_id,
                        models,
                        claim.max_tasks,
                        claim.lease_ms,
                        claim.wait_ms,
                        work,
                    ),
                )
        answers = iter(replies)
        results = []
        for index, item in enumerate(request.settlements):
            answer = refused.get(index) or next(answers)
            results.append(_settlement_result(item, answer))
        return task_pb2.SettleTasksResponse(
            results=results, tasks=[task_to_proto(t) for t in tasks]
        )


def settlement_from_proto(item: task_pb2.Settlement, path: str) -> Settlement | Rejection:
    """The store's settlement of one SettleTasks item, or why it is malformed."""
    kind = item.WhichOneof("outcome")
    if kind is None:
        return invalid("FIELD_REQUIRED", path, "a settlement needs `complete` or `fail`")
    return settlement_of(item.complete if kind == "complete" else item.fail, f"{path}.{kind}.")


def settlement_of(
    request: task_pb2.CompleteTaskRequest | task_pb2.FailTaskRequest, prefix: str = ""
) -> Settlement | Rejection:
    """The store's settlement of a CompleteTask or FailTask request (alone, or an item of
    SettleTasks whose field paths start with ``prefix``), or ENUM_INVALID for its effect."""
    effect = effect_from_proto(request.effect)
    if isinstance(effect, Rejection):
        return _prefixed(effect, prefix)
    cost = request.cost_microcredits or "0"
    if isinstance(request, task_pb2.CompleteTaskRequest):
        return Settlement(
            request.attempt_id, request.worker_id, effect, cost, result_json=request.result_json
        )
    return Settlement(
        request.attempt_id,
        request.worker_id,
        effect,
        cost,
        error=request.error,
        retryable=request.retryable,
        completed=False,
    )


def _settlement_result(
    item: task_pb2.Settlement, answer: core.Reply | Rejection
) -> task_pb2.SettlementResult:
    kind = item.WhichOneof("outcome")
    attempt_id = item.complete.attempt_id if kind == "complete" else item.fail.attempt_id
    if isinstance(answer, Rejection):
        return task_pb2.SettlementResult(
            attempt_id=attempt_id,
            error=task_pb2.SettlementError(
                code=code_number(answer.code), reason=answer.reason, message=answer.message
            ),
        )
    if kind == "complete":
        return task_pb2.SettlementResult(
            attempt_id=attempt_id, complete=task_pb2.CompleteTaskResponse(replayed=answer.replayed)
        )
    return task_pb2.SettlementResult(
        attempt_id=attempt_id,
        fail=task_pb2.FailTaskResponse(will_retry=answer.will_retry, replayed=answer.replayed),
    )


def _prefixed(rejection: Rejection, prefix: str) -> Rejection:
    """The rejection with its field paths under ``prefix`` (a field of a nested message)."""
    return dataclasses.replace(
        rejection,
        violations=tuple(
            dataclasses.replace(v, field=prefix + v.field) for v in rejection.violations
        ),
    )
