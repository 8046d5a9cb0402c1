"""The ``/metrics`` endpoint of ``praxis serve``, and the gauges read at scrape time.

:mod:`praxis.observability.metrics` holds the metric objects and the hooks that count;
this module serves them (``prometheus_client``'s HTTP server on its own thread) and adds
what is stored (ready tasks, leases, runs by state, holds, database size), read once per
scrape by :class:`StoredStateCollector`. With ``--processes N`` the parent serves the
children's memory-mapped files (``PROMETHEUS_MULTIPROC_DIR``, see :func:`open_endpoint`).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from praxis.clock import Clock
from praxis.observability.metrics import MULTIPROC_ENV, REGISTRY, STORED_STATE
from praxis.store.db.database import Database
from praxis.store.views import gauges

log = logging.getLogger("praxis.serve.metrics_endpoint")


# --- scrape time ----------------------------------------------------------------------


class StoredStateCollector(Collector):
    """Reads the stored-state gauges at each scrape (one read transaction)."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    def collect(self) -> Iterable[Metric]:
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
        for delivery_state, count in sorted(state.deliveries.items()):
            families["praxis_webhook_deliveries"].add_metric([delivery_state], count)
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
