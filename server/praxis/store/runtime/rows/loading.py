"""Loading runs: a run's record from its ``runs`` row and its ``run_nodes``, its
version, and the records of a listing's page."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import run as core
from praxis.core.definition import Definition
from praxis.store.db import database
from praxis.store.db.database import Rollback
from praxis.store.db.statements import Statement
from praxis.store.runtime import codec as run_codec
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.records import SNAPSHOT_NODES_MAX, RunRecord, Stale
from praxis.store.runtime.tables import run_nodes, runs

DefinitionLoader = Callable[[Connection, str], Definition]
_CHUNK = 400

# Hot-path statements, built once and run on the raw SQLite cursor
# (praxis.store.db.statements); each is keyed by primary key or a unique index.
_LOAD_RUN = Statement(select(runs).where(runs.c.run_id == bindparam("rid")))
_RUN_VERSION = Statement(select(runs.c.version).where(runs.c.run_id == bindparam("rid")))
_LOAD_NODES = Statement(select(run_nodes).where(run_nodes.c.run_id == bindparam("rid")))


def load(
    connection: Connection,
    run_id: str,
    definitions: DefinitionLoader,
    cache: HeldRuns | None = None,
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


def load_row(
    connection: Connection,
    row: Any,
    definitions: DefinitionLoader,
    cache: HeldRuns | None = None,
) -> RunRecord:
    """The record of a ``runs`` row already read (as :func:`load` after its read)."""
    record = record_of(connection, row, definitions(connection, row.definition_digest), cache)
    if cache is not None:
        cache.read(record)
    return record


def held(connection: Connection, run_id: str, cache: HeldRuns) -> RunRecord | None:
    """The run a command may decide on without reading it, or ``None`` (then it is read):
    as an earlier command of this transaction saved it, or as this process holds it
    (:mod:`praxis.store.runtime.held`). A copy held is marked unread for this
    transaction: its save's compare-and-swap checks it, and a command that writes no run
    on it checks it first (:func:`confirm`)."""
    written = database.recalled(connection, ("record", run_id))
    if isinstance(written, RunRecord):
        return written
    if database.recalled(connection, ("run", run_id)) is not None:
        return None  # written here by a command that kept no record: read it
    found = cache.record(run_id)
    if found is not None:
        database.memo(connection)[("unread", run_id)] = found.state.version
    return found


def held_attempt(
    connection: Connection, attempt_id: str, cache: HeldRuns
) -> tuple[RunRecord, core.Attempt] | None:
    """An attempt and its run as this process holds them, both at the run's version held,
    for a command to decide on without reading either (marked unread, as :func:`held`
    marks a run), or ``None``: read them. ``None`` too when this transaction wrote the run
    (the attempt held may be older than what it wrote)."""
    found = cache.attempt(attempt_id)
    if found is None:
        return None
    run_id = found[0].state.run_id
    if database.recalled(connection, ("run", run_id)) is not None:
        return None
    database.memo(connection)[("unread", run_id)] = found[0].state.version
    return found


def unread(connection: Connection, run_id: str) -> bool:
    """Whether this transaction decides on a copy of the run it did not read (:func:`held`)."""
    return database.recalled(connection, ("unread", run_id)) is not None


def confirm(connection: Connection, run_id: str) -> None:
    """Before a command acts on a decision that writes no run (a no-op, a refusal, a
    dropped ready row): when it decided on an unread copy (:func:`held`), reads the run's
    version, and undoes the command as :class:`Stale` if the copy is no longer the run."""
    found = database.recalled(connection, ("unread", run_id))
    if found is None:
        return
    del database.memo(connection)[("unread", run_id)]
    if version(connection, run_id) != found:
        raise Rollback(Stale(run_id))


def load_state(
    connection: Connection,
    row: Any,
    definition: Definition,
    cache: HeldRuns | None = None,
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
    cache: HeldRuns | None = None,
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
    cache: HeldRuns | None = None,
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


def _chunks(items: Iterable[str]) -> Iterable[list[str]]:
    batch: list[str] = []
    for item in items:
        batch.append(item)
        if len(batch) == _CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch


def run_row(connection: Connection, run_id: str) -> Any:
    """The run's ``runs`` row (None for no such run)."""
    return connection.execute(select(runs).where(runs.c.run_id == run_id)).first()


def live_run_ids(connection: Connection, work_order_id: str, live: list[str]) -> list[str]:
    """The ids of the work order's runs in one of the states ``live``."""
    return list(
        connection.execute(
            select(runs.c.run_id).where(
                runs.c.work_order_id == work_order_id, runs.c.status.in_(live)
            )
        )
        .scalars()
        .all()
    )


_EXISTING = Statement(
    select(runs.c.run_id, runs.c.request_digest).where(
        runs.c.principal_id == bindparam("pid"), runs.c.request_id == bindparam("rid")
    )
)


def existing(
    connection: Connection, principal_id: str, request_id: str, later: bool = False
) -> Any:
    """The run (``run_id``, ``request_digest``) a principal's request_id started: rows
    like ``Connection.execute``'s; ``later`` as :meth:`Statement.run`'s (pipelined)."""
    return _EXISTING.run(connection, {"pid": principal_id, "rid": request_id}, later=later)
