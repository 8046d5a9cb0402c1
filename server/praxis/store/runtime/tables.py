"""Tables of the workflow runtime (migration 2; migration 7 moved nodes to their rows).

A run is a summary row (``runs``: status, version, counters, times, reasons) guarded by
a version column (every write is ``UPDATE ... WHERE run_id = ? AND version = ?``) plus
one ``run_nodes`` row per node and fan-out item, so that a command writes the summary
and the rows of the nodes it changed, whatever the run's size. What must be found
cheaply has its own indexed table, so that claiming and sweeping cost grows with the
work that is due and not with the runs stored:

* ``ready_nodes``: one row per claimable node, by model and earliest dispatch time, with
  the time of the command that wrote it (``ready_at_ms``: when the node became ready,
  read by the inbox's stuck runs, :mod:`praxis.store.views.stuck`);
* ``run_timers``: one row per running attempt, by when its lease or timeout falls due;
* ``attempts``: attempt id to run and claiming principal, plus each attempt's settlement
  (idempotent retries);
* ``node_results``: one row per stored node result;
* ``run_events``: the durable event log, ``seq`` increasing;
* ``event_subscribers``: each named subscriber's acknowledged position.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
)

from praxis.store.db.metadata import CLUSTERED_BY_KEY, metadata

runs = Table(
    "runs",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("principal_id", String(128), nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("request_digest", String(80), nullable=False),
    Column("status", String(16), nullable=False),
    Column("work_order_id", String(128), nullable=False),
    Column("ref_run_id", String(128), nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("definition_digest", String(80), nullable=False),
    Column("input_json", Text, nullable=False),
    Column("subscriber", String(128), nullable=False),
    Column("contract_id", String(128), nullable=False),
    Column("result_json", Text, nullable=False),
    Column("result_error", Text, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
    Column("finished_at_ms", BigInteger, nullable=False),
    # Added by migration 7 (``RUNS_ADDED_COLUMNS``), which also dropped ``state_json``.
    Column("result_reason", Text, nullable=False, server_default=text("''")),
    Column("node_count", BigInteger, nullable=False, server_default=text("0")),
    # Added by the governed-execution migration (``RUNS_GOVERNED_COLUMNS``): when the run
    # fails with DEADLINE_EXCEEDED unless it ended (0: none).
    Column("deadline_ms", BigInteger, nullable=False, server_default=text("0")),
    # Added by migration 16 (``RUNS_LABEL_COLUMNS``): the run's labels as canonical JSON
    # ('' for none), read with the row; ``run_labels`` indexes them for ListRuns.
    Column("labels_json", Text, nullable=False, server_default=text("''")),
)
RUNS_ADDED_COLUMNS = ("result_reason", "node_count")
RUNS_GOVERNED_COLUMNS = ("deadline_ms",)
RUNS_LABEL_COLUMNS = ("labels_json",)

run_nodes = Table(
    "run_nodes",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("node_id", String(128), nullable=False),
    Column("item", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("attempt_id", String(64), nullable=False),
    Column("worker_id", String(128), nullable=False),
    Column("lease_expires_at_ms", BigInteger, nullable=False),
    Column("deadline_ms", BigInteger, nullable=False),
    Column("not_before_ms", BigInteger, nullable=False),
    Column("error", Text, nullable=False),
    Column("has_result", Integer, nullable=False),
    Column("revision", BigInteger, nullable=False),
    Column("items", Integer, nullable=False),
    Column("items_done", Integer, nullable=False),
    Column("arrays_json", Text, nullable=False),
    # Added by migration 12 (``RUN_NODES_ADDED_COLUMNS``): when the node started and
    # ended, UTC epoch ms (0 before it, and for nodes written by older servers).
    Column("started_at_ms", BigInteger, nullable=False, server_default=text("0")),
    Column("finished_at_ms", BigInteger, nullable=False, server_default=text("0")),
    # Added by the governed-execution migration (``RUN_NODES_GOVERNED_COLUMNS``): the
    # node's operation generation, the attempts made before its latest resume, and the
    # effect of its last settled attempt (see ``praxis.core.run.NodeRun``).
    Column("operation", Integer, nullable=False, server_default=text("0")),
    Column("attempt_base", Integer, nullable=False, server_default=text("0")),
    Column("effect", String(16), nullable=False, server_default=text("''")),
    PrimaryKeyConstraint("run_id", "node_uid"),
)
RUN_NODES_ADDED_COLUMNS = ("started_at_ms", "finished_at_ms")
RUN_NODES_GOVERNED_COLUMNS = ("operation", "attempt_base", "effect")
Index("run_nodes_order", run_nodes.c.run_id, run_nodes.c.node_id, run_nodes.c.item)
Index("runs_request", runs.c.principal_id, runs.c.request_id, unique=True)
Index("runs_created", runs.c.created_at_ms, runs.c.run_id)
Index("runs_status_created", runs.c.status, runs.c.created_at_ms, runs.c.run_id)
Index("runs_work_order", runs.c.work_order_id, runs.c.status)
# Migration 16: ListRuns' filters, each an index in its page order (newest first), so
# that a filtered page reads index entries of matching runs only. None holds a column a
# command updates: only StartRun writes them.
RUNS_LISTING_INDEXES = (
    Index("runs_work_order_created", runs.c.work_order_id, runs.c.created_at_ms, runs.c.run_id),
    Index(
        "runs_ref_created",
        runs.c.work_order_id,
        runs.c.ref_run_id,
        runs.c.created_at_ms,
        runs.c.run_id,
    ),
    Index("runs_contract_created", runs.c.contract_id, runs.c.created_at_ms, runs.c.run_id),
    Index("runs_started_by_created", runs.c.principal_id, runs.c.created_at_ms, runs.c.run_id),
)

run_definitions = Table(
    "run_definitions",
    metadata,
    Column("digest", String(80), primary_key=True),
    Column("definition_json", Text, nullable=False),
)

ready_nodes = Table(
    "ready_nodes",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("model", String(128), nullable=False),
    Column("not_before_ms", BigInteger, nullable=False),
    Column("work_order_id", String(128), nullable=False),
    # Added by the ready-times migration (``READY_NODES_ADDED_COLUMNS``): the time of the
    # command that wrote the row, UTC epoch ms (rows written before it: their run's last
    # update, set by the migration).
    Column("ready_at_ms", BigInteger, nullable=False, server_default=text("0")),
)
READY_NODES_ADDED_COLUMNS = ("ready_at_ms",)
Index("ready_by_model", ready_nodes.c.model, ready_nodes.c.not_before_ms, ready_nodes.c.seq)
Index("ready_by_node", ready_nodes.c.run_id, ready_nodes.c.node_uid, unique=True)

run_timers = Table(
    "run_timers",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("due_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "node_uid"),
)
Index("timers_due", run_timers.c.due_ms)

attempts = Table(
    "attempts",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("number", Integer, nullable=False),
    Column("worker_id", String(128), nullable=False),
    Column("status", String(16), nullable=False),
    Column("payload_digest", String(80), nullable=False),
    Column("will_retry", Integer, nullable=False),
    Column("effect", String(16), nullable=False),
    Column("cost_microcredits", String(64), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    # Added by migration 9 (``ATTEMPTS_ADDED_COLUMNS``): the principal whose claim leased
    # the attempt; only it may heartbeat or settle the attempt ('' before migration 9).
    Column("principal_id", String(128), nullable=False, server_default=text("''")),
)
ATTEMPTS_ADDED_COLUMNS = ("principal_id",)
Index("attempts_run", attempts.c.run_id, attempts.c.node_uid)

node_results = Table(
    "node_results",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("node_id", String(128), nullable=False),
    Column("item", Integer, nullable=False),
    Column("result_json", Text, nullable=False),
    Column("attempt_id", String(64), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "node_uid"),
)
Index("results_by_node", node_results.c.run_id, node_results.c.node_id, node_results.c.item)

run_events = Table(
    "run_events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("subscriber", String(128), nullable=False),
    Column("payload_json", Text, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
Index("events_run", run_events.c.run_id, run_events.c.seq)
Index("events_subscriber", run_events.c.subscriber, run_events.c.seq)

event_subscribers = Table(
    "event_subscribers",
    metadata,
    Column("subscriber", String(128), primary_key=True),
    Column("cursor", BigInteger, nullable=False),
    Column("updated_at_ms", BigInteger, nullable=False),
)

subscriptions = Table(
    "subscriptions",
    metadata,
    Column("subscriber", String(128), primary_key=True),
    Column("principal_id", String(128), nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
)
"""Migration 26: who made each subscription (the first StartRun naming it as its
``subscriber``, or the first AckEvents of it): only that principal, or one granted
``subscription.any``, may route runs into it or move its position."""

RUNTIME_TABLES = (
    runs,
    run_definitions,
    ready_nodes,
    run_timers,
    attempts,
    node_results,
    run_events,
    event_subscribers,
)

# --- migrations 4 to 6: the run command log and reservations ---
#
# Tables of the run command log (migration 4) and of reservations (migrations 5 and 6).
#
# * ``run_commands``: the append-only log of every command the run reducer accepted and
#   that changed a run, one row per run version, with its time and the command as the
#   canonical JSON of :func:`praxis.core.journal.encode` (definitions by digest; their
#   documents are in ``run_definitions``). Folding a run's rows over the pure core
#   rebuilds its snapshot (:func:`praxis.store.runtime.log.rebuild`).
# * ``contract_reservations``: one row per running attempt of a run under a contract whose
#   node declares a maximum cost. The rows of a contract add up, exactly, to what its
#   running attempts may still spend; dispatch counts them (see
#   :mod:`praxis.store.runtime.rows.reservations`).
# * ``principal_reservations``: one row per running attempt whose node declares a maximum
#   cost, keyed by the principal that started the run (whether or not it has a contract).
#   The rows of a principal add up to what its running attempts may still spend against
#   its spending cap. Attempts already running when migration 6 is applied hold none.

run_commands = Table(
    "run_commands",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("now_ms", BigInteger, nullable=False),
    Column("command_json", Text, nullable=False),
    PrimaryKeyConstraint("run_id", "version"),
    **CLUSTERED_BY_KEY,  # one B-tree keyed by (run, version): one page write per row
)

contract_reservations = Table(
    "contract_reservations",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("contract_id", String(128), nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("amount_microcredits", String(80), nullable=False),
    Column("reserved_at_ms", BigInteger, nullable=False),
)
Index("reservations_contract", contract_reservations.c.contract_id)

principal_reservations = Table(
    "principal_reservations",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("principal_id", String(128), nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("amount_microcredits", String(80), nullable=False),
    Column("reserved_at_ms", BigInteger, nullable=False),
)
Index("reservations_principal", principal_reservations.c.principal_id)

# --- migration 15: run labels (store/runtime/listing.py) ---
#
# One row per label of a run, written once when the run starts, with the run's creation
# time, so that a ListRuns filter on a label reads the index ``run_labels_match`` in its
# page order (newest first) and never scans runs.

run_labels = Table(
    "run_labels",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("key", String(64), nullable=False),
    Column("value", Text, nullable=False),
    Column("created_at_ms", BigInteger, nullable=False),
    PrimaryKeyConstraint("run_id", "key"),
)
Index(
    "run_labels_match",
    run_labels.c.key,
    run_labels.c.value,
    run_labels.c.created_at_ms,
    run_labels.c.run_id,
)

# --- migration 8: models registered by workers (store/runtime/worker_models.py) ---

model_registrations = Table(
    "model_registrations",
    metadata,
    Column("model", String(128), primary_key=True),
    Column("expires_at_ms", BigInteger, nullable=False),
    Column("registered_at_ms", BigInteger, nullable=False),
)
Index("model_registrations_expiry", model_registrations.c.expires_at_ms)

# --- migration 11: stored traces (store/runtime/traces.py) ---

run_traces = Table(
    "run_traces",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("trace_id", String(32), nullable=False),
    Column("parent_span_id", String(16), nullable=False),  # '' for a run that began a trace
    Column("flags", Integer, nullable=False),
    Column("trace_state", Text, nullable=False),
    Column("started_at_ms", BigInteger, nullable=False),
)

run_trace_spans = Table(
    "run_trace_spans",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("span_key", String(300), primary_key=True),  # node:<uid>
    Column("span_id", String(16), nullable=False),
    Column("started_at_ms", BigInteger, nullable=False),
)

# --- migration 24: progress reported by workers (store/runtime/progress.py) ---
#
# One row per attempt that reported progress with a heartbeat, holding only its latest
# report (each report overwrites the row): bounded by the attempts and by the report's
# caps (praxis.core.progress), never by how often a worker reports. Written by
# heartbeats only; claims and settlements never touch it.

attempt_progress = Table(
    "attempt_progress",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("run_id", String(64), nullable=False),
    Column("node_uid", String(200), nullable=False),
    Column("text", Text, nullable=False),
    Column("data_json", Text, nullable=False),
    Column("reported_at_ms", BigInteger, nullable=False),
    Column("reports", BigInteger, nullable=False),
)
Index("attempt_progress_run", attempt_progress.c.run_id)
