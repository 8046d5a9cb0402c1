"""The calls behind the MCP tools: each one or a few public RPCs as the agent principal.

Nothing here decides whether the agent may act: the server does, and its refusal
surfaces as :class:`Refused` carrying the server's own code, reason and message.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from aiws.engine.v1 import common_pb2, registry_pb2, run_pb2, task_pb2
from praxis_client import CallError, Client, error_details, to_json
from praxis_mcp import views
from praxis_mcp.limits import (
    DEFAULT_ASK_EXPIRY_S,
    DEFAULT_LEASE_S,
    MAX_QUESTION,
    bounded_wait,
)

CALL_TIMEOUT_S = 30.0
"""The deadline of each unary call (a long poll adds its own wait)."""

EFFECTS: dict[str, common_pb2.EffectOutcome] = {
    "applied": common_pb2.EFFECT_OUTCOME_APPLIED,
    "not_applied": common_pb2.EFFECT_OUTCOME_NOT_APPLIED,
    "uncertain": common_pb2.EFFECT_OUTCOME_UNCERTAIN,
}

ASK_NODE = "answer"
"""The node id of the one-node run ``ask_human`` starts."""

T = TypeVar("T")


class Refused(Exception):
    """The server refused a call: its code, ``ErrorInfo`` reason and message."""

    def __init__(self, error: CallError) -> None:
        super().__init__(f"{error.reason or error.code.name}: {error.message}")
        self.error = error

    def as_dict(self) -> dict[str, Any]:
        """The refusal as the tool reports it."""
        error = self.error
        out: dict[str, Any] = {
            "code": error.code.name,
            "reason": error.reason,
            "message": error.message,
        }
        if error.field_violations:
            out["field_violations"] = [
                {"field": name, "description": text} for name, text in error.field_violations
            ]
        return out


class Invalid(Exception):
    """An argument the tool cannot even send (not JSON, an unknown effect name)."""


def server_call(call: Callable[[], T]) -> T:
    """``call()``, with a server refusal turned into :class:`Refused`."""
    try:
        return call()
    except grpc.RpcError as error:
        raise Refused(error_details(error)) from None


def _digest(*parts: object) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _json_text(value: Any, what: str) -> str:
    try:
        return to_json(value)
    except (TypeError, ValueError) as error:
        raise Invalid(f"{what} is not a JSON value: {error}") from None


@dataclass
class Praxis:
    """The agent's calls over one client (``worker_id`` names it to TaskService)."""

    client: Client
    worker_id: str

    # -- registry ---------------------------------------------------------------------

    def get_definition(self, work_order_id: str, run_id: str) -> dict[str, Any]:
        """The head (active revision) of a ref."""
        ref = common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id)
        reply = server_call(
            lambda: self.client.registry.GetHead(
                registry_pb2.GetHeadRequest(ref=ref), timeout=CALL_TIMEOUT_S
            )
        )
        return views.head(reply.head)

    def propose_revision(
        self,
        work_order_id: str,
        run_id: str,
        definition: Any,
        summary: str,
        base_revision: int | None,
        proposal_id: str | None,
    ) -> dict[str, Any]:
        """A PROPOSE against the head (or ``base_revision``) with the head's policy
        digests; ids derived from the proposal, so a retry replays instead of doubling."""
        ref = common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id)
        text = _json_text(definition, "definition")
        current = server_call(
            lambda: self.client.registry.GetHead(
                registry_pb2.GetHeadRequest(ref=ref), timeout=CALL_TIMEOUT_S
            )
        ).head
        base = current.revision if base_revision is None else base_revision
        digest = _digest(work_order_id, run_id, base, text, summary)
        chosen = proposal_id or f"mcp-{digest[:24]}"
        command = registry_pb2.RegistryCommand(
            propose=registry_pb2.ProposeCommand(
                ref=ref,
                proposal_id=chosen,
                base_revision=base,
                definition_json=text,
                policy_digests=dict(current.policy_digests),
                summary=summary,
            )
        )
        epochs = server_call(
            lambda: self.client.registry.GetEpochs(
                registry_pb2.GetEpochsRequest(work_order_id=work_order_id),
                timeout=CALL_TIMEOUT_S,
            )
        ).epochs
        request = registry_pb2.ExecuteRequest(
            epochs=epochs, request_id=f"mcp-propose-{_digest(chosen, digest)[:32]}", command=command
        )
        reply = server_call(lambda: self.client.registry.Execute(request, timeout=CALL_TIMEOUT_S))
        out = self.get_proposal(work_order_id, run_id, chosen)
        out["replayed"] = reply.replayed
        return out

    def get_proposal(self, work_order_id: str, run_id: str, proposal_id: str) -> dict[str, Any]:
        """A proposal's review state."""
        request = registry_pb2.GetProposalRequest(
            ref=common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id),
            proposal_id=proposal_id,
        )
        reply = server_call(
            lambda: self.client.registry.GetProposal(request, timeout=CALL_TIMEOUT_S)
        )
        return views.proposal(reply.proposal)

    # -- runs -------------------------------------------------------------------------

    def start_run(
        self,
        work_order_id: str,
        run_id: str,
        definition: Any,
        run_input: Any,
        request_id: str | None,
        contract_id: str,
    ) -> dict[str, Any]:
        """Starts a governed run of a ref's head, or an ad hoc run of ``definition``."""
        request = run_pb2.StartRunRequest(
            request_id=request_id or f"mcp-run-{uuid.uuid4().hex}",
            input_json=_json_text(run_input, "input"),
            contract_id=contract_id,
        )
        if definition is not None:
            request.definition_json = _json_text(definition, "definition")
            request.work_order_id = work_order_id
        else:
            request.ref.CopyFrom(common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id))
        reply = server_call(lambda: self.client.runs.StartRun(request, timeout=CALL_TIMEOUT_S))
        return {**views.run(reply.run), "created": reply.created}

    def get_run(self, run_id: str) -> dict[str, Any]:
        """A run's summary."""
        return views.run(self._read_run(run_id))

    def wait_for_run(self, run_id: str, after_version: int, timeout_s: float) -> dict[str, Any]:
        """The run once its version passes ``after_version`` or it has ended, or as it is
        when ``timeout_s`` (at most MAX_WAIT_S) runs out."""
        seen = self._watch(run_id, after_version, bounded_wait(timeout_s))
        summary = views.run(seen)
        summary["changed"] = seen.version > after_version
        return summary

    def _watch(self, run_id: str, after_version: int, timeout_s: float) -> run_pb2.Run:
        current = self._read_run(run_id)
        if current.version > after_version or current.state in views.RUN_ENDED or timeout_s <= 0:
            return current
        try:
            for update in self._updates(run_id, timeout_s):
                current = update
                if current.version > after_version or current.state in views.RUN_ENDED:
                    return current
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                raise Refused(error_details(error)) from None
        return current

    def _updates(self, run_id: str, timeout_s: float) -> Iterator[run_pb2.Run]:
        request = run_pb2.WatchRunRequest(run_id=run_id)
        stream = self.client.runs.WatchRun(request, timeout=timeout_s)
        try:
            for reply in stream:
                yield reply.run
        finally:
            stream.cancel()

    def _read_run(self, run_id: str) -> run_pb2.Run:
        request = run_pb2.GetRunRequest(run_id=run_id)
        reply = server_call(lambda: self.client.runs.GetRun(request, timeout=CALL_TIMEOUT_S))
        found: run_pb2.Run = reply.run
        return found

    # -- tasks ------------------------------------------------------------------------

    def claim_task(self, models: list[str], lease_s: float | None, wait_s: float) -> dict[str, Any]:
        """Claims at most one task of ``models``, waiting up to ``wait_s``."""
        wait_ms = int(bounded_wait(wait_s) * 1000)
        request = task_pb2.ClaimTasksRequest(
            worker_id=self.worker_id,
            models=models,
            max_tasks=1,
            lease_ms=int((DEFAULT_LEASE_S if lease_s is None else lease_s) * 1000),
            wait_ms=wait_ms,
        )
        reply = server_call(
            lambda: self.client.tasks.ClaimTasks(request, timeout=CALL_TIMEOUT_S + wait_ms / 1000)
        )
        return {"task": views.task(reply.tasks[0]) if reply.tasks else None}

    def heartbeat(
        self,
        attempt_id: str,
        lease_s: float | None,
        progress: str | None = None,
        progress_data: Any = None,
    ) -> dict[str, Any]:
        """Extends a task's lease, with the progress report given (``progress`` text,
        ``progress_data`` a JSON value; neither: none, the shown one stays); says whether
        to stop. The server checks the report's limits."""
        request = task_pb2.HeartbeatRequest(
            attempt_id=attempt_id,
            worker_id=self.worker_id,
            lease_ms=int((DEFAULT_LEASE_S if lease_s is None else lease_s) * 1000),
        )
        if progress is not None or progress_data is not None:
            request.progress.text = progress or ""
            if progress_data is not None:
                request.progress.data_json = _json_text(progress_data, "progress_data")
        reply = server_call(lambda: self.client.tasks.Heartbeat(request, timeout=CALL_TIMEOUT_S))
        return {
            "attempt_id": attempt_id,
            "lease_expires_at_ms": reply.lease_expires_at_ms,
            "cancelled": reply.cancelled,
            "paused": reply.paused,
        }

    def complete_task(
        self, attempt_id: str, result: Any, effect: str, cost_microcredits: str
    ) -> dict[str, Any]:
        """Settles a task with its result, effect outcome and cost."""
        request = task_pb2.CompleteTaskRequest(
            attempt_id=attempt_id,
            worker_id=self.worker_id,
            result_json=_json_text(result, "result"),
            effect=_effect(effect),
            cost_microcredits=cost_microcredits,
        )
        reply = server_call(lambda: self.client.tasks.CompleteTask(request, timeout=CALL_TIMEOUT_S))
        return {"attempt_id": attempt_id, "settled": "completed", "replayed": reply.replayed}

    def fail_task(
        self, attempt_id: str, error: str, retryable: bool, effect: str, cost_microcredits: str
    ) -> dict[str, Any]:
        """Settles a task as failed, with its effect outcome and cost."""
        request = task_pb2.FailTaskRequest(
            attempt_id=attempt_id,
            worker_id=self.worker_id,
            error=error,
            retryable=retryable,
            effect=_effect(effect),
            cost_microcredits=cost_microcredits,
        )
        reply = server_call(lambda: self.client.tasks.FailTask(request, timeout=CALL_TIMEOUT_S))
        return {
            "attempt_id": attempt_id,
            "settled": "failed",
            "will_retry": reply.will_retry,
            "replayed": reply.replayed,
        }

    # -- asking a human ---------------------------------------------------------------

    def ask_human(
        self,
        question: str,
        answer_schema: dict[str, Any] | None,
        expires_in_s: float | None,
        work_order_id: str,
        request_id: str | None,
        choices: list[str] | None = None,
    ) -> dict[str, Any]:
        """Starts a one-node run whose node is a ``human_input`` wait asking ``question``
        (``wait.question``), offering ``choices`` (``wait.choices``; the server checks
        them against the schema)."""
        if not question.strip() or len(question) > MAX_QUESTION:
            raise Invalid(f"question must be 1 to {MAX_QUESTION} characters")
        expires = DEFAULT_ASK_EXPIRY_S if expires_in_s is None else expires_in_s
        wait: dict[str, Any] = {
            "expires_in_ms": int(expires * 1000),
            "on_expiry": "fail",
            "question": question,
        }
        if choices:
            wait["choices"] = list(choices)
        if answer_schema is not None or not choices:
            # Without a schema, choices make the schema a string enum of them (server side).
            wait["schema"] = dict(answer_schema or {"type": "string"})
        plan = {
            "version": 1,
            "nodes": {ASK_NODE: {"kind": "human_input", "wait": wait}},
            "output": {"from": f"node:{ASK_NODE}"},
        }
        started = self.start_run(
            work_order_id, "", plan, {"question": question}, request_id, contract_id=""
        )
        out = {
            "run_id": started["run_id"],
            "state": "pending" if not started["ended"] else started["state"],
            "question": question,
        }
        if choices:
            out["choices"] = list(choices)
        return out

    def get_answer(self, run_id: str, timeout_s: float) -> dict[str, Any]:
        """The answer of an ``ask_human`` run, waiting up to ``timeout_s`` for it."""
        deadline = time.monotonic() + bounded_wait(timeout_s)
        current = self._read_run(run_id)
        while current.state not in views.RUN_ENDED:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            current = self._watch(run_id, current.version, left)
        summary = views.run(current)
        out: dict[str, Any] = {"run_id": run_id, "answered": False, "state": "pending"}
        if current.state == run_pb2.RUN_STATE_COMPLETED:
            out.update(answered=True, state="answered", answer=summary.get("result"))
        elif current.state in views.RUN_ENDED:
            out.update(
                state=summary["state"],
                result_reason=summary.get("result_reason", ""),
                result_error=summary.get("result_error", ""),
            )
        return out


def _effect(name: str) -> common_pb2.EffectOutcome:
    try:
        return EFFECTS[name]
    except KeyError:
        raise Invalid(f"effect must be one of {', '.join(EFFECTS)}") from None
