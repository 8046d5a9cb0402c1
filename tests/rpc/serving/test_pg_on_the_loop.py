"""PostgreSQL's hot calls run on the event loop, and a call waiting on the database never
holds it up (issue 40).

A hot call (:data:`praxis.rpc.serving.ON_LOOP`) runs on the loop in a greenlet of its
own; when one of its statements waits for PostgreSQL (here: a row lock held by another
connection), the call parks on its socket and the loop serves the other calls meanwhile,
even with every thread of the server's pool busy.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import grpc
import psycopg
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from aiws.engine.v1 import run_pb2
from praxis.limits import ServingLimits
from tests.support.harness import Harness, start_server
from tests.support.postgres import Cluster
from tests.support.runtime import definition, node, start


@pytest.fixture
def url(postgres_cluster: Cluster) -> str:
    return postgres_cluster.create_database()


@pytest.fixture
def h(url: str) -> Iterator[Harness]:
    running = start_server(url, serving=ServingLimits(executor_threads=2))
    try:
        yield running
    finally:
        running.close()


def _lock_waits(cluster: Cluster, url: str) -> int:
    """Backends of the test's database waiting for a lock."""
    name = url.rpartition("/")[2]
    with psycopg.connect(cluster.dsn("postgres"), autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            (name,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_call_waiting_on_a_row_lock_does_not_hold_up_the_loop(
    h: Harness, url: str, postgres_cluster: Cluster
) -> None:
    """StopRun waits for a run row another connection holds; meanwhile, with both pool
    threads busy, health, GetRun and StartRun answer at once; once the lock is released
    StopRun answers too."""
    document = definition("a", a=node())
    held_run = start(h, document).run.run_id
    other_run = start(h, document).run.run_id
    client = h.client("agent")
    release = threading.Event()
    busy = [h.server.executor.submit(release.wait, 60) for _ in range(2)]
    holder = psycopg.connect(postgres_cluster.dsn(url.rpartition("/")[2]))
    try:
        holder.execute("SELECT 1 FROM runs WHERE run_id = %s FOR UPDATE", (held_run,))
        stopping = client.runs.StopRun.future(
            run_pb2.StopRunRequest(run_id=held_run, reason="enough"), timeout=60
        )
        deadline = time.monotonic() + 20
        while _lock_waits(postgres_cluster, url) == 0:  # StopRun is blocked in PostgreSQL
            assert time.monotonic() < deadline, "StopRun never reached the row lock"
            time.sleep(0.02)
        with grpc.insecure_channel(h.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=2).status == (
                health_pb2.HealthCheckResponse.SERVING
            )
        read = client.runs.GetRun(run_pb2.GetRunRequest(run_id=other_run), timeout=2)
        assert read.run.run_id == other_run
        started = client.runs.StartRun(
            run_pb2.StartRunRequest(request_id="meanwhile", definition_json=json.dumps(document)),
            timeout=2,
        )
        assert started.run.run_id
        assert not stopping.done()  # still waiting for the row
        holder.rollback()
        stopped = stopping.result(timeout=30)
        assert stopped.run.run_id == held_run
        assert stopped.run.state == run_pb2.RUN_STATE_CANCELLED
        assert stopped.run.result_error == "enough"
    finally:
        holder.close()
        release.set()
        for future in busy:
            future.result(timeout=30)
