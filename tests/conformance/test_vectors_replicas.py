"""The conformance vectors over gRPC against two replicas on one PostgreSQL database.

Two in-process servers (``tests.support.harness.start_replicas``) share one PostgreSQL database of
the session's cluster (``tests/support/postgres.py``; ``PRAXIS_REQUIRE_POSTGRES=1`` turns a missing
installation into a failure) and one :class:`~praxis.clock.TestClock` object: a change
made through either replica's TestClockService moves the time of both and wakes the
waiters and sweepers of both. The Python runner's channels use gRPC's ``round_robin``
policy over both addresses, so consecutive calls alternate between the replicas (a
vector's steps, its long polls and its streams land on either one); the last test checks
that both served about half of the calls.

Expected failures: the Python runner's list (``expected_failures/python.txt``) plus
``expected_failures/replicas.txt``, the vectors that cannot hold with replicas, each with
its reason. Each is a strict xfail: an expected failure that passes fails the run, as in
``scripts/conformance.sh``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import pytest

from praxis.app import Server
from tests.support.conformance import authority, credentials, retention
from tests.support.harness import start_replicas
from tests.support.postgres import Cluster
from tests.support.vectors import CONFORMANCE, EXPECTED, VECTORS, runner_module

REPLICA_GAPS = runner_module.load_expected_failures(
    CONFORMANCE / "expected_failures" / "replicas.txt"
)
PARAMS = [
    pytest.param(
        index,
        vector,
        id=vector["name"],
        marks=[pytest.mark.xfail(strict=True)] if vector["name"] in EXPECTED | REPLICA_GAPS else [],
    )
    for index, vector in enumerate(VECTORS)
]


@dataclass
class CallCounter:
    """Counts the unary calls each replica runs (they run on its bounded executor)."""

    counts: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def attach(self, server: Server) -> None:
        index = len(self.counts)
        self.counts.append(0)
        submit = server.executor.submit

        def counted(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            with self.lock:
                self.counts[index] += 1
            return submit(fn, *args, **kwargs)

        server.executor.submit = counted  # type: ignore[method-assign]  # a test probe


@dataclass
class Replicated:
    runner: Any
    calls: CallCounter


@pytest.fixture(scope="module")
def replicated(
    postgres_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Replicated]:
    harness = start_replicas(
        postgres_cluster.create_database(),
        2,
        authority=authority(),
        retention=retention(),
        archive_dir=tmp_path_factory.mktemp("archive"),  # one folder: the installation's
    )
    calls = CallCounter()
    for server in harness.replicas:
        calls.attach(server)
    invoke, open_stream = runner_module.grpc_callers(
        harness.address, credentials(), round_robin=True
    )
    runner = runner_module.Runner(invoke, ns_code="rr", open_stream=open_stream)
    runner.setup()
    try:
        yield Replicated(runner, calls)
    finally:
        harness.close()


@pytest.mark.parametrize(("index", "vector"), PARAMS)
def test_vector_over_two_replicas(
    replicated: Replicated, index: int, vector: dict[str, Any]
) -> None:
    replicated.runner.run_vector(vector, index)


def test_calls_alternate_between_the_replicas(replicated: Replicated) -> None:
    """Runs after the vectors (file order): both replicas served a fair share."""
    replicated.runner.setup()  # at least a few calls even when run alone
    for _ in range(20):
        replicated.runner.setup()
    counts = replicated.calls.counts
    assert len(counts) == 2 and min(counts) >= 0.4 * sum(counts), counts


def test_replica_gaps_name_vectors() -> None:
    names = {vector["name"] for vector in VECTORS}
    for listed in REPLICA_GAPS:
        assert listed in names, f"replica gap {listed!r} names no vector"
