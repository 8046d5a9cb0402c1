"""The calls behind the MCP tools: each one or a few public RPCs as the agent principal.

Nothing here decides whether the agent may act: the server does, and its refusal
surfaces as :class:`Refused` carrying the server's own code, reason and message.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from aiws.engine.v1 import (
    common_pb2,
    contract_pb2,
    event_pb2,
    handoff_pb2,
    registry_pb2,
    run_pb2,
    task_pb2,
    wait_pb2,
    work_order_pb2,
)
from praxis_client import CallError, Client, error_details, to_json
from praxis_client.helpers import TERMINAL
from praxis_mcp import views
from praxis_mcp.limits import (
    DEFAULT_ASK_EXPIRY_S,
    DEFAULT_LEASE_S,
    MAX_LISTED,
    MAX_QUESTION,
    MAX_SCANNED_EVENTS,
    MAX_SCANNED_RUNS,
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


PARAMETERS: dict[str, str] = {
    "ref.work_order_id": "work_order_id",
    "ref.run_id": "run_id",
    "definition_json": "definition",
    "input_json": "input",
    "result_json": "result",
    "payload_json": "answer",
    "progress.text": "progress",
    "progress.data_json": "progress_data",
    "lease_ms": "lease_s",
    "wait_ms": "wait_s",
    "notify.reply_template": "reply_template",
    "notify": "reply",
    "subscriber": "reply",
    "labels": "labels",
}
"""The request fields the server names in a refusal, as the tools' own parameters: an
agent sees ``work_order_id``, never ``ref.work_order_id``, a field no tool schema has.
A path under a document keeps its tail (``definition_json.nodes.a`` is
``definition.nodes.a``)."""

_BY_LENGTH = sorted(PARAMETERS, key=len, reverse=True)
_FIELD_PATTERN = re.compile(  # field-like names only: "notify" or "labels" in prose stay
    r"(?<![\w.])("
    + "|".join(re.escape(name) for name in _BY_LENGTH if "_" in name or "." in name)
    + r")(?![\w])"
)


def parameter_of(field: str) -> str:
    """The tool parameter a server field path names (the path itself when none does)."""
    for name in _BY_LENGTH:
        if field == name or field.startswith(name + ".") or field.startswith(name + "["):
            return PARAMETERS[name] + field[len(name) :]
    return field


def in_parameters(text: str) -> str:
    """``text`` with every server field path it names replaced by the tool parameter."""
    return _FIELD_PATTERN.sub(lambda found: PARAMETERS[found.group(1)], text)


class Refused(Exception):
    """The server refused a call: its code, ``ErrorInfo`` reason and message."""

    def __init__(self, error: CallError) -> None:
        super().__init__(f"{error.reason or error.code.name}: {error.message}")
        self.error = error

    def as_dict(self) -> dict[str, Any]:
        """The refusal as the tool reports it, naming the tool's parameters (``run_id``,
        ``definition``) where the server names its request fields."""
        error = self.error
        out: dict[str, Any] = {
            "code": error.code.name,
            "reason": error.reason,
            "message": in_parameters(error.message),
        }
        if error.field_violations:
            out["field_violations"] = [
                {"field": parameter_of(name), "description": in_parameters(text)}
                for name, text in error.field_violations
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
    _principal_id: str = ""

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

    def list_refs(self, work_order_id: str, page_token: str) -> dict[str, Any]:
        """One page (at most MAX_LISTED) of the registered refs (plans) the agent may
        read, by work order then run id, each with its head revision (no definition)."""
        request = registry_pb2.ListRefsRequest(
            work_order_id=work_order_id, page_size=MAX_LISTED, page_token=page_token
        )
        reply = server_call(lambda: self.client.registry.ListRefs(request, timeout=CALL_TIMEOUT_S))
        return {
            "refs": [views.ref_line(head) for head in reply.heads],
            "next_page_token": reply.next_page_token,
        }

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
        labels: dict[str, str] | None = None,
        reply: bool = False,
        reply_template: str = "",
    ) -> dict[str, Any]:
        """Starts a governed run of a ref's head, or an ad hoc run of ``definition``; with
        ``reply``, asks for its outcome to be posted into the agent's reply subscription
        (``RunNotify.reply_to``) each time it ends."""
        request = run_pb2.StartRunRequest(
            request_id=request_id or f"mcp-run-{uuid.uuid4().hex}",
            input_json=_json_text(run_input, "input"),
            contract_id=contract_id,
            labels=labels or {},
        )
        if reply or reply_template:
            request.subscriber = self.reply_subscriber
            request.notify.reply_to = True
            request.notify.reply_template = reply_template
        if definition is not None:
            request.definition_json = _json_text(definition, "definition")
            request.work_order_id = work_order_id
        else:
            request.ref.CopyFrom(common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id))
        started = server_call(lambda: self.client.runs.StartRun(request, timeout=CALL_TIMEOUT_S))
        return {**views.run(started.run), "created": started.created}

    def list_runs(
        self,
        work_order_id: str,
        labels: dict[str, str],
        state: str,
        mine: bool,
        page_token: str,
    ) -> dict[str, Any]:
        """One page (at most MAX_LISTED) of the runs the agent may read, newest first."""
        request = run_pb2.ListRunsRequest(
            state=_enum(run_pb2.RunState, state, "RUN_STATE_", "state"),
            page_size=MAX_LISTED,
            page_token=page_token,
            work_order_id=work_order_id,
            started_by=self.principal_id() if mine else "",
            labels=labels,
        )
        reply = self._runs(request)
        return {
            "runs": [views.run_line(found) for found in reply.runs],
            "next_page_token": reply.next_page_token,
        }

    @property
    def reply_subscriber(self) -> str:
        """The event subscription the replies of the agent's runs are posted into
        (``start_run`` with ``reply``): named after its principal and worker id, so
        replies wait for it across restarts of its host, two principals on one host
        never share one (subscriptions have an owner), and the agent never chooses it.
        A name past the 128-character identifier bound keeps a digest of the rest."""
        name = f"mcp-replies.{self.principal_id()}.{self.worker_id}"
        if len(name) <= 128:
            return name
        return name[:95] + "." + hashlib.sha256(name.encode("utf-8")).hexdigest()[:32]

    def get_replies(self) -> dict[str, Any]:
        """The replies in the agent's subscription past its acknowledged position, oldest
        first: at most MAX_LISTED, reading at most MAX_SCANNED_EVENTS events."""
        position = self.reply_position()
        replies: list[dict[str, Any]] = []
        after, scanned, more = position, 0, False
        while scanned < MAX_SCANNED_EVENTS:
            request = event_pb2.ListEventsRequest(
                after=after, limit=1000, subscriber=self.reply_subscriber
            )
            page = self._events(request)
            for event in page.events:
                scanned += 1
                if event.kind == event_pb2.EVENT_KIND_RUN_REPLY:
                    if len(replies) == MAX_LISTED:
                        more = True
                        break
                    replies.append(views.reply(event))
            if more or not page.events or page.next_after <= after:
                break
            after = page.next_after
        return {
            "replies": replies,
            "acknowledged_through": position,
            "more": more or scanned >= MAX_SCANNED_EVENTS,
            "resource": views.REPLIES_URI,
        }

    def _events(self, request: event_pb2.ListEventsRequest) -> event_pb2.ListEventsResponse:
        page: event_pb2.ListEventsResponse = server_call(
            lambda: self.client.events.ListEvents(request, timeout=CALL_TIMEOUT_S)
        )
        return page

    def acknowledge_replies(self, through_seq: int) -> dict[str, Any]:
        """Marks every reply up to ``through_seq`` (a reply's ``seq``) as handled."""
        if through_seq <= 0:
            raise Invalid("through_seq must be the seq of a reply get_replies answered")
        return {"acknowledged_through": self._acknowledge_events(through_seq)}

    def reply_position(self) -> int:
        """The acknowledged position of the agent's reply subscription (an
        acknowledgement of 0, which never moves a position back, answers it)."""
        return self._acknowledge_events(0)

    def _acknowledge_events(self, cursor: int) -> int:
        request = event_pb2.AckEventsRequest(subscriber=self.reply_subscriber, cursor=cursor)
        reply = server_call(lambda: self.client.events.AckEvents(request, timeout=CALL_TIMEOUT_S))
        position: int = reply.cursor
        return position

    def principal_id(self) -> str:
        """The agent's own principal id, as the server authenticates its token (read once:
        a token names one principal for its life)."""
        if not self._principal_id:
            reply = server_call(
                lambda: self.client.contracts.GetSpending(
                    contract_pb2.GetSpendingRequest(), timeout=CALL_TIMEOUT_S
                )
            )
            self._principal_id = reply.principal_id
        return self._principal_id

    # -- waits and handoffs -----------------------------------------------------------

    def list_waits(self, run_id: str, work_order_id: str, state: str) -> dict[str, Any]:
        """The waits of one run, or of the agent's newest live runs (at most
        MAX_SCANNED_RUNS, of ``work_order_id`` when given), in ``state`` (``any``: all)."""
        wanted = _enum(wait_pb2.WaitState, state, "WAIT_STATE_", "state") or None
        if run_id:
            run_ids, omitted = [run_id], False
        else:
            run_ids, omitted = self._live_runs(work_order_id)
        waits = []
        for each in run_ids:
            found = self._waits_of(each)
            waits += [views.wait(w) for w in found if wanted is None or w.state == wanted]
        return {"waits": waits, "runs_read": len(run_ids), "runs_omitted": omitted}

    def _live_runs(self, work_order_id: str) -> tuple[list[str], bool]:
        """The agent's newest runs that have not ended (at most MAX_SCANNED_RUNS) and
        whether there were more."""
        found: list[str] = []
        for state in (run_pb2.RUN_STATE_RUNNING, run_pb2.RUN_STATE_AWAITING_NODES):
            request = run_pb2.ListRunsRequest(
                state=state,
                page_size=MAX_SCANNED_RUNS + 1,
                work_order_id=work_order_id,
                started_by=self.principal_id(),
            )
            found += [run.run_id for run in self._runs(request).runs]
        return found[:MAX_SCANNED_RUNS], len(found) > MAX_SCANNED_RUNS

    def list_work_orders(self, action: str, parent_id: str, page_token: str) -> dict[str, Any]:
        """One page (at most MAX_LISTED) of the work orders in which the agent may take
        ``action`` (its grants allow it there and the work order permits it): the roots,
        or one parent's children."""
        request = work_order_pb2.ListWorkOrdersRequest(
            parent_id=parent_id, page_size=MAX_LISTED, page_token=page_token, action=action
        )
        reply: work_order_pb2.ListWorkOrdersResponse = server_call(
            lambda: self.client.work_orders.ListWorkOrders(request, timeout=CALL_TIMEOUT_S)
        )
        return {
            "work_orders": [views.work_order(found) for found in reply.work_orders],
            "next_page_token": reply.next_page_token,
        }

    def propose_work_order(
        self,
        work_order_id: str,
        parent_id: str,
        title: str,
        budget_microcredits: str,
        actions: list[str],
        labels: dict[str, str],
    ) -> dict[str, Any]:
        """A child work order proposed (or, repeated, the proposal as it is now)."""
        request = work_order_pb2.ProposeWorkOrderRequest(
            work_order_id=work_order_id,
            parent_id=parent_id,
            title=title,
            budget_microcredits=budget_microcredits,
            actions=actions,
            labels=labels,
        )
        reply: work_order_pb2.ProposeWorkOrderResponse = server_call(
            lambda: self.client.work_orders.ProposeWorkOrder(request, timeout=CALL_TIMEOUT_S)
        )
        return {**views.work_order(reply.work_order), "replayed": reply.replayed}

    def _runs(self, request: run_pb2.ListRunsRequest) -> run_pb2.ListRunsResponse:
        reply: run_pb2.ListRunsResponse = server_call(
            lambda: self.client.runs.ListRuns(request, timeout=CALL_TIMEOUT_S)
        )
        return reply

    def _waits_of(self, run_id: str) -> list[wait_pb2.Wait]:
        request = wait_pb2.ListWaitsRequest(run_id=run_id)
        reply = server_call(lambda: self.client.waits.ListWaits(request, timeout=CALL_TIMEOUT_S))
        return list(reply.waits)

    def get_wait(self, wait_id: str) -> dict[str, Any]:
        """One wait."""
        request = wait_pb2.GetWaitRequest(wait_id=wait_id)
        reply = server_call(lambda: self.client.waits.GetWait(request, timeout=CALL_TIMEOUT_S))
        return views.wait(reply.wait)

    def list_handoffs(self, state: str, page_token: str) -> dict[str, Any]:
        """One page of the handoffs addressed to the agent, oldest first."""
        request = handoff_pb2.ListHandoffsRequest(
            state=_enum(handoff_pb2.HandoffState, state, "HANDOFF_STATE_", "state"),
            page_size=MAX_LISTED,
            page_token=page_token,
        )
        reply = server_call(
            lambda: self.client.handoffs.ListHandoffs(request, timeout=CALL_TIMEOUT_S)
        )
        return {
            "handoffs": [views.handoff(found) for found in reply.handoffs],
            "next_page_token": reply.next_page_token,
        }

    def acknowledge_handoff(self, delivery_id: str) -> dict[str, Any]:
        """The agent's acceptance of responsibility for a handoff addressed to it."""
        request = handoff_pb2.AcknowledgeHandoffRequest(delivery_id=delivery_id)
        reply = server_call(
            lambda: self.client.handoffs.AcknowledgeHandoff(request, timeout=CALL_TIMEOUT_S)
        )
        return views.handoff(reply.handoff)

    def get_inbox(self, work_order_id: str) -> dict[str, Any]:
        """What waits on the agent: handoffs offered to it, the open waits (questions to
        humans) of its live runs and the replies it has not acknowledged. A part its grants
        do not cover is answered as its refusal (``{"error": ...}``), the others still."""
        inbox: dict[str, Any] = {"principal_id": self.principal_id()}
        handoffs = _or_refusal(lambda: self.list_handoffs("offered", ""))
        waits = _or_refusal(lambda: self.list_waits("", work_order_id, "pending"))
        replies = _or_refusal(self.get_replies)
        inbox["handoffs_to_acknowledge"] = handoffs.get("handoffs", handoffs)
        inbox["open_waits"] = waits.get("waits", waits)
        inbox["replies"] = replies.get("replies", replies)
        inbox["more"] = bool(
            handoffs.get("next_page_token") or waits.get("runs_omitted") or replies.get("more")
        )
        return inbox

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
        if current.version > after_version or current.state in TERMINAL or timeout_s <= 0:
            return current
        try:
            for update in self._updates(run_id, timeout_s):
                current = update
                if current.version > after_version or current.state in TERMINAL:
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
            "resource": started["resource"],
        }
        if choices:
            out["choices"] = list(choices)
        return out

    def get_answer(self, run_id: str, timeout_s: float) -> dict[str, Any]:
        """The answer of an ``ask_human`` run, waiting up to ``timeout_s`` for it."""
        deadline = time.monotonic() + bounded_wait(timeout_s)
        current = self._read_run(run_id)
        while current.state not in TERMINAL:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            current = self._watch(run_id, current.version, left)
        summary = views.run(current)
        out: dict[str, Any] = {"run_id": run_id, "answered": False, "state": "pending"}
        if current.state == run_pb2.RUN_STATE_COMPLETED:
            out.update(answered=True, state="answered", answer=summary.get("result"))
        elif current.state in TERMINAL:
            out.update(
                state=summary["state"],
                result_reason=summary.get("result_reason", ""),
                result_error=summary.get("result_error", ""),
            )
        return out


def _or_refusal(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``call()``, or its refusal as ``{"error": ...}``."""
    try:
        return call()
    except Refused as refused:
        return {"error": refused.as_dict()}


def _enum(enum: Any, name: str, prefix: str, parameter: str) -> Any:
    """The number of a short enum name (``running``; ``""`` or ``any``: unspecified)."""
    if name in ("", "any"):
        return 0
    try:
        number: int = enum.Value(prefix + name.upper())
    except ValueError:
        names = [n.removeprefix(prefix).lower() for n in enum.keys()[1:]]
        raise Invalid(f"{parameter} must be one of any, {', '.join(names)}") from None
    return number


def _effect(name: str) -> common_pb2.EffectOutcome:
    try:
        return EFFECTS[name]
    except KeyError:
        raise Invalid(f"effect must be one of {', '.join(EFFECTS)}") from None
