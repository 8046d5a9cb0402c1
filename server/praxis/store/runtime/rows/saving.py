"""Saving runs: insert a new run, save an outcome with a compare-and-swap.

:func:`save` is the one writer of a run: it updates the summary row only if the version
is still the one loaded, writes the ``run_nodes`` rows of the nodes the outcome changed
(and only those), then re-syncs their ready and timer rows
(:mod:`praxis.store.runtime.rows.queues`), upserts attempts, keeps the contract's and the
starter's reservations, stores the result, appends the events and logs the command
(:mod:`praxis.store.runtime.log`), all on the caller's transaction.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from sqlalchemy import bindparam, delete, update
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core import values
from praxis.core.frozen import evolve
from praxis.core.rejection import Code, Rejection
from praxis.observability import metrics
from praxis.store.db import database, locks, statements
from praxis.store.db.database import Database, Rollback
from praxis.store.db.statements import Statement
from praxis.store.runtime import codec as run_codec
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.records import Effects, RunRecord, Stale
from praxis.store.runtime.rows import attempts, loading, queues, reservations
from praxis.store.runtime.rows import log as run_log
from praxis.store.runtime.rows.definitions import save_definition
from praxis.store.runtime.rows.results import run_result
from praxis.store.runtime.tables import node_results, run_events, run_labels, run_nodes, runs

# Hot-path statements, built once and run on the raw SQLite cursor
# (praxis.store.db.statements); each is keyed by primary key or a unique index.
_UPDATE_RUN = Statement(
    update(runs).where(
        runs.c.run_id == bindparam("rid"), runs.c.version == bindparam("expected_version")
    )
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
_INSERT = {
    table.name: Statement(table.insert())
    for table in (runs, node_results, run_events, run_nodes, run_labels)
}


def insert(
    connection: Connection,
    record: RunRecord,
    request_digest: str,
    outcome: core.Outcome,
    command: core.Start,
    now: int,
    cache: HeldRuns | None = None,
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
    memo = database.memo(connection)
    memo[("run", state.run_id)], memo[("record", state.run_id)] = state, record
    if cache is not None:
        kept = functools.partial(cache.written, None, record, outcome.attempts, None)
        Database.after_commit(connection, kept)
    return record


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
        loading.confirm(connection, record.state.run_id)  # a no-op on a copy held: current?
        return record
    assert not record.partial, "a partial record is read-only"
    if effects.trace is not None:  # before the attempt rows are rewritten (their start)
        effects.trace.observe(connection, record.state, outcome, command, now)
    state = outcome.state
    saved = evolve(record, state=state)
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
            saved = evolve(saved, result_json=result_text)  # just written: not read back
        else:
            if result_row is not None:  # the run's result reads it back
                _INSERT["node_results"].run(connection, result_row)
                result_row = None
            saved = evolve(saved, result_json=run_result(connection, state))
    before = record.state
    columns: dict[str, Any] = {
        "rid": state.run_id,
        "expected_version": before.version,
        "version": state.version,
    }
    # Only the columns that changed (each shape compiled once): the others hold already
    # what they would be set to (the record is the run as stored at ``before.version``).
    for name, value, old in (
        ("status", state.status.value, before.status.value),  # two indexes hold it
        ("revision", state.revision, before.revision),
        ("definition_digest", state.definition.digest, before.definition.digest),
        ("result_json", saved.result_json, record.result_json),
        ("result_error", state.result_error, before.result_error),
        ("result_reason", state.result_reason, before.result_reason),
        ("node_count", len(state.nodes), len(before.nodes)),
        ("updated_at_ms", state.updated_at_ms, before.updated_at_ms),
        ("finished_at_ms", state.finished_at_ms, before.finished_at_ms),
        ("deadline_ms", state.deadline_ms, before.deadline_ms),  # a resume sets it anew
    ):
        if value != old:
            columns[name] = value
    if state.definition.digest != record.state.definition.digest:
        save_definition(connection, state.definition)
    # Writes whose answers nothing reads before the end: one round trip on PostgreSQL,
    # not one each; the version check reads the run's update once they are answered.
    with statements.pipelined(connection):
        changed = _UPDATE_RUN.run(connection, columns)
        _check_version(connection, state, changed.rowcount, answered=False)  # SQLite: now
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
    _check_version(connection, state, changed.rowcount, answered=True)
    memo = database.memo(connection)  # for the batch's next commands: written, so not unread
    memo[("run", state.run_id)], memo[("record", state.run_id)] = state, saved
    memo.pop(("unread", state.run_id), None)
    if effects.cache is not None:
        written = None if outcome.result is None else (outcome.result[0], result_text)
        kept = functools.partial(
            effects.cache.written, record.state.version, saved, outcome.attempts, written
        )
        Database.after_commit(connection, kept)
    effects.note(state, record.subscriber, outcome.changed, bool(outcome.events))
    if metrics.ON:  # counted once committed
        observe = functools.partial(metrics.observe_run, record.state, outcome)
        Database.after_commit(connection, observe)
    if state.status in core.TERMINAL and record.state.status not in core.TERMINAL:
        effects.ended.append(state.run_id)
    return saved


_RESULTED = (core.RunStatus.COMPLETED, core.RunStatus.COMPLETING)
"""The statuses whose run carries its output's result (``result_json``)."""


def _check_version(
    connection: Connection, state: core.RunState, updated: int, answered: bool
) -> None:
    """Rolls the command back when its update of the run's row (at the version it decided
    on) changed no row: another command saved the run first. Decided on a copy held and
    not read (:func:`praxis.store.runtime.rows.loading.held`), the command is
    :class:`Stale` (decided again on the stored run); else VERSION_CONFLICT. ``answered``:
    the update has been answered (a pipelined one has a ``rowcount`` of -1 until then)."""
    if updated == 1 or (updated == -1 and not answered):
        return
    if loading.unread(connection, state.run_id):
        raise Rollback(Stale(state.run_id))
    raise Rollback(
        Rejection(
            Code.ABORTED,
            "VERSION_CONFLICT",
            f"run {state.run_id} changed concurrently; retry the request",
        )
    )


def _write_nodes(connection: Connection, before: core.RunState, outcome: core.Outcome) -> None:
    """Writes the rows of the nodes ``outcome`` changed or removed, and no others; of a
    node that was there before, only the columns that changed (one statement per shape of
    changed columns, each compiled once)."""
    state = outcome.state
    inserted: list[dict[str, Any]] = []
    updated: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for uid in sorted(outcome.changed, key=core.order_key(state.definition)):
        row = run_codec.node_row(state.run_id, state.nodes[uid])
        old = before.nodes.get(uid)
        if old is None:
            inserted.append(row)
            continue
        if old == state.nodes[uid]:
            continue  # unchanged after all: its row already holds it
        # A node's identity never changes, nor its index entries (run, uid, node id, item).
        was = run_codec.node_row(state.run_id, old)
        changed = {name: value for name, value in row.items() if was[name] != value}
        changed["b_run_id"], changed["b_node_uid"] = state.run_id, uid
        updated.setdefault(tuple(changed), []).append(changed)
    if outcome.removed:
        _DROP_NODES.run_many(
            connection, [{"rid": state.run_id, "uid": uid} for uid in sorted(outcome.removed)]
        )
    for rows in updated.values():
        _UPDATE_NODE.run_many(connection, rows)
    _INSERT["run_nodes"].run_many(connection, inserted)


def _write_effects(
    connection: Connection,
    record: RunRecord,
    outcome: core.Outcome,
    uids: set[str],
    before: core.RunState | None,
) -> None:
    state = outcome.state
    queues.sync(connection, record, uids, before)
    for attempt in outcome.attempts:
        attempts.upsert(connection, attempt)
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
