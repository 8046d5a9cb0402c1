"""A run's start and stop inside a transaction: the runtime commands that the runtime's
:class:`~praxis.store.runtime.runs.RunStore` runs as StartRun and StopRun, and that the
slices sitting on the runtime run inside their own transactions (a schedule's start and
its overlap stop, a resume's admission), all in the :class:`RuntimeContext`.

A start is checked outside its transaction (:func:`prepare_start`: the request, its
documents, who may start it where), then written inside one (:func:`start_in`: the
request's deduplication, the work order's admission, the reducer's Start, the insert,
the RunStarted reactions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy.engine import Connection

from praxis.authority import guard
from praxis.core import definition as definitions
from praxis.core import gates, membership, registry, values, webhooks, work_orders
from praxis.core import run as core
from praxis.core.records import Control, Principal, Ref
from praxis.core.rejection import Code, Rejection, invalid, not_found, precondition
from praxis.observability.tracing import TraceContext
from praxis.store.controls import rows as controls
from praxis.store.db import locks, statements
from praxis.store.db.database import Rollback
from praxis.store.registry.rows import bind_head, load_head
from praxis.store.runtime import subscriptions
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.emits import RunStarted
from praxis.store.runtime.records import Effects, RunRecord
from praxis.store.runtime.rows import loading, saving

MAX_RUN_TIMEOUT_MS = 366 * 24 * 3600 * 1000
"""The longest ``run_timeout_ms`` StartRun and ResumeRun accept (a year)."""


@dataclass(frozen=True)
class StartRequest:
    """A validated StartRun request (the definition source is one of the two)."""

    request_id: str
    definition_json: str = ""
    ref: Ref | None = None
    input_json: str = ""
    subscriber: str = ""
    contract_id: str = ""
    trace: TraceContext | None = None
    """The caller's trace context (tracing on only): the run's span becomes its child."""
    work_order_id: str = ""
    """The work order named by the caller ("": its contract's, else the default one)."""
    labels: Mapping[str, str] = field(default_factory=dict)
    run_timeout_ms: int = 0
    """The run's own deadline, from its start (0: none; its contract's still applies)."""
    notify: webhooks.Notify = field(default_factory=webhooks.Notify)
    """Where its outcome is pushed when it ends (:mod:`praxis.store.notifications`)."""
    dry_run: bool = False
    """Check and answer as a start would, then roll everything back."""


@dataclass(frozen=True)
class PreparedStart:
    """A start checked outside its transaction (:func:`prepare_start`)."""

    request: StartRequest
    parsed: definitions.Definition | None
    work_order_id: str
    request_digest: str
    input_text: str
    labels_json: str


def prepare_start(
    context: RuntimeContext, principal: Principal, request: StartRequest
) -> PreparedStart | Rejection:
    """What a start checks before its transaction: the request, its documents and who
    may start it where."""
    problem = _check_start(request) or webhooks.check_notify(
        request.notify, request.subscriber, context.webhook_names
    )
    if problem:
        return problem
    input_value = values.parse_document(request.input_json or "null", "input_json", context.profile)
    if isinstance(input_value, Rejection):
        return input_value
    parsed: definitions.Definition | None = None
    if request.ref is None:
        found = context.ad_hoc_definition(request.definition_json)
        if isinstance(found, Rejection):
            return found
        parsed = found
    work_order_id = _work_order_of(context, principal, request)
    if isinstance(work_order_id, Rejection):
        return work_order_id
    return PreparedStart(
        request,
        parsed,
        work_order_id,
        _request_digest(request, parsed, input_value),
        values.canonical_json(input_value),
        membership.canonical_labels(request.labels),
    )


def start_in(
    context: RuntimeContext,
    connection: Connection,
    effects: Effects,
    principal: Principal,
    prepared: PreparedStart,
) -> tuple[RunRecord, bool]:
    """The start's transaction body, also run inside another command's transaction (a
    schedule's start). Raises Rollback with the refusal."""
    request, work_order_id = prepared.request, prepared.work_order_id
    if request.ref is not None:  # its head binds: serialized with registry commands
        locks.work_order(connection, work_order_id)
    # An ad hoc start takes no work-order lock (starts of one work order, `default`
    # above all, stay parallel on PostgreSQL): the controls and holds it checks
    # change only under the installation's exclusive lock (AdminStore).
    existing = _existing(context, connection, principal, request, prepared.request_digest)
    if existing is not None:
        return existing, False
    if request.subscriber:  # events and a reply go only into the caller's own
        refused = subscriptions.claim(
            connection, context.authority, principal, request.subscriber, context.clock.now_ms()
        )
        if refused:
            raise Rollback(refused)
    definition, revision = prepared.parsed, 0
    if request.ref is None:
        admit(connection, work_order_id)
    else:
        head = _governed_head(connection, request.ref)
        if head.bound_run_id:
            raise Rollback(_bound(request.ref, head.bound_run_id))
        found = context.parse_definition(head.definition, "ref", connection)
        if isinstance(found, Rejection):
            raise Rollback(found)
        definition, revision = found, head.revision
    assert definition is not None
    now = context.clock.now_ms()
    deadline = context.deadline(connection, request.contract_id, request.run_timeout_ms, now)
    command = core.Start(context.new_run_id(), definition, revision, deadline)
    outcome = core.apply(None, command, now)
    assert isinstance(outcome, core.Outcome)
    record = RunRecord(
        state=outcome.state,
        principal_id=principal.principal_id,
        request_id=request.request_id,
        work_order_id=work_order_id,
        ref_run_id=request.ref.run_id if request.ref else "",
        subscriber=request.subscriber,
        contract_id=request.contract_id,
        input_json=prepared.input_text,
        labels_json=prepared.labels_json,
    )
    saved = saving.insert(
        connection, record, prepared.request_digest, outcome, command, now, context.snapshots
    )
    context.lock_budget(connection, request.contract_id, principal.principal_id, False)
    context.reactions.publish(RunStarted(connection, principal, saved, request.notify))
    if context.unit.trace is not None:
        context.unit.trace.started(connection, saved.state.run_id, request.trace, now)
    if request.ref is not None:
        bind_head(
            connection,
            request.ref,
            saved.state.run_id,
            principal.principal_id,
            request.request_id,
            now,
        )
    effects.note(saved.state, request.subscriber, saved.state.nodes, events=True)
    return saved, True


def started(connection: Connection, principal_id: str, request_id: str) -> str | None:
    """The run a principal's request_id started, if any."""
    row = loading.existing(connection, principal_id, request_id).first()
    return None if row is None else str(row.run_id)


def _work_order_of(
    context: RuntimeContext, principal: Principal, request: StartRequest
) -> str | Rejection:
    """The work order the run will belong to, once ``run.start`` is granted there.

    The caller must hold ``run.start`` on every work order its request names (the
    ref's, the contract's, its own ``work_order_id``) before it learns that they
    disagree; a contract it may not start under is refused like a missing one
    (no existence oracle), and only a caller granted every work order learns
    CONTRACT_NOT_FOUND.
    """
    contract_work_order = None
    if request.contract_id:
        contract_work_order = context.ports.contracts.work_order_of(request.contract_id)
        missing = not_found("CONTRACT_NOT_FOUND", f"no contract {request.contract_id!r}")
        found = guard.authorize_subject(
            context.authority,
            principal,
            "run.start",
            contract_work_order,
            context.clock.now_ms(),
            missing,
        )
        if isinstance(found, Rejection):
            return found
    named = [request.ref.work_order_id if request.ref else "", request.work_order_id]
    for work_order_id in dict.fromkeys(name for name in named if name):
        denied = context.authorize(principal, "run.start", work_order_id)
        if denied:
            return denied
    resolved = membership.work_order_of(request.ref, request.work_order_id, contract_work_order)
    if isinstance(resolved, Rejection) or resolved != membership.DEFAULT_WORK_ORDER:
        return resolved
    return context.authorize(principal, "run.start", resolved) or resolved


def _existing(
    context: RuntimeContext,
    connection: Connection,
    principal: Principal,
    request: StartRequest,
    digest: str,
) -> RunRecord | None:
    # Both reads in one round trip on PostgreSQL (the archived check is needed only
    # when no run answers, which is every new request).
    with statements.pipelined(connection):
        found = loading.existing(connection, principal.principal_id, request.request_id, later=True)
        archived = context.ports.archive.archived_request(
            connection, principal.principal_id, request.request_id
        )
    row = found.first()
    if row is None:
        if archived is not None:
            raise Rollback(archived)
        return None
    if row.request_digest != digest:
        raise Rollback(
            Rejection(
                Code.ALREADY_EXISTS,
                "REQUEST_ID_REUSED",
                f"request_id {request.request_id!r} already started a different run",
            )
        )
    return context.unit.load(connection, row.run_id)


def _governed_head(connection: Connection, ref: Ref) -> registry.Head:
    head = load_head(connection, ref)
    if head is None:
        raise Rollback(not_found("REF_NOT_FOUND", "the ref is not registered"))
    admit(connection, ref.work_order_id)
    return head


def stop_in(
    context: RuntimeContext,
    connection: Connection,
    effects: Effects,
    record: RunRecord,
    reason: str,
) -> RunRecord:
    """Stops a locked, loaded run inside a transaction (an ended run is unchanged)."""
    command, now = core.Stop(reason), context.clock.now_ms()
    outcome = core.apply(record.state, command, now, context.limits)
    assert isinstance(outcome, core.Outcome)
    return context.unit.save(connection, record, outcome, effects, command, now)


def admit(connection: Connection, work_order_id: str) -> None:
    """Refuses new work (a start, governed or ad hoc, or a resume) under a work order that
    is canceled or canceling, or that a hold applies to; a paused one admits it, and its
    attempts wait for the resume.

    Raises:
        Rollback: WORK_ORDER_CANCELED, WORK_ORDER_NOT_APPROVED (a proposed or declined
            child), WORK_ORDER_CLOSED, RESTORE_HOLD or CLOCK_UNCERTAIN
            (a hold on an ancestor holds it too).
    """
    work_order, placed = controls.load_admission(connection, work_order_id)
    ancestors = work_order.ancestors
    problem = gates.check_holds(placed, work_order_id, ancestors)
    if problem is None and work_order.control in (Control.CANCELING, Control.CANCELED):
        problem = gates.check_control(work_order)
    if problem is None and work_order.proposal:
        problem = work_orders.not_approved_reason(work_order_id, work_order.proposal)
    if problem is None and work_order.closed:
        problem = precondition("WORK_ORDER_CLOSED", f"work order {work_order_id!r} is closed")
    if problem:
        raise Rollback(problem)


def _bound(ref: Ref, run_id: str) -> Rejection:
    """The refusal of a StartRun of a ref that another request already ran."""
    return Rejection(
        Code.ALREADY_EXISTS,
        "REF_ALREADY_RUN",
        f"ref {ref.work_order_id}/{ref.run_id} already ran as run {run_id!r}: a governed "
        "ref runs once; resume that run (ResumeRun) or register a new ref",
        (),
        (("run_id", run_id),),
    )


def _check_start(request: StartRequest) -> Rejection | None:
    problem = values.check_identifier(request.request_id, "request_id")
    if problem:
        return problem
    if request.ref is None and not request.definition_json:
        return invalid("FIELD_REQUIRED", "source", "definition_json or ref is required")
    if request.ref is not None:
        problem = registry.check_ref(request.ref, "ref")
        if problem:
            return problem
    for path, text in (
        ("subscriber", request.subscriber),
        ("contract_id", request.contract_id),
        ("work_order_id", request.work_order_id),
    ):
        problem = values.check_identifier(text, path) if text else None
        if problem:
            return problem
    if not 0 <= request.run_timeout_ms <= MAX_RUN_TIMEOUT_MS:
        return invalid(
            "TIME_INVALID",
            "run_timeout_ms",
            f"run_timeout_ms must be in [0, {MAX_RUN_TIMEOUT_MS}]",
        )
    return membership.check_labels(request.labels)


def _request_digest(
    request: StartRequest, parsed: definitions.Definition | None, input_value: values.JsonValue
) -> str:
    """What a repeated request_id must repeat. The fields added later enter only when
    set, so a request made before them has the digest it was stored with."""
    body: dict[str, values.JsonValue] = {
        "definition": parsed.digest if parsed else "",
        "ref": [request.ref.work_order_id, request.ref.run_id] if request.ref else ["", ""],
        "input": input_value,
        "subscriber": request.subscriber,
        "contract_id": request.contract_id,
    }
    if request.work_order_id:
        body["work_order_id"] = request.work_order_id
    if request.labels:
        body["labels"] = dict(request.labels)
    if request.run_timeout_ms:
        body["run_timeout_ms"] = request.run_timeout_ms
    if not request.notify.empty:
        body["notify"] = {
            "webhooks": list(request.notify.webhooks),
            "reply_to": request.notify.reply_to,
            "reply_template": request.notify.reply_template,
        }
    return values.digest(body)
