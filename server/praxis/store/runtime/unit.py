"""The runtime's unit of work: the public API the runtime and the execution model share.

A command is one group-committed write transaction: its body locks and loads the runs
it changes (:meth:`Unit.lock_load`), applies the pure reducer, saves with a
compare-and-swap on each run's version (:func:`praxis.store.runtime.rows.saving.save`) and
notes what it changed in its :class:`~praxis.store.runtime.records.Effects`. After the
commit the unit wakes the long polls and streams of every server process
(:mod:`praxis.store.wake.hub`): the wake-ups are computed here, from the effects.

The runtime context (:class:`~praxis.store.runtime.context.RuntimeContext`) holds the
one unit; :class:`~praxis.store.runtime.runs.RunStore`, the task protocol and the stores
of :mod:`praxis.store.execution` and :mod:`praxis.store.schedules` go through it; none
reaches into another store's private methods.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from praxis.core import definition as definitions
from praxis.core import run as core
from praxis.core.rejection import Code, Rejection
from praxis.observability import metrics
from praxis.store.db import locks
from praxis.store.db.database import Database, Ending, Rollback
from praxis.store.db.reactions import Reactions
from praxis.store.runtime.emits import RunFinished, RunSaved, WorkReadied
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.records import Effects, RunRecord, Stale
from praxis.store.runtime.rows import loading, saving
from praxis.store.runtime.rows.definitions import load_definition_json
from praxis.store.runtime.traces import RunTraces
from praxis.store.wake.hub import (
    EVENTS,
    INBOX,
    Hub,
    merged,
    run_topic,
    subscriber_topic,
    without_taken,
    work_topic,
)

DEFINITIONS_CACHED = 256  # parsed definitions kept per process
STALE_TRIES = 8
"""How many times a command that decided on stale copies of runs (:class:`Stale`) runs
in all; each try drops the copy it found stale, so it reads that run the next time."""
ENDS = frozenset({"RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"})
"""The run events of an outcome that ended its run (:class:`RunFinished`)."""


class Unit:
    """Transactions over runs, the definitions and snapshots they load, and wake-ups."""

    def __init__(
        self,
        db: Database,
        signals: Hub,
        limits: definitions.Limits,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.signals = signals
        self.limits = limits
        # The engine's reactions (praxis.app.reactions): RunSaved, RunFinished, WorkReadied.
        self.reactions = reactions or Reactions()
        self.snapshots = HeldRuns()  # the runs this process holds (praxis.store.runtime.held)
        self.trace: RunTraces | None = None  # set when tracing is on
        self.definitions: OrderedDict[str, definitions.Definition] = OrderedDict()
        self._lock = threading.Lock()

    def transact(
        self, body: Callable[[Connection, Effects], Any], scoped: bool = True, dry_run: bool = False
    ) -> Any:
        """Runs ``body`` as one group-committed write transaction, then wakes waiters.

        ``scoped`` (the default): ``body`` locks the runs it writes (:meth:`lock_load`).
        ``dry_run``: ``body`` runs, then everything it wrote is rolled back (with its
        after-commit callbacks) and its answer returned; nobody is woken.
        """
        for _ in range(STALE_TRIES):
            effects = self.effects()
            if dry_run:
                run = functools.partial(_rolled_back, body, effects)
            else:
                run = functools.partial(self._command, body, effects)
            result = self.db.transact(run, scoped=scoped)
            if not isinstance(result, Stale):
                break
            self.snapshots.drop(result.run_id)  # decided on a stale copy: read it next time
            metrics.stale_copy()
        else:
            result = _conflict(result.run_id)
        if not dry_run:
            self.announce(effects)
        return result

    def _command(
        self, body: Callable[[Connection, Effects], Any], effects: Effects, connection: Connection
    ) -> Any:
        """One command's body; one that readied or leased attempts has :class:`WorkReadied`
        published before the COMMIT (what a settle-and-claim's own claim leased is not
        handed to another)."""
        value = body(connection, effects)
        if (effects.ready or effects.leased) and self.reactions.wired(WorkReadied):
            Database.before_commit(connection, self._work_readied, effects)
        return value

    def _work_readied(self, connection: Connection, readied: list[Any]) -> Ending:
        """Publishes :class:`WorkReadied` before a COMMIT; what ends its handlers."""
        endings = self.reactions.gather(WorkReadied(connection, readied))
        if len(endings) == 1:
            return endings[0]  # type: ignore[return-value]  # a WorkReadied handler's Ending

        def ending(committed: bool) -> None:
            for end in endings:
                end(committed)  # type: ignore[operator]  # each a WorkReadied handler's Ending

        return ending

    def transact_many(
        self, bodies: list[Callable[[Connection, Effects], Any]], keys: list[str] | None = None
    ) -> list[Any]:
        """Runs ``bodies`` in one group commit, each on its own; then wakes waiters.

        ``keys``: each body's run where known (PostgreSQL runs the bodies of one run in one
        transaction, see :meth:`Database.transact_many`). A body's bug (an exception other
        than a rollback) is raised after the commit.
        """
        effects = [self.effects() for _ in bodies]
        answers = self.db.transact_many(
            [
                functools.partial(self._command, body, fx)
                for body, fx in zip(bodies, effects, strict=True)
            ],
            scoped=True,
            keys=keys,
        )
        self.announce(*effects)
        for index, answer in enumerate(answers):
            if isinstance(answer, Stale):  # decided on a stale copy: on its own, read
                self.snapshots.drop(answer.run_id)
                metrics.stale_copy()
                answers[index] = self.transact(bodies[index])
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        return answers

    def effects(self) -> Effects:
        """A new transaction's effects, keeping the states it writes once committed."""
        return Effects(cache=self.snapshots, trace=self.trace)

    def announce(self, *effects: Effects) -> None:
        """Wakes the waiters of every server process after a commit of commands with
        ``effects``, less one wake-up per attempt they readied that the same commit leased
        (a settle-and-claim taking the node it readied, a hand-off to a parked long poll):
        no waiter wakes to find it gone."""
        made_ready = set().union(*(fx.made_ready for fx in effects))
        taken = [entry for fx in effects for entry in fx.leased if entry in made_ready]
        self.signals.publish(
            without_taken(merged(wakes_of(fx) for fx in effects), [m for _, _, m in taken])
        )

    def save(
        self,
        connection: Connection,
        record: RunRecord,
        outcome: core.Outcome,
        effects: Effects,
        command: core.Command,
        now: int,
    ) -> RunRecord:
        """Writes an outcome (:func:`praxis.store.runtime.rows.saving.save`), then publishes
        :class:`RunSaved`, and :class:`RunFinished` when it ended the run; every command's
        outcome is saved here."""
        saved = saving.save(connection, record, outcome, effects, command, now)
        if not outcome.noop:
            reactions = self.reactions
            reactions.publish(RunSaved(connection, record, saved, command, outcome, effects))
            if any(event.kind in ENDS for event in outcome.events):
                reactions.publish(RunFinished(connection, saved, effects, now))
        return saved

    def definition(self, connection: Connection, digest: str) -> definitions.Definition:
        """A stored definition, parsed once per process."""
        with self._lock:
            found = self.definitions.get(digest)
            if found is not None:
                self.definitions.move_to_end(digest)
                return found
        document = json.loads(load_definition_json(connection, digest))
        parsed = definitions.parse(document, None, self.limits)
        if isinstance(parsed, Rejection):
            raise ValueError(f"stored definition {digest} is invalid: {parsed.message}")
        self.remember(parsed)
        return parsed

    def parsed(self, digest: str) -> definitions.Definition | None:
        """The definition of ``digest`` if this process parsed it already."""
        with self._lock:
            return self.definitions.get(digest)

    def remember(self, parsed: definitions.Definition) -> None:
        """Keeps a parsed definition (the least recently used one goes past the cap)."""
        with self._lock:
            self.definitions[parsed.digest] = parsed
            while len(self.definitions) > DEFINITIONS_CACHED:
                self.definitions.popitem(last=False)

    def load(self, connection: Connection, run_id: str, row: Any = None) -> RunRecord | None:
        """The run's record; made from ``row`` when its ``runs`` row was already read (by
        the statement that locked it, PostgreSQL), else read."""
        if row is not None:
            return loading.load_row(connection, row, self.definition, self.snapshots)
        return loading.load(connection, run_id, self.definition, self.snapshots)

    def decide_on(self, connection: Connection, run_id: str) -> RunRecord | None:
        """The run a command of :meth:`transact` decides on: the copy this process holds
        when there is one (SQLite; not read, its save's compare-and-swap checks it), else
        read as :meth:`load` reads it. PostgreSQL reads it under the run's lock."""
        if not locks.needed(connection):
            found = loading.held(connection, run_id, self.snapshots)
            if found is not None:
                return found
        return self.load(connection, run_id)

    def held_attempt(
        self, connection: Connection, attempt_id: str
    ) -> tuple[RunRecord, core.Attempt] | None:
        """An attempt and its run as this process holds them, for a command of
        :meth:`transact` to decide on without reading either (SQLite), or ``None`` (read
        them). Not when this transaction already wrote the run (the attempt held may be
        older than what it wrote)."""
        if locks.needed(connection):
            return None
        return loading.held_attempt(connection, attempt_id, self.snapshots)

    def lock_load(self, connection: Connection, run_id: str) -> RunRecord | None:
        """The run, locked for this transaction (PostgreSQL; see :mod:`locks`)."""
        locks.run(connection, run_id)
        return self.load(connection, run_id)


def wakes_of(effects: Effects) -> dict[str, int]:
    """The wake-ups a committed transaction's effects call for."""
    wakes = {run_topic(run_id): 0 for run_id in effects.run_ids}
    if effects.runs:
        wakes[INBOX] = 0  # waits and blocked nodes (reconciliations) live in runs
    if effects.events:
        wakes[EVENTS] = 0
        wakes.update((subscriber_topic(name), 0) for name in effects.subscribers)
    wakes.update((work_topic(model), count) for model, count in effects.ready.items())
    if effects.work and not effects.ready:
        wakes["work:*"] = 0
    if effects.runs and not effects.run_ids:
        wakes["run:*"] = 0
    return wakes


def _conflict(run_id: str) -> Rejection:
    """The answer of a command whose copies of runs kept turning out stale."""
    return Rejection(
        Code.ABORTED, "VERSION_CONFLICT", f"run {run_id} changed concurrently; retry the request"
    )


def _rolled_back(
    body: Callable[[Connection, Effects], Any], effects: Effects, connection: Connection
) -> Any:
    """A dry run's body: its answer, with its writes undone (:class:`Rollback`)."""
    raise Rollback(body(connection, effects))
