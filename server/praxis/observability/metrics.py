"""Prometheus metrics: the metric objects, the few calls that observe events, the endpoint.

Off unless ``praxis serve --metrics-listen HOST:PORT`` (or ``metrics_listen`` in
``config.json``): then :func:`enable` turns the hooks on and :func:`serve` exposes
``/metrics`` with ``prometheus_client`` (never hand-written exposition). Off, every hook
is one boolean test.

What happens is counted where it happens (RPCs in
:class:`praxis.rpc.observing.ObservingInterceptor`, commands
after their commit in :func:`observe_run`, transactions in the database); what is
stored (ready tasks, leases, runs by state, holds, database size) is read at scrape time
by :class:`StoredStateCollector`, once per scrape whatever the number of processes.

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
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from praxis.core import run as core

if TYPE_CHECKING:
    from praxis.clock import Clock
    from praxis.store.db.database import Database

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
)  # fmt: skip
"""The scrape-time gauges: name, help, labels (read by :class:`StoredStateCollector`)."""
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


# --- the database ---------------------------------------------------------------------


def transaction(commands: int, started: float) -> None:
    """One write transaction of ``commands`` commands ended (``started``: perf_counter)."""
    if ON:
        COMMIT_SECONDS.observe(time.perf_counter() - started)
        TRANSACTIONS.inc()
        BATCH.observe(commands)


# --- the registry ---------------------------------------------------------------------


def registry_command(action: str, outcome: str) -> None:
    """A registry command was answered (``applied``, ``replayed`` or a reason name)."""
    if ON:
        REGISTRY_COMMANDS.labels(action, outcome).inc()


def approval_consumed() -> None:
    """A committed command consumed an approval (called after the commit)."""
    if ON:
        APPROVALS.inc()


# --- scrape time ----------------------------------------------------------------------


class StoredStateCollector(Collector):
    """Reads the stored-state gauges at each scrape (one read transaction)."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    def collect(self) -> Iterable[Metric]:
        from praxis.store.views import gauges

        try:
            state = gauges.read(self.db, self.clock.now_ms())
        except Exception:  # the database is busy or failing: serve the other metrics
            log.warning("metrics: cannot read the stored-state gauges", exc_info=True)
            return []
        families = {
            name: GaugeMetricFamily(name, text, labels=labels)
            for name, text, labels in STORED_STATE
        }
        for model, count in sorted(state.ready.items()):
            families["praxis_tasks_ready"].add_metric([model], count)
        for (model, reason), count in sorted(state.deferred.items()):
            families["praxis_tasks_deferred"].add_metric([model, reason], count)
        families["praxis_leases_outstanding"].add_metric([], state.leases)
        for status, count in sorted(state.runs.items()):
            families["praxis_runs"].add_metric([status], count)
        for kind, count in sorted(state.holds.items()):
            families["praxis_holds"].add_metric([kind], count)
        if state.database_bytes is not None:
            families["praxis_database_size_bytes"].add_metric([], state.database_bytes)
        return list(families.values())

    def describe(self) -> Iterator[Metric]:
        for name, text, labels in STORED_STATE:
            yield GaugeMetricFamily(name, text, labels=labels)


# --- the endpoint ---------------------------------------------------------------------


def split_address(listen: str) -> tuple[str, int]:
    """``host:port`` (an IPv6 host in brackets) as host and port.

    Raises:
        ValueError: Not of that form, or the port is out of range.
    """
    host, _, port = listen.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{listen!r}: expected host:port")
    return host, int(port)


class _Delegate(Collector):
    """This process's own metrics, served from the endpoint's registry."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


class Endpoint:
    """The ``/metrics`` HTTP endpoint (``prometheus_client``'s server on its own thread).

    Args:
        listen: ``host:port``; port 0 picks a free port (see :attr:`port`).
        multiprocess_dir: The children's ``PROMETHEUS_MULTIPROC_DIR`` (``--processes``):
            their files are served instead of this process's own metrics.

    Raises:
        ValueError: A malformed address.
        OSError: The address cannot be bound.
    """

    def __init__(self, listen: str, multiprocess_dir: str | None = None) -> None:
        from prometheus_client import multiprocess, start_http_server

        self.multiprocess_dir = multiprocess_dir
        host, port = split_address(listen)
        self.registry = CollectorRegistry()
        if multiprocess_dir is None:
            self.registry.register(_Delegate())
        else:
            multiprocess.MultiProcessCollector(  # type: ignore[no-untyped-call]  # untyped
                self.registry, path=multiprocess_dir
            )
        self._server, self._thread = start_http_server(port, host, self.registry)
        self.port = int(self._server.server_port)
        self._stored: StoredStateCollector | None = None

    def watch(self, db: Database, clock: Clock) -> None:
        """Adds the stored-state gauges of ``db`` (read at each scrape, at ``clock``'s now)."""
        self._stored = StoredStateCollector(db, clock)
        self.registry.register(self._stored)

    def close(self) -> None:
        """Stops serving, releases the port and removes the multiprocess folder."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        if self.multiprocess_dir is not None:
            shutil.rmtree(self.multiprocess_dir, ignore_errors=True)


def open_endpoint(listen: str, processes: int) -> Endpoint:
    """The endpoint of ``praxis serve``; with several processes, a private
    ``PROMETHEUS_MULTIPROC_DIR`` (mode 0700) that the children inherit.

    Raises:
        ValueError: A malformed address.
        OSError: The address cannot be bound.
    """
    directory = tempfile.mkdtemp(prefix="praxis-metrics-") if processes > 1 else None
    try:
        endpoint = Endpoint(listen, directory)
    except BaseException:
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)
        raise
    if directory is not None:
        os.environ[MULTIPROC_ENV] = directory  # read by prometheus_client in the children
    return endpoint


def children_record() -> bool:
    """Whether this process serves the metrics of ``--processes`` children."""
    return bool(os.environ.get(MULTIPROC_ENV)) and os.environ[MULTIPROC_ENV].startswith(
        os.path.join(tempfile.gettempdir(), "praxis-metrics-")
    )


if (
    __name__ == "__main__"
):  # python -m praxis.observability.metrics: the table of docs/operations.md
    print(reference_table(), end="")
