"""The runtime's command boundary: runs, tasks and the sweeper, one transaction each.

Every command authorizes, then inside one serialized write transaction loads the run,
applies the pure reducer (:mod:`praxis.core.run`) and saves the outcome with a
compare-and-swap on the run's version (:func:`run_rows.save`). After the commit it wakes
the long polls and streams of every server process (:mod:`praxis.store.wake.hub`).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from praxis.authority import guard
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import definition as definitions
from praxis.core import gates, money, registry, values
from praxis.core import run as core
from praxis.core.contract import Allowance
from praxis.core.records import Control, Principal, Ref
from praxis.core.rejection import Code, Rejection, invalid, not_found
from praxis.observability.tracing import TraceContext
from praxis.store.controls import rows as controls
from praxis.store.controls.tables import work_orders
from praxis.store.db import locks
from praxis.store.db.database import Database, Rollback
from praxis.store.db.statements import Statement
from praxis.store.registry.store import bind_head, load_head
from praxis.store.runtime import rows as run_rows
from praxis.store.runtime import worker_models
from praxis.store.runtime.rows import Effects, RunRecord
from praxis.store.runtime.tables import attempts, ready_nodes, run_timers, runs
from praxis.store.runtime.unit import Unit
from praxis.store.wake.hub import Hub

EXPIRE = core.Expire()
MIN_LEASE_MS = 1_000
MAX_LEASE_MS = 3_600_000
MAX_WAIT_MS = 60_000
MAX_TASKS = 100
MAX_SETTLEMENTS = 100
LIST_DEFAULT = 100
LIST_MAX = 1000
MAX_BATCH_INPUT_BYTES = 3 * 1024 * 1024
"""The tasks one ClaimTasks or SettleTasks response carries, in bytes of their inputs,
templates and agent specs (at least one task); ready tasks past it stay ready."""


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


@dataclass(frozen=True)
class TaskView:
    """One leased attempt as a worker receives it."""

    attempt_id: str
    run_id: str
    node_uid: str
    node_id: str
    attempt: int
    operation_id: str
    agent: definitions.Agent
    input_json: str
    template: str
    deadline_ms: int
    lease_expires_at_ms: int
    revision: int
    weight: int = 0
    """About how many bytes the task takes in a response (input, template, agent)."""
    traceparent: str = ""
    """The attempt's span (tracing on only; see :mod:`praxis.store.runtime.traces`)."""


@dataclass(frozen=True)
class Settlement:
    """A CompleteTask or FailTask request after wire validation."""

    attempt_id: str
    worker_id: str
    effect: core.Effect
    cost_microcredits: str
    result_json: str = ""
    error: str = ""
    retryable: bool = False
    completed: bool = True  # CompleteTask; False for FailTask (used by settle_many)


@dataclass(frozen=True)
class Claim:
    """A ClaimTasks request's fields (the wait is the RPC layer's)."""

    worker_id: str
    models: list[str]
    max_tasks: int
    lease_ms: int
    principal_id: str = ""
    """The claiming principal (set by the store from the caller)."""


class RunStore:
    """Runs, tasks and due work over a :class:`Database`."""

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
        allowance_of: Callable[[Connection, RunRecord], Allowance | None] | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.limits = limits
        self.profile = profile
        self.signals = signals or Hub()
        self.new_run_id = new_run_id
        self._configured_models = frozenset(models)
        self._registered: dict[str, int] = {}  # worker-registered model -> expiry (cache)
        self._texts: OrderedDict[str, tuple[definitions.Definition, frozenset[str]]] = OrderedDict()
        self.unit = Unit(db, self.signals, limits)  # transactions, loads and wake-ups
        self.snapshots = self.unit.snapshots
        self._lock = threading.Lock()
        # How many claims skipped a candidate run another transaction held (PostgreSQL,
        # SKIP LOCKED): a long poll that saw it grow claims again soon, since the holder's
        # commit need not wake it (a sweep that changes nothing, another replica's claim).
        self.claims_skipped = 0
        # Execution-model hooks (praxis.store.execution: contracts, reconciliations, waits,
        # segments), each called inside the command's transaction; a Rollback refuses the
        # command. Wired by the engine's reactions table (praxis.app.reactions).
        self.start_hooks: list[Callable[[Connection, Principal, RunRecord], None]] = []
        self.settle_hooks: list[
            Callable[[Connection, RunRecord, core.Command, core.Outcome], None]
        ] = []
        # What a run's contract still allows (the execution model's contracts).
        self.allowance_of = allowance_of or _unlimited

    # --- plumbing ---------------------------------------------------------------------

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        evidence = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    @property
    def traced(self) -> bool:
        """Whether runs are traced (tracing is on: each run is one trace)."""
        return self.unit.trace is not None

    def definition(self, connection: Connection, digest: str) -> definitions.Definition:
        """A stored definition, parsed once per process (:meth:`Unit.definition`)."""
        return self.unit.definition(connection, digest)

    def _lock_budget(
        self, connection: Connection, contract_id: str, principal_id: str, spends: bool
    ) -> None:
        """Locks the ledgers a command reads or charges: the contract, and the starting
        principal when it has a spend cap or when ``spends`` (its spend is charged)."""
        if not locks.postgres(connection):
            return
        capped = spends or self.authority.spend_cap(principal_id) is not None
        locks.budget(connection, contract_id, principal_id if capped else "")

    # --- models -----------------------------------------------------------------------

    def known_models(self, connection: Connection | None = None) -> frozenset[str]:
        """Models from the config plus the live worker registrations (read now)."""
        if connection is None:
            with self.db.read() as reading:
                return self.known_models(reading)
        self._registered = worker_models.live(connection, self.clock.now_ms())
        return self._configured_models | frozenset(self._registered)

    def _cached_models(self) -> frozenset[str]:
        now = self.clock.now_ms()
        live = {model for model, expiry in self._registered.items() if expiry > now}
        return self._configured_models | frozenset(live)

    def list_models(self, principal: Principal) -> list[tuple[str, bool, int]] | Rejection:
        """``(name, configured, expires_at_ms)`` of every model StartRun accepts now."""
        denied = self._authorize(principal, "run.start", "")
        if denied and self._authorize(principal, "task.work", ""):
            return denied
        self.known_models()
        registered = self._registered
        configured = [(model, True, 0) for model in sorted(self._configured_models)]
        workers = [
            (model, False, expiry)
            for model, expiry in sorted(registered.items())
            if model not in self._configured_models
        ]
        return configured + workers

    def parse_definition(
        self, document: values.JsonValue, field_path: str, connection: Connection | None = None
    ) -> definitions.Definition | Rejection:
        """Validates a definition against the caps and the known models."""
        parsed = definitions.parse(document, self._cached_models(), self.limits, field_path)
        if isinstance(parsed, Rejection):
            # Another process or replica (its workers) may have taught the engine a model
            # the definition names, whatever else is wrong with it: judge it against the
            # models registered now (an invalid definition costs one more read).
            parsed = definitions.parse(
                document, self.known_models(connection), self.limits, field_path
            )
        if not isinstance(parsed, Rejection):
            self.unit.remember(parsed)
        return parsed

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
                frozenset(node.agent.model for node in known.nodes.values())
                <= self._cached_models()
            ):
                return None
        parsed = self.parse_definition(document, field_path, connection)
        return parsed if isinstance(parsed, Rejection) else None

    # --- StartRun ---------------------------------------------------------------------

    def start(
        self, principal: Principal, request: StartRequest
    ) -> tuple[RunRecord, bool] | Rejection:
        """Starts a run, or returns the one this principal's request_id already started."""
        problem = _check_start(request)
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
        work_order_id = request.ref.work_order_id if request.ref else ""
        denied = self._authorize(principal, "run.start", work_order_id)
        if denied:
            return denied
        request_digest = values.digest(
            {
                "definition": parsed.digest if parsed else "",
                "ref": [work_order_id, request.ref.run_id if request.ref else ""],
                "input": input_value,
                "subscriber": request.subscriber,
                "contract_id": request.contract_id,
            }
        )
        input_text = values.canonical_json(input_value)

        def transaction(connection: Connection, effects: Effects) -> tuple[RunRecord, bool]:
            locks.work_order(connection, work_order_id)
            existing = self._existing(connection, principal, request, request_digest)
            if existing is not None:
                return existing, False
            definition, revision = parsed, 0
            if request.ref is not None:
                head = self._governed_head(connection, request.ref)
                if head.bound_run_id:
                    bound = self.unit.load(connection, head.bound_run_id)
                    if bound is not None:
                        return bound, False
                found = self.parse_definition(head.definition, "ref", connection)
                if isinstance(found, Rejection):
                    raise Rollback(found)
                definition, revision = found, head.revision
            assert definition is not None
            now = self.clock.now_ms()
            command = core.Start(self.new_run_id(), definition, revision)
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
                input_json=input_text,
            )
            saved = run_rows.insert(
                connection, record, request_digest, outcome, command, now, self.snapshots
            )
            self._lock_budget(connection, request.contract_id, principal.principal_id, False)
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

        result: tuple[RunRecord, bool] | Rejection = self.unit.transact(transaction)
        return result

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
        if found is not None and found[1] <= self._cached_models():
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
        row = _EXISTING.run(
            connection, {"pid": principal.principal_id, "rid": request.request_id}
        ).first()
        if row is None:
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
        work_order = controls.load_work_order(connection, ref.work_order_id)
        problem = gates.check_holds(
            controls.active_holds(connection, ref.work_order_id), ref.work_order_id
        )
        if problem is None and work_order.control in (Control.CANCELING, Control.CANCELED):
            problem = gates.check_control(work_order)
        if problem:
            raise Rollback(problem)
        return head

    # --- reads ------------------------------------------------------------------------

    def get_run(self, principal: Principal, run_id: str) -> RunRecord | Rejection:
        """One run."""
        problem = values.check_identifier(run_id, "run_id")
        if problem:
            return problem
        with self.db.read() as connection:
            record = self.unit.load(connection, run_id)
        denied = self.authorize_run(principal, "run.read", record, run_id)
        return denied or record  # type: ignore[return-value]  # record is set when allowed

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
        self, principal: Principal, status: core.RunStatus | None, page_size: int, token: str
    ) -> tuple[list[RunRecord], str] | Rejection:
        """One page of runs, newest first."""
        size = page_size or LIST_DEFAULT
        if not 0 < size <= LIST_MAX:
            return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {LIST_MAX}]")
        cursor = _decode_token(token)
        if isinstance(cursor, Rejection):
            return cursor
        denied = self._authorize(principal, "run.read", "")
        if denied:
            return denied
        query = select(runs).order_by(runs.c.created_at_ms.desc(), runs.c.run_id.desc())
        if status is not None:
            query = query.where(runs.c.status == status.value)
        if cursor is not None:
            created, run_id = cursor
            query = query.where(
                (runs.c.created_at_ms < created)
                | ((runs.c.created_at_ms == created) & (runs.c.run_id < run_id))
            )
        with self.db.read() as connection:
            rows = connection.execute(query.limit(size + 1)).all()
            records = run_rows.summaries(connection, rows[:size], self.definition, self.snapshots)
        next_token = ""
        if len(rows) > size:
            last = records[-1].state
            next_token = _encode_token(last.created_at_ms, last.run_id)
        return records, next_token

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
        with self.db.read() as connection:
            row = connection.execute(select(runs).where(runs.c.run_id == run_id)).first()
            if row is None:
                return not_found("RUN_NOT_FOUND", f"no run {run_id!r}")
            denied = self._authorize(principal, "run.read", row.work_order_id)
            if denied:
                return denied
            definition = self.definition(connection, row.definition_digest)
            if node_id and node_id not in definition.nodes:
                return not_found("NODE_NOT_FOUND", f"run {run_id!r} has no node {node_id!r}")
            page = run_rows.list_nodes(connection, row, definition, node_id, status, size, start)
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
            command, now = core.Stop(reason or "stopped by caller"), self.clock.now_ms()
            outcome = core.apply(record.state, command, now, self.limits)
            assert isinstance(outcome, core.Outcome)
            return run_rows.save(connection, record, outcome, effects, command, now)

        result: RunRecord | Rejection = self.unit.transact(transaction)
        return result

    # --- hooks from the registry and admin --------------------------------------------

    def on_new_head(
        self, connection: Connection, head: registry.Head, now: int
    ) -> Rejection | None:
        """Applies an activated revision to the bound run's nodes not yet dispatched."""
        if not head.bound_run_id:
            return None
        record = self.unit.lock_load(connection, head.bound_run_id)
        if record is None or record.state.status in core.TERMINAL:
            return None
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
        run_rows.save(connection, record, outcome, effects, command, now)
        self.db.after_commit(connection, lambda: self.unit.announce(effects))
        return None

    def on_control(self, connection: Connection, _work_order_id: str, control: Control) -> None:
        """A resumed work order's ready attempts become claimable: wake the long polls."""
        if control is Control.ACTIVE:
            Database.after_commit(connection, lambda: self.signals.publish({"work:*": 0}))

    def on_cancel(self, connection: Connection, work_order_id: str, reason: str, now: int) -> None:
        """Stops the live runs of a canceled work order (inside the admin's transaction)."""
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
            command = core.Stop(reason)
            outcome = core.apply(record.state, command, now, self.limits)
            assert isinstance(outcome, core.Outcome)
            run_rows.save(connection, record, outcome, effects, command, now)
        self.db.after_commit(connection, lambda: self.unit.announce(effects))

    # --- tasks ------------------------------------------------------------------------

    def claim(
        self,
        principal: Principal,
        worker_id: str,
        models: list[str],
        max_tasks: int,
        lease_ms: int,
    ) -> list[TaskView] | Rejection:
        """Leases up to ``max_tasks`` ready attempts of ``models`` (does not wait)."""
        problem = check_claim(worker_id, models, max_tasks, lease_ms, 0) or self._authorize(
            principal, "task.work", ""
        )
        if problem:
            return problem
        if not self._may_claim(models):
            return []
        result: list[TaskView] | Rejection = self.unit.transact(
            self._claim_body(Claim(worker_id, models, max_tasks, lease_ms, principal.principal_id))
        )
        return result

    def _may_claim(self, models: list[str]) -> bool:
        """Whether a claim of ``models`` has anything to do: a ready attempt, or a worker
        registration to make or renew. A read, so that a claim finding nothing (a long
        poll woken for a task another worker took) costs no write transaction. Nothing is
        lost by answering none: a claim right then would have found none either, and a
        long poll subscribed before this read is woken by the next commit readying one.
        """
        now = self.clock.now_ms()
        with self.db.read() as connection:
            if worker_models.would_write(connection, models, self._configured_models, now):
                return True
            ready = _READY.run(connection, {"models": models, "now": now, "limit": 1})
            return ready.first() is not None

    def _claim_body(self, claim: Claim) -> Callable[[Connection, Effects], list[TaskView]]:
        """The transaction that leases up to ``claim.max_tasks`` ready attempts."""

        def transaction(connection: Connection, effects: Effects) -> list[TaskView]:
            now = self.clock.now_ms()
            registered = worker_models.register(
                connection, claim.models, self._configured_models, now
            )
            if isinstance(registered, Rejection):
                raise Rollback(registered)
            if registered is not None:
                self._registered = registered
            # Candidates are read without locks; only the runs no other transaction holds
            # are locked (SKIP LOCKED), and _dispatch re-checks each candidate against the
            # locked run, so replicas claim disjoint attempts without waiting on each other.
            postgres = locks.postgres(connection)
            limit = claim.max_tasks * 2 + 8 if postgres else claim.max_tasks
            rows = _READY.run(
                connection, {"models": claim.models, "now": now, "limit": limit}
            ).all()
            by_run: dict[str, list[str]] = defaultdict(list)
            for row in rows:
                by_run[row.run_id].append(row.node_uid)
            locked: dict[str, Any] = {}  # PostgreSQL: the runs rows read by their lock
            if postgres:
                by_run = self._lock_candidates(connection, by_run, claim.max_tasks, locked)
            tasks: list[TaskView] = []
            cache: dict[tuple[str, str], values.JsonValue] = {}
            for run_id, uids in by_run.items():
                row = locked.get(run_id)
                if not self._dispatch(
                    connection, effects, run_id, uids, claim, now, cache, tasks, row
                ):
                    break  # the response is full: the rest stay ready
            return tasks

        return transaction

    def _lock_candidates(
        self,
        connection: Connection,
        by_run: dict[str, list[str]],
        wanted: int,
        locked: dict[str, Any],
    ) -> dict[str, list[str]]:
        """The candidates of the runs this claim could lock (in ready order, at most
        ``wanted`` attempts), with the budgets of those runs locked in key order; the
        ``runs`` rows of the runs kept go to ``locked``."""
        kept: dict[str, list[str]] = defaultdict(list)
        budgets: dict[str, tuple[str, str]] = {}  # run -> (contract, starting principal)
        count = 0
        remaining = list(by_run.items())
        while remaining and count < wanted:  # lock only the runs needed for the shortfall
            chunk, covered = [], 0
            while remaining and covered < wanted - count:
                chunk.append(remaining.pop(0))
                covered += len(chunk[-1][1])
            held = locks.runs_skip_locked_rows(connection, (run_id for run_id, _ in chunk))
            if len(held) < len(chunk):
                with self._lock:
                    self.claims_skipped += 1
            for run_id, uids in chunk:
                if run_id in held:
                    kept[run_id] = uids[: wanted - count]
                    count += len(kept[run_id])
                    row = held[run_id]
                    budgets[run_id] = (row.contract_id or "", row.principal_id or "")
                    locked[run_id] = row
        keys: set[str] = set()
        for contract_id, principal_id in budgets.values():
            if contract_id:
                keys.add("contract:" + contract_id)
            if self.authority.spend_cap(principal_id) is not None:
                keys.add("principal:" + principal_id)
        for name in sorted(keys):  # every contract key sorts before every principal key
            locks.budget_key(connection, name)
        return kept

    def _dispatch(
        self,
        connection: Connection,
        effects: Effects,
        run_id: str,
        uids: list[str],
        claim: Claim,
        now: int,
        cache: dict[tuple[str, str], values.JsonValue],
        tasks: list[TaskView],
        row: Any = None,
    ) -> bool:
        """Leases ``uids`` of one run, appending to ``tasks``; False once the response's
        byte budget (:data:`MAX_BATCH_INPUT_BYTES`) is spent, leaving the rest ready.
        ``row``: the run's ``runs`` row as its lock read it (PostgreSQL), not read again."""
        record = self.unit.load(connection, run_id, row)
        allowance = self.allowance_of(connection, record) if record is not None else None
        for uid in uids:
            input_json, size, weight = None, 0, 0
            node = None if record is None else record.state.nodes.get(uid)
            if record is not None and node is not None and _claimable(record, node, now):
                input_json = values.canonical_json(
                    run_rows.gather_input(connection, record, node, cache)
                )
                size = len(input_json.encode("utf-8", errors="surrogatepass"))
                weight = size + _spec_bytes(record.state.definition.nodes[node.node_id])
                spent = sum(task.weight for task in tasks)
                if (
                    tasks
                    and size <= self.limits.max_input_bytes
                    and (spent + weight > MAX_BATCH_INPUT_BYTES)
                ):
                    return False
            command = core.Dispatch(
                uid,
                claim.worker_id,
                claim.lease_ms,
                allowance,
                claim.principal_id,
                size,
            )
            outcome = (
                core.apply(record.state, command, now, self.limits)
                if record is not None
                else not_found("RUN_NOT_FOUND", run_id)
            )
            if isinstance(outcome, Rejection) or record is None:
                run_rows.drop_ready(connection, run_id, uid)  # stale row
                continue
            record = run_rows.save(connection, record, outcome, effects, command, now)
            node = record.state.nodes[uid]
            if node.status is not core.NodeStatus.RUNNING:
                continue  # refused (allowance, input size): the node failed with the reason
            assert input_json is not None
            task = replace(self._task(record, node, input_json), weight=weight)
            effects.leased.append((run_id, uid, task.agent.model))
            if effects.trace is not None:
                traceparent = effects.trace.traceparent(connection, run_id, node.attempt_id)
                task = replace(task, traceparent=traceparent)
            tasks.append(task)
        return True

    def _task(self, record: RunRecord, node: core.NodeRun, input_json: str) -> TaskView:
        spec = record.state.definition.nodes[node.node_id]
        return TaskView(
            attempt_id=node.attempt_id,
            run_id=record.state.run_id,
            node_uid=node.uid,
            node_id=node.node_id,
            attempt=node.attempts,
            operation_id=core.operation_id(record.state.run_id, node.uid),
            agent=spec.agent,
            input_json=input_json,
            template=spec.template,
            deadline_ms=node.deadline_ms,
            lease_expires_at_ms=node.lease_expires_at_ms,
            revision=node.revision,
        )

    def next_ready_ms(self, models: list[str]) -> int | None:
        """The earliest ``not_before_ms`` among ready rows of ``models`` (backoff wake-up)."""
        with self.db.read() as connection:
            value = _NEXT_READY.run(connection, {"models": models}).scalar()
        return None if value is None else int(value)

    def _attempt_body(
        self, principal: Principal, attempt_id: str, build: Callable[[core.Attempt], core.Command]
    ) -> Callable[[Connection, Effects], core.Reply]:
        """The transaction of one command on an attempt (heartbeat or settlement); only
        the principal whose claim leased the attempt may act on it."""

        def transaction(connection: Connection, effects: Effects) -> core.Reply:
            # PostgreSQL: the run's row, locked and as of the lock (SQLite: one writer).
            row = run_rows.lock_attempt_run(connection, attempt_id) if self.db.postgres else None
            attempt = run_rows.load_attempt(connection, attempt_id)  # read under the lock
            if (
                attempt is not None
                and self.db.postgres
                and (row is None or attempt.run_id != row.run_id)
            ):
                # Committed after the lock's statement read attempts (no claim returns
                # an attempt id before its commit; a guessed one could): lock, read again.
                locks.run(connection, attempt.run_id)
                attempt, row = run_rows.load_attempt(connection, attempt_id), None
            if attempt is None:
                raise Rollback(not_found("ATTEMPT_NOT_FOUND", f"no attempt {attempt_id!r}"))
            if attempt.principal_id and attempt.principal_id != principal.principal_id:
                raise Rollback(
                    Rejection(
                        Code.PERMISSION_DENIED,
                        "ATTEMPT_NOT_YOURS",
                        f"attempt {attempt_id!r} was claimed by another principal",
                    )
                )
            record = self.unit.load(connection, attempt.run_id, row)
            if record is None:
                raise Rollback(not_found("RUN_NOT_FOUND", attempt.run_id))
            command, now = build(attempt), self.clock.now_ms()
            outcome = core.apply(record.state, command, now, self.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            spends = any(a.cost_microcredits not in ("", "0") for a in outcome.attempts)
            if spends or record.contract_id:
                self._lock_budget(connection, record.contract_id, record.principal_id, spends)
            run_rows.save(connection, record, outcome, effects, command, now)
            for hook in self.settle_hooks:
                hook(connection, record, command, outcome)
            return outcome.reply

        return transaction

    def _attempt_command(
        self,
        principal: Principal,
        attempt_id: str,
        build: Callable[[core.Attempt], core.Command],
    ) -> core.Reply | Rejection:
        problem = values.check_identifier(attempt_id, "attempt_id") or self._authorize(
            principal, "task.work", ""
        )
        if problem:
            return problem
        result: core.Reply | Rejection = self.unit.transact(
            self._attempt_body(principal, attempt_id, build)
        )
        return result

    def heartbeat(
        self, principal: Principal, attempt_id: str, worker_id: str, lease_ms: int
    ) -> core.Reply | Rejection:
        """Extends a lease; ``cancelled`` says the worker should stop."""
        problem = check_lease(lease_ms) or values.check_identifier(worker_id, "worker_id")
        if problem:
            return problem
        return self._attempt_command(
            principal,
            attempt_id,
            lambda attempt: core.Heartbeat(attempt, worker_id, lease_ms),
        )

    def complete(self, principal: Principal, request: Settlement) -> core.Reply | Rejection:
        """Settles an attempt with a result checked against the contract and the cap."""
        build = self._completion(request)
        if isinstance(build, Rejection):
            return build
        return self._attempt_command(principal, request.attempt_id, build)

    def fail(self, principal: Principal, request: Settlement) -> core.Reply | Rejection:
        """Settles an attempt as failed; the reply says whether it will be retried."""
        build = self._failure(request)
        if isinstance(build, Rejection):
            return build
        return self._attempt_command(principal, request.attempt_id, build)

    def settle_many(
        self, principal: Principal, requests: list[Settlement], claim: Claim | None = None
    ) -> tuple[list[core.Reply | Rejection], list[TaskView]] | Rejection:
        """Settles attempts and then claims, all in one group commit (SettleTasks).

        Each settlement is validated, decided and saved on its own (its own SAVEPOINT), so
        a stale, foreign or invalid one never affects the others; the claim, when given,
        runs after them in the same COMMIT. Returns one reply or rejection per request,
        in order, and the claimed tasks.
        """
        if len(requests) > MAX_SETTLEMENTS:
            return invalid(
                "PAGE_INVALID",
                "settlements",
                f"at most {MAX_SETTLEMENTS} settlements per call; got {len(requests)}",
            )
        problem = self._authorize(principal, "task.work", "")
        if claim is not None:
            problem = problem or check_claim(
                claim.worker_id, claim.models, claim.max_tasks, claim.lease_ms, 0
            )
        if problem:
            return problem
        replies: list[core.Reply | Rejection] = []
        bodies: list[Callable[[Connection, Effects], Any]] = []
        slots: list[int] = []
        for index, request in enumerate(requests):
            build = self._completion(request) if request.completed else self._failure(request)
            problem = build if isinstance(build, Rejection) else None
            problem = problem or values.check_identifier(request.attempt_id, "attempt_id")
            if problem:
                replies.append(problem)
                continue
            assert not isinstance(build, Rejection)
            replies.append(core.Reply())  # replaced by the body's answer below
            slots.append(index)
            bodies.append(self._attempt_body(principal, request.attempt_id, build))
        keys = self._runs_of([requests[index].attempt_id for index in slots])
        if claim is not None:
            bodies.append(self._claim_body(replace(claim, principal_id=principal.principal_id)))
            keys.append("")
        answers = self.unit.transact_many(bodies, keys)
        for index, answer in zip(slots, answers, strict=False):
            replies[index] = answer
        tasks: list[TaskView] = answers[-1] if claim is not None else []
        return replies, tasks

    def _runs_of(self, attempt_ids: list[str]) -> list[str]:
        """The run of each attempt ("" where unknown), read on PostgreSQL only, where it
        lets one transaction settle a run's several attempts (a fan-out's items) with one
        COMMIT; SQLite commits the whole batch at once anyway."""
        if not self.db.postgres or len(attempt_ids) < 2:
            return [""] * len(attempt_ids)
        with self.db.read() as connection:
            rows = connection.execute(_RUNS_OF, {"ids": list(set(attempt_ids))}).all()
        known: dict[str, str] = {row.attempt_id: row.run_id for row in rows}
        return [known.get(attempt_id, "") for attempt_id in attempt_ids]

    def _completion(
        self, request: Settlement
    ) -> Callable[[core.Attempt], core.Command] | Rejection:
        """How to complete the attempt, or why the request is refused before loading it."""
        size = len(request.result_json.encode("utf-8", errors="surrogatepass"))
        if size > self.limits.max_result_bytes:
            return invalid(
                "RESULT_TOO_LARGE",
                "result_json",
                f"the result is {size} bytes; the cap is {self.limits.max_result_bytes}",
            )
        if not request.result_json:
            return invalid("FIELD_REQUIRED", "result_json", "result_json is required")
        profile = replace(self.profile, max_bytes=self.limits.max_result_bytes)
        result = values.parse_document(request.result_json, "result_json", profile)
        if isinstance(result, Rejection):
            return result
        problem = _check_settlement(request)
        if problem:
            return problem
        return lambda attempt: core.Complete(
            attempt, request.worker_id, result, request.effect, request.cost_microcredits
        )

    def _failure(self, request: Settlement) -> Callable[[core.Attempt], core.Command] | Rejection:
        """How to fail the attempt, or why the request is refused before loading it."""
        problem = _check_settlement(request)
        if problem:
            return problem
        return lambda attempt: core.Fail(
            attempt,
            request.worker_id,
            values.truncate_text(request.error) or "failed",
            request.retryable,
            request.effect,
            request.cost_microcredits,
        )

    # --- the sweeper ------------------------------------------------------------------

    def sweep(self, limit: int = 100) -> int:
        """Expires the leases and timeouts due now; returns how many runs it touched.

        The query reads only timer rows that are due (an index range), so its cost grows
        with due work, not with stored runs.
        """
        now = self.clock.now_ms()
        with self.db.read() as connection:
            due = (
                connection.execute(
                    select(run_timers.c.run_id)
                    .where(run_timers.c.due_ms <= now)
                    .order_by(run_timers.c.due_ms)
                    .limit(limit)
                )
                .scalars()
                .all()
            )
        run_ids = list(dict.fromkeys(due))
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
                outcome = core.apply(record.state, EXPIRE, now, self.limits)
                assert isinstance(outcome, core.Outcome)
                run_rows.save(connection, record, outcome, effects, EXPIRE, now)
            return len(held)  # runs held elsewhere are not counted: no busy loop on them

        touched: int | Rejection = self.unit.transact(transaction)
        return touched if isinstance(touched, int) else 0


# --- validation -----------------------------------------------------------------------


def _spec_bytes(spec: definitions.Node) -> int:
    """What a task of ``spec`` carries besides its input: template, prompt, contracts."""
    agent = spec.agent
    size = len(spec.template) + len(agent.system_prompt)
    if agent.functions is not None:
        size += len(values.canonical_json(agent.functions))
    if agent.output.kind != "text":
        size += len(values.canonical_json(agent.output.schema))
    return size


def _claimable(record: RunRecord, node: core.NodeRun, now: int) -> bool:
    """Whether Dispatch would lease the node now (so its input is worth gathering)."""
    return (
        record.state.status not in core.TERMINAL
        and node.status is core.NodeStatus.READY
        and node.not_before_ms <= now
    )


def _unlimited(_connection: Connection, _record: RunRecord) -> Allowance | None:
    return None


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
    if request.subscriber:
        problem = values.check_identifier(request.subscriber, "subscriber")
        if problem:
            return problem
    if request.contract_id:
        return values.check_identifier(request.contract_id, "contract_id")
    return None


def check_lease(lease_ms: int, field_path: str = "lease_ms") -> Rejection | None:
    """A LEASE_INVALID rejection when a lease is outside [1 s, 1 h]."""
    if MIN_LEASE_MS <= lease_ms <= MAX_LEASE_MS:
        return None
    return invalid(
        "LEASE_INVALID", field_path, f"{field_path} must be in [{MIN_LEASE_MS}, {MAX_LEASE_MS}]"
    )


def check_claim(
    worker_id: str, models: list[str], max_tasks: int, lease_ms: int, wait_ms: int
) -> Rejection | None:
    """Checks a ClaimTasks request's fields."""
    problem = values.check_identifier(worker_id, "worker_id")
    if problem:
        return problem
    if not models:
        return invalid("FIELD_REQUIRED", "models", "name at least one model")
    for index, model in enumerate(models):
        problem = values.check_identifier(model, f"models[{index}]")
        if problem:
            return problem
    if not 1 <= max_tasks <= MAX_TASKS:
        return invalid("PAGE_INVALID", "max_tasks", f"max_tasks must be in [1, {MAX_TASKS}]")
    if not 0 <= wait_ms <= MAX_WAIT_MS:
        return invalid("LEASE_INVALID", "wait_ms", f"wait_ms must be in [0, {MAX_WAIT_MS}]")
    return check_lease(lease_ms)


def _check_settlement(request: Settlement) -> Rejection | None:
    problem = values.check_identifier(request.worker_id, "worker_id")
    if problem:
        return problem
    cost = money.parse_amount(request.cost_microcredits, "cost_microcredits")
    return cost if isinstance(cost, Rejection) else None


_EXISTING = Statement(
    select(runs.c.run_id, runs.c.request_digest).where(
        runs.c.principal_id == bindparam("pid"), runs.c.request_id == bindparam("rid")
    )
)
_RUNS_OF = select(attempts.c.attempt_id, attempts.c.run_id).where(
    attempts.c.attempt_id.in_(bindparam("ids", expanding=True))
)
_NEXT_READY = Statement(  # every long poll reads it before it waits
    select(func.min(ready_nodes.c.not_before_ms)).where(
        ready_nodes.c.model.in_(bindparam("models", expanding=True))
    )
)
_READY = Statement(
    select(ready_nodes.c.run_id, ready_nodes.c.node_uid)
    .where(
        ready_nodes.c.model.in_(bindparam("models", expanding=True)),
        ready_nodes.c.not_before_ms <= bindparam("now"),
        ready_nodes.c.work_order_id.not_in(
            select(work_orders.c.work_order_id).where(work_orders.c.control != Control.ACTIVE.value)
        ),
    )
    .order_by(ready_nodes.c.seq)
    .limit(bindparam("limit"))
)


def page_token_after(record: RunRecord) -> str:
    """The ListRuns page token of the page that starts after ``record``."""
    return _encode_token(record.state.created_at_ms, record.state.run_id)


def _encode_token(created_at_ms: int, run_id: str) -> str:
    return f"{created_at_ms}.{run_id}"


def _decode_token(token: str) -> tuple[int, str] | Rejection | None:
    if not token:
        return None
    created, _, run_id = token.partition(".")
    if not created.isdigit() or values.identifier_problem(run_id):
        return invalid("PAGE_INVALID", "page_token", "page_token is not one this server issued")
    return int(created), run_id
