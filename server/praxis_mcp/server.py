"""The MCP server: the tools an LLM agent sees, over stdio or streamable HTTP.

Every tool answers a JSON object (as text content and as structured content). A refusal
is the server's: the tool result is an error whose text starts with the ``ErrorInfo``
reason and whose structured content is ``{"error": {"code", "reason", "message"}}``. The
agent's token never leaves the gRPC channel: answers and log records pass through
:class:`Redactor`, so even a server message that echoed it could not show it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import (
    CallToolResult,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    TextContent,
    ToolAnnotations,
    UnsubscribeRequestParams,
)
from pydantic import Field

from praxis_client.client import is_loopback_host
from praxis_mcp import views
from praxis_mcp.actions import Invalid, Praxis, Refused
from praxis_mcp.limits import (
    DEFAULT_ASK_EXPIRY_S,
    DEFAULT_LEASE_S,
    MAX_LISTED,
    MAX_SCANNED_RUNS,
    MAX_WAIT_S,
    MAX_WATCHES,
)
from praxis_mcp.subscribe import Subscriptions
from praxis_mcp.watch import Watches

INSTRUCTIONS = """\
Praxis is the system of record for this agent's work. These tools act as one agent
principal: Praxis decides what it may do, and a refusal names its reason (for example
PERMISSION_DENIED, PROPOSAL_NOT_PENDING). An agent may read and propose plan changes, start
and follow the runs it is granted, do tasks of its models and ask a human; it can never
approve, activate or reject a change: a human does that in Praxis.

To find work: get_inbox (handoffs to acknowledge, questions still open, replies of your
runs), list_refs, list_runs, list_waits, list_handoffs. To be told instead of polling: subscribe to
a run's resource (praxis://runs/RUN_ID, in start_run's and ask_human's answers) or a
wait's (praxis://waits/WAIT_ID); a notifications/resources/updated arrives when it changes
(a run ended, a human answered), then read the resource. start_run with reply posts the
run's outcome into praxis://replies, which outlives this session."""

REDACTED = "[redacted]"

Effect = Literal["applied", "not_applied", "uncertain"]
_EFFECT_HELP = (
    "what happened to the outside world: 'applied' (the effect took place), 'not_applied' "
    "(nothing happened), 'uncertain' (you cannot tell: the node is blocked until a human "
    "reconciles it)"
)
_COST_HELP = "the attempt's cost in microcredits as a canonical decimal string ('' means 0)"


class Redactor:
    """Replaces secrets (the bearer token) wherever they might surface."""

    def __init__(self, secrets: list[str]) -> None:
        self.secrets = [secret for secret in secrets if secret]

    def text(self, value: str) -> str:
        """``value`` with every secret replaced."""
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        return value

    def log_filter(self) -> logging.Filter:
        """A filter that redacts log records before any handler formats them."""
        redactor = self

        class _Redact(logging.Filter):
            def filter(self, record: logging.LogRecord) -> bool:
                message = record.getMessage()
                if record.exc_info:  # a traceback's text is redacted with the message
                    trace = logging.Formatter().formatException(record.exc_info)
                    message, record.exc_info, record.exc_text = f"{message}\n{trace}", None, None
                cleaned = redactor.text(message)
                if cleaned != record.msg or record.args:
                    record.msg, record.args = cleaned, None
                return True

        return _Redact()


def _answer(redactor: Redactor, value: dict[str, Any], error: bool = False) -> CallToolResult:
    text = redactor.text(json.dumps(value, ensure_ascii=False, sort_keys=True))
    structured = json.loads(text)
    if error:
        problem = structured["error"]
        text = f"{problem['reason'] or problem['code']}: {problem['message']}\n{text}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=structured,
        is_error=error,
    )


def _tool(redactor: Redactor, call: Callable[[], dict[str, Any]]) -> Awaitable[CallToolResult]:
    """Runs a blocking gRPC call off the event loop and shapes its answer or refusal."""

    async def run() -> CallToolResult:
        try:
            value = await anyio.to_thread.run_sync(call)
        except Refused as refused:
            return _answer(redactor, {"error": refused.as_dict()}, error=True)
        except Invalid as invalid:
            problem = {"code": "INVALID_ARGUMENT", "reason": "", "message": str(invalid)}
            return _answer(redactor, {"error": problem}, error=True)
        return _answer(redactor, value)

    return run()


_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def build(praxis: Praxis, redactor: Redactor, max_watches: int = MAX_WATCHES) -> MCPServer:
    """The MCP server with every Praxis tool, resource and prompt bound to ``praxis``,
    and resource subscriptions bounded by ``max_watches``."""
    subscriptions = Subscriptions(Watches(praxis, max_watches), redactor.text)
    server = MCPServer(
        "praxis",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        subscriptions=subscriptions.bus,
        lifespan=lambda _server: subscriptions.running(),
    )
    _registry_tools(server, praxis, redactor)
    _run_tools(server, praxis, redactor)
    _task_tools(server, praxis, redactor)
    _human_tools(server, praxis, redactor)
    _discovery_tools(server, praxis, redactor)
    _resources(server, praxis, redactor)
    _prompts(server)
    # MCPServer serves neither resources/subscribe nor a listen stream that starts watches:
    # both are added on its protocol-level server (which has no public accessor).
    lowlevel = server._lowlevel_server
    lowlevel.add_request_handler(
        "subscriptions/listen", SubscriptionsListenRequestParams, subscriptions.listen
    )
    lowlevel.add_request_handler(
        "resources/subscribe", SubscribeRequestParams, subscriptions.subscribe
    )
    lowlevel.add_request_handler(
        "resources/unsubscribe", UnsubscribeRequestParams, subscriptions.unsubscribe
    )
    return server


WorkOrder = Annotated[str, Field(description="the work order (mission) id")]
PageToken = Annotated[
    str, Field(description="next_page_token of the previous answer; empty for the first page")
]
RefRun = Annotated[
    str, Field(description="the ref's run id: with work_order_id, it names the plan")
]


def _registry_tools(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.tool(
        annotations=_READ,
        description="Read the active definition (head revision) of a registry ref, named "
        "by work_order_id and run_id: its revision number, digest, the definition "
        "document and whether a run executes it. Reads only; needs the registry.read grant.",
    )
    async def get_definition(work_order_id: WorkOrder, run_id: RefRun) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.get_definition(work_order_id, run_id))

    @server.tool(
        annotations=_READ,
        description=f"List the registered plans (refs) this agent may read, {MAX_LISTED} "
        "per call, by work order then run id: each ref's work_order_id and run_id (the "
        "two parameters that name it in get_definition, propose_revision and start_run) "
        "and its head revision. Without work_order_id the agent needs registry.read on "
        "every work order. Reads only.",
    )
    async def list_refs(
        work_order_id: Annotated[
            str, Field(description="only refs of this work order (empty: every one)")
        ] = "",
        page_token: PageToken = "",
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.list_refs(work_order_id, page_token))

    @server.tool(
        annotations=_WRITE,
        description="Propose a new revision of a ref's definition, with a summary a human "
        "reviewer reads. The proposal is against the head revision unless base_revision "
        "is given, keeps the head's policy digests, and is attributed to this agent. It "
        "changes nothing by itself: only a human can activate or reject it, and this tool "
        "cannot. Calling again with the same arguments replays (no second proposal). "
        "Answers the proposal and its review state ('pending').",
    )
    async def propose_revision(
        work_order_id: WorkOrder,
        run_id: RefRun,
        definition: Annotated[
            dict[str, Any], Field(description="the candidate definition document (version 1)")
        ],
        summary: Annotated[str, Field(description="why the change is proposed")],
        base_revision: Annotated[
            int | None, Field(description="the revision proposed against (default: the head)")
        ] = None,
        proposal_id: Annotated[
            str | None, Field(description="the proposal id (default: derived from the proposal)")
        ] = None,
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.propose_revision(
                work_order_id, run_id, definition, summary, base_revision, proposal_id
            ),
        )

    @server.tool(
        annotations=_READ,
        description="See a proposal's review state: pending, activated (with the revision it "
        "became) or rejected (with the human's reason), and who decided. Reads only.",
    )
    async def get_proposal(
        work_order_id: WorkOrder,
        run_id: RefRun,
        proposal_id: Annotated[str, Field(description="the proposal id")],
    ) -> CallToolResult:
        return await _tool(
            redactor, lambda: praxis.get_proposal(work_order_id, run_id, proposal_id)
        )


def _run_tools(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.tool(
        annotations=_WRITE,
        description="Start a run: of a ref's active definition (governed; give "
        "work_order_id and run_id) or of an inline definition (ad hoc; give definition, "
        "and work_order_id to file it under one). Needs the run.start grant on the work "
        "order. Give request_id to make a retry return the same run instead of a second "
        "one; labels let list_runs find it again. Give reply true to ask for a reply: "
        "the run's outcome (with reply_template's text) is posted into this agent's "
        "replies each time it ends, kept until acknowledged (get_replies, or subscribe to "
        "praxis://replies to be told). Answers the run's state, version (for "
        "wait_for_run) and resource: subscribe to it to be told when the run changes.",
    )
    async def start_run(
        work_order_id: Annotated[str, Field(description="the work order")] = "",
        run_id: Annotated[str, Field(description="the ref's run id (governed runs)")] = "",
        definition: Annotated[
            dict[str, Any] | None, Field(description="an inline definition (ad hoc runs)")
        ] = None,
        input: Annotated[Any, Field(description="the run's input document")] = None,
        request_id: Annotated[
            str | None, Field(description="chosen once; a retry with it returns the same run")
        ] = None,
        contract_id: Annotated[str, Field(description="the contract governing the run")] = "",
        labels: Annotated[
            dict[str, str] | None,
            Field(description="labels of the run (at most 16), for list_runs' filter"),
        ] = None,
        reply: Annotated[
            bool,
            Field(
                description="post the run's outcome into this agent's replies each time "
                "it ends (get_replies, praxis://replies)"
            ),
        ] = False,
        reply_template: Annotated[
            str, Field(description="text carried in the reply, at most 1,024 bytes (implies reply)")
        ] = "",
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.start_run(
                work_order_id,
                run_id,
                definition,
                input,
                request_id,
                contract_id,
                labels,
                reply,
                reply_template,
            ),
        )

    @server.tool(
        annotations=_READ,
        description="Read a run: its state, version, nodes (the first 100) and, once "
        "completed, its result; a failed run says why. Reads only.",
    )
    async def get_run(run_id: Annotated[str, Field(description="the run id")]) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.get_run(run_id))

    @server.tool(
        annotations=_READ,
        description="Wait until a run changes (its version passes after_version) or ends, "
        f"for at most timeout_s seconds (at most {MAX_WAIT_S:g}); answers the run and "
        "'changed'. Call again to keep following it, or rather subscribe to the run's "
        "resource (praxis://runs/RUN_ID) to be told without calling. Reads only.",
    )
    async def wait_for_run(
        run_id: Annotated[str, Field(description="the run id")],
        after_version: Annotated[
            int, Field(description="the version last seen (0: answer at once)")
        ] = 0,
        timeout_s: Annotated[float, Field(description=f"at most {MAX_WAIT_S:g}")] = 30,
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.wait_for_run(run_id, after_version, timeout_s))


def _task_tools(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.tool(
        annotations=_WRITE,
        description="Claim the next task of the given models: one node attempt leased to "
        "this agent, with its input, prompt, provider, function policy (call only the "
        "functions it permits) and output contract. Waits up to wait_s seconds (at most "
        f"{MAX_WAIT_S:g}) for one; answers task null when none came. Heartbeat before the "
        "lease ends and settle it with complete_task or fail_task. Needs the task.work "
        "grant.",
    )
    async def claim_task(
        models: Annotated[list[str], Field(description="the models this agent serves")],
        wait_s: Annotated[float, Field(description=f"at most {MAX_WAIT_S:g}")] = 10,
        lease_s: Annotated[
            float | None, Field(description=f"lease length (default {DEFAULT_LEASE_S})")
        ] = None,
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.claim_task(models, lease_s, wait_s))

    @server.tool(
        annotations=_WRITE,
        description="Report that a claimed task is still being worked on: extends its lease "
        "and answers whether to stop ('cancelled': the run was stopped; stop working and "
        "report what happened before the lease ends: fail_task 'not_applied' if the effect "
        "did not happen, complete_task if it did) "
        "or whether its work order is paused. Optionally say how far it got: a progress "
        "line for humans (at most 512 UTF-8 bytes) and/or progress data for programs (a "
        "JSON value of at most 1,024 bytes), shown as the node's progress in the run "
        "(get_run) until the next report replaces it; an empty progress with no data "
        "clears it. A report past its limits refuses the heartbeat (the lease is not "
        "extended).",
    )
    async def heartbeat_task(
        attempt_id: Annotated[str, Field(description="the claimed task's attempt_id")],
        lease_s: Annotated[
            float | None, Field(description=f"new lease from now (default {DEFAULT_LEASE_S})")
        ] = None,
        progress: Annotated[
            str | None,
            Field(
                description='a short line for humans, e.g. "indexed 40 of 120 pages" '
                "(at most 512 UTF-8 bytes)"
            ),
        ] = None,
        progress_data: Annotated[
            Any,
            Field(
                description='structured progress, e.g. {"done": 40, "total": 120} (a JSON '
                "value of at most 1,024 bytes)"
            ),
        ] = None,
    ) -> CallToolResult:
        return await _tool(
            redactor, lambda: praxis.heartbeat(attempt_id, lease_s, progress, progress_data)
        )

    @server.tool(
        annotations=_WRITE,
        description="Settle a claimed task with its result (checked against the node's "
        "output contract), what happened to the outside world and its cost. Settling "
        "again with the same payload replays; another payload, an expired lease or a task "
        "not claimed by this agent is refused.",
    )
    async def complete_task(
        attempt_id: Annotated[str, Field(description="the claimed task's attempt_id")],
        result: Annotated[Any, Field(description="the result (a string for text outputs)")],
        effect: Annotated[Effect, Field(description=_EFFECT_HELP)],
        cost_microcredits: Annotated[str, Field(description=_COST_HELP)] = "",
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.complete_task(attempt_id, result, effect, cost_microcredits),
        )

    @server.tool(
        annotations=_WRITE,
        description="Settle a claimed task as failed: what went wrong, whether a retry "
        "could succeed, what happened to the outside world and its cost.",
    )
    async def fail_task(
        attempt_id: Annotated[str, Field(description="the claimed task's attempt_id")],
        error: Annotated[str, Field(description="what went wrong (kept to 4 KiB)")],
        effect: Annotated[Effect, Field(description=_EFFECT_HELP)],
        retryable: Annotated[bool, Field(description="whether a retry could succeed")] = True,
        cost_microcredits: Annotated[str, Field(description=_COST_HELP)] = "",
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.fail_task(attempt_id, error, retryable, effect, cost_microcredits),
        )


def _human_tools(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.tool(
        annotations=_WRITE,
        description="Ask a human a question: starts a run whose one node waits for human "
        "input (it shows in the human's inbox: praxis inbox, the console). Answers its "
        "run_id; get the answer with get_answer. The human reads the question as plain "
        "text. The answer must match answer_schema (a JSON schema; default: a string, or "
        "one of the choices when choices are given). Needs the run.start grant; it cannot "
        "answer itself.",
    )
    async def ask_human(
        question: Annotated[
            str, Field(description="the question, plain text (at most 4,096 characters)")
        ],
        answer_schema: Annotated[
            dict[str, Any] | None, Field(description="JSON schema of the answer")
        ] = None,
        choices: Annotated[
            list[str] | None,
            Field(
                description="answers the human picks from (at most 20 distinct strings of "
                "at most 200 characters; each must match answer_schema)"
            ),
        ] = None,
        expires_in_s: Annotated[
            float | None,
            Field(description=f"how long to wait for the answer (default {DEFAULT_ASK_EXPIRY_S})"),
        ] = None,
        work_order_id: Annotated[str, Field(description="the work order to file it under")] = "",
        request_id: Annotated[
            str | None, Field(description="chosen once; a retry asks no second time")
        ] = None,
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.ask_human(
                question, answer_schema, expires_in_s, work_order_id, request_id, choices
            ),
        )

    @server.tool(
        annotations=_READ,
        description="Receive the answer to ask_human, waiting up to timeout_s seconds (at "
        f"most {MAX_WAIT_S:g}): 'answered' with the answer, still 'pending', or how it ended "
        "unanswered (expired, cancelled). Rather than calling again, subscribe to the "
        "resource ask_human answered to be told when the human answers. Reads only.",
    )
    async def get_answer(
        run_id: Annotated[str, Field(description="the run_id ask_human answered")],
        timeout_s: Annotated[float, Field(description=f"at most {MAX_WAIT_S:g}")] = 30,
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.get_answer(run_id, timeout_s))


RunStateName = Literal["any", "running", "awaiting_nodes", "completed", "failed", "cancelled"]
WaitStateName = Literal[
    "any", "not_open", "pending", "satisfied", "expired", "defaulted", "cancelled"
]
HandoffStateName = Literal["any", "offered", "acknowledged"]


def _discovery_tools(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.tool(
        annotations=_READ,
        description="What waits on this agent: the handoffs offered to it (acknowledge them "
        "with acknowledge_handoff), the open waits (questions to humans) of the runs it "
        f"started that have not ended (its newest {MAX_SCANNED_RUNS}) and the replies of "
        "its runs it has not acknowledged. Give work_order_id unless the agent may read "
        "runs on every work order. A part its grants do not cover is answered as its "
        "refusal ({'error': ...}); the others still. Reads only.",
    )
    async def get_inbox(
        work_order_id: Annotated[
            str, Field(description="only runs of this work order (empty: every one)")
        ] = "",
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.get_inbox(work_order_id))

    @server.tool(
        annotations=_READ,
        description=f"List the runs this agent may read, newest first, {MAX_LISTED} per "
        "call: of a work order, carrying labels, in a state, or only those it started "
        "(mine). Without work_order_id the agent needs run.read on every work order. Each "
        "run comes with its resource URI. Reads only.",
    )
    async def list_runs(
        work_order_id: Annotated[
            str, Field(description="only runs of this work order (empty: every one)")
        ] = "",
        labels: Annotated[
            dict[str, str] | None,
            Field(description="only runs carrying every one of these labels and values"),
        ] = None,
        state: Annotated[RunStateName, Field(description="only runs in this state")] = "any",
        mine: Annotated[bool, Field(description="only runs this agent started")] = False,
        page_token: PageToken = "",
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.list_runs(work_order_id, labels or {}, state, mine, page_token),
        )

    @server.tool(
        annotations=_READ,
        description=f"List the work orders this agent may act in, {MAX_LISTED} per call, "
        "in id order: those where its grants allow the action (default run.start) and the "
        "work order (with its ancestors) permits it; the roots, or one work order's "
        "children. Each says its state (a paused or cancelled ancestor pauses or cancels "
        "it), its spend and what its budget has left; a child this agent proposed says "
        "whether a human approved or declined it. Creating a work order is a human's "
        "decision: propose one (propose_work_order) for a sub-mission. Reads only.",
    )
    async def list_work_orders(
        action: Annotated[
            str, Field(description="the action the agent means to take there")
        ] = "run.start",
        parent_id: Annotated[
            str, Field(description="list this work order's children (empty: the roots)")
        ] = "",
        page_token: PageToken = "",
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.list_work_orders(action, parent_id, page_token))

    @server.tool(
        annotations=_WRITE,
        description="Propose a child work order (a sub-mission with its own budget and "
        "actions) under a work order this agent may act in (it needs work_order.propose "
        "there). It is recorded PROPOSED: nothing runs in it until a human approves it "
        "(it then opens) or declines it with a reason (final). The budget is at most what "
        "the parent has left; the actions narrow the parent's. Calling again with the same "
        "fields answers the proposal as it is now (its state, who decided, why declined); "
        "list_work_orders with parent_id shows it too.",
    )
    async def propose_work_order(
        work_order_id: Annotated[str, Field(description="the proposed work order's id")],
        parent_id: Annotated[str, Field(description="its parent, where the agent acts")],
        title: Annotated[str, Field(description="what it is for: the human decides on it")] = "",
        budget_microcredits: Annotated[
            str, Field(description="its budget, an exact decimal (empty: none of its own)")
        ] = "",
        actions: Annotated[
            list[str] | None,
            Field(description="the actions permitted in it, e.g. run.* (empty: its parent's)"),
        ] = None,
        labels: Annotated[
            dict[str, str] | None, Field(description="its labels (at most 16)")
        ] = None,
    ) -> CallToolResult:
        return await _tool(
            redactor,
            lambda: praxis.propose_work_order(
                work_order_id, parent_id, title, budget_microcredits, actions or [], labels or {}
            ),
        )

    @server.tool(
        annotations=_READ,
        description="List waits (human input, timers, authorizations) in a state (default "
        "pending: open, waiting for a human): those of one run, or of the runs this agent "
        f"started that have not ended (its newest {MAX_SCANNED_RUNS}; give work_order_id "
        "unless it may read runs on every work order). Each carries its question and choices; "
        "once satisfied, the answer. Each comes with its resource URI. "
        "Reads only.",
    )
    async def list_waits(
        run_id: Annotated[str, Field(description="only this run's waits")] = "",
        work_order_id: Annotated[
            str, Field(description="only runs of this work order (without run_id)")
        ] = "",
        state: Annotated[WaitStateName, Field(description="only waits in this state")] = (
            "pending"
        ),
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.list_waits(run_id, work_order_id, state))

    @server.tool(
        annotations=_READ,
        description="List the handoffs addressed to this agent (a finished node's outputs, "
        f"and the responsibility for them, offered by another principal), oldest first, "
        f"{MAX_LISTED} per call; state offered lists those still to acknowledge. Reads only.",
    )
    async def list_handoffs(
        state: Annotated[HandoffStateName, Field(description="only handoffs in this state")] = (
            "offered"
        ),
        page_token: PageToken = "",
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.list_handoffs(state, page_token))

    @server.tool(
        annotations=_WRITE,
        description="Acknowledge a handoff addressed to this agent: it accepts "
        "responsibility for the node's outputs. Only the receiver may, and only once "
        "(HANDOFF_ALREADY_ACKNOWLEDGED); answers the handoff, now acknowledged.",
    )
    async def acknowledge_handoff(
        delivery_id: Annotated[str, Field(description="the handoff's delivery_id")],
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.acknowledge_handoff(delivery_id))

    @server.tool(
        annotations=_READ,
        description="The replies of runs this agent started with reply: each run's "
        "outcome (status, result or error, the reply_template text), oldest first, "
        f"{MAX_LISTED} at most, until acknowledged with acknowledge_replies. Subscribe to "
        "praxis://replies to be told when one arrives instead of calling this again. "
        "Needs event.read and event.ack.",
    )
    async def get_replies() -> CallToolResult:
        return await _tool(redactor, praxis.get_replies)

    @server.tool(
        annotations=_WRITE,
        description="Acknowledge the replies up to and including through_seq (a reply's "
        "seq): get_replies no longer answers them.",
    )
    async def acknowledge_replies(
        through_seq: Annotated[int, Field(description="the seq of the last reply handled")],
    ) -> CallToolResult:
        return await _tool(redactor, lambda: praxis.acknowledge_replies(through_seq))


def _read(redactor: Redactor, call: Callable[[], dict[str, Any]]) -> Awaitable[str]:
    """A resource's JSON text, or its refusal as a resource error naming the reason."""

    async def run() -> str:
        try:
            value = await anyio.to_thread.run_sync(call)
        except Refused as refused:
            problem = refused.as_dict()
            text = redactor.text(f"{problem['reason']}: {problem['message']}")
            raise ResourceError(text) from None
        return redactor.text(json.dumps(value, ensure_ascii=False, sort_keys=True))

    return run()


def _resources(server: MCPServer, praxis: Praxis, redactor: Redactor) -> None:
    @server.resource(
        views.RUN_URI,
        name="run",
        mime_type="application/json",
        description="A run as get_run answers it. Subscribe to it to receive "
        "notifications/resources/updated at each change of the run, the last when it ends.",
    )
    async def run_resource(run_id: str) -> str:
        return await _read(redactor, lambda: praxis.get_run(run_id))

    @server.resource(
        views.WAIT_URI,
        name="wait",
        mime_type="application/json",
        description="A wait: its question, schema, state and, once a human satisfied it, "
        "the answer. Subscribe to it to receive notifications/resources/updated when its "
        "state changes (opened, answered, expired, cancelled).",
    )
    async def wait_resource(wait_id: str) -> str:
        return await _read(redactor, lambda: praxis.get_wait(wait_id))

    @server.resource(
        views.REPLIES_URI,
        name="replies",
        mime_type="application/json",
        description="The replies of runs this agent started with reply, as get_replies "
        "answers them. Subscribe to it to receive notifications/resources/updated when a "
        "reply arrives.",
    )
    async def replies_resource() -> str:
        return await _read(redactor, praxis.get_replies)


WORK_THE_INBOX = """Work your Praxis inbox{scope}.

1. Call get_inbox{args}. For each handoff in handoffs_to_acknowledge, read its run with
   get_run (its node_uid names the node whose outputs are now yours), then call
   acknowledge_handoff with its delivery_id once you take responsibility for them.
2. For each reply in replies, act on the run's outcome (its result, or its result_error)
   as its template says, then call acknowledge_replies with the seq of the last one done.
3. For each open wait in open_waits, nothing is yours to do: a human answers it. Subscribe
   to its resource (or its run's) to be told when it is answered, instead of asking again.
4. If you serve models, claim_task with them and do each task: heartbeat_task while you
   work, then complete_task or fail_task, saying honestly what happened to the outside
   world (applied, not_applied, uncertain).
Report what you acknowledged and what still waits on a human."""

PROPOSE_A_REVISION = """Propose a revision of the Praxis plan {work_order_id}/{run_id}: {change}

1. Call get_definition with work_order_id "{work_order_id}" and run_id "{run_id}"; note
   its revision.
2. Write the new definition: change only what the request asks, keep every other node,
   its effects and its output contract as they are.
3. Call propose_revision with the whole new definition and a summary a human reviewer
   can judge in one read (what changes and why). A refusal names what is wrong
   (field_violations name the definition's paths): fix it and propose again.
4. You cannot activate it: tell the user the proposal_id, and that a human reviews it
   (praxis review, the console). get_proposal tells you when it is decided."""


def _prompts(server: MCPServer) -> None:
    @server.prompt(
        name="work_the_inbox",
        title="Work the inbox",
        description="Find and do what waits on this agent: acknowledge handoffs, follow "
        "open questions by subscription, claim tasks.",
    )
    def work_the_inbox(work_order_id: str = "") -> str:
        scope = f" on work order {work_order_id}" if work_order_id else ""
        args = f' with work_order_id "{work_order_id}"' if work_order_id else ""
        return WORK_THE_INBOX.format(scope=scope, args=args)

    @server.prompt(
        name="propose_a_revision",
        title="Propose a revision",
        description="Change a plan the governed way: read its head, propose a new revision "
        "with a summary, and leave the decision to a human.",
    )
    def propose_a_revision(work_order_id: str, run_id: str, change: str) -> str:
        return PROPOSE_A_REVISION.format(work_order_id=work_order_id, run_id=run_id, change=change)


def check_loopback(host: str) -> None:
    """Refuses to serve HTTP anywhere but loopback: the endpoint has no credential of its
    own and acts with the agent's token, so whoever reaches it acts as the agent."""
    if not is_loopback_host(host):
        raise ValueError(f"{host} is not a loopback address: HTTP is served on loopback only")


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The names a local client reaches a loopback endpoint by, beside the host it listens on."""


def transport_security(host: str) -> TransportSecuritySettings:
    """The Host and Origin checks of the HTTP endpoint, for every loopback ``host``.

    A web page the agent's user opens can resolve its own name to a loopback address (DNS
    rebinding) and post to the endpoint: its requests carry that name in ``Host`` and its
    origin in ``Origin``. Only the listening host and the usual loopback names are let
    through (HTTP 421 for another Host, 403 for another Origin), whichever loopback
    address serves (the SDK checks only 127.0.0.1, localhost and ::1 by itself).
    """
    literal = f"[{host}]" if ":" in host else host
    names = dict.fromkeys((literal, *LOOPBACK_NAMES))  # ordered, without repeats
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[f"http://{name}:*" for name in names],
    )


def serve(
    praxis: Praxis,
    token: str | None,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
) -> None:
    """Runs the MCP server until its input closes (stdio) or it is interrupted (HTTP)."""
    redactor = Redactor([token] if token else [])
    server = build(praxis, redactor)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor.log_filter())
    if transport == "stdio":
        server.run("stdio")
        return
    check_loopback(host)
    server.run("streamable-http", host=host, port=port, transport_security=transport_security(host))
