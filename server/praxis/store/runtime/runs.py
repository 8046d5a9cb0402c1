"""The runtime's runs: start, stop, reads, the registry and admin reactions, and the
sweeper, one transaction each (the worker task protocol is :mod:`.tasks`).

Every command authorizes, then inside one write transaction of the unit of work
(:mod:`praxis.store.runtime.unit`) loads the run, applies the pure reducer
(:mod:`praxis.core.run`) and saves the outcome with a compare-and-swap on the run's
version (:func:`praxis.store.runtime.rows.saving.save`). After the commit the unit wakes the
long polls and streams of every server process (:mod:`praxis.store.wake.hub`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy.engine import Connection

from praxis.core import definition as definitions
from praxis.core import progress, values
from praxis.core import run as core
from praxis.core.records import Control, Principal
from praxis.core.rejection import Rejection, invalid, not_found
from praxis.store.controls import rows as controls
from praxis.store.controls.emits import ControlChanged, WorkOrderCancelled
from praxis.store.db import locks
from praxis.store.db.database import Database, Rollback
from praxis.store.registry.emits import HeadChanged
from praxis.store.runtime import lifecycle, listing, node_pages
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.lifecycle import StartRequest
from praxis.store.runtime.records import Effects, RunRecord
from praxis.store.runtime.rows import listing as listing_rows
from praxis.store.runtime.rows import loading, queues
from praxis.store.runtime.rows import nodes as node_rows
from praxis.store.runtime.rows import progress as attempt_progress
from praxis.store.runtime.rows.results import node_value, result_text

__all__ = ["RunStore", "StartRequest", "page_token_after"]  # StartRequest: rpc/runs.py

EXPIRE = core.Expire()
EXPIRE_HELD = core.Expire(held=True)


class RunStore:
    """Runs and due work in a :class:`RuntimeContext` (the task protocol: :class:`TaskStore`)."""

    def __init__(self, context: RuntimeContext) -> None:
        self.context = context
        # Its own slice's context: the names every command of this class reads.
        self.db = context.db
        self.authority = context.authority
        self.clock = context.clock
        self.profile = context.profile
        self.signals = context.signals
        self.models = context.models
        self.unit = context.unit  # transactions, loads and wake-ups
        self.snapshots = context.snapshots

    # --- plumbing ---------------------------------------------------------------------

    @property
    def limits(self) -> definitions.Limits:
        """The definition limits in force (the context's: a reload changes them)."""
        return self.context.limits

    @property
    def traced(self) -> bool:
        """Whether runs are traced (tracing is on: each run is one trace)."""
        return self.context.traced

    # --- StartRun ---------------------------------------------------------------------

    def start(
        self, principal: Principal, request: StartRequest
    ) -> tuple[RunRecord, bool] | Rejection:
        """Starts a run, or returns the one this principal's request_id already started
        (a dry run: the same answer, with everything it wrote rolled back)."""
        prepared = lifecycle.prepare_start(self.context, principal, request)
        if isinstance(prepared, Rejection):
            return prepared

        def transaction(connection: Connection, effects: Effects) -> tuple[RunRecord, bool]:
            return lifecycle.start_in(self.context, connection, effects, principal, prepared)

        result: tuple[RunRecord, bool] | Rejection = self.unit.transact(
            transaction, dry_run=request.dry_run
        )
        return result

    # --- reads ------------------------------------------------------------------------

    def get_run(self, principal: Principal, run_id: str) -> RunRecord | Rejection:
        """One run (:meth:`RuntimeContext.get_run`)."""
        return self.context.get_run(principal, run_id)

    def definition(self, connection: Connection, digest: str) -> definitions.Definition:
        """A stored definition, parsed once per process (:meth:`RuntimeContext.definition`)."""
        return self.context.definition(connection, digest)

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
            return values.canonical_json(self.context.definition(connection, digest).document)

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
                value = node_value(connection, record.state, node.node_id)
                return True, values.canonical_json(value)
            text = result_text(connection, run_id, uid)
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
        denied = self.context.authorize(principal, "run.read", found.work_order)
        if denied:
            return denied
        size = page_size or listing.PAGE_DEFAULT
        with self.db.read() as connection:
            rows, following = listing_rows.page(connection, found, size, cursor)
            records = loading.summaries(connection, rows, self.context.definition, self.snapshots)
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
        size = page_size or node_pages.NODES_PAGE_DEFAULT
        if not 0 < size <= node_pages.NODES_PAGE_MAX:
            return invalid(
                "PAGE_INVALID",
                "page_size",
                f"page_size must be in [0, {node_pages.NODES_PAGE_MAX}]",
            )
        if node_id:
            problem = values.check_identifier(node_id, "node_id")
            if problem:
                return problem
        state = status.value if status is not None else ""
        start = node_pages.decode_node_token(token, run_id, node_id, state)
        if isinstance(start, Rejection):
            return start
        page: Any = None
        with self.db.read() as connection:
            row = loading.run_row(connection, run_id)
            if row is not None:
                denied = self.context.authorize_read(principal, row.work_order_id, run_id)
                if denied:
                    return denied
                definition = self.context.definition(connection, row.definition_digest)
                if node_id and node_id not in definition.nodes:
                    return not_found("NODE_NOT_FOUND", f"run {run_id!r} has no node {node_id!r}")
                page = node_rows.list_nodes(
                    connection, row, definition, node_id, status, size, start
                )
        if row is None:  # outside the read: the tombstone is read in a read of its own
            missing = self.context.archived(principal, run_id) or self.context.authorize_read(
                principal, None, run_id
            )
            assert missing is not None  # a missing run is always refused
            return missing
        if isinstance(page, Rejection):
            return page
        nodes, following = page
        next_token = ""
        if following is not None:
            next_token = node_pages.encode_node_token(run_id, node_id, state, following)
        return int(row.version), nodes, next_token

    # --- StopRun ----------------------------------------------------------------------

    def stop(self, principal: Principal, run_id: str, reason: str) -> RunRecord | Rejection:
        """Cancels a run and its live attempts (an ended run is returned unchanged)."""
        problem = values.check_identifier(run_id, "run_id") or values.check_text(reason, "reason")
        if problem:
            return problem

        def transaction(connection: Connection, effects: Effects) -> RunRecord:
            record = self.unit.lock_load(connection, run_id)
            denied = self.context.authorize_run(principal, "run.stop", record, run_id)
            if denied or record is None:
                raise Rollback(denied)
            return lifecycle.stop_in(
                self.context, connection, effects, record, reason or "stopped by caller"
            )

        result: RunRecord | Rejection = self.unit.transact(transaction)
        return result

    # --- reactions to the registry and the controls (praxis.app.reactions) ------------

    def on_new_head(self, event: HeadChanged) -> None:
        """Applies an activated revision to the bound run's nodes not yet dispatched; a
        revision the run cannot take refuses the activation (``Rollback``)."""
        connection, head, now = event.connection, event.head, event.now
        if not head.bound_run_id:
            return
        record = self.unit.lock_load(connection, head.bound_run_id)
        if record is None or record.state.status in core.DECIDED:
            return  # ended, or its outcome decided: no node is dispatched again
        parsed = self.context.parse_definition(head.definition, "definition", connection)
        if isinstance(parsed, Rejection):
            raise Rollback(parsed)
        sources = {
            node_id: node_value(connection, record.state, node_id)
            for node_id in core.revision_sources(record.state, parsed)
        }
        command = core.Revise(parsed, head.revision, sources)
        outcome = core.apply(record.state, command, now, self.limits)
        if isinstance(outcome, Rejection):
            raise Rollback(outcome)
        effects = self.unit.effects()  # keeps the runs saved held, once committed
        self.unit.save(connection, record, outcome, effects, command, now)
        self.db.after_commit(connection, lambda: self.unit.announce(effects))

    def on_control(self, event: ControlChanged) -> None:
        """A resumed work order's ready attempts become claimable: wake the long polls."""
        if event.control is Control.ACTIVE:
            Database.after_commit(event.connection, lambda: self.signals.publish({"work:*": 0}))

    def on_cancel(self, event: WorkOrderCancelled) -> None:
        """Stops the live runs of a canceled work order, governed and ad hoc alike (inside
        the admin's transaction); each records WORK_ORDER_CANCELED as its reason."""
        connection, reason, now = event.connection, event.reason, event.now
        live = [s.value for s in core.RunStatus if s not in core.TERMINAL]
        run_ids = loading.live_run_ids(connection, event.work_order_id, live)
        effects = self.unit.effects()  # keeps the runs saved held, once committed
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
                due = queues.any_due(connection, now)
            if not due:
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
            due = queues.due_timers(connection, now, limit)
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


def _held(connection: Connection, work_order_id: str) -> bool:
    """Whether no worker may claim the work order's ready nodes: it is paused, canceling
    or canceled, or a hold applies to it."""
    work_order = controls.load_work_order(connection, work_order_id)
    if work_order.control is not Control.ACTIVE:
        return True
    return bool(controls.active_holds(connection, work_order_id, work_order.ancestors))


def page_token_after(found: listing.RunFilter, record: RunRecord) -> str:
    """The ListRuns page token (of the filter ``found``) of the page after ``record``."""
    return listing.encode_token(found, (record.state.created_at_ms, record.state.run_id))
