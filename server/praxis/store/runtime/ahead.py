"""Heartbeats and settlements decided ahead of the writers' turn (SQLite).

One server process at a time holds the writers' turn (:mod:`praxis.store.db.writer_turn`),
and whatever a command does while holding it, the other processes wait for. The decision
of a command on an attempt (load its run, apply the pure reducer) needs nothing the turn
guards: it reads the run at one version. So the task store makes those decisions on a read
snapshot before the batch queues for the turn (:class:`Decided`), and each command, inside
the turn, only checks that its run is still at the version it decided on
(:func:`still_current`, one primary-key read) before writing the outcome; when it is not,
the command decides again inside the turn, exactly as without a decision ahead.

The run's version covers all the reducer reads: the ``runs`` row, its nodes and its
attempts are written only by :func:`praxis.store.runtime.rows.saving.save`, whose
compare-and-swap moves it. What the execution model checks around a settlement (budgets,
contracts, waits, segments: the AttemptSettled and RunSaved reactions) reads other
tables and still runs inside the turn, on what is current there: only the reducer's
work moves.

Several commands of one batch on the same run (a fan-out's items settled together) are
decided in order, each on the state the one before it decided (``follows``). Inside the
turn such a decision is current only if the command before it wrote exactly that state
(the transaction's memo holds it, :func:`praxis.store.db.database.recalled`); a command
that decided again or rolled back breaks the chain, and the rest decide again.

Only where several server processes share the turn (``praxis serve --processes N``,
:attr:`praxis.app.Settings.decide_ahead`): there the decisions of one process run while
another holds the turn. A lone process gains nothing (its own interpreter runs the
decisions either way) and pays for the read: 10% fewer completions per second in one
process; with two, a settlement holds the turn about a quarter less and 5% more complete
per second (issue 26's session-16 note). PostgreSQL has no writers' turn
(commands of different runs run in parallel, each locking its run): it decides inside
the transaction, under the run's lock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.store.db import database
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.rows import loading


@dataclass(frozen=True)
class Decided:
    """A command on an attempt and what the reducer made of it, at one run version."""

    attempt: core.Attempt
    record: RunRecord
    """The run as the decision read it (``record.state.version`` is that version)."""
    command: core.Command
    now: int
    """The time the command was applied at (and is logged with)."""
    outcome: core.Outcome
    follows: bool = False
    """Decided on the state an earlier command of the same batch decided."""


def still_current(connection: Connection, decided: Decided) -> bool:
    """Whether the run is still as ``decided`` read it, inside the write transaction."""
    state = decided.record.state
    if decided.follows:
        return database.recalled(connection, ("run", state.run_id)) is state
    return loading.version(connection, state.run_id) == state.version


def next_state(decided: Decided) -> RunRecord | None:
    """The run a later command of the batch on the same run decides on, after a decision
    that changed it: the state it leads to, or ``None`` when the later one must decide
    inside the turn (the run ended, where a save also writes the run's result)."""
    state = decided.outcome.state
    return None if state.status in core.TERMINAL else replace(decided.record, state=state)
