"""What a runtime command passes around: the run as loaded, and what to announce.

:class:`RunRecord` is a run's state with the columns the state does not hold (made by
:mod:`praxis.store.runtime.rows.loading`); :class:`Effects` collects what a transaction
changed, for the unit of work (:mod:`praxis.store.runtime.unit`) to announce once it
commits.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy.engine import Connection

from praxis.core import run as core

SNAPSHOT_NODES_MAX = 1000
"""A run snapshot (``Run.nodes``) lists every node and fan-out item up to this many; a
larger run lists only its definition's nodes (``Run.items_omitted``), and its items are
read page by page with ``ListRunNodes``."""


class Tracing(Protocol):
    """What a command's transaction asks of the runs' traces
    (:class:`praxis.store.runtime.traces.RunTraces`, whose rows sit in ``rows/``: named
    here by what it does, so that ``rows`` does not import it back)."""

    def observe(
        self,
        connection: Connection,
        before: core.RunState,
        outcome: core.Outcome,
        command: core.Command,
        now: int,
    ) -> None:
        """Closes the spans ``outcome`` ends."""

    def traceparent(self, connection: Connection, run_id: str, attempt_id: str) -> str:
        """The attempt's span as a ``traceparent`` ('' for a run without a trace)."""


@dataclass(frozen=True)
class RunRecord:
    """A run's state plus the columns the state does not hold.

    ``partial`` marks a read-only view holding only the definition's nodes (a run
    listing of a run larger than :data:`SNAPSHOT_NODES_MAX`); ``node_count`` is then the
    run's real count. A partial record is never saved nor cached.
    """

    state: core.RunState
    principal_id: str
    request_id: str
    work_order_id: str
    ref_run_id: str
    subscriber: str
    contract_id: str
    input_json: str
    result_json: str = ""
    node_count: int = -1
    partial: bool = False
    labels_json: str = ""
    """The run's labels as canonical JSON ("" for none), parsed only when shown."""

    @property
    def nodes(self) -> int:
        """How many nodes and fan-out items the run has."""
        return self.node_count if self.partial else len(self.state.nodes)

    @property
    def labels(self) -> dict[str, str]:
        """The labels set when the run started."""
        found: dict[str, str] = json.loads(self.labels_json) if self.labels_json else {}
        return found


class Holding(Protocol):
    """Where a transaction's saves keep the runs they wrote, once committed
    (:class:`praxis.store.runtime.held.HeldRuns`: named here by what it does, so that this
    module does not import the module that keeps its records)."""

    def written(
        self,
        expected: int | None,
        record: RunRecord,
        attempts: Iterable[core.Attempt],
        result: tuple[str, str] | None,
    ) -> None:
        """Keeps a run saved from version ``expected`` (``None``: inserted)."""


@dataclass(frozen=True)
class Stale:
    """What a command answers inside its transaction when it decided on a copy of a run
    this process held (:mod:`praxis.store.runtime.held`) that is no longer the stored
    run: its writes are undone, and the unit of work drops the copy and runs the command
    again (:meth:`praxis.store.runtime.unit.Unit.transact`). Never a caller's answer."""

    run_id: str


@dataclass
class Effects:
    """What a transaction must announce after it commits."""

    work: bool = False
    runs: bool = False
    events: bool = False
    ended: list[str] = field(default_factory=list)
    cache: Holding | None = None  # keeps the runs written, once committed
    # Whom to wake (praxis.store.wake.hub): the runs changed, the subscribers with new
    # events, and how many attempts of each model became ready.
    run_ids: set[str] = field(default_factory=set)
    subscribers: set[str] = field(default_factory=set)
    ready: Counter[str] = field(default_factory=Counter)
    # The attempts made ready here, and those a claim here leased, as (run, node uid,
    # model): a batch does not announce what its own claim took (RunStore._transact_many).
    made_ready: set[tuple[str, str, str]] = field(default_factory=set)
    leased: list[tuple[str, str, str]] = field(default_factory=list)
    trace: Tracing | None = None  # opens and closes spans when tracing is on

    def note(
        self, state: core.RunState, subscriber: str, uids: Iterable[str], events: bool
    ) -> None:
        """Records that ``state`` was written, with ``uids`` changed."""
        self.runs = True
        self.run_ids.add(state.run_id)
        if events:
            self.events = True
            if subscriber:
                self.subscribers.add(subscriber)
        for uid in uids:
            entry = core.ready_entry(state, uid)
            if entry is not None:
                self.work = True
                self.ready[entry[0]] += 1
                self.made_ready.add((state.run_id, uid, entry[0]))
