"""Prometheus metrics: the metric objects and the few calls that observe events.

Off unless ``praxis serve --metrics-listen HOST:PORT`` (or ``metrics_listen`` in
``config.json``): then :func:`enable` turns the hooks on and
:mod:`praxis.serve.metrics_endpoint` exposes ``/metrics`` with ``prometheus_client``
(never hand-written exposition). Off, every hook is one boolean test.

What happens is counted where it happens (RPCs in
:class:`praxis.rpc.observing.ObservingInterceptor`, commands
after their commit in :func:`observe_run`, transactions in the database); what is
stored (ready tasks, leases, runs by state, holds, database size) is read at scrape time
by :class:`praxis.serve.metrics_endpoint.StoredStateCollector`, once per scrape
whatever the number of processes.

With ``--processes N`` the parent creates a private ``PROMETHEUS_MULTIPROC_DIR`` before
starting the children, so their counters, gauges and histograms live in memory-mapped
files there; the parent serves the endpoint with ``prometheus_client``'s
``MultiProcessCollector`` (one scrape shows the whole server) plus the stored-state
collector, and removes the folder when it exits.

Labels are bounded: service and method names (only registered methods), status codes,
models (bounded by the model registry), run and attempt states, effects, registry actions
and ``ErrorReason`` names. Never run, attempt, worker or principal ids.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)

from praxis.core import run as core

log = logging.getLogger("praxis.observability.metrics")
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
ON = False
"""Whether the hooks record anything (set by :func:`enable`)."""

REGISTRY = CollectorRegistry(auto_describe=True)
"""Every metric of this module (the stored-state collector is added by :func:`serve`)."""

REFERENCE: list[tuple[str, str, tuple[str, ...], str]] = []
"""Every metric as documented in ``docs/operations.md``: exposed name, type, labels, help."""

M = TypeVar("M", Counter, Gauge, Histogram)


def _documented(
    kind: type[M], name: str, text: str, labels: Iterable[str] = (), **kwargs: Any
) -> M:
    """A metric of this module's registry, recorded in :data:`REFERENCE`."""
    exposed = {Counter: f"{name}_total", Histogram: name, Gauge: name}[kind]
    REFERENCE.append((exposed, kind.__name__.lower(), tuple(labels), text))
    return kind(name, text, list(labels), registry=REGISTRY, **kwargs)


_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_DURATION_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)

RPCS = _documented(
    Counter,
    "praxis_rpc_requests",
    "RPCs handled (unary and streaming), by service, method and final status code.",
    ["service", "method", "code"],
)
RPC_SECONDS = _documented(
    Histogram,
    "praxis_rpc_duration_seconds",
    "Time from receiving a unary RPC to its answer (long polls include their wait).",
    ["service", "method"],
    buckets=_LATENCY_BUCKETS,
)
OPEN = _documented(
    Gauge,
    "praxis_serving_open",
    "Open streams (kind=stream) and waiting long polls (kind=long_poll), all processes.",
    ["kind"],
    multiprocess_mode="livesum",
)
REFUSALS = _documented(
    Counter,
    "praxis_serving_refusals",
    "Calls refused with RESOURCE_EXHAUSTED by a serving limit, by kind and limit scope.",
    ["kind", "scope"],
)
CLAIMED = _documented(
    Counter,
    "praxis_tasks_claimed",
    "Attempts leased to workers, by model.",
    ["model"],
)
HANDED_OFF = _documented(
    Counter,
    "praxis_tasks_handed_off",
    "Attempts leased to a long poll parked in the server process by the commit that "
    "readied them (no claim of their own); included in praxis_tasks_claimed_total.",
)
STALE_COPIES = _documented(
    Counter,
    "praxis_stale_copies",
    "Commands that decided on a copy of a run this process held (SQLite: claims, heartbeats "
    "and settlements read no run) after another server process had changed the run: undone "
    "and decided again on the stored run.",
)
DECISIONS_AHEAD = _documented(
    Counter,
    "praxis_decisions_ahead",
    "Heartbeats and settlements decided on a read snapshot before the writers' turn "
    "(SQLite, several server processes), by outcome: current (the run was still at that "
    "version inside the turn) or stale (it had moved on, and the command decided again "
    "inside the turn).",
    ["outcome"],
)
RETURNED = _documented(
    Counter,
    "praxis_tasks_returned",
    "Attempts handed to a long poll that went away before it was answered, given back "
    "ready (not counted against their node's retry policy).",
)
RETRIES = _documented(
    Counter,
    "praxis_retries",
    "Failed attempts (failed, expired or timed out) whose node will be retried, by model.",
    ["model"],
)
LEASE_EXPIRIES = _documented(
    Counter,
    "praxis_lease_expiries",
    "Attempts whose lease expired before the worker settled or renewed it.",
)
SETTLED = _documented(
    Counter,
    "praxis_attempts_settled",
    "Attempts ended, by outcome (COMPLETED, FAILED, EXPIRED, TIMED_OUT, CANCELLED) and the "
    "effect the worker reported (APPLIED, NOT_APPLIED, UNCERTAIN; NONE when none).",
    ["outcome", "effect"],
)
RUN_SECONDS = _documented(
    Histogram,
    "praxis_run_duration_seconds",
    "Time from a run's start to its end, observed when it ends, by final state.",
    ["state"],
    buckets=_DURATION_BUCKETS,
)
NODE_SECONDS = _documented(
    Histogram,
    "praxis_node_duration_seconds",
    "Time from a node's start (first dispatch, expansion or wait) to its end, observed once "
    "when it ends, by model and final status (DONE, FAILED, CANCELLED); 0 for a node that "
    "ended without starting.",
    ["model", "outcome"],
    buckets=_DURATION_BUCKETS,
)
TRANSACTIONS = _documented(
    Counter,
    "praxis_db_write_transactions",
    "Write transactions committed or rolled back (one COMMIT may carry several commands).",
)
BATCH = _documented(
    Histogram,
    "praxis_db_group_commit_batch_size",
    "Commands carried by one group-committed write transaction.",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128),
)
COMMIT_SECONDS = _documented(
    Histogram,
    "praxis_db_commit_duration_seconds",
    "Time of one write transaction, from taking the write lock to the end of its COMMIT.",
    buckets=_LATENCY_BUCKETS,
)
TURN_WAITED = _documented(
    Counter,
    "praxis_db_writer_turn_wait_seconds",
    "Time spent waiting for the writers' turn (SQLite: the flock the server processes of "
    "one database file take in turn before each write transaction). Summed over the "
    "processes, its rate is how many of them wait on average.",
)
TURN_HELD = _documented(
    Counter,
    "praxis_db_writer_turn_held_seconds",
    "Time the writers' turn was held (SQLite), from taking it to the end of the COMMIT. "
    "Summed over the processes of one file, its rate is the fraction of the time someone "
    "writes: near 1, another server process adds little.",
)
APPROVALS = _documented(
    Counter,
    "praxis_approvals_consumed",
    "Approvals whose proof a committed registry command consumed.",
)
REGISTRY_COMMANDS = _documented(
    Counter,
    "praxis_registry_commands",
    "Registry commands answered, by action and outcome (applied, replayed, or the "
    "ErrorReason of the refusal).",
    ["action", "outcome"],
)
SCHEDULE_TIMES = _documented(
    Counter,
    "praxis_schedule_times",
    "Scheduled times handled by the sweeper, by outcome: started, skipped or buffered "
    "(overlap policy), missed (found due beyond the catch-up window, never started) or "
    "failed (the start was refused).",
    ["outcome"],
)
SCHEDULE_LATENESS = _documented(
    Histogram,
    "praxis_schedule_start_lateness_seconds",
    "How long after its scheduled time a schedule's run started (late starts).",
    buckets=_DURATION_BUCKETS,
)
WEBHOOK_TRIES = _documented(
    Counter,
    "praxis_webhook_tries",
    "Webhook delivery tries, by the state each left its delivery in: DELIVERED, FAILED "
    "(to be tried again) or DEAD.",
    ["state"],
)

STORED_STATE: tuple[tuple[str, str, list[str]], ...] = (
    ("praxis_tasks_ready", "Attempts a worker can claim now (retry backoff elapsed, work "
     "order active), by model.", ["model"]),
    ("praxis_tasks_deferred", "Ready attempts not claimable yet, by model and reason: backoff "
     "(a retry's backoff has not elapsed) or held (their work order is not active).",
     ["model", "reason"]),
    ("praxis_leases_outstanding", "Attempts leased to a worker and not yet settled.", []),
    ("praxis_runs", "Stored runs by state.", ["state"]),
    ("praxis_holds", "Holds in place, by kind.", ["kind"]),
    ("praxis_database_size_bytes", "Size of the database (SQLite: file plus WAL).", []),
    ("praxis_webhook_deliveries", "Webhook deliveries in the outbox, by state (PENDING, "
     "FAILED, DELIVERED, DEAD).", ["state"]),
)  # fmt: skip
"""The scrape-time gauges: name, help, labels (read by the metrics endpoint's collector)."""
REFERENCE += [(name, "gauge", tuple(labels), text) for name, text, labels in STORED_STATE]


def reference_table() -> str:
    """The Markdown table of every metric (``docs/operations.md`` holds it verbatim)."""
    rows = ["| metric | type | labels | meaning |", "|---|---|---|---|"]
    for name, kind, labels, text in REFERENCE:
        shown = ", ".join(f"`{label}`" for label in labels) or "none"
        rows.append(f"| `{name}` | {kind} | {shown} | {text} |")
    return "\n".join(rows) + "\n"


def enable() -> None:
    """Turns the hooks on (``--metrics-listen``, or a child of a server that has it)."""
    global ON
    ON = True
    disable_created_metrics()  # type: ignore[no-untyped-call]  # no *_created series


# --- serving limits -------------------------------------------------------------------


def gate_changed(kind: str, delta: int) -> None:
    """A stream or long poll took (+1) or gave back (-1) a slot."""
    if ON:
        OPEN.labels(kind).inc(delta)


def refused(kind: str, scope: str) -> None:
    """A serving limit refused a call."""
    if ON:
        REFUSALS.labels(kind, scope).inc()


# --- runs -----------------------------------------------------------------------------

_RUN_ENDS = frozenset({"RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"})


def _model(state: core.RunState, uid: str) -> str:
    node = state.nodes.get(uid)
    if node is None:
        return ""
    return state.definition.nodes[node.node_id].agent.model


def observe_run(before: core.RunState, outcome: core.Outcome) -> None:
    """Counts what one committed run command did (called after its commit).

    Every node the command ended (a worker's settlement, a join or expansion settled by
    the engine, a cancellation, a timeout) observes its duration here, once: the command
    that ends a node is committed once, in whichever server process ran it.

    Args:
        before: The run as the command found it.
        outcome: What the command wrote.
    """
    state = outcome.state
    for event in outcome.events:
        kind = event.kind
        if kind == "NODE_DISPATCHED":
            CLAIMED.labels(_model(state, event.node_uid)).inc()
        elif kind == "NODE_RETURNED":
            RETURNED.inc()
        elif kind == "NODE_FAILED" and event.payload.get("will_retry") is True:
            RETRIES.labels(_model(state, event.node_uid)).inc()
        elif kind in _RUN_ENDS and before.status not in core.TERMINAL:
            seconds = max(0, state.finished_at_ms - state.created_at_ms) / 1000
            RUN_SECONDS.labels(state.status.value).observe(seconds)
    for attempt in outcome.attempts:
        if attempt.status is core.AttemptStatus.LIVE:
            continue
        SETTLED.labels(attempt.status.value, attempt.effect or "NONE").inc()
        if attempt.status is core.AttemptStatus.EXPIRED:
            LEASE_EXPIRIES.inc()
    for uid in outcome.changed:
        node = state.nodes.get(uid)
        if node is None or node.status in core.LIVE:
            continue
        was = before.nodes.get(uid)
        if was is not None and was.status not in core.LIVE:
            continue  # ended earlier: observed then
        started = node.started_at_ms or node.finished_at_ms
        seconds = max(0, node.finished_at_ms - started) / 1000
        NODE_SECONDS.labels(_model(state, uid), node.status.value).observe(seconds)


def handed_off(attempts: int) -> None:
    """A commit leased ``attempts`` to parked long polls (after its COMMIT)."""
    if ON:
        HANDED_OFF.inc(attempts)


def stale_copy() -> None:
    """A command decided on a stale copy of a run and is decided again."""
    if ON:
        STALE_COPIES.inc()


def decided_ahead(current: bool) -> None:
    """A committed command on an attempt used its decision made ahead of the writers'
    turn (``current``) or decided again inside it."""
    if ON:
        DECISIONS_AHEAD.labels("current" if current else "stale").inc()


# --- the database ---------------------------------------------------------------------


def transaction(commands: int, started: float) -> None:
    """One write transaction of ``commands`` commands ended (``started``: perf_counter)."""
    if ON:
        COMMIT_SECONDS.observe(time.perf_counter() - started)
        TRANSACTIONS.inc()
        BATCH.observe(commands)


def writer_turn(waited_s: float, held_s: float) -> None:
    """The writers' turn was waited for ``waited_s`` and then held ``held_s`` seconds."""
    if ON:
        TURN_WAITED.inc(waited_s)
        TURN_HELD.inc(held_s)


# --- the registry ---------------------------------------------------------------------


def registry_command(action: str, outcome: str) -> None:
    """A registry command was answered (``applied``, ``replayed`` or a reason name)."""
    if ON:
        REGISTRY_COMMANDS.labels(action, outcome).inc()


def approval_consumed() -> None:
    """A committed command consumed an approval (called after the commit)."""
    if ON:
        APPROVALS.inc()


def schedule_time(outcome: str, late_ms: int) -> None:
    """The sweeper handled a scheduled time (called after the commit)."""
    if ON:
        SCHEDULE_TIMES.labels(outcome).inc()
        if outcome == "started":
            SCHEDULE_LATENESS.observe(max(late_ms, 0) / 1000)


# --- webhooks -------------------------------------------------------------------------


def webhook_tried(state: str) -> None:
    """A webhook try left its delivery in ``state`` (called after it was recorded)."""
    if ON:
        WEBHOOK_TRIES.labels(state).inc()


if (
    __name__ == "__main__"
):  # python -m praxis.observability.metrics: the table of docs/operations.md
    print(reference_table(), end="")
