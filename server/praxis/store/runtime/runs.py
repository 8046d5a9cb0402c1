"""The runtime's runs: start, stop, reads, the registry and admin reactions, and the
sweeper, one transaction each (the worker task protocol is :mod:`.tasks`).

Every command authorizes, then inside one write transaction of the unit of work
(:mod:`praxis.store.runtime.unit`) loads the run, applies the pure reducer
(:mod:`praxis.core.run`) and saves the outcome with a compare-and-swap on the run's
version (:func:`praxis.store.runtime.rows.save`). After the commit the unit wakes the
long polls and streams of every server process (:mod:`praxis.store.wake.hub`).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.authority import guard
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import definition as definitions
from praxis.core import gates, membership, progress, registry, values, webhooks
from praxis.core import run as core
from praxis.core.records import Control, Principal, Ref
from praxis.core.rejection import Code, Rejection, invalid, not_found
from praxis.observability.tracing import TraceContext
from praxis.store.controls import rows as controls
from praxis.store.db import locks, statements
from praxis.store.db.database import Database, Rollback
from praxis.store.db.statements import Statement
from praxis.store.registry.rows import bind_head, load_head
from praxis.store.runtime import listing, outbox, subscriptions, worker_models
from praxis.store.runtime import progress as attempt_progress
from praxis.store.runtime import rows as run_rows
from praxis.store.runtime.rows import Effects, RunRecord
from praxis.store.runtime.tables import run_timers, runs
from praxis.store.runtime.unit import Unit
from praxis.store.wake.hub import Hub

EXPIRE = core.Expire()
EXPIRE_HELD = core.Expire(held=True)
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
    """Where its outcome is pushed when it ends (:mod:`praxis.store.runtime.outbox`)."""
    dry_run: bool = False
    """Check and answer as a start would, then roll everything back."""


@dataclass(frozen=True)
class PreparedStart:
    """A start checked outside its transaction (:meth:`RunStore.prepare_start`)."""

    request: StartRequest
    parsed: definitions.Definition | None
    work_order_id: str
    request_digest: str
    input_text: str
    labels_json: str


class RunStore:
    """Runs and due work over a :class:`Database` (the task protocol: :class:`TaskStore`)."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        models: tuple[str, ...],
        limits: definitions.Limits = definitions.DEFAULT_LIMITS,
        profile: values.DocumentProfile = values.DEFAULT_PROFILE,
        signals: Hub | None = None,
        new_run_id: Callable[[], str] = lambda: "run_" + uuid.uuid4().hex,
        contract_work_order: Callable[[str], str | None] = lambda _contract_id: None,
        contract_deadline: Callable[[Connection, str], int] = lambda _connection, _id: 0,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.limits = limits
        self.profile = profile
        self.signals = signals or Hub()
        self.new_run_id = new_run_id
        # The work order of a contract, or None when there is no such contract (the
        # execution model's contracts, which sit above the runtime; contracts never change).
        self.contract_work_order = contract_work_order
        # A contract's deadline (0: none), which bounds its runs' (the execution model's).
        self.contract_deadline = contract_deadline
        self.models = worker_models.WorkerModels(db, clock, models)
        self._texts: OrderedDict[str, tuple[definitions.Definition, frozenset[str]]] = OrderedDict()
        self.unit = Unit(db, self.signals, limits)  # transactions, loads and wake-ups
        self.snapshots = self.unit.snapshots
        self._lock = threading.Lock()
        # Execution-model hooks (praxis.store.execution: contracts, reconciliations, waits,
        # segments), each called inside the command's transaction; a Rollback refuses the
        # command. Wired by the engine's reactions table (praxis.app.reactions).
        self.start_hooks: list[Callable[[Connection, Principal, RunRecord], None]] = []
        # A run no longer in the database: (its work order, the RUN_ARCHIVED answer) when
        # it was archived (store/retention), else None. Wired by the engine.
        self.archived_of: Callable[[str], tuple[str, Rejection] | None] | None = None
        # In StartRun's transaction: RUN_ARCHIVED when this principal's request_id started
        # a run since archived (its deduplication outlives the run). Wired by the engine.
        self.archived_request: Callable[[Connection, str, str], Rejection | None] | None = None
        # The webhook destination names the operator declared (config.json `webhooks`):
        # the only names StartRun's `notify.webhooks` may use.
        self.webhook_names: frozenset[str] = frozenset()

    # --- plumbing ---------------------------------------------------------------------

    def authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        """The authority's refusal of ``action`` by ``principal``, or None."""
        evidence = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    @property
    def traced(self) -> bool:
        """Whether runs are traced (tracing is on: each run is one trace)."""
        return self.unit.trace is not None

    def definition(self, connection: Connection, digest: str) -> definitions.Definition:
        """A stored definition, parsed once per process (:meth:`Unit.definition`)."""
        return self.unit.definition(connection, digest)

    def lock_budget(
        self, connection: Connection, contract_id: str, principal_id: str, spends: bool
    ) -> None:
        """Locks the ledgers a command reads or charges: the contract, and the starting
        principal when it has a spend cap or when ``spends`` (its spend is charged)."""
        if not locks.postgres(connection):
            return
        capped = spends or self.authority.spend_cap(principal_id) is not None
        locks.budget(connection, contract_id, principal_id if capped else "")

    def parse_definition(
        self, document: values.JsonValue, field_path: str, connection: Connection | None = None
    ) -> definitions.Definition | Rejection:
        """Validates a definition against the caps and the known models."""
        parsed = definitions.parse(document, self.models.cached(), self.limits, field_path)
        if isinstance(parsed, Rejection):
            # Another process or replica (its workers) may have taught the engine a model
            # the definition names, whatever else is wrong with it: judge it against the
            # models registered now (an invalid definition costs one more read).
            parsed = definitions.parse(
                document, self.models.known(connection), self.limits, field_path
            )
        if not isinstance(parsed, Rejection):
            self.unit.remember(parsed)
        return parsed

    def reconfigure(self, models: tuple[str, ...], limits: definitions.Limits) -> None:
        """A configuration reloaded live: the configured models and the definition limits
        of the next StartRun, registry check and command (a run's stored definition is
        kept); the ad hoc definitions parsed under the old ones are parsed again."""
        with self._lock:
            self.models.configured = frozenset(models)
            self.limits = self.unit.limits = limits  # as a restart with them would
            self._texts.clear()

    def check_definition(
        self,
        document: values.JsonValue,
        field_path: str,
        connection: Connection | None,
        digest: str = "",
    ) -> Rejection | None:
        """The registry's check: the problems of a definition, or ``None`` when valid.

        ``digest`` (the document's ``values.digest``, when the caller has it): a definition
        this process already parsed is valid again while the models it names are known,
        without parsing it again (an ACTIVATE checks the definition its PROPOSE checked).
        """
        if digest:
            known = self.unit.parsed(digest)
            if known is not None and (
                frozenset(node.agent.model for node in known.nodes.values()) <= self.models.cached()
            ):
                return None
        parsed = self.parse_definition(document, field_path, connection)
        return parsed if isinstance(parsed, Rejection) else None

    # --- StartRun ---------------------------------------------------------------------

    def start(
        self, principal: Principal, request: StartRequest
    ) -> tuple[RunRecord, bool] | Rejection:
        """Starts a run, or returns the one this principal's request_id already started
        (a dry run: the same answer, with everything it wrote rolled back)."""
        prepared = self.prepare_start(principal, request)
        if isinstance(prepared, Rejection):
            return prepared

        def transaction(connection: Connection, effects: Effects) -> tuple[RunRecord, bool]:
            return self.start_in(connection, effects, principal, prepared)

        result: tuple[RunRecord, bool] | Rejection = self.unit.transact(
            transaction, dry_run=request.dry_run
        )
        return result

    def prepare_start(
        self, principal: Principal, request: StartRequest
    ) -> PreparedStart | Rejection:
        """What a start checks before its transaction: the request, its documents and who
        may start it where."""
        problem = _check_start(request) or webhooks.check_notify(
            request.notify, request.subscriber, self.webhook_names
        )
        if problem:
            return problem
        input_value = values.parse_document(
            request.input_json or "null", "input_json", self.profile
        )
        if isinstance(input_value, Rejection):
            return input_value
        parsed: definitions.Definition | None = None
        if request.ref is None:
            found = self._ad_hoc_definition(request.definition_json)
            if isinstance(found, Rejection):
                return found
            parsed = found
        work_order_id = self._work_order_of(principal, request)
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
        self,
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
        existing = self._existing(connection, principal, request, prepared.request_digest)
        if existing is not None:
            return existing, False
        if request.subscriber:  # events and a reply go only into the caller's own
            refused = subscriptions.claim(
                connection, self.authority, principal, request.subscriber, self.clock.now_ms()
            )
            if refused:
                raise Rollback(refused)
        definition, revision = prepared.parsed, 0
        if request.ref is None:
            admit(connection, work_order_id)
        else:
            head = self._governed_head(connection, request.ref)
            if head.bound_run_id:
                raise Rollback(_bound(request.ref, head.bound_run_id))
            found = self.parse_definition(head.definition, "ref", connection)
            if isinstance(found, Rejection):
                raise Rollback(found)
            definition, revision = found, head.revision
        assert definition is not None
        now = self.clock.now_ms()
        deadline = self.deadline(connection, request.contract_id, request.run_timeout_ms, now)
        command = core.Start(self.new_run_id(), definition, revision, deadline)
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
        saved = run_rows.insert(
            connection, record, prepared.request_digest, outcome, command, now, self.snapshots
        )
        outbox.record(connection, saved.state.run_id, request.notify)
        self.lock_budget(connection, request.contract_id, principal.principal_id, False)
        for hook in self.start_hooks:
            hook(connection, principal, saved)
        if self.unit.trace is not None:
            self.unit.trace.started(connection, saved.state.run_id, request.trace, now)
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

    def started(self, connection: Connection, principal_id: str, request_id: str) -> str | None:
        """The run a principal's request_id started, if any."""
        row = _EXISTING.run(connection, {"pid": principal_id, "rid": request_id}).first()
        return None if row is None else str(row.run_id)

    def _work_order_of(self, principal: Principal, request: StartRequest) -> str | Rejection:
        """The work order the run will belong to, once ``run.start`` is granted there.

        The caller must hold ``run.start`` on every work order its request names (the
        ref's, the contract's, its own ``work_order_id``) before it learns that they
        disagree; a contract it may not start under is refused like a missing one
        (no existence oracle), and only a caller granted every work order learns
        CONTRACT_NOT_FOUND.
        """
        contract_work_order = None
        if request.contract_id:
            contract_work_order = self.contract_work_order(request.contract_id)
            missing = not_found("CONTRACT_NOT_FOUND", f"no contract {request.contract_id!r}")
            found = guard.authorize_subject(
                self.authority,
                principal,
                "run.start",
                contract_work_order,
                self.clock.now_ms(),
                missing,
            )
            if isinstance(found, Rejection):
                return found
        named = [request.ref.work_order_id if request.ref else "", request.work_order_id]
        for work_order_id in dict.fromkeys(name for name in named if name):
            denied = self.authorize(principal, "run.start", work_order_id)
            if denied:
                return denied
        resolved = membership.work_order_of(request.ref, request.work_order_id, contract_work_order)
        if isinstance(resolved, Rejection) or resolved != membership.DEFAULT_WORK_ORDER:
            return resolved
        return self.authorize(principal, "run.start", resolved) or resolved

    def deadline(self, connection: Connection, contract_id: str, timeout_ms: int, now: int) -> int:
        """A run's deadline: the earlier of ``now + timeout_ms`` and its contract's (0 when
        neither sets one)."""
        found = [now + timeout_ms] if timeout_ms else []
        if contract_id:
            found += [d for d in (self.contract_deadline(connection, contract_id),) if d]
        return min(found, default=0)

    def _ad_hoc_definition(self, text: str) -> definitions.Definition | Rejection:
        """The definition of a StartRun's ``definition_json``, parsed once per text.

        Clients start many runs of one definition; the same text under the same profile
        and limits parses to the same definition, so it is reused while its models are
        still known (a worker-registered model may lapse: then it is parsed again).
        """
        with self._lock:
            found = self._texts.get(text)
            if found is not None:
                self._texts.move_to_end(text)
        if found is not None and found[1] <= self.models.cached():
            return found[0]
        document = values.parse_document(text, "definition_json", self.profile)
        if isinstance(document, Rejection):
            return document
        parsed = self.parse_definition(document, "definition_json")
        if not isinstance(parsed, Rejection):
            with self._lock:
                models = frozenset(node.agent.model for node in parsed.nodes.values())
                self._texts[text] = (parsed, models)
                while len(self._texts) > 64:
                    self._texts.popitem(last=False)
        return parsed

    def _existing(
        self, connection: Connection, principal: Principal, request: StartRequest, digest: str
    ) -> RunRecord | None:
        # Both reads in one round trip on PostgreSQL (the archived check is needed only
        # when no run answers, which is every new request).
        with statements.pipelined(connection):
            found = _EXISTING.run(
                connection, {"pid": principal.principal_id, "rid": request.request_id}, later=True
            )
            archived = (
                self.archived_request(connection, principal.principal_id, request.request_id)
                if self.archived_request is not None
                else None
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
        return self.unit.load(connection, row.run_id)

    def _governed_head(self, connection: Connection, ref: Ref) -> registry.Head:
        head = load_head(connection, ref)
        if head is None:
            raise Rollback(not_found("REF_NOT_FOUND", "the ref is not registered"))
        admit(connection, ref.work_order_id)
        return head

    # --- reads ------------------------------------------------------------------------

    def get_run(self, principal: Principal, run_id: str) -> RunRecord | Rejection:
        """One run."""
        problem = values.check_identifier(run_id, "run_id")
        if problem:
            return problem
        with self.db.read() as connection:
            record = self.unit.load(connection, run_id)
        if record is None:
            archived = self.archived(principal, run_id)
            if archived is not None:
                return archived
        denied = self.authorize_run(principal, "run.read", record, run_id)
        return denied or record  # type: ignore[return-value]  # record is set when allowed

    def archived(self, principal: Principal, run_id: str) -> Rejection | None:
        """RUN_ARCHIVED (where the run went) for a reader of an archived run's work order;
        ``None`` when the run was never archived."""
        if self.archived_of is None:
            return None
        found = self.archived_of(run_id)
        if found is None:
            return None
        work_order_id, answer = found
        evidence = guard.authorize_subject(
            self.authority, principal, "run.read", work_order_id, self.clock.now_ms(), answer
        )
        return evidence if isinstance(evidence, Rejection) else answer

    def progress_of(self, attempt_ids: Iterable[str]) -> dict[str, progress.Progress]:
        """The latest progress reported for each of ``attempt_ids`` that reported any
        (for a caller already allowed to read their run); no read when none is given."""
        wanted = [attempt_id for attempt_id in attempt_ids if attempt_id]
        if not wanted:
            return {}
        with self.db.read() as connection:
            return attempt_progress.latest(connection, wanted)

    def definition_json(self, digest: str) -> str:
        """The canonical JSON of a stored definition (a bounded document: the profile's
        size cap), for a caller already allowed to read a run applying it."""
        with self.db.read() as connection:
            return values.canonical_json(self.definition(connection, digest).document)

    def authorize_run(
        self,
        principal: Principal,
        action: str,
        record: RunRecord | None,
        run_id: str,
        missing: Rejection | None = None,
    ) -> Rejection | None:
        """Authorises ``action`` on a run (or a subject of it) before saying whether it
        exists (no oracle); ``missing`` is the NOT_FOUND a wide grant learns."""
        found = guard.authorize_subject(
            self.authority,
            principal,
            action,
            None if record is None else record.work_order_id,
            self.clock.now_ms(),
            missing or not_found("RUN_NOT_FOUND", f"no run {run_id!r}"),
        )
        return found if isinstance(found, Rejection) else None

    def authorize_read(
        self, principal: Principal, work_order_id: str | None, run_id: str
    ) -> Rejection | None:
        """``run.read`` on a run of ``work_order_id`` (``None``: no such run), answered
        without an oracle: "no such run" and "not yours" (any grant that does not cover it:
        action, purpose or window) are one PERMISSION_DENIED, and only a caller whose
        grant covers every work order learns RUN_NOT_FOUND."""
        found = guard.authorize_subject(
            self.authority,
            principal,
            "run.read",
            work_order_id,
            self.clock.now_ms(),
            not_found("RUN_NOT_FOUND", f"no run {run_id!r}"),
        )
        return found if isinstance(found, Rejection) else None

    def get_node_result(
        self, principal: Principal, run_id: str, uid: str
    ) -> tuple[bool, str] | Rejection:
        """``(present, result_json)`` of one node or fan-out item."""
        record = self.get_run(principal, run_id)
        if isinstance(record, Rejection):
            return record
        node = record.state.nodes.get(uid)
        if node is None:
            return not_found("NODE_NOT_FOUND", f"run {run_id!r} has no node {uid!r}")
        if not node.has_result:
            return False, ""
        with self.db.read() as connection:
            if node.item < 0 and record.state.definition.nodes[node.node_id].fanout is not None:
                value = run_rows.node_value(connection, record.state, node.node_id)
                return True, values.canonical_json(value)
            text = run_rows.result_text(connection, run_id, uid)
        return (text is not None), text or ""

    def list_runs(
        self, principal: Principal, found: listing.RunFilter, page_size: int, token: str
    ) -> tuple[list[RunRecord], str] | Rejection:
        """One page of the runs ``found`` keeps, newest first (:mod:`.listing`); ``run.read``
        on the work order it is confined to, or on every work order."""
        problem = listing.check(found, page_size)
        if problem:
            return problem
        cursor = listing.decode_token(found, token)
        if isinstance(cursor, Rejection):
            return cursor
        denied = self.authorize(principal, "run.read", found.work_order)
        if denied:
            return denied
        size = page_size or listing.PAGE_DEFAULT
        with self.db.read() as connection:
            rows, following = listing.page(connection, found, size, cursor)
            records = run_rows.summaries(connection, rows, self.definition, self.snapshots)
        return records, "" if following is None else listing.encode_token(found, following)

    def list_nodes(
        self,
        principal: Principal,
        run_id: str,
        node_id: str,
        status: core.NodeStatus | None,
        page_size: int,
        token: str,
    ) -> tuple[int, list[core.NodeRun], str] | Rejection:
        """``(version, nodes, next_token)``: one page of a run's nodes and fan-out items,
        in definition then item order, optionally of one node or one status."""
        problem = values.check_identifier(run_id, "run_id")
        if problem:
            return problem
        size = page_size or run_rows.NODES_PAGE_DEFAULT
        if not 0 < size <= run_rows.NODES_PAGE_MAX:
            return invalid(
                "PAGE_INVALID",
                "page_size",
                f"page_size must be in [0, {run_rows.NODES_PAGE_MAX}]",
            )
        if node_id:
            problem = values.check_identifier(node_id, "node_id")
            if problem:
                return problem
        state = status.value if status is not None else ""
        start = run_rows.decode_node_token(token, run_id, node_id, state)
        if isinstance(start, Rejection):
            return start
        page: Any = None
        with self.db.read() as connection:
            row = connection.execute(select(runs).where(runs.c.run_id == run_id)).first()
            if row is not None:
                denied = self.authorize_read(principal, row.work_order_id, run_id)
                if denied:
                    return denied
                definition = self.definition(connection, row.definition_digest)
                if node_id and node_id not in definition.nodes:
                    return not_found("NODE_NOT_FOUND", f"run {run_id!r} has no node {node_id!r}")
                page = run_rows.list_nodes(
                    connection, row, definition, node_id, status, size, start
                )
        if row is None:  # outside the read: the tombstone is read in a read of its own
            missing = self.archived(principal, run_id) or self.authorize_read(
                principal, None, run_id
            )
            assert missing is not None  # a missing run is always refused
            return missing
        if isinstance(page, Rejection):
            return page
        nodes, following = page
        next_token = ""
        if following is not None:
            next_token = run_rows.encode_node_token(run_id, node_id, state, following)
        return int(row.version), nodes, next_token

    # --- StopRun ----------------------------------------------------------------------

    def stop(self, principal: Principal, run_id: str, reason: str) -> RunRecord | Rejection:
        """Cancels a run and its live attempts (an ended run is returned unchanged)."""
        problem = values.check_identifier(run_id, "run_id") or values.check_text(reason, "reason")
        if problem:
            return problem

        def transaction(connection: Connection, effects: Effects) -> RunRecord:
            record = self.unit.lock_load(connection, run_id)
            denied = self.authorize_run(principal, "run.stop", record, run_id)
            if denied or record is None:
                raise Rollback(denied)
            return self.stop_in(connection, effects, record, reason or "stopped by caller")

        result: RunRecord | Rejection = self.unit.transact(transaction)
        return result

    def stop_in(
        self, connection: Connection, effects: Effects, record: RunRecord, reason: str
    ) -> RunRecord:
        """Stops a locked, loaded run inside a transaction (an ended run is unchanged)."""
        command, now = core.Stop(reason), self.clock.now_ms()
        outcome = core.apply(record.state, command, now, self.limits)
        assert isinstance(outcome, core.Outcome)
        return self.unit.save(connection, record, outcome, effects, command, now)

    # --- hooks from the registry and admin --------------------------------------------

    def on_new_head(
        self, connection: Connection, head: registry.Head, now: int
    ) -> Rejection | None:
        """Applies an activated revision to the bound run's nodes not yet dispatched."""
        if not head.bound_run_id:
            return None
        record = self.unit.lock_load(connection, head.bound_run_id)
        if record is None or record.state.status in core.DECIDED:
            return None  # ended, or its outcome decided: no node is dispatched again
        parsed = self.parse_definition(head.definition, "definition", connection)
        if isinstance(parsed, Rejection):
            return parsed
        sources = {
            node_id: run_rows.node_value(connection, record.state, node_id)
            for node_id in core.revision_sources(record.state, parsed)
        }
        command = core.Revise(parsed, head.revision, sources)
        outcome = core.apply(record.state, command, now, self.limits)
        if isinstance(outcome, Rejection):
            return outcome
        effects = Effects(trace=self.unit.trace)
        self.unit.save(connection, record, outcome, effects, command, now)
        self.db.after_commit(connection, lambda: self.unit.announce(effects))
        return None

    def on_control(self, connection: Connection, _work_order_id: str, control: Control) -> None:
        """A resumed work order's ready attempts become claimable: wake the long polls."""
        if control is Control.ACTIVE:
            Database.after_commit(connection, lambda: self.signals.publish({"work:*": 0}))

    def on_cancel(self, connection: Connection, work_order_id: str, reason: str, now: int) -> None:
        """Stops the live runs of a canceled work order, governed and ad hoc alike (inside
        the admin's transaction); each records WORK_ORDER_CANCELED as its reason."""
        live = [s.value for s in core.RunStatus if s not in core.TERMINAL]
        run_ids = (
            connection.execute(
                select(runs.c.run_id).where(
                    runs.c.work_order_id == work_order_id, runs.c.status.in_(live)
                )
            )
            .scalars()
            .all()
        )
        effects = Effects(trace=self.unit.trace)
        for run_id in run_ids:
            record = self.unit.load(connection, run_id)
            if record is None:
                continue
            command = core.Stop(reason, "WORK_ORDER_CANCELED")
            outcome = core.apply(record.state, command, now, self.limits)
            assert isinstance(outcome, core.Outcome)
            if outcome.noop:
                continue  # its outcome was already decided (COMPLETING, FAILING, CANCELLING)
            self.unit.save(connection, record, outcome, effects, command, now)
        self.db.after_commit(connection, lambda: self.unit.announce(effects))

    # --- the sweeper ------------------------------------------------------------------

    def settle_due(self, timeout_s: float = 5.0) -> bool:
        """Sweeps until no timer is due at the clock's time, or ``timeout_s`` passed;
        whether none is left. For test clocks only (TestClockService): a time set or
        advanced has taken effect when the call returns, whichever process sweeps (a run
        another replica's sweeper holds is waited for, not skipped)."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self.db.read() as connection:
                now = self.clock.now_ms()
                due = connection.execute(
                    select(run_timers.c.run_id).where(run_timers.c.due_ms <= now).limit(1)
                ).first()
            if due is None:
                return True
            if time.monotonic() >= deadline:
                return False
            if not self.sweep():
                time.sleep(0.005)  # held by another process's sweeper: it commits soon

    def sweep(self, limit: int = 100) -> int:
        """Expires the leases and timeouts due now; returns how many runs it touched.

        The query reads only timer rows that are due (an index range), so its cost grows
        with due work, not with stored runs.
        """
        now = self.clock.now_ms()
        with self.db.read() as connection:
            due = _DUE_TIMERS.run(connection, {"now": now, "limit": limit}).all()
        run_ids = list(dict.fromkeys(row.run_id for row in due))
        if not run_ids:
            return 0

        def transaction(connection: Connection, effects: Effects) -> int:
            held = locks.runs_skip_locked(connection, run_ids)  # the rest: the next sweep
            for run_id in run_ids:
                if run_id not in held:
                    continue
                record = self.unit.load(connection, run_id)
                if record is None:
                    continue
                command = EXPIRE_HELD if _held(connection, record.work_order_id) else EXPIRE
                outcome = core.apply(record.state, command, now, self.limits)
                assert isinstance(outcome, core.Outcome)
                self.unit.save(connection, record, outcome, effects, command, now)
            return len(held)  # runs held elsewhere are not counted: no busy loop on them

        touched: int | Rejection = self.unit.transact(transaction)
        return touched if isinstance(touched, int) else 0


def admit(connection: Connection, work_order_id: str) -> None:
    """Refuses new work (a start, governed or ad hoc, or a resume) under a work order that
    is canceled or canceling, or that a hold applies to; a paused one admits it, and its
    attempts wait for the resume.

    Raises:
        Rollback: WORK_ORDER_CANCELED, RESTORE_HOLD or CLOCK_UNCERTAIN.
    """
    work_order = controls.load_work_order(connection, work_order_id)
    problem = gates.check_holds(controls.active_holds(connection, work_order_id), work_order_id)
    if problem is None and work_order.control in (Control.CANCELING, Control.CANCELED):
        problem = gates.check_control(work_order)
    if problem:
        raise Rollback(problem)


def _held(connection: Connection, work_order_id: str) -> bool:
    """Whether no worker may claim the work order's ready nodes: it is paused, canceling
    or canceled, or a hold applies to it."""
    if controls.load_work_order(connection, work_order_id).control is not Control.ACTIVE:
        return True
    return bool(controls.active_holds(connection, work_order_id))


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


# --- validation -----------------------------------------------------------------------


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


_DUE_TIMERS = Statement(  # every sweep asks
    select(run_timers.c.run_id)
    .where(run_timers.c.due_ms <= bindparam("now"))
    .order_by(run_timers.c.due_ms)
    .limit(bindparam("limit"))
)
_EXISTING = Statement(
    select(runs.c.run_id, runs.c.request_digest).where(
        runs.c.principal_id == bindparam("pid"), runs.c.request_id == bindparam("rid")
    )
)


def page_token_after(found: listing.RunFilter, record: RunRecord) -> str:
    """The ListRuns page token (of the filter ``found``) of the page after ``record``."""
    return listing.encode_token(found, (record.state.created_at_ms, record.state.run_id))
