"""The worker task protocol: claims, heartbeats and settlements of attempts.

A claim leases ready attempts of the models a worker serves (registering those models
for a while), each settlement decides one attempt through the pure reducer, and
:meth:`TaskStore.settle_many` settles a batch and claims again in one group commit. Every
command goes through the runtime's unit of work (:mod:`praxis.store.runtime.unit`); the
wire checks of these requests (:func:`check_claim`, :func:`check_lease`) sit beside the
requests they check; the RPC layer runs :func:`check_claim` once per request (with the
wait the store never sees), before any claim.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.engine import Connection

from praxis.core import definition as definitions
from praxis.core import money, progress, values
from praxis.core import run as core
from praxis.core.frozen import evolve
from praxis.core.records import Control, Principal
from praxis.core.rejection import Code, Rejection, invalid, not_found
from praxis.observability import metrics
from praxis.store.controls import budgets as order_budgets
from praxis.store.controls import rows as controls
from praxis.store.db import locks
from praxis.store.db.database import Database, Ending, Rollback
from praxis.store.db.statements import Savepoint
from praxis.store.runtime import ahead, matching
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.emits import AttemptSettled, WorkReadied
from praxis.store.runtime.inputs import gather_input
from praxis.store.runtime.records import Effects, RunRecord, Stale
from praxis.store.runtime.rows import attempts as attempt_rows
from praxis.store.runtime.rows import loading, queues
from praxis.store.runtime.rows import progress as attempt_progress
from praxis.store.runtime.rows.attempts import attempt_to_decide
from praxis.store.runtime.rows.queues import drop_ready

log = logging.getLogger("praxis.tasks")
MIN_LEASE_MS = 1_000
MAX_LEASE_MS = 3_600_000
MAX_WAIT_MS = 60_000
MAX_TASKS = 100
MAX_SETTLEMENTS = 100
MAX_HANDOFFS = 32
"""Parked long polls one commit hands ready work to (the rest are woken to claim)."""
MAX_BATCH_INPUT_BYTES = 3 * 1024 * 1024
"""The tasks one ClaimTasks or SettleTasks response carries, in bytes of their inputs,
templates and agent specs (at least one task); ready tasks past it stay ready."""


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
    effects: str = ""
    """The node's declared effects (``""`` when undeclared)."""


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


class TaskStore:
    """The worker task protocol over the runs of a :class:`RuntimeContext`: claims (leasing
    ready attempts), heartbeats and settlements, one transaction each or one group
    commit for a batch (:meth:`settle_many`)."""

    def __init__(self, context: RuntimeContext, decide_ahead: bool = False) -> None:
        self.context = context
        self.unit = context.unit
        self.db = context.db
        self.authority = context.authority
        self.clock = context.clock
        self.profile = context.profile
        self.models = context.models
        self._lock = threading.Lock()
        # How many claims skipped a candidate run another transaction held (PostgreSQL,
        # SKIP LOCKED): a long poll that saw it grow claims again soon, since the holder's
        # commit need not wake it (a sweep that changes nothing, another replica's claim).
        self.claims_skipped = 0
        # Whether heartbeats and settlements are decided ahead of the writers' turn: where
        # other processes write the same SQLite file (praxis.store.runtime.ahead).
        self.decide_ahead = decide_ahead
        # The long polls of this process parked for a hand-off, and the one thread that
        # gives back what a vanished poll was handed (never the committing writer's).
        self.waiters: matching.Waiters[Claim, TaskView] = matching.Waiters(self._give_back_later)
        self._returns = ThreadPoolExecutor(1, thread_name_prefix="praxis-give-back")

    @property
    def limits(self) -> definitions.Limits:
        """The definition limits in force (the context's: a reload changes them)."""
        return self.context.limits

    def list_models(self, principal: Principal) -> list[tuple[str, bool, int]] | Rejection:
        """``(name, configured, expires_at_ms)`` of every model StartRun accepts now."""
        denied = self.context.authorize(principal, "run.start", "")
        if denied and self.context.authorize(principal, "task.work", ""):
            return denied
        return self.models.listing()

    # --- claims ------------------------------------------------------------------------

    def claim(
        self,
        principal: Principal,
        worker_id: str,
        models: list[str],
        max_tasks: int,
        lease_ms: int,
    ) -> list[TaskView] | Rejection:
        """Leases up to ``max_tasks`` ready attempts of ``models`` (does not wait). The
        caller has checked the fields with :func:`check_claim` once for the request (a long
        poll claims many times)."""
        problem = self.context.authorize(principal, "task.work", "")
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
            if self.models.would_write(connection, models, now):
                return True
            ready = queues.ready(connection, models, now, 1)
            return ready.first() is not None

    def _claim_body(self, claim: Claim) -> Callable[[Connection, Effects], list[TaskView]]:
        """The transaction that leases up to ``claim.max_tasks`` ready attempts."""

        def transaction(connection: Connection, effects: Effects) -> list[TaskView]:
            now = self.clock.now_ms()
            refused = self.models.register(connection, claim.models, now)
            if refused is not None:
                raise Rollback(refused)
            # Candidates are read without locks; only the runs no other transaction holds
            # are locked (SKIP LOCKED), and _dispatch re-checks each candidate against the
            # locked run, so replicas claim disjoint attempts without waiting on each other.
            # A candidate read just before another claim committed may be taken by the
            # time its lock is granted (a stale row is dropped): the candidates are read
            # again, without the runs already looked at, so that a claim finding work
            # taken still leases what else is ready instead of leaving it to a later poll.
            concurrent = locks.needed(connection)  # other claims may take candidates
            limit = claim.max_tasks * 2 + 8 if concurrent else claim.max_tasks
            tasks: list[TaskView] = []
            cache: dict[tuple[str, str], values.JsonValue] = {}
            seen: set[str] = set()
            for _ in range(_CLAIM_ROUNDS):
                rows = queues.ready(connection, claim.models, now, limit).all()
                by_run: dict[str, list[str]] = defaultdict(list)
                for row in rows:
                    if row.run_id not in seen:
                        by_run[row.run_id].append(row.node_uid)
                if not by_run:
                    break
                if not seen:  # a worker of these models is here: the inbox's stuck runs
                    self.models.note(connection, claim.models, now)
                wanted = claim.max_tasks - len(tasks)
                locked: dict[str, Any] = {}  # PostgreSQL: the runs rows read by their lock
                if concurrent:
                    by_run = self._lock_candidates(connection, by_run, wanted, locked)
                if not by_run:
                    break  # every candidate's run is held by another claim
                seen.update(by_run)
                before = len(tasks)
                for run_id, uids in by_run.items():
                    row = locked.get(run_id)
                    if not self._dispatch(
                        connection, effects, run_id, uids, claim, now, cache, tasks, row
                    ):
                        return tasks  # the response is full: the rest stay ready
                examined = sum(len(uids) for uids in by_run.values())
                if len(tasks) >= claim.max_tasks or len(tasks) - before == examined:
                    break  # full, or every candidate leased: nothing stale to look past
            return tasks

        return transaction

    # --- the hand-off of ready work to parked long polls (praxis.store.runtime.matching) ---

    def hand_off(self, event: WorkReadied) -> Ending:
        """Leases the attempts the transaction's commands readied (``event.readied``: their
        :class:`Effects`) to long polls parked in this process, oldest first, each with a
        claim of its own inside this transaction, just before its COMMIT; at most
        :data:`MAX_HANDOFFS` polls a commit, the rest are woken as before. Returns what
        hands each poll its tasks once the COMMIT succeeded (or parks it again)."""
        connection, readied = event.connection, event.readied
        ready: Counter[str] = Counter()
        for fx in readied:
            ready.update(fx.ready)
        made_ready = set().union(*(fx.made_ready for fx in readied))
        for _run, _uid, model in (e for fx in readied for e in fx.leased if e in made_ready):
            ready[model] -= 1  # the transaction's own claim took it (settle-and-claim)
        offers: list[tuple[matching.Waiter[Claim, TaskView], list[TaskView], Effects]] = []
        savepoint: Savepoint | None = None  # opened once there is a poll to serve
        try:
            for model, count in (+ready).items():  # the models with attempts still ready
                while count > 0 and len(offers) < MAX_HANDOFFS:
                    waiter = self.waiters.take(model)
                    if waiter is None:
                        break
                    savepoint = savepoint or Savepoint(connection)
                    fx = self.unit.effects()
                    offers.append((waiter, [], fx))  # OFFERED now: decided below, whatever
                    tasks = self._lease_to(connection, waiter, fx)  # happens (a stale copy)
                    offers[-1] = (waiter, tasks, fx)
                    if not tasks:
                        break  # nothing of the model is claimable now (a backoff, a pause)
                    count -= sum(1 for task in tasks if task.agent.model == model)
            if savepoint is not None:
                savepoint.commit()
        except Exception as error:  # a claim's bug or a lost lock race: the polls wait on, woken
            if isinstance(error, Rollback) and isinstance(error.value, Stale):
                self.unit.snapshots.drop(error.value.run_id)  # the polls claim on the stored run
                metrics.stale_copy()
                log.info("a hand-off found a stale copy of %s; the polls are woken", error.value)
            else:
                log.exception("handing ready work to parked long polls failed; they are woken")
            for waiter, _tasks, _fx in offers:
                self.waiters.decide(waiter, [])
            if savepoint is not None:
                savepoint.rollback()  # raises when the transaction itself is gone
            return _nothing
        handed = {entry for _w, _t, fx in offers for entry in fx.leased}
        for fx in readied:  # the commit's wake-ups skip what a parked poll got
            fx.leased.extend(entry for entry in fx.made_ready if entry in handed)

        def ending(committed: bool) -> None:
            for waiter, tasks, fx in offers:
                self.waiters.decide(waiter, tasks if committed else [])
                if committed and tasks:
                    self.unit.announce(fx)  # the runs' watchers see the dispatch
                    metrics.handed_off(len(tasks))

        return ending

    def _lease_to(
        self, connection: Connection, waiter: matching.Waiter[Claim, TaskView], fx: Effects
    ) -> list[TaskView]:
        """What ``waiter``'s own claim would lease now, inside this transaction; nothing
        when its credential or grant no longer allows it (its poll finds out itself)."""
        if self.context.authorize(waiter.principal, "task.work", "") or not waiter.may_lease():
            return []
        try:
            tasks: list[TaskView] = self._claim_body(waiter.claim)(connection, fx)
        except Rollback as rollback:
            if isinstance(rollback.value, Stale):
                raise  # leased on a stale copy: undo every hand-off of this commit
            return []  # the model cap refused its registration, before any write
        return tasks

    def _give_back_later(self, worker_id: str, tasks: list[TaskView]) -> None:
        self._returns.submit(self.give_back, worker_id, tasks)

    def give_back(self, worker_id: str, tasks: list[TaskView]) -> None:
        """Returns attempts handed to a poll that went away before it was answered: each
        node is ready again (:class:`praxis.core.run.Return`), unless something else
        already superseded its attempt. One transaction."""

        def transaction(connection: Connection, effects: Effects) -> None:
            now = self.clock.now_ms()
            for task in tasks:
                record = self.unit.lock_load(connection, task.run_id)
                if record is None:
                    continue
                command = core.Return(task.node_uid, task.attempt_id, worker_id)
                outcome = core.apply(record.state, command, now, self.limits)
                if not isinstance(outcome, Rejection):
                    self.unit.save(connection, record, outcome, effects, command, now)

        try:
            self.unit.transact(transaction)
        except Exception:  # the leases expire instead, as any lost claim's would
            log.exception("giving back %d attempts of %s failed", len(tasks), worker_id)
        else:
            log.info(
                "gave back %d attempts handed to a long poll of %s that went away",
                len(tasks),
                worker_id,
            )

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
        # run -> (contract, starting principal, work order)
        budgets: dict[str, tuple[str, str, str]] = {}
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
                    budgets[run_id] = (
                        row.contract_id or "",
                        row.principal_id or "",
                        row.work_order_id or "",
                    )
                    locked[run_id] = row
        keys: set[str] = set()
        budgeted = self.context.ports.contracts.budgeted
        for contract_id, principal_id, work_order_id in budgets.values():
            if contract_id:
                keys.add("contract:" + contract_id)
            if self.authority.spend_cap(principal_id) is not None:
                keys.add("principal:" + principal_id)
            keys.update(
                order_budgets.KEY_PREFIX + each for each in budgeted(connection, work_order_id)
            )
        # Sorted: every contract key before every principal key before every work-order
        # key, in every command that locks several (a settlement locks a subset).
        for name in sorted(keys):
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
        # PostgreSQL: as its lock read it; SQLite: the copy held (its save checks it)
        record = (
            self.unit.load(connection, run_id, row)
            if row
            else self.unit.decide_on(connection, run_id)
        )
        allowance = (
            self.context.ports.contracts.allowance(connection, record)
            if record is not None
            else None
        )
        for uid in uids:
            input_json, size, weight = None, 0, 0
            node = None if record is None else record.state.nodes.get(uid)
            if record is not None and node is not None and _claimable(record, node, now):
                found = gather_input(connection, record, node, cache, self.unit.snapshots)
                input_json = values.canonical_json(found)
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
                if record is not None:  # refused on a copy held: only if it is current
                    loading.confirm(connection, run_id)
                drop_ready(connection, run_id, uid)  # stale row
                continue
            record = self.unit.save(connection, record, outcome, effects, command, now)
            node = record.state.nodes[uid]
            if node.status is not core.NodeStatus.RUNNING:
                continue  # refused (allowance, input size): the node failed with the reason
            assert input_json is not None
            task = evolve(self._task(record, node, input_json), weight=weight)
            effects.leased.append((run_id, uid, task.agent.model))
            if effects.trace is not None:
                traceparent = effects.trace.traceparent(connection, run_id, node.attempt_id)
                task = evolve(task, traceparent=traceparent)
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
            operation_id=core.operation_id(record.state.run_id, node.uid, node.operation),
            agent=spec.agent,
            input_json=input_json,
            template=spec.template,
            deadline_ms=node.deadline_ms,
            lease_expires_at_ms=node.lease_expires_at_ms,
            revision=node.revision,
            effects=spec.effects,
        )

    def next_ready_ms(self, models: list[str]) -> int | None:
        """The earliest ``not_before_ms`` among ready rows of ``models`` (backoff wake-up)."""
        with self.db.read() as connection:
            value = queues.next_ready(connection, models)
        return None if value is None else int(value)

    def _decide(
        self,
        connection: Connection,
        principal: Principal,
        attempt_id: str,
        build: Callable[[core.Attempt], core.Command],
        earlier: dict[str, RunRecord | None] | None = None,
    ) -> ahead.Decided | None:
        """The decision of one command on an attempt (heartbeat or settlement): its run
        loaded and the reducer applied; only the principal whose claim leased the attempt
        may act on it. Raises Rollback with the refusal. ``earlier``: the runs earlier
        commands of a batch decided (deciding ahead); ``None`` when this command must
        decide inside the turn instead."""
        # Inside the turn, the attempt and its run as this process holds them (SQLite), or
        # the run's row as of its lock where writers run side by side (else None).
        held = None if earlier is not None else self.unit.held_attempt(connection, attempt_id)
        row, attempt = (None, held[1]) if held else attempt_to_decide(connection, attempt_id)
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
        follows = earlier is not None and attempt.run_id in earlier
        record = earlier.get(attempt.run_id) if earlier else None
        if follows and record is None:
            return None  # its run ended earlier in the batch: decided inside the turn
        if record is None:
            record = held[0] if held else self.unit.load(connection, attempt.run_id, row)
        if record is None:
            raise Rollback(not_found("RUN_NOT_FOUND", attempt.run_id))
        command, now = build(attempt), self.clock.now_ms()
        outcome = core.apply(record.state, command, now, self.limits)
        if isinstance(outcome, Rejection):
            if held:  # refused on copies held: only if they are current
                loading.confirm(connection, attempt.run_id)
            raise Rollback(outcome)
        return ahead.Decided(attempt, record, command, now, outcome, follows)

    def _decide_ahead(
        self,
        principal: Principal,
        commands: list[tuple[str, Callable[[core.Attempt], core.Command]]],
    ) -> list[ahead.Decided | None]:
        """Each command's decision on a read snapshot, before the batch queues for the
        writers' turn (:mod:`praxis.store.runtime.ahead`); ``None`` where the command
        decides inside the turn (a refusal, which the turn gives again; all of them when
        no other process shares the turn, and on PostgreSQL)."""
        if not self.decide_ahead:
            return [None] * len(commands)
        decided: list[ahead.Decided | None] = []
        earlier: dict[str, RunRecord | None] = {}
        with self.db.read() as connection:
            for attempt_id, build in commands:
                try:
                    found = self._decide(connection, principal, attempt_id, build, earlier)
                except Rollback:
                    found = None
                decided.append(found)
                if found is not None and not found.outcome.noop:  # a no-op changes nothing
                    earlier[found.attempt.run_id] = ahead.next_state(found)
        return decided

    def _attempt_body(
        self,
        principal: Principal,
        attempt_id: str,
        build: Callable[[core.Attempt], core.Command],
        report: progress.Report | None = None,
        decided: ahead.Decided | None = None,
    ) -> Callable[[Connection, Effects], core.Reply]:
        """The transaction of one command on an attempt: ``decided`` ahead of the turn when
        its run is still at that version, else decided here. A heartbeat's ``report`` is
        kept when the heartbeat extended the lease (a live attempt)."""

        def transaction(connection: Connection, effects: Effects) -> core.Reply:
            current = decided is not None and ahead.still_current(connection, decided)
            if decided is not None and metrics.ON:  # counted once committed
                Database.after_commit(connection, functools.partial(metrics.decided_ahead, current))
            found = decided if current else self._decide(connection, principal, attempt_id, build)
            assert found is not None  # deciding inside the turn returns a decision or raises
            attempt, record, command, now = found.attempt, found.record, found.command, found.now
            outcome = found.outcome
            spends = any(a.cost_microcredits not in ("", "0") for a in outcome.attempts)
            if spends or record.contract_id:
                self.context.lock_budget(
                    connection, record.contract_id, record.principal_id, spends
                )
            self.unit.save(connection, record, outcome, effects, command, now)
            self.context.reactions.publish(AttemptSettled(connection, record, command, outcome))
            if isinstance(command, core.Heartbeat):
                if report is not None and not outcome.noop and not outcome.reply.cancelled:
                    attempt_progress.record(connection, attempt, report, now)
                return _with_pause(connection, record, outcome.reply)
            return outcome.reply

        return transaction

    def _attempt_command(
        self,
        principal: Principal,
        attempt_id: str,
        build: Callable[[core.Attempt], core.Command],
        report: progress.Report | None = None,
    ) -> core.Reply | Rejection:
        problem = values.check_identifier(attempt_id, "attempt_id") or self.context.authorize(
            principal, "task.work", ""
        )
        if problem:
            return problem
        [decided] = self._decide_ahead(principal, [(attempt_id, build)])
        result: core.Reply | Rejection = self.unit.transact(
            self._attempt_body(principal, attempt_id, build, report, decided)
        )
        return result

    def heartbeat(
        self,
        principal: Principal,
        attempt_id: str,
        worker_id: str,
        lease_ms: int,
        report: progress.Report | None = None,
    ) -> core.Reply | Rejection:
        """Extends a lease; ``cancelled`` says the worker should stop. ``report`` (a
        checked :class:`praxis.core.progress.Report`) becomes the attempt's latest
        progress in the same transaction, unless the attempt is no longer live."""
        problem = check_lease(lease_ms) or values.check_identifier(worker_id, "worker_id")
        if problem:
            return problem
        return self._attempt_command(
            principal,
            attempt_id,
            lambda attempt: core.Heartbeat(attempt, worker_id, lease_ms),
            report,
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
        runs after them in the same COMMIT (its fields checked by the caller with
        :func:`check_claim`). Returns one reply or rejection per request, in order, and
        the claimed tasks.
        """
        if len(requests) > MAX_SETTLEMENTS:
            return invalid(
                "PAGE_INVALID",
                "settlements",
                f"at most {MAX_SETTLEMENTS} settlements per call; got {len(requests)}",
            )
        problem = self.context.authorize(principal, "task.work", "")
        if problem:
            return problem
        replies: list[core.Reply | Rejection] = []
        commands: list[tuple[str, Callable[[core.Attempt], core.Command]]] = []
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
            commands.append((request.attempt_id, build))
        bodies: list[Callable[[Connection, Effects], Any]] = [
            self._attempt_body(principal, attempt_id, build, None, decided)
            for (attempt_id, build), decided in zip(
                commands, self._decide_ahead(principal, commands), strict=True
            )
        ]
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
        if self.db.single_writer or len(attempt_ids) < 2:
            return [""] * len(attempt_ids)
        with self.db.read() as connection:
            rows = attempt_rows.runs_of(connection, sorted(set(attempt_ids)))
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


def _with_pause(connection: Connection, record: RunRecord, reply: core.Reply) -> core.Reply:
    """A heartbeat's reply, saying whether the run's work order is paused (one read by
    primary key, on heartbeats only: a claim's filter and a settlement read nothing)."""
    if reply.cancelled:
        return reply
    control = controls.load_work_order(connection, record.work_order_id).control
    return replace(reply, paused=control is Control.PAUSED)


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


def _nothing(committed: bool) -> None:
    """The ending of a hand-off that handed nothing."""


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


# How often one claim reads its candidates again when those it found were stale (on
# PostgreSQL: taken by claims that committed after the read; each round skips the runs
# already looked at).
_CLAIM_ROUNDS = 3
