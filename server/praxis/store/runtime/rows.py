"""Rows of the runtime: load a run, save an outcome (compare-and-swap), gather inputs.

:func:`save` is the one writer of a run: it updates the summary row only if the version
is still the one loaded, writes the ``run_nodes`` rows of the nodes the outcome changed
(and only those), then re-syncs their ready and timer rows, upserts attempts, keeps the
contract's and the starter's reservations, stores the result, appends the events and
logs the command (:mod:`praxis.store.runtime.log`), all on the caller's transaction.
"""

from __future__ import annotations

import base64
import functools
import json
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from praxis.core import run as core
from praxis.core import values
from praxis.core.definition import Definition
from praxis.core.rejection import Code, Rejection, invalid
from praxis.core.run import inputs
from praxis.observability import metrics
from praxis.store.db import database, locks, statements
from praxis.store.db.database import Database, Rollback
from praxis.store.db.statements import Statement
from praxis.store.runtime import codec as run_codec
from praxis.store.runtime import log as run_log
from praxis.store.runtime import reservations
from praxis.store.runtime.tables import (
    attempts,
    node_results,
    ready_nodes,
    run_definitions,
    run_events,
    run_labels,
    run_nodes,
    run_timers,
    runs,
)

if TYPE_CHECKING:
    from praxis.store.runtime.traces import RunTraces

DefinitionLoader = Callable[[Connection, str], Definition]
_CHUNK = 400
_ATTEMPT_SETTLED = (
    "status",
    "payload_digest",
    "will_retry",
    "effect",
    "cost_microcredits",
    "at_ms",
)

SNAPSHOT_NODES_MAX = 1000
"""A run snapshot (``Run.nodes``) lists every node and fan-out item up to this many; a
larger run lists only its definition's nodes (``Run.items_omitted``), and its items are
read page by page with ``ListRunNodes``."""


# Hot-path statements, built once and run on the raw SQLite cursor
# (praxis.store.db.statements); each is keyed by primary key or a unique index.
_LOAD_RUN = Statement(select(runs).where(runs.c.run_id == bindparam("rid")))
_RUN_VERSION = Statement(select(runs.c.version).where(runs.c.run_id == bindparam("rid")))
_UPDATE_RUN = Statement(
    update(runs).where(
        runs.c.run_id == bindparam("rid"), runs.c.version == bindparam("expected_version")
    )
)
_DROP_READY = Statement(
    delete(ready_nodes).where(
        ready_nodes.c.run_id == bindparam("rid"), ready_nodes.c.node_uid == bindparam("uid")
    )
)
_DROP_TIMERS = Statement(
    delete(run_timers).where(
        run_timers.c.run_id == bindparam("rid"), run_timers.c.node_uid == bindparam("uid")
    )
)
_UPSERT_ATTEMPT = Statement(
    sqlite_insert(attempts).on_conflict_do_update(
        index_elements=[attempts.c.attempt_id],
        set_={name: getattr(sqlite_insert(attempts).excluded, name) for name in _ATTEMPT_SETTLED},
    )
)
_PG_UPSERT_ATTEMPT = Statement(
    pg_insert(attempts).on_conflict_do_update(
        index_elements=[attempts.c.attempt_id],
        set_={name: getattr(pg_insert(attempts).excluded, name) for name in _ATTEMPT_SETTLED},
    )
)
# PostgreSQL: the run of an attempt, locked in the statement that finds it (an attempt
# never moves). After waiting for the lock, FOR UPDATE returns the row's newest version,
# so the row read here is the one the command decides on: no second read of ``runs``.
_LOCK_ATTEMPT_RUN = Statement(
    select(runs)
    .where(
        runs.c.run_id
        == select(attempts.c.run_id)
        .where(attempts.c.attempt_id == bindparam("aid"))
        .scalar_subquery()
    )
    .with_for_update()
)
_LOAD_ATTEMPT = Statement(select(attempts).where(attempts.c.attempt_id == bindparam("aid")))
_LOAD_NODES = Statement(select(run_nodes).where(run_nodes.c.run_id == bindparam("rid")))
_ITEM_RESULTS = Statement(  # a fan-out's results in item order (its join's input)
    select(node_results.c.result_json)
    .where(node_results.c.run_id == bindparam("run_id"))
    .where(node_results.c.node_id == bindparam("node_id"), node_results.c.item >= 0)
    .order_by(node_results.c.item)
)
_UPDATE_NODE = Statement(
    update(run_nodes)
    .where(run_nodes.c.run_id == bindparam("b_run_id"))
    .where(run_nodes.c.node_uid == bindparam("b_node_uid"))
)
_DROP_NODES = Statement(
    delete(run_nodes).where(
        run_nodes.c.run_id == bindparam("rid"), run_nodes.c.node_uid == bindparam("uid")
    )
)
_RESULT_TEXT = Statement(
    select(node_results.c.result_json).where(
        node_results.c.run_id == bindparam("rid"), node_results.c.node_uid == bindparam("uid")
    )
)
_DEFINITION = Statement(
    select(run_definitions.c.definition_json).where(run_definitions.c.digest == bindparam("d"))
)
_DEFINITION_STORED = Statement(
    select(run_definitions.c.digest).where(run_definitions.c.digest == bindparam("d"))
)
_INSERT = {
    table.name: Statement(table.insert())
    for table in (
        runs, node_results, run_events, ready_nodes, run_timers, attempts, run_nodes,
        run_definitions, run_labels,
    )
}  # fmt: skip
# A queue row replaces one left behind: SQLite ``INSERT OR REPLACE``, PostgreSQL an upsert.
_REPLACE_READY = Statement(ready_nodes.insert().prefix_with("OR REPLACE", dialect="sqlite"))
_REPLACE_TIMER = Statement(run_timers.insert().prefix_with("OR REPLACE", dialect="sqlite"))
_PG_REPLACE_READY = Statement(
    pg_insert(ready_nodes).on_conflict_do_update(
        index_elements=[ready_nodes.c.run_id, ready_nodes.c.node_uid],
        set_={
            name: getattr(pg_insert(ready_nodes).excluded, name)
            for name in ("model", "not_before_ms", "work_order_id", "ready_at_ms")
        },
    )
)
_PG_REPLACE_TIMER = Statement(
    pg_insert(run_timers).on_conflict_do_update(
        index_elements=[run_timers.c.run_id, run_timers.c.node_uid],
        set_={"due_ms": pg_insert(run_timers).excluded.due_ms},
    )
)
_STORED_DEFINITIONS: weakref.WeakKeyDictionary[Engine, set[str]] = weakref.WeakKeyDictionary()
"""Per database, the digests of definitions known to be stored (added once a transaction
that stored or saw one commits); a definition row is never deleted, so the check is
skipped for them."""


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


@dataclass
class Effects:
    """What a transaction must announce after it commits."""

    work: bool = False
    runs: bool = False
    events: bool = False
    ended: list[str] = field(default_factory=list)
    cache: run_codec.SnapshotCache | None = None  # keeps states written, once committed
    # Whom to wake (praxis.store.wake.hub): the runs changed, the subscribers with new
    # events, and how many attempts of each model became ready.
    run_ids: set[str] = field(default_factory=set)
    subscribers: set[str] = field(default_factory=set)
    ready: Counter[str] = field(default_factory=Counter)
    # The attempts made ready here, and those a claim here leased, as (run, node uid,
    # model): a batch does not announce what its own claim took (RunStore._transact_many).
    made_ready: set[tuple[str, str, str]] = field(default_factory=set)
    leased: list[tuple[str, str, str]] = field(default_factory=list)
    trace: RunTraces | None = None  # opens and closes spans when tracing is on

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


def load(
    connection: Connection,
    run_id: str,
    definitions: DefinitionLoader,
    cache: run_codec.SnapshotCache | None = None,
) -> RunRecord | None:
    """The run, or ``None``."""
    row = _LOAD_RUN.run(connection, {"rid": run_id}).first()
    if row is None:
        return None
    return load_row(connection, row, definitions, cache)


def version(connection: Connection, run_id: str) -> int | None:
    """The run's stored version, or ``None`` when there is no such run."""
    found = _RUN_VERSION.run(connection, {"rid": run_id}).scalar()
    return None if found is None else int(found)


def lock_attempt_run(connection: Connection, attempt_id: str) -> tuple[Any, core.Attempt | None]:
    """Locks the run of an attempt (waits for its holder), then reads the attempt under
    the lock, in one round trip: the run's ``runs`` row as of the lock (:func:`load_row`
    makes the record; ``None`` when there is no such attempt) and the attempt
    (PostgreSQL only: SQLite's writer holds every run)."""
    with statements.pipelined(connection):
        locked = _LOCK_ATTEMPT_RUN.run(connection, {"aid": attempt_id}, later=True)
        loaded = _LOAD_ATTEMPT.run(connection, {"aid": attempt_id}, later=True)
    return locked.first(), _attempt_of(loaded.first())


def load_row(
    connection: Connection,
    row: Any,
    definitions: DefinitionLoader,
    cache: run_codec.SnapshotCache | None = None,
) -> RunRecord:
    """The record of a ``runs`` row already read (as :func:`load` after its read)."""
    return record_of(connection, row, definitions(connection, row.definition_digest), cache)


def load_state(
    connection: Connection,
    row: Any,
    definition: Definition,
    cache: run_codec.SnapshotCache | None = None,
) -> core.RunState:
    """The complete state of a ``runs`` row: as this transaction wrote it, cached for its
    version, or read from its rows."""
    written = database.recalled(connection, ("run", row.run_id))
    if (
        isinstance(written, core.RunState)
        and written.version == row.version
        and written.definition.digest == definition.digest
    ):
        return written
    if cache is not None:
        found = cache.get(row.run_id, row.version, definition.digest)
        if found is not None:
            return found
    nodes = _LOAD_NODES.run(connection, {"rid": row.run_id})
    state = run_codec.state_of(row, definition, (run_codec.node_of(node) for node in nodes))
    if cache is not None:
        cache.remember(state)
    return state


def record_of(
    connection: Connection,
    row: Any,
    definition: Definition,
    cache: run_codec.SnapshotCache | None = None,
    state: core.RunState | None = None,
) -> RunRecord:
    """The record of a ``runs`` row (with ``state`` when it is already read)."""
    return RunRecord(
        state=state or load_state(connection, row, definition, cache),
        principal_id=row.principal_id,
        request_id=row.request_id,
        work_order_id=row.work_order_id,
        ref_run_id=row.ref_run_id,
        subscriber=row.subscriber,
        contract_id=row.contract_id,
        input_json=row.input_json,
        result_json=row.result_json,
        node_count=row.node_count,
        partial=state is not None and len(state.nodes) != row.node_count,
        labels_json=row.labels_json,
    )


def summaries(
    connection: Connection,
    rows: Sequence[Any],
    definitions: DefinitionLoader,
    cache: run_codec.SnapshotCache | None = None,
) -> list[RunRecord]:
    """Records of ``runs`` rows for a listing: complete for runs of at most
    :data:`SNAPSHOT_NODES_MAX` nodes, the definition's nodes only for larger ones,
    read with one query for the whole page."""
    states: dict[str, core.RunState] = {}
    wanted_all: list[str] = []
    wanted_plain: list[str] = []
    for row in rows:
        found = None
        if cache is not None:
            digest = definitions(connection, row.definition_digest).digest
            found = cache.get(row.run_id, row.version, digest)
        if found is not None:
            states[row.run_id] = found
        elif row.node_count <= SNAPSHOT_NODES_MAX:
            wanted_all.append(row.run_id)
        else:
            wanted_plain.append(row.run_id)
    nodes: dict[str, list[core.NodeRun]] = {}
    for batch, plain in ((wanted_all, False), (wanted_plain, True)):
        for ids in _chunks(batch):
            query = select(run_nodes).where(run_nodes.c.run_id.in_(ids))
            if plain:
                query = query.where(run_nodes.c.item < 0)
            for node in connection.execute(query):
                nodes.setdefault(node.run_id, []).append(run_codec.node_of(node))
    records = []
    for row in rows:
        definition = definitions(connection, row.definition_digest)
        state = states.get(row.run_id) or run_codec.state_of(
            row, definition, nodes.get(row.run_id, ())
        )
        records.append(record_of(connection, row, definition, state=state))
    return records


def load_definition_json(connection: Connection, digest: str) -> str:
    """The stored document of a definition digest."""
    text = _DEFINITION.run(connection, {"d": digest}).scalar()
    if text is None:
        raise LookupError(f"definition {digest} is missing")
    return str(text)


def save_definition(connection: Connection, definition: Definition) -> None:
    """Stores a definition document once per digest."""
    digest = definition.digest
    known = _STORED_DEFINITIONS.setdefault(connection.engine, set())
    if digest in known:
        return
    if _DEFINITION_STORED.run(connection, {"d": digest}).first() is None:
        _INSERT["run_definitions"].run(
            connection,
            {
                "digest": digest,
                "definition_json": json.dumps(definition.document, ensure_ascii=False),
            },
        )
    Database.after_commit(connection, functools.partial(known.add, digest))


def insert(
    connection: Connection,
    record: RunRecord,
    request_digest: str,
    outcome: core.Outcome,
    command: core.Start,
    now: int,
    cache: run_codec.SnapshotCache | None = None,
) -> RunRecord:
    """Inserts a new run from its Start outcome (``record.state`` is the outcome's).

    Args:
        connection: The command's transaction.
        record: The new run.
        request_digest: What the StartRun request's idempotency compares.
        outcome: The outcome of ``command``.
        command: The Start command, logged.
        now: The time it was applied at.
        cache: Keeps the new state once committed (the first claim then reads no nodes).
    """
    state = outcome.state
    save_definition(connection, state.definition)
    with statements.pipelined(connection):  # one round trip on PostgreSQL
        _INSERT["runs"].run(
            connection,
            {
                "run_id": state.run_id,
                "principal_id": record.principal_id,
                "request_id": record.request_id,
                "request_digest": request_digest,
                "status": state.status.value,
                "work_order_id": record.work_order_id,
                "ref_run_id": record.ref_run_id,
                "revision": state.revision,
                "version": state.version,
                "definition_digest": state.definition.digest,
                "input_json": record.input_json,
                "subscriber": record.subscriber,
                "contract_id": record.contract_id,
                "result_json": "",
                "result_error": state.result_error,
                "result_reason": state.result_reason,
                "node_count": len(state.nodes),
                "created_at_ms": state.created_at_ms,
                "updated_at_ms": state.updated_at_ms,
                "finished_at_ms": state.finished_at_ms,
                "deadline_ms": state.deadline_ms,
                "labels_json": record.labels_json,
            },
        )
        if record.labels_json:
            _INSERT["run_labels"].run_many(
                connection,
                [
                    {"run_id": state.run_id, "key": key, "value": value,
                     "created_at_ms": state.created_at_ms}
                    for key, value in record.labels.items()
                ],
            )  # fmt: skip
        _INSERT["run_nodes"].run_many(
            connection,
            [
                run_codec.node_row(state.run_id, state.nodes[uid])
                for uid in core.ordered_uids(state.definition, state.nodes)
            ],
        )
        # A new run has no ready, timer or attempt rows yet: nothing to delete first.
        uids = set(state.nodes) | ({core.RUN_TIMER} if state.deadline_ms else set())
        _write_effects(connection, record, outcome, uids, None)
        run_log.append(connection, state, command, now)
    database.memo(connection)[("run", state.run_id)] = state
    if cache is not None:
        Database.after_commit(connection, functools.partial(cache.remember, state))
    return record


def drop_ready(connection: Connection, run_id: str, uid: str) -> None:
    """Deletes a ready row the snapshot no longer backs."""
    _DROP_READY.run(connection, {"rid": run_id, "uid": uid})


def save(
    connection: Connection,
    record: RunRecord,
    outcome: core.Outcome,
    effects: Effects,
    command: core.Command,
    now: int,
) -> RunRecord:
    """Writes an outcome with a compare-and-swap on the run's version.

    Args:
        connection: The command's transaction.
        record: The run as loaded.
        outcome: What ``command`` decided (a no-op writes nothing).
        effects: What to announce after the commit.
        command: The command, logged with ``now`` as what made the new version.
        now: The time the command was applied at.

    Raises:
        Rollback: With VERSION_CONFLICT when another writer changed the run.
    """
    if outcome.noop:
        return record
    assert not record.partial, "a partial record is read-only"
    if effects.trace is not None:  # before the attempt rows are rewritten (their start)
        effects.trace.observe(connection, record.state, outcome, command, now)
    state = outcome.state
    saved = replace(record, state=state)
    result_text = ""
    result_row: dict[str, Any] | None = None
    if outcome.result is not None:
        uid, value = outcome.result
        node = state.nodes[uid]
        result_text = values.canonical_json(value)
        result_row = {
            "run_id": state.run_id,
            "node_uid": uid,
            "node_id": node.node_id,
            "item": node.item,
            "result_json": result_text,
            "attempt_id": node.attempt_id,
            "created_at_ms": state.updated_at_ms,
        }
    if state.status in _RESULTED and not record.result_json:
        output = state.definition.output
        if (
            outcome.result is not None
            and outcome.result[0] == output
            and state.definition.nodes[output].fanout is None
        ):
            saved = replace(saved, result_json=result_text)  # just written: not read back
        else:
            if result_row is not None:  # the run's result reads it back
                _INSERT["node_results"].run(connection, result_row)
                result_row = None
            saved = replace(saved, result_json=run_result(connection, state))
    columns = {
        "rid": state.run_id,
        "expected_version": record.state.version,
        "revision": state.revision,
        "version": state.version,
        "definition_digest": state.definition.digest,
        "result_json": saved.result_json,
        "result_error": state.result_error,
        "result_reason": state.result_reason,
        "node_count": len(state.nodes),
        "updated_at_ms": state.updated_at_ms,
        "finished_at_ms": state.finished_at_ms,
    }
    if state.status is not record.state.status:  # set only when changed: two indexes hold it
        columns["status"] = state.status.value
    if state.deadline_ms != record.state.deadline_ms:  # a resume sets it anew
        columns["deadline_ms"] = state.deadline_ms
    if state.definition.digest != record.state.definition.digest:
        save_definition(connection, state.definition)
    # Writes whose answers nothing reads before the end: one round trip on PostgreSQL,
    # not one each; the version check reads the run's update once they are answered.
    with statements.pipelined(connection):
        changed = _UPDATE_RUN.run(connection, columns)
        _check_version(state, changed.rowcount, answered=False)  # SQLite: answered now
        if result_row is not None:  # nothing reads it in this command: no round trip of its own
            _INSERT["node_results"].run(connection, result_row)
        _write_nodes(connection, record.state, outcome)
        uids = set(outcome.changed) | set(outcome.removed)
        if core.timer_entry(state, core.RUN_TIMER) != core.timer_entry(
            record.state, core.RUN_TIMER
        ):
            uids.add(core.RUN_TIMER)  # the run's deadline was set, changed or ended
        _write_effects(connection, saved, outcome, uids, record.state)
        run_log.append(connection, state, command, now)
    _check_version(state, changed.rowcount, answered=True)
    database.memo(connection)[("run", state.run_id)] = state  # for the batch's next commands
    if effects.cache is not None:
        Database.after_commit(connection, functools.partial(effects.cache.remember, state))
    effects.note(state, record.subscriber, outcome.changed, bool(outcome.events))
    if metrics.ON:  # counted once committed
        observe = functools.partial(metrics.observe_run, record.state, outcome)
        Database.after_commit(connection, observe)
    if state.status in core.TERMINAL and record.state.status not in core.TERMINAL:
        effects.ended.append(state.run_id)
    return saved


_RESULTED = (core.RunStatus.COMPLETED, core.RunStatus.COMPLETING)
"""The statuses whose run carries its output's result (``result_json``)."""


def _check_version(state: core.RunState, updated: int, answered: bool) -> None:
    """Rolls the command back when its update of the run's row (at the version it read)
    changed no row: another command saved the run first. ``answered``: the update has
    been answered (a pipelined one has a ``rowcount`` of -1 until then)."""
    if updated == 1 or (updated == -1 and not answered):
        return
    raise Rollback(
        Rejection(
            Code.ABORTED,
            "VERSION_CONFLICT",
            f"run {state.run_id} changed concurrently; retry the request",
        )
    )


def _write_nodes(connection: Connection, before: core.RunState, outcome: core.Outcome) -> None:
    """Writes the rows of the nodes ``outcome`` changed or removed, and no others."""
    state = outcome.state
    inserted, updated = [], []
    for uid in sorted(outcome.changed, key=core.order_key(state.definition)):
        row = run_codec.node_row(state.run_id, state.nodes[uid])
        if uid in before.nodes:  # a node's identity never changes, nor its index entries
            row["b_run_id"], row["b_node_uid"] = row.pop("run_id"), row.pop("node_uid")
            del row["node_id"], row["item"]
            updated.append(row)
        else:
            inserted.append(row)
    if outcome.removed:
        _DROP_NODES.run_many(
            connection, [{"rid": state.run_id, "uid": uid} for uid in sorted(outcome.removed)]
        )
    _UPDATE_NODE.run_many(connection, updated)
    _INSERT["run_nodes"].run_many(connection, inserted)


def _write_effects(
    connection: Connection,
    record: RunRecord,
    outcome: core.Outcome,
    uids: set[str],
    before: core.RunState | None,
) -> None:
    state = outcome.state
    _sync_queues(connection, record, uids, before)
    for attempt in outcome.attempts:
        _upsert_attempt(connection, attempt)
    if outcome.attempts:
        reservations.track(
            connection,
            record.contract_id,
            record.principal_id,
            state,
            outcome.attempts,
            record.work_order_id,
        )
    rows = [
        {
            "run_id": state.run_id,
            "node_uid": event.node_uid,
            "kind": event.kind,
            "subscriber": record.subscriber,
            "payload_json": values.canonical_json(_payload(record, event)),
            "at_ms": state.updated_at_ms,
        }
        for event in outcome.events
    ]
    if rows:
        locks.before_events(connection)  # the event log's order on PostgreSQL
        _INSERT["run_events"].run_many(connection, rows)


def _payload(record: RunRecord, event: core.Event) -> dict[str, values.JsonValue]:
    payload = dict(event.payload)
    if event.kind == "RUN_COMPLETED":
        payload["result"] = json.loads(record.result_json) if record.result_json else None
    return payload


def _chunks(items: Iterable[str]) -> Iterable[list[str]]:
    batch: list[str] = []
    for item in items:
        batch.append(item)
        if len(batch) == _CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch


def _sync_queues(
    connection: Connection, record: RunRecord, uids: set[str], before: core.RunState | None
) -> None:
    """Makes the ready and timer rows of ``uids`` match the snapshot.

    ``before`` is the state the rows were written from (``None``: a run inserted by this
    transaction, which has none). Only the rows ``before`` implies are deleted (a node
    that was pending has no ready row to delete), and inserts replace a row left behind.
    A timer that ``before`` already has with the same due time is not written again, and
    one that moves is replaced without a delete first (a claim, a heartbeat).
    A ready row records the command's time (``ready_at_ms``): when the node became ready,
    or when a command last changed it while it stayed ready (a re-armed schedule-to-start
    deadline while its work order is held, a revision of its spec).
    """
    state = record.state
    run_id = state.run_id
    prior = before if before is not None and before.status not in core.TERMINAL else None
    if before is not None:
        dropped_ready = sorted(uids)
        if prior is not None:
            dropped_ready = [
                uid for uid in dropped_ready
                if uid not in prior.nodes or core.ready_entry(prior, uid) is not None
            ]  # fmt: skip
        _DROP_READY.run_many(connection, [{"rid": run_id, "uid": uid} for uid in dropped_ready])
    ready, timers, dropped_timers = [], [], []
    for uid in sorted(uids, key=_uid_order):
        entry = core.ready_entry(state, uid)
        if entry is not None:
            ready.append(
                {
                    "run_id": run_id,
                    "node_uid": uid,
                    "model": entry[0],
                    "not_before_ms": entry[1],
                    "work_order_id": record.work_order_id,
                    "ready_at_ms": state.updated_at_ms,
                }
            )
        due = core.timer_entry(state, uid)
        # A timer row that stays is left alone, one that moves is replaced (an upsert, no
        # delete first), one that ends is deleted; so is a new node's row left behind.
        known = prior is not None and (uid in prior.nodes or uid == core.RUN_TIMER)
        was = core.timer_entry(prior, uid) if prior is not None and known else None
        if due is None:
            if before is not None and (not known or was is not None):
                dropped_timers.append({"rid": run_id, "uid": uid})
        elif not known or due != was:
            timers.append({"run_id": run_id, "node_uid": uid, "due_ms": due})
    _DROP_TIMERS.run_many(connection, dropped_timers)
    postgres = connection.dialect.name == "postgresql"
    (_PG_REPLACE_READY if postgres else _REPLACE_READY).run_many(connection, ready)
    (_PG_REPLACE_TIMER if postgres else _REPLACE_TIMER).run_many(connection, timers)


def _uid_order(uid: str) -> tuple[str, int]:
    node_id, _, item = uid.partition("#")
    return node_id, int(item) if item else -1


def _upsert_attempt(connection: Connection, attempt: core.Attempt) -> None:
    """Inserts an attempt, or updates its settlement columns (one statement)."""
    row = {
        "status": attempt.status.value,
        "payload_digest": attempt.payload_digest,
        "will_retry": int(attempt.will_retry),
        "effect": attempt.effect,
        "cost_microcredits": attempt.cost_microcredits,
        "at_ms": attempt.at_ms,
    }
    identity = {
        "attempt_id": attempt.attempt_id,
        "run_id": attempt.run_id,
        "node_uid": attempt.node_uid,
        "number": attempt.number,
        "worker_id": attempt.worker_id,
        "principal_id": attempt.principal_id,
    }
    if connection.dialect.name == "sqlite":
        _UPSERT_ATTEMPT.run(connection, {**identity, **row})
    else:
        _PG_UPSERT_ATTEMPT.run(connection, {**identity, **row})


def load_attempt(connection: Connection, attempt_id: str) -> core.Attempt | None:
    """One attempt record, or ``None``."""
    return _attempt_of(_LOAD_ATTEMPT.run(connection, {"aid": attempt_id}).first())


def _attempt_of(row: Any) -> core.Attempt | None:
    if row is None:
        return None
    return core.Attempt(
        attempt_id=row.attempt_id,
        run_id=row.run_id,
        node_uid=row.node_uid,
        number=row.number,
        worker_id=row.worker_id,
        status=core.AttemptStatus(row.status),
        payload_digest=row.payload_digest,
        will_retry=bool(row.will_retry),
        effect=row.effect,
        cost_microcredits=row.cost_microcredits,
        at_ms=row.at_ms,
        principal_id=row.principal_id,
    )


# --- results and inputs ---------------------------------------------------------------


def node_value(connection: Connection, state: core.RunState, node_id: str) -> values.JsonValue:
    """A node's result: its stored value, or its items' results in item order."""
    spec = state.definition.nodes.get(node_id)
    if spec is not None and spec.fanout is not None:
        rows = _ITEM_RESULTS.run(connection, {"run_id": state.run_id, "node_id": node_id})
        return [json.loads(row.result_json) for row in rows]
    text = result_text(connection, state.run_id, node_id)
    return None if text is None else json.loads(text)


def result_text(connection: Connection, run_id: str, uid: str) -> str | None:
    """The stored result of one node uid, as JSON text."""
    text = _RESULT_TEXT.run(connection, {"rid": run_id, "uid": uid}).scalar()
    return None if text is None else str(text)


def run_result(connection: Connection, state: core.RunState) -> str:
    """The run's result: the output node's value, as canonical JSON."""
    return values.canonical_json(node_value(connection, state, state.definition.output))


def gather_input(
    connection: Connection,
    record: RunRecord,
    node: core.NodeRun,
    cache: dict[tuple[str, str], values.JsonValue],
) -> values.JsonValue:
    """The input of a node: run input, a dependency's result, a join or a fan-out item
    (:func:`praxis.core.run.inputs.node_input`, reading results from the rows)."""
    state = record.state

    def value(node_id: str) -> values.JsonValue:
        key = (state.run_id, node_id)
        if key not in cache:
            cache[key] = node_value(connection, state, node_id)
        return cache[key]

    def run_input() -> values.JsonValue:
        return json.loads(record.input_json) if record.input_json else None

    return inputs.node_input(state, node, run_input, value)


# --- node listing ---------------------------------------------------------------------

NODES_PAGE_DEFAULT = 500
NODES_PAGE_MAX = 1000


def encode_node_token(run_id: str, node_id: str, status: str, at: tuple[str, int]) -> str:
    """An opaque token naming where the next page starts, bound to its query."""
    text = json.dumps([1, run_id, node_id, status, at[0], at[1]], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_node_token(
    token: str, run_id: str, node_id: str, status: str
) -> tuple[str, int] | Rejection | None:
    """Where the page of ``token`` starts, ``None`` for the first page, or why not."""
    if not token:
        return None
    bad = invalid(
        "PAGE_INVALID", "page_token", "page_token is not one this server issued for this listing"
    )
    if len(token) > 1024:
        return bad
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("utf-8")
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return bad
    if (
        not isinstance(data, list)
        or len(data) != 6
        or data[:4] != [1, run_id, node_id, status]
        or not isinstance(data[4], str)
        or not isinstance(data[5], int)
        or isinstance(data[5], bool)
        or data[5] < -1
    ):
        return bad
    return data[4], data[5]


def list_nodes(
    connection: Connection,
    row: Any,
    definition: Definition,
    node_id: str,
    status: core.NodeStatus | None,
    size: int,
    start: tuple[str, int] | None,
) -> tuple[list[core.NodeRun], tuple[str, int] | None] | Rejection:
    """Up to ``size`` nodes of the run of ``row`` from ``start``, and where the next page
    starts. Reads at most ``size + 1`` rows per definition node it visits."""
    order = list(definition.nodes) if not node_id else [node_id]
    first_item = -1
    if start is not None:
        if start[0] not in order:
            return invalid(
                "PAGE_INVALID",
                "page_token",
                "page_token names a node the run's definition no longer has; list again",
            )
        order = order[order.index(start[0]) :]
        first_item = start[1]
    found: list[core.NodeRun] = []
    for index, current in enumerate(order):
        query = (
            select(run_nodes)
            .where(run_nodes.c.run_id == row.run_id, run_nodes.c.node_id == current)
            .where(run_nodes.c.item >= (first_item if index == 0 else -1))
            .order_by(run_nodes.c.item)
            .limit(size + 1 - len(found))
        )
        if status is not None:
            query = query.where(run_nodes.c.status == status.value)
        found.extend(run_codec.node_of(node) for node in connection.execute(query))
        if len(found) > size:
            following = found[size]
            return found[:size], (following.node_id, following.item)
    return found, None
