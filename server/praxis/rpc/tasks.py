"""TaskService: workers claim attempts (long poll), heartbeat and settle them."""

from __future__ import annotations

import time

import grpc

from aiws.engine.v1 import common_pb2, task_pb2, task_pb2_grpc
from praxis.clock import Clock
from praxis.core import run as core
from praxis.core import values
from praxis.core.rejection import Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import abort, unwrap
from praxis.store.runs import RunStore, Settlement, TaskView, check_claim
from praxis.store.signals import Signal

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
        caller = principal()
        deadline = time.monotonic() + request.wait_ms / 1000
        while True:
            seen = self.work.generation()
            tasks = unwrap(
                context,
                self.store.claim(
                    caller, request.worker_id, models, request.max_tasks, request.lease_ms
                ),
            )
            remaining = deadline - time.monotonic()
            if tasks or remaining <= 0 or not context.is_active():
                return task_pb2.ClaimTasksResponse(tasks=[task_to_proto(t) for t in tasks])
            self.work.wait(seen, min(remaining, self._backoff_wait(models)))

    def _backoff_wait(self, models: list[str]) -> float:
        """How long to wait: until a retry backoff ends, at most the recheck interval."""
        upcoming = self.store.next_ready_ms(models)
        if upcoming is None:
            return CLAIM_RECHECK_S
        return max(0.0, min(CLAIM_RECHECK_S, (upcoming - self.clock.now_ms()) / 1000))

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
