"""TaskService: workers claim attempts (long poll), heartbeat and settle them."""

from __future__ import annotations

import dataclasses
import time

import grpc
from google.rpc import code_pb2

from aiws.engine.v1 import common_pb2, task_pb2, task_pb2_grpc
from praxis.clock import Clock
from praxis.core import run as core
from praxis.core import values
from praxis.core.model import Principal
from praxis.core.rejection import Code, Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import abort, unwrap
from praxis.store.runs import Claim, RunStore, Settlement, TaskView, check_claim
from praxis.store.signals import Signal

_CODE_NUMBERS = {code: int(getattr(code_pb2, code.value)) for code in Code}
CLAIM_RECHECK_S = 0.25  # backstop for work readied by another process or a clock change

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
            functions_json=""
            if agent.functions is None
            else values.canonical_json(agent.functions),
            output_json=values.canonical_json(
                {"type": "text"}
                if agent.output.kind == "text"
                else {"type": "json", "schema": agent.output.schema}
            ),
        ),
        input_json=task.input_json,
        template=task.template,
        deadline_ms=task.deadline_ms,
        lease_expires_at_ms=task.lease_expires_at_ms,
        revision=task.revision,
    )


def effect_from_proto(value: int) -> core.Effect | Rejection:
    """The core effect, or ENUM_INVALID for unspecified or unknown values."""
    effect = _EFFECTS.get(value)
    if effect is None:
        return invalid("ENUM_INVALID", "effect", "effect must be APPLIED, NOT_APPLIED or UNCERTAIN")
    return effect


class TaskServicer(task_pb2_grpc.TaskServiceServicer):
    """TaskService over a :class:`RunStore`."""

    def __init__(self, store: RunStore, work: Signal, clock: Clock) -> None:
        self.store = store
        self.work = work
        self.clock = clock

    def ClaimTasks(  # gRPC method name
        self, request: task_pb2.ClaimTasksRequest, context: grpc.ServicerContext
    ) -> task_pb2.ClaimTasksResponse:
        models = list(request.models)
        problem = check_claim(
            request.worker_id, models, request.max_tasks, request.lease_ms, request.wait_ms
        )
        if problem:
            abort(context, problem)
        tasks = self._claim_waiting(context, principal(), request)
        return task_pb2.ClaimTasksResponse(tasks=[task_to_proto(t) for t in tasks])

    def _claim_waiting(
        self,
        context: grpc.ServicerContext,
        caller: Principal,
        request: task_pb2.ClaimTasksRequest,
        seen: int | None = None,
    ) -> list[TaskView]:
        """Claims, waiting up to ``request.wait_ms`` for work.

        ``seen`` is the work generation read before a claim that already found nothing
        (SettleTasks claims inside its batch first), so that no wake-up is missed.
        """
        models = list(request.models)
        deadline = time.monotonic() + request.wait_ms / 1000
        while True:
            if seen is None:
                seen = self.work.generation()
                claimed = unwrap(
                    context,
                    self.store.claim(
                        caller, request.worker_id, models, request.max_tasks, request.lease_ms
                    ),
                )
                if claimed:
                    return claimed
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not context.is_active():
                return []
            self.work.wait(seen, min(remaining, self._backoff_wait(models)))
            seen = None

    def _backoff_wait(self, models: list[str]) -> float:
        """How long to wait: until a retry backoff ends, at most the recheck interval."""
        upcoming = self.store.next_ready_ms(models)
        if upcoming is None:
            return CLAIM_RECHECK_S
        return max(0.0, min(CLAIM_RECHECK_S, (upcoming - self.clock.now_ms()) / 1000))

    def Heartbeat(
        self, request: task_pb2.HeartbeatRequest, context: grpc.ServicerContext
    ) -> task_pb2.HeartbeatResponse:
        reply = unwrap(
            context,
            self.store.heartbeat(
                principal(), request.attempt_id, request.worker_id, request.lease_ms
            ),
        )
        return task_pb2.HeartbeatResponse(
            lease_expires_at_ms=reply.lease_expires_at_ms, cancelled=reply.cancelled
        )

    def CompleteTask(
        self, request: task_pb2.CompleteTaskRequest, context: grpc.ServicerContext
    ) -> task_pb2.CompleteTaskResponse:
        effect = unwrap(context, effect_from_proto(request.effect))
        reply = unwrap(
            context,
            self.store.complete(
                principal(),
                Settlement(
                    attempt_id=request.attempt_id,
                    worker_id=request.worker_id,
                    effect=effect,
                    cost_microcredits=request.cost_microcredits or "0",
                    result_json=request.result_json,
                ),
            ),
        )
        return task_pb2.CompleteTaskResponse(replayed=reply.replayed)

    def FailTask(
        self, request: task_pb2.FailTaskRequest, context: grpc.ServicerContext
    ) -> task_pb2.FailTaskResponse:
        effect = unwrap(context, effect_from_proto(request.effect))
        reply = unwrap(
            context,
            self.store.fail(
                principal(),
                Settlement(
                    attempt_id=request.attempt_id,
                    worker_id=request.worker_id,
                    effect=effect,
                    cost_microcredits=request.cost_microcredits or "0",
                    error=request.error,
                    retryable=request.retryable,
                ),
            ),
        )
        return task_pb2.FailTaskResponse(will_retry=reply.will_retry, replayed=reply.replayed)

    def SettleTasks(
        self, request: task_pb2.SettleTasksRequest, context: grpc.ServicerContext
    ) -> task_pb2.SettleTasksResponse:
        claim = request.claim if request.HasField("claim") else None
        if claim is not None:
            problem = check_claim(
                claim.worker_id, list(claim.models), claim.max_tasks, claim.lease_ms, claim.wait_ms
            )
            if problem:
                abort(context, _prefixed(problem, "claim."))
        settlements: list[Settlement] = []
        refused: dict[int, Rejection] = {}
        for index, item in enumerate(request.settlements):
            found = settlement_from_proto(item, f"settlements[{index}]")
            if isinstance(found, Rejection):
                refused[index] = found
                found = Settlement("", "", core.Effect.UNCERTAIN, "0")  # placeholder, unused
            settlements.append(found)
        caller = principal()
        chosen = [s for i, s in enumerate(settlements) if i not in refused]
        seen = self.work.generation()
        replies, tasks = unwrap(
            context,
            self.store.settle_many(
                caller,
                chosen,
                None
                if claim is None
                else Claim(claim.worker_id, list(claim.models), claim.max_tasks, claim.lease_ms),
            ),
        )
        answers = iter(replies)
        results = []
        for index, item in enumerate(request.settlements):
            answer = refused.get(index) or next(answers)
            results.append(_settlement_result(item, answer))
        if claim is not None and not tasks and claim.wait_ms > 0:
            tasks = self._claim_waiting(context, caller, claim, seen)
        return task_pb2.SettleTasksResponse(
            results=results, tasks=[task_to_proto(t) for t in tasks]
        )


def settlement_from_proto(item: task_pb2.Settlement, path: str) -> Settlement | Rejection:
    """The store's settlement of one SettleTasks item, or why it is malformed."""
    kind = item.WhichOneof("outcome")
    if kind is None:
        return invalid("FIELD_REQUIRED", path, "a settlement needs `complete` or `fail`")
    body = item.complete if kind == "complete" else item.fail
    effect = effect_from_proto(body.effect)
    if isinstance(effect, Rejection):
        return _prefixed(effect, f"{path}.{kind}.")
    if kind == "complete":
        return Settlement(
            attempt_id=item.complete.attempt_id,
            worker_id=item.complete.worker_id,
            effect=effect,
            cost_microcredits=item.complete.cost_microcredits or "0",
            result_json=item.complete.result_json,
        )
    return Settlement(
        attempt_id=item.fail.attempt_id,
        worker_id=item.fail.worker_id,
        effect=effect,
        cost_microcredits=item.fail.cost_microcredits or "0",
        error=item.fail.error,
        retryable=item.fail.retryable,
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
                code=_CODE_NUMBERS[answer.code], reason=answer.reason, message=answer.message
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
