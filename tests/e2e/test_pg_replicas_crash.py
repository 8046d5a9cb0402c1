"""Three replicas on one PostgreSQL; one is SIGKILLed repeatedly under 50 runs.

Workers and the client reach the replicas through one round-robin channel (client-side
load balancing over the three addresses), so when a replica dies its calls fail over to
the others; its leases expire and are re-offered there. Afterwards every run is
complete, every node's result is stored once, no attempt settled twice, each request id
started one run, and a stream reader that resumed across the kills saw exactly the
event log (nothing skipped, nothing twice).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from pathlib import Path

import grpc
import pytest

from aiws.engine.v1 import event_pb2, run_pb2
from praxis.store.wake.postgres import conninfo
from praxis_client import connect
from praxis_client.worker import Task, Worker
from tests.support.crash import NODES_PER_RUN, PLAN, RUNS, handle, retrying
from tests.support.harness import ROUND_ROBIN, token_of
from tests.support.postgres import Cluster
from tests.support.server_process import ServerProcess, free_port, write_config

KILLS = 4
TASK_S = 0.5  # each task takes this long, so the 50 runs' work spans the kills


def slow_handle(task: Task) -> object:
    time.sleep(TASK_S)
    return handle(task)


@pytest.mark.serial  # a SIGKILL loop under load: the machine to itself (make test-python)
@pytest.mark.slow
def test_sigkill_one_of_three_replicas_during_fifty_runs(
    tmp_path: Path, postgres_cluster: Cluster
) -> None:
    import psycopg

    url = postgres_cluster.create_database()
    replicas = [
        ServerProcess(write_config(tmp_path / f"r{index}", database_url=url), free_port())
        for index in range(3)
    ]
    for replica in replicas:
        replica.start(timeout_s=60)
    address = "ipv4:" + ",".join(replica.address for replica in replicas)

    def client() -> object:
        return connect(address, token_of("agent"), insecure=True, options=ROUND_ROBIN)

    caller = client()
    workers = [
        Worker(
            client(),  # type: ignore[arg-type]
            ["echo"],
            slow_handle,
            worker_id=f"w{i}",
            concurrency=4,
            lease_ms=1_000,
            poll_ms=300,
        ).start()
        for i in range(3)
    ]
    streamed: list[event_pb2.Event] = []
    stop_reading = threading.Event()
    reader = threading.Thread(  # a daemon: a failed test must not hang the session on it
        target=_read_events, args=(client(), streamed, stop_reading), daemon=True
    )
    reader.start()
    run_ids = []
    for index in range(RUNS):
        response = retrying(
            lambda index=index: caller.runs.StartRun(  # type: ignore[attr-defined]
                run_pb2.StartRunRequest(
                    request_id=f"crash-{index}", definition_json=json.dumps(PLAN)
                ),
                timeout=5,
            ),
            time.monotonic() + 30,
        )
        run_ids.append(response.run.run_id)  # type: ignore[attr-defined]
    rng = random.Random(13)
    victim = replicas[1]
    at_kills = []  # (runs not completed, leased attempts) when each kill came
    with psycopg.connect(conninfo(url), autocommit=True) as observer:
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.3, 0.8))
            at_kills.append(
                observer.execute(
                    "SELECT (SELECT count(*) FROM runs WHERE status <> 'COMPLETED'),"
                    " (SELECT count(*) FROM attempts WHERE status = 'LIVE')"
                ).fetchone()
            )
            victim.kill()
            time.sleep(rng.uniform(0.1, 0.5))  # the others carry on alone for a moment
            victim.start(timeout_s=60)
    print(json.dumps({"unfinished_runs_and_leases_at_kills": at_kills}))
    # The kills came while runs were in flight and workers held leases (all but maybe the
    # last: a fast machine can finish the work before it).
    assert sum(1 for runs, leases in at_kills if runs and leases) >= KILLS - 1, at_kills
    deadline = time.monotonic() + 90
    pending = set(run_ids)
    while pending and time.monotonic() < deadline:
        for run_id in list(pending):
            run = retrying(
                lambda run_id=run_id: caller.runs.GetRun(  # type: ignore[attr-defined]
                    run_pb2.GetRunRequest(run_id=run_id), timeout=5
                ),
                deadline,
            ).run  # type: ignore[attr-defined]
            if run.state not in (run_pb2.RUN_STATE_RUNNING, run_pb2.RUN_STATE_AWAITING_NODES):
                assert run.state == run_pb2.RUN_STATE_COMPLETED, run
                assert json.loads(run.result_json) == "sum=14"
                pending.discard(run_id)
        time.sleep(0.1)
    for worker in workers:
        worker.stop()
    assert not pending, f"{len(pending)} runs did not complete"
    time.sleep(1.0)  # the reader catches up with the last events
    stop_reading.set()
    reader.join(30)
    for replica in replicas:
        assert replica.terminate() == 0
    with psycopg.connect(conninfo(url)) as connection:
        q = connection.execute
        results = Counter(run_id for (run_id,) in q("SELECT run_id FROM node_results"))
        assert all(results[run_id] == 5 for run_id in run_ids), results
        completed = Counter(
            q("SELECT run_id, node_uid FROM run_events WHERE kind = 'NODE_COMPLETED'").fetchall()
        )
        assert set(completed.values()) == {1}  # no attempt settled twice
        assert len(completed) == RUNS * NODES_PER_RUN
        requests = Counter(request for (request,) in q("SELECT request_id FROM runs"))
        assert len(requests) == RUNS and set(requests.values()) == {1}
        assert q("SELECT count(*) FROM ready_nodes").fetchone() == (0,)
        assert q("SELECT count(*) FROM attempts WHERE status = 'LIVE'").fetchone() == (0,)
        stored = [seq for (seq,) in q("SELECT seq FROM run_events ORDER BY seq")]
    assert [event.seq for event in streamed] == stored  # none skipped, none twice


def _read_events(client: object, streamed: list[event_pb2.Event], stop: threading.Event) -> None:
    """Streams every event from the start, resuming from its cursor on any replica
    whenever the stream breaks (its replica was killed)."""
    cursor = 0
    while not stop.is_set():
        stream = client.events.StreamEvents(  # type: ignore[attr-defined]
            event_pb2.StreamEventsRequest(after=cursor)
        )
        stopper = threading.Thread(target=_cancel_on, args=(stop, stream), daemon=True)
        stopper.start()
        try:
            for message in stream:
                streamed.append(message.event)
                cursor = message.event.seq
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                raise
            time.sleep(0.05)


def _cancel_on(stop: threading.Event, stream: object) -> None:
    stop.wait()
    stream.cancel()  # type: ignore[attr-defined]
