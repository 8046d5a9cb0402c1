"""The events the runtime emits, that other slices react to (``praxis.app.reactions``).

Each is published through the engine's one dispatcher
(:class:`~praxis.store.db.reactions.Reactions`); its docstring says when its handlers run
and what a handler may do there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core import webhooks
from praxis.core.records import Principal
from praxis.store.runtime.records import Effects, RunRecord


@dataclass(frozen=True, eq=False, slots=True)
class RunStarted:
    """A run was inserted (StartRun, a schedule's fire), inside the start's transaction:
    a handler writes what the run brings along (its notify, contract, waits, segment);
    a ``Rollback`` it raises refuses the start."""

    connection: Connection
    principal: Principal
    record: RunRecord  # as saved
    notify: webhooks.Notify  # where its outcome is pushed when it ends


@dataclass(frozen=True, eq=False, slots=True)
class RunSaved:
    """A command saved an outcome of a run that changed it (not a no-op), inside the
    command's transaction, after the save: ``record`` is the run before, ``saved`` after.
    A ``Rollback`` a handler raises refuses the command."""

    connection: Connection
    record: RunRecord
    saved: RunRecord
    command: core.Command
    outcome: core.Outcome
    effects: Effects


@dataclass(frozen=True, eq=False, slots=True)
class RunFinished:
    """A saved outcome ended the run (RUN_COMPLETED, RUN_FAILED or RUN_CANCELLED among its
    events), inside the command's transaction, after :class:`RunSaved`'s handlers: what is
    pushed when a run ends is written with its end. A handler that adds run events notes
    them in ``effects`` (their subscribers wake after the commit)."""

    connection: Connection
    saved: RunRecord
    effects: Effects
    now: int


@dataclass(frozen=True, eq=False, slots=True)
class AttemptSettled:
    """A worker's settlement or heartbeat of an attempt was saved (CompleteTask,
    FailTask, Heartbeat, SettleTasks), inside its transaction: a handler charges what it
    cost; a ``Rollback`` refuses the settlement."""

    connection: Connection
    record: RunRecord  # the run before the settlement
    command: core.Command
    outcome: core.Outcome


@dataclass(frozen=True, eq=False, slots=True)
class WorkReadied:
    """A write transaction's commands readied or leased attempts: published once, just
    before its COMMIT, with the effects of each such command (``readied``). A handler
    returns what is called once the COMMIT ended (with whether it succeeded); it must not
    raise (a failing write it undoes in a savepoint of its own)."""

    connection: Connection
    readied: list[Any]
