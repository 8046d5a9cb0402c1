"""ScheduleStore: schedules' commands and reads, and the sweeper's starts.

Every command authorizes, then writes in one transaction. A schedule's start is one
transaction of the runtime's unit of work: lock the schedule, check its version, start
the run (:func:`praxis.store.runtime.lifecycle.start_in`, under the schedule's creator,
with the request id :func:`praxis.core.schedule.request_id` of the schedule and the
time) and advance the schedule's cursor. So with several processes or replicas a time's
start commits once, and a crash leaves both or neither; should the cursor ever lag a
started run (a backfill got there first), the request id finds that run instead of
starting another.

This slice sits on the runtime (it starts runs) and on the registry's approvals (a
schedule of a ref is created with a human's approval of its exact material, verified
and consumed by :mod:`praxis.store.execution.approved`, like a governed resume).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlalchemy.engine import Connection

from praxis.core import calendar as calendars
from praxis.core import gates, membership, registry, values
from praxis.core import run as run_core
from praxis.core import schedule as core
from praxis.core.records import Epochs, Principal
from praxis.core.rejection import Code, Rejection, invalid, not_found, precondition
from praxis.store.controls import rows as controls
from praxis.store.db import locks
from praxis.store.db.database import Database, Rollback
from praxis.store.execution import approved
from praxis.store.registry.rows import load_head
from praxis.store.runtime import lifecycle
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.lifecycle import MAX_RUN_TIMEOUT_MS, PreparedStart, StartRequest
from praxis.store.runtime.records import Effects
from praxis.store.schedules import rows
from praxis.store.schedules.emits import Observed
from praxis.store.schedules.rows import ScheduleRecord

LABEL = "praxis.schedule"
"""The label every run of a schedule carries, valued with the schedule id (ListRuns)."""
PAGE_DEFAULT = 100
PAGE_MAX = 1000
SWEEP_SCHEDULES = 50


class ScheduleStore:
    """Schedules over the runtime context, the registry's heads and approvals."""

    def __init__(self, runtime: RuntimeContext, installation_id: str) -> None:
        self.runtime = runtime
        self.db: Database = runtime.db
        self.clock = runtime.clock
        self.installation_id = installation_id

    # --- checks -----------------------------------------------------------------------

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        return self.runtime.authorize(principal, action, work_order_id)

    def _work_order(self, spec: core.Spec) -> str | Rejection:
        if spec.ref is None:
            return spec.work_order_id or membership.DEFAULT_WORK_ORDER
        if spec.work_order_id and spec.work_order_id != spec.ref.work_order_id:
            return invalid(
                "WORK_ORDER_MISMATCH", "spec.work_order_id", "a ref's schedule is of its work order"
            )
        return spec.ref.work_order_id

    def _checked(self, principal: Principal, spec: core.Spec) -> str | Rejection:
        """The schedule's work order once the spec is valid and its caller may manage
        schedules and start runs there."""
        problem = check_spec(spec)
        if problem:
            return problem
        work_order_id = self._work_order(spec)
        if isinstance(work_order_id, Rejection):
            return work_order_id
        denied = self._authorize(principal, "schedule.manage", work_order_id)
        if denied:
            return denied
        if spec.ref is None:  # the definition, input and run.start, as each start checks
            found = lifecycle.prepare_start(
                self.runtime, principal, _start_request(spec, work_order_id, 0)
            )
            if isinstance(found, Rejection):
                return found
        else:
            denied = self._authorize(principal, "run.start", work_order_id)
            problem = denied or _input_problem(self.runtime, spec)
            if problem:
                return problem
        return work_order_id

    # --- review and create ------------------------------------------------------------

    def review(
        self, principal: Principal, spec: core.Spec, epochs: Epochs | None
    ) -> core.Material | Rejection:
        """The material a human approves before a schedule of a ref. Writes nothing."""
        work_order_id = self._checked(principal, spec)
        if isinstance(work_order_id, Rejection):
            return work_order_id
        if spec.ref is None:
            return invalid(
                "FIELD_REQUIRED", "spec.ref", "only a schedule of a ref has material to review"
            )
        with self.db.read() as connection:
            return self._material(connection, spec, work_order_id, epochs)

    def _material(
        self, connection: Connection, spec: core.Spec, work_order_id: str, epochs: Epochs | None
    ) -> core.Material | Rejection:
        assert spec.ref is not None
        head = load_head(connection, spec.ref)
        if head is None:
            return not_found("REF_NOT_FOUND", "the ref is not registered")
        work_order = controls.load_work_order(connection, work_order_id)
        if epochs is None:
            epochs = Epochs(
                self.installation_id, work_order.ownership_epoch, work_order.authority_epoch
            )
        problem = gates.check_epochs(epochs, self.installation_id, work_order)
        if problem:
            return problem
        return core.Material(
            epochs=epochs,
            spec=spec,
            work_order_id=work_order_id,
            revision=head.revision,
            definition_digest=head.definition_digest,
            input_digest=values.digest(spec.input_json),
        )

    def create(
        self,
        principal: Principal,
        spec: core.Spec,
        approval_id: str = "",
        paused: bool = False,
        epochs: Epochs | None = None,
    ) -> tuple[ScheduleRecord, bool] | Rejection:
        """Creates a schedule; ``(schedule, replayed)``."""
        if approval_id:
            problem = values.check_identifier(approval_id, "approval_id")
            if problem:
                return problem
        work_order_id = self._checked(principal, spec)
        if isinstance(work_order_id, Rejection):
            return work_order_id
        digest = spec.digest()

        def transaction(connection: Connection) -> tuple[ScheduleRecord, bool]:
            locks.key(connection, f"schedule:{spec.schedule_id}")
            found = rows.load(connection, spec.schedule_id)
            if found is not None:
                record, stored = found
                if stored == digest and record.principal.principal_id == principal.principal_id:
                    return record, True
                raise Rollback(
                    Rejection(
                        Code.ALREADY_EXISTS,
                        "SCHEDULE_EXISTS",
                        f"schedule {spec.schedule_id!r} exists with another spec or creator",
                    )
                )
            now = self.clock.now_ms()
            if spec.ref is not None:
                self._approve(connection, principal, spec, work_order_id, approval_id, epochs, now)
            calendar = _effective(spec, now)
            record = ScheduleRecord(
                spec=spec,
                work_order_id=work_order_id,
                principal=principal,
                governed=spec.ref is not None,
                approval_id=approval_id if spec.ref is not None else "",
                state=core.State.PAUSED if paused else core.State.ACTIVE,
                created_at_ms=now,
                next_ms=0 if paused else calendars.first_at_or_after(calendar, now),
            )
            rows.insert(connection, record, digest)
            return record, False

        result: tuple[ScheduleRecord, bool] | Rejection = self.db.transact(transaction)
        return result

    def _approve(
        self,
        connection: Connection,
        principal: Principal,
        spec: core.Spec,
        work_order_id: str,
        approval_id: str,
        epochs: Epochs | None,
        now: int,
    ) -> None:
        """Verifies and consumes the human approval a schedule of a ref needs."""
        if not approval_id:
            raise Rollback(
                precondition(
                    "APPROVAL_REQUIRED",
                    "a schedule of a ref needs a human's approval of its material: "
                    "ReviewSchedule, then CreateApproval of the material digest",
                )
            )
        material = self._material(connection, spec, work_order_id, epochs)
        if isinstance(material, Rejection):
            raise Rollback(material)
        approval, _evidence = approved.verify(
            connection,
            self.runtime.authority,
            approval_id,
            material.digest(),
            material.epochs,
            work_order_id,
            now,
        )
        approved.consume(
            connection, approval, f"schedule:{spec.schedule_id}", principal.principal_id, now
        )

    # --- reads ------------------------------------------------------------------------

    def get(self, principal: Principal, schedule_id: str) -> ScheduleRecord | Rejection:
        """A schedule (``schedule.read`` on its work order; otherwise not found)."""
        problem = values.check_identifier(schedule_id, "schedule_id")
        if problem:
            return problem
        with self.db.read() as connection:
            found = rows.load(connection, schedule_id)
        return self._readable(principal, found, schedule_id)

    def _readable(
        self,
        principal: Principal,
        found: tuple[ScheduleRecord, str] | None,
        schedule_id: str,
        action: str = "schedule.read",
    ) -> ScheduleRecord | Rejection:
        missing = not_found("SCHEDULE_NOT_FOUND", f"no schedule {schedule_id!r}")
        if found is None:
            return missing
        denied = self._authorize(principal, action, found[0].work_order_id)
        if denied:  # no existence oracle: a schedule it may not read is not found
            readable = self._authorize(principal, "schedule.read", found[0].work_order_id)
            return missing if readable else denied
        return found[0]

    def list_page(
        self, principal: Principal, work_order_id: str, page_size: int, token: str
    ) -> tuple[list[ScheduleRecord], str] | Rejection:
        """One page of schedules in id order, of one work order or of all."""
        if work_order_id:
            problem = values.check_identifier(work_order_id, "work_order_id")
            if problem:
                return problem
        if not 0 <= page_size <= PAGE_MAX:
            return invalid(
                "PAGE_SIZE_INVALID", "page_size", f"page_size must be in [0, {PAGE_MAX}]"
            )
        if token and values.check_identifier(token, "page_token"):
            return invalid("PAGE_TOKEN_INVALID", "page_token", "not a page token of this listing")
        denied = self._authorize(principal, "schedule.read", work_order_id)
        if denied:
            return denied
        size = page_size or PAGE_DEFAULT
        with self.db.read() as connection:
            found = rows.page(
                connection, [work_order_id] if work_order_id else None, token, size + 1
            )
        following = found[size - 1].spec.schedule_id if len(found) > size else ""
        return found[:size], following

    # --- pause, resume, delete --------------------------------------------------------

    def pause(self, principal: Principal, schedule_id: str) -> ScheduleRecord | Rejection:
        """Pauses a schedule (a paused one is returned unchanged)."""
        return self._change(principal, schedule_id, _pause)

    def resume(self, principal: Principal, schedule_id: str) -> ScheduleRecord | Rejection:
        """Resumes a paused schedule from its next time after now."""
        return self._change(principal, schedule_id, _resume)

    def delete(self, principal: Principal, schedule_id: str) -> ScheduleRecord | Rejection:
        """Deletes a schedule for good (a deleted one is returned unchanged)."""
        return self._change(principal, schedule_id, _delete)

    def _change(
        self,
        principal: Principal,
        schedule_id: str,
        change: Callable[[ScheduleRecord, int], ScheduleRecord | Rejection | None],
    ) -> ScheduleRecord | Rejection:
        problem = values.check_identifier(schedule_id, "schedule_id")
        if problem:
            return problem

        def transaction(connection: Connection) -> ScheduleRecord:
            locks.key(connection, f"schedule:{schedule_id}")
            found = rows.load(connection, schedule_id)
            record = self._readable(principal, found, schedule_id, "schedule.manage")
            if isinstance(record, Rejection):
                raise Rollback(record)
            after = change(record, self.clock.now_ms())
            if isinstance(after, Rejection):
                raise Rollback(after)
            if after is None:
                return record
            rows.save(connection, record, after)
            return after

        result: ScheduleRecord | Rejection = self.db.transact(transaction)
        return result

    # --- backfill ---------------------------------------------------------------------

    def backfill(
        self, principal: Principal, schedule_id: str, start_ms: int, end_ms: int
    ) -> tuple[list[str], int] | Rejection:
        """Starts one run per time of ``[start_ms, end_ms)``; ``(run ids, how many new)``.

        All or nothing: a start refused refuses the backfill.
        """
        record = self.get(principal, schedule_id)
        if isinstance(record, Rejection):
            return record
        denied = self._authorize(principal, "schedule.manage", record.work_order_id)
        if denied:
            return denied
        if record.state is core.State.DELETED:
            return _deleted(schedule_id)
        now = self.clock.now_ms()
        if not 0 <= start_ms < end_ms <= now:
            return _bad_range("the range must be non-empty and end at or before now")
        calendar = _effective(record.spec, record.created_at_ms)
        found = calendars.times(calendar, start_ms, end_ms, core.MAX_BACKFILL_TIMES + 1)
        if not found or len(found) > core.MAX_BACKFILL_TIMES:
            return _bad_range(f"the range must hold 1 to {core.MAX_BACKFILL_TIMES} times")
        # One check for every time: only the request id differs (a request's digest
        # leaves it out), so the definition, input and grants are checked once.
        one = self._prepare(record, found[0])
        if isinstance(one, Rejection):
            return one
        prepared = [
            (
                at,
                replace(
                    one, request=replace(one.request, request_id=core.request_id(schedule_id, at))
                ),
            )
            for at in found
        ]

        def transaction(connection: Connection, effects: Effects) -> tuple[list[str], int]:
            locks.key(connection, f"schedule:{schedule_id}")
            loaded = rows.load(connection, schedule_id)
            assert loaded is not None
            current = loaded[0]
            run_ids, started = [], 0
            for at, one in prepared:
                run_id, new = self._start(connection, effects, current, at, one)
                run_ids.append(run_id)
                started += int(new)
            after = current.advanced(started_count=current.started_count + started)
            if started and found[-1] >= current.last_scheduled_ms:
                after = replace(after, last_run_id=run_ids[-1], last_scheduled_ms=found[-1])
            rows.save(connection, current, after)
            return run_ids, started

        result: tuple[list[str], int] | Rejection = self.runtime.unit.transact(transaction)
        return result

    # --- the sweeper's starts ---------------------------------------------------------

    def sweep(self) -> int:
        """Takes the due steps of due schedules; returns how many steps wrote."""
        now = self.clock.now_ms()
        with self.db.read() as connection:
            due = rows.due(connection, now, SWEEP_SCHEDULES)
        done = 0
        for schedule_id in due:
            for _ in range(core.MAX_STEPS_PER_PASS):
                wrote = self.step(schedule_id, self.clock.now_ms())
                if not wrote:
                    break
                done += 1
        return done

    def _running(self, connection: Connection, record: ScheduleRecord) -> bool:
        if not record.last_run_id:
            return False
        run = self.runtime.unit.load(connection, record.last_run_id)
        return run is not None and run.state.status not in run_core.TERMINAL

    def _plan(
        self, connection: Connection, schedule_id: str, now: int
    ) -> tuple[ScheduleRecord, core.Step] | None:
        found = rows.load(connection, schedule_id)
        if found is None or found[0].state is not core.State.ACTIVE:
            return None
        record = found[0]
        spec = replace(record.spec, calendar=_effective(record.spec, record.created_at_ms))
        running = self._running(connection, record)
        step = core.step(spec, record.next_ms, record.buffered_ms, now, running)
        return None if step is None else (record, step)

    def step(self, schedule_id: str, now: int) -> bool:
        """Takes one due step of a schedule; False when nothing was due (or it changed
        under this process: the caller's next sweep looks again)."""
        with self.db.read() as connection:
            planned = self._plan(connection, schedule_id, now)
        if planned is None:
            return False
        record, step = planned
        prepared: PreparedStart | Rejection | None = None
        if step.action in (core.Action.START, core.Action.CANCEL_AND_START):
            prepared = self._prepare(record, step.scheduled_ms)
        if isinstance(prepared, Rejection):
            return self._failed(record, step, prepared, now)

        def transaction(connection: Connection, effects: Effects) -> Observed | None:
            locks.key(connection, f"schedule:{schedule_id}")
            again = self._plan(connection, schedule_id, now)
            if again is None or again != (record, step):
                return None  # another process took it, or the last run ended meanwhile
            observed = Observed("skipped" if step.action is core.Action.SKIP else "buffered")
            after = record.advanced(
                next_ms=step.next_ms,
                buffered_ms=step.buffered_ms,
                missed_count=record.missed_count + step.missed,
                skipped_count=record.skipped_count + int(step.action is core.Action.SKIP),
            )
            if prepared is not None:
                if step.action is core.Action.CANCEL_AND_START:
                    self._cancel_last(connection, effects, record)
                run_id, _new = self._start(connection, effects, record, step.scheduled_ms, prepared)
                after = replace(
                    after,
                    last_run_id=run_id,
                    last_scheduled_ms=step.scheduled_ms,
                    started_count=record.started_count + 1,
                )
                observed = Observed("started", self.clock.now_ms() - step.scheduled_ms)
            elif step.action is None:
                observed = Observed("missed")
            saved = rows.save(connection, record, after)
            assert saved  # the schedule's key is held and its version was checked
            self._observe_after(connection, step, observed)
            return observed

        result = self.runtime.unit.transact(transaction)
        if isinstance(result, Rejection):
            return self._failed(record, step, result, now)
        return result is not None

    def _observe_after(self, connection: Connection, step: core.Step, observed: Observed) -> None:
        reactions = self.runtime.reactions
        if not reactions.wired(Observed):
            return
        seen = [Observed("missed")] * step.missed
        if observed.outcome != "missed":
            seen.append(observed)

        def notify() -> None:
            for one in seen:
                reactions.publish(one)

        Database.after_commit(connection, notify)

    def _failed(
        self, record: ScheduleRecord, step: core.Step, refusal: Rejection, now: int
    ) -> bool:
        """Records a refused start: the time is passed, counted as failed."""

        def transaction(connection: Connection) -> bool:
            locks.key(connection, f"schedule:{record.spec.schedule_id}")
            again = self._plan(connection, record.spec.schedule_id, now)
            if again is None or again != (record, step):
                return False
            after = record.advanced(
                next_ms=step.next_ms,
                buffered_ms=step.buffered_ms,
                missed_count=record.missed_count + step.missed,
                failed_count=record.failed_count + 1,
                last_error_reason=refusal.reason,
            )
            rows.save(connection, record, after)
            self._observe_after(connection, step, Observed("failed"))
            return True

        done: bool | Rejection = self.db.transact(transaction)
        return done is True

    def _cancel_last(
        self, connection: Connection, effects: Effects, record: ScheduleRecord
    ) -> None:
        last = self.runtime.unit.lock_load(connection, record.last_run_id)
        if last is not None and last.state.status not in run_core.TERMINAL:
            reason = f"schedule {record.spec.schedule_id}: a new time started (CANCEL_OTHER)"
            lifecycle.stop_in(self.runtime, connection, effects, last, reason)

    def _prepare(self, record: ScheduleRecord, at: int) -> PreparedStart | Rejection:
        """The start of the time ``at``, checked as the creator's StartRun would be."""
        spec = record.spec
        definition_json = spec.definition_json
        if spec.ref is not None:
            with self.db.read() as connection:
                head = load_head(connection, spec.ref)
            if head is None:
                return not_found("REF_NOT_FOUND", "the ref is not registered")
            definition_json = values.canonical_json(head.definition)
        request = _start_request(
            replace(spec, definition_json=definition_json), record.work_order_id, at
        )
        return lifecycle.prepare_start(self.runtime, record.principal, request)

    def _start(
        self,
        connection: Connection,
        effects: Effects,
        record: ScheduleRecord,
        at: int,
        prepared: PreparedStart,
    ) -> tuple[str, bool]:
        """The run of the time ``at``: the one its request id started, or a new one."""
        request_id = core.request_id(record.spec.schedule_id, at)
        existing = lifecycle.started(connection, record.principal.principal_id, request_id)
        if existing is not None:
            return existing, False
        saved, _created = lifecycle.start_in(
            self.runtime, connection, effects, record.principal, prepared
        )
        return saved.state.run_id, True


# --- the pure pieces of the commands ------------------------------------------------------


def _effective(spec: core.Spec, created_at_ms: int) -> calendars.Calendar:
    """The calendar with its start resolved (0: the schedule's creation time)."""
    calendar = spec.calendar
    return replace(calendar, start_ms=calendar.start_ms or created_at_ms)


def _start_request(spec: core.Spec, work_order_id: str, at: int) -> StartRequest:
    return StartRequest(
        request_id=core.request_id(spec.schedule_id, at),
        definition_json=spec.definition_json,
        input_json=spec.input_json,
        work_order_id=work_order_id,
        labels={LABEL: spec.schedule_id},
        run_timeout_ms=spec.run_timeout_ms,
    )


def _input_problem(runtime: RuntimeContext, spec: core.Spec) -> Rejection | None:
    found = values.parse_document(spec.input_json or "null", "spec.input_json", runtime.profile)
    return found if isinstance(found, Rejection) else None


def check_spec(spec: core.Spec) -> Rejection | None:
    """The wire checks of a ScheduleSpec."""
    problem = values.check_identifier(spec.schedule_id, "spec.schedule_id")
    if problem:
        return problem
    if bool(spec.definition_json) == (spec.ref is not None):
        return invalid(
            "FIELD_REQUIRED", "spec.source", "give exactly one of definition_json and ref"
        )
    if spec.ref is not None:
        problem = registry.check_ref(spec.ref, "spec.ref")
        if problem:
            return problem
    if spec.work_order_id:
        problem = values.check_identifier(spec.work_order_id, "spec.work_order_id")
        if problem:
            return problem
    problem = calendars.check(spec.calendar)
    if problem:
        return problem
    if not 0 <= spec.catchup_window_ms <= core.MAX_CATCHUP_WINDOW_MS:
        return invalid(
            "TIME_INVALID",
            "spec.catchup_window_ms",
            f"catchup_window_ms must be in [0, {core.MAX_CATCHUP_WINDOW_MS}]",
        )
    if not 0 <= spec.run_timeout_ms <= MAX_RUN_TIMEOUT_MS:
        return invalid(
            "TIME_INVALID",
            "spec.run_timeout_ms",
            f"run_timeout_ms must be in [0, {MAX_RUN_TIMEOUT_MS}]",
        )
    return None


def _deleted(schedule_id: str) -> Rejection:
    return precondition("SCHEDULE_DELETED", f"schedule {schedule_id!r} is deleted")


def _bad_range(message: str) -> Rejection:
    return invalid("BACKFILL_RANGE_INVALID", "end_ms", message)


def _pause(record: ScheduleRecord, _now: int) -> ScheduleRecord | Rejection | None:
    if record.state is core.State.DELETED:
        return _deleted(record.spec.schedule_id)
    if record.state is core.State.PAUSED:
        return None
    return record.advanced(state=core.State.PAUSED, next_ms=0, buffered_ms=0)


def _resume(record: ScheduleRecord, now: int) -> ScheduleRecord | Rejection | None:
    if record.state is core.State.DELETED:
        return _deleted(record.spec.schedule_id)
    if record.state is core.State.ACTIVE:
        return None
    calendar = _effective(record.spec, record.created_at_ms)
    return record.advanced(
        state=core.State.ACTIVE, next_ms=calendars.first_at_or_after(calendar, now)
    )


def _delete(record: ScheduleRecord, _now: int) -> ScheduleRecord | Rejection | None:
    if record.state is core.State.DELETED:
        return None
    return record.advanced(state=core.State.DELETED, next_ms=0, buffered_ms=0)
