"""PostgreSQL scale-out: narrow locks, the event log's order, wake-ups across replicas."""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from sqlalchemy import insert

from aiws.engine.v1 import common_pb2, event_pb2, registry_pb2, run_pb2, task_pb2
from praxis.store.db import locks
from praxis.store.db.database import Database
from praxis.store.db.statements import Savepoint
from praxis.store.runtime.events import EventStore
from praxis.store.runtime.tables import run_events
from praxis_client import Client, connect
from tests.support.harness import Harness, authority, start_replicas, start_server, token_of
from tests.support.postgres import Cluster
from tests.support.registry import propose_cmd, ref, registered, variant
from tests.support.runtime import claim, definition, node, start

HELD_S = 10.0  # how long a test keeps its transaction open at most


@pytest.fixture
def url(postgres_cluster: Cluster) -> str:
    return postgres_cluster.create_database()


@pytest.fixture
def single(url: str) -> Iterator[Harness]:
    running = start_server(url)
    try:
        yield running
    finally:
        running.close()


class Held:
    """A scoped write transaction that holds ``lock`` open until released (then runs a
    statement: a lock travels with the transaction's next statement, as the statements
    it protects always follow it)."""

    def __init__(self, db: Database, lock: Callable[[Any], None]) -> None:
        self.locked = threading.Event()
        self.release = threading.Event()

        def body(connection: Any) -> None:
            lock(connection)
            _select_one(connection)
            self.locked.set()
            self.release.wait(HELD_S)

        self.thread = threading.Thread(target=db.transact, args=(body, True))
        self.thread.start()
        assert self.locked.wait(HELD_S)

    def close(self) -> None:
        self.release.set()
        self.thread.join(HELD_S)


def timed(call: Callable[[], Any]) -> float:
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def blocked_until_released(held: Held, call: Callable[[], Any]) -> None:
    """``call`` waits for ``held`` (the lock is real) and proceeds once it is released."""
    done = threading.Event()

    def run() -> None:
        call()
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    assert not done.wait(0.3), "the command did not wait for the lock its data is under"
    held.close()
    assert done.wait(HELD_S)
    thread.join()


def heartbeat(h: Harness, task: task_pb2.Task) -> None:
    h.client("agent").tasks.Heartbeat(
        task_pb2.HeartbeatRequest(attempt_id=task.attempt_id, worker_id="w1", lease_ms=30_000)
    )


def test_a_run_held_open_does_not_delay_another_run(single: Harness) -> None:
    run_a = start(single, definition("a", a=node())).run.run_id
    others = [start(single, definition("a", a=node())).run.run_id for _ in range(3)]
    run_b = others[0]
    tasks = {task.run_id: task for task in claim(single)}
    baseline = min(timed(lambda: heartbeat(single, tasks[run_b])) for _ in range(5))
    held = Held(single.server.engine.db, lambda connection: locks.run(connection, run_a))
    try:
        during = min(timed(lambda: heartbeat(single, tasks[run_b])) for _ in range(5))
        # The fastest of three stops (a run stops once): one commit that met a slow
        # fsync on a shared disk took 0.9 s once, with nothing held in its way.
        stopped = min(
            timed(lambda r=r: single.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=r)))
            for r in others
        )
    finally:
        blocked_until_released(held, lambda: heartbeat(single, tasks[run_a]))
    assert during - baseline < 0.05, (baseline, during)
    assert stopped < baseline + 0.25, (baseline, stopped)


def test_a_settlement_that_waited_for_its_run_decides_on_the_run_as_committed(
    single: Harness,
) -> None:
    """A settlement reads its run's row in the statement that locks it: after waiting for
    a holder that changed the run, it sees the holder's version (no VERSION_CONFLICT)."""
    run_id = start(single, definition("a", a=node())).run.run_id
    (task,) = claim(single)

    def change_run(connection: Any) -> None:
        locks.run(connection, run_id)
        connection.exec_driver_sql(
            "UPDATE runs SET version = version + 1 WHERE run_id = %(rid)s", {"rid": run_id}
        )

    held = Held(single.server.engine.db, change_run)
    done: dict[str, Any] = {}

    def complete() -> None:
        done["reply"] = single.client("agent").tasks.CompleteTask(
            task_pb2.CompleteTaskRequest(
                attempt_id=task.attempt_id, worker_id="w1", result_json='"ok"',
                effect=common_pb2.EFFECT_OUTCOME_APPLIED,
            )
        )  # fmt: skip

    settling = threading.Thread(target=complete)
    settling.start()
    time.sleep(0.3)
    assert "reply" not in done  # waiting for the held run
    held.close()
    settling.join(HELD_S)
    assert "reply" in done
    run = single.client("agent").runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    assert run.state == run_pb2.RUN_STATE_COMPLETED


def test_a_work_order_held_open_does_not_delay_another(single: Harness) -> None:
    registered(single, ref("wo-a"))
    registered(single, ref("wo-b"))
    epochs = {wo: single.epochs(wo) for wo in ("wo-a", "wo-b")}
    serial = iter(range(1000))

    def propose(work_order_id: str) -> None:
        number = next(serial)
        single.client("agent").registry.Execute(
            registry_pb2.ExecuteRequest(
                epochs=epochs[work_order_id],
                request_id=f"req-p{number}",
                command=propose_cmd(ref(work_order_id), f"p{number}", 1, variant(number)),
            )
        )

    baseline = min(timed(lambda: propose("wo-b")) for _ in range(5))
    held = Held(single.server.engine.db, lambda connection: locks.work_order(connection, "wo-a"))
    try:
        during = min(timed(lambda: propose("wo-b")) for _ in range(5))
    finally:
        blocked_until_released(held, lambda: propose("wo-a"))
    assert during - baseline < 0.05, (baseline, during)


def test_an_unscoped_command_still_runs_alone(single: Harness) -> None:
    """Commands that do not lock what they touch take the installation's lock exclusive
    (with their first statement, as scoped ones take it shared)."""
    run_b = start(single, definition("a", a=node())).run.run_id
    held = Held(single.server.engine.db, lambda _connection: None)  # scoped: shared
    try:
        db = single.server.engine.db
        done = threading.Event()

        def unscoped() -> None:
            db.transact(_select_one)
            done.set()

        thread = threading.Thread(target=unscoped)
        thread.start()
        assert not done.wait(0.3)
        single.client("agent").runs.StopRun(run_pb2.StopRunRequest(run_id=run_b))  # scoped
    finally:
        held.close()
    assert done.wait(HELD_S)
    thread.join()


def _select_one(connection: Any) -> None:
    connection.exec_driver_sql("SELECT 1")


def _event(run_id: str) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "node_uid": "",
        "kind": "RUN_STARTED",
        "subscriber": "",
        "payload_json": "{}",
        "at_ms": 0,
    }


def test_the_event_log_never_shows_a_later_event_before_an_earlier_one(url: str) -> None:
    """A transaction that took seq n and has not committed holds back n+1 committed by
    another: a reader never moves its cursor past an event that will still appear."""
    h = start_server(url)
    try:
        run_id = start(h, definition("a", a=node())).run.run_id
        db = h.server.engine.db
        store = EventStore(db, authority(), h.clock)
        last = store.read(0, 1000)[-1].seq

        def append(connection: Any) -> None:
            locks.before_events(connection)
            connection.execute(insert(run_events), [_event(run_id)])

        held = Held(db, append)  # takes seq last+1, does not commit yet
        try:
            db.transact(append, scoped=True)  # takes last+2 and commits
            rows, waiting = store.read_page(last, 1000)
            assert rows == [] and waiting
        finally:
            held.close()
        rows, waiting = store.read_page(last, 1000)
        assert [row.seq for row in rows] == [last + 1, last + 2] and not waiting
    finally:
        h.close()


_MY_EVENT_LOCKS = (
    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks WHERE locktype = 'advisory'"
    " AND objsubid = 1 AND pid = pg_backend_pid() ORDER BY 1"
)


def test_a_transaction_takes_the_event_order_lock_once(url: str) -> None:
    """A transaction that appends events several times (a claim dispatching many tasks)
    keeps the key it locked first, which is below every seq it takes later: one lock
    statement, not one per append. A savepoint rolled back releases a lock taken inside
    it, so the next append in the transaction takes the lock again."""
    h = start_server(url)
    try:
        run_id = start(h, definition("a", a=node())).run.run_id
        db = h.server.engine.db
        seen: dict[str, list[int]] = {}

        def appends(connection: Any) -> None:
            locks.before_events(connection)
            connection.execute(insert(run_events), [_event(run_id)])
            locks.before_events(connection)  # the sequence moved: a new key if taken
            connection.execute(insert(run_events), [_event(run_id)])
            seen["root"] = list(connection.exec_driver_sql(_MY_EVENT_LOCKS).scalars())

        db.transact(appends, scoped=True)
        assert len(seen["root"]) == 1

        def in_savepoint(connection: Any) -> None:
            connection.execute(insert(run_events), [_event(run_id)])  # moves the sequence
            nested = Savepoint(connection)  # the project's savepoints (statements.py)
            locks.before_events(connection)
            seen["inside"] = list(connection.exec_driver_sql(_MY_EVENT_LOCKS).scalars())
            nested.rollback()
            seen["rolled_back"] = list(connection.exec_driver_sql(_MY_EVENT_LOCKS).scalars())
            locks.before_events(connection)
            connection.execute(insert(run_events), [_event(run_id)])
            seen["after"] = list(connection.exec_driver_sql(_MY_EVENT_LOCKS).scalars())

        db.transact(in_savepoint, scoped=True)
        assert len(seen["inside"]) == 1 and seen["rolled_back"] == []
        assert seen["after"] == seen["inside"]
    finally:
        h.close()


def test_a_commit_in_one_replica_wakes_long_polls_of_another(url: str) -> None:
    """A long poll and a stream on replica two are woken by commits on replica one (the
    periodic recheck is pushed out of reach): the wake-up across replicas adds less than
    50 ms to the same wake-up within one replica (median of five, same process)."""
    h = start_replicas(url, 2)
    try:
        for server in h.replicas:
            server.engine.signals.recheck_ms = 600_000  # only a wake-up can end the wait
        one, two = (connect(f"127.0.0.1:{server.port}", token_of("agent")) for server in h.replicas)
        with one, two:
            local = [_claim_woken(one, one, f"l{i}") for i in range(5)]
            remote = [_claim_woken(two, one, f"r{i}") for i in range(5)]
            stream_local = _stream_woken(one, one, h)
            stream_remote = _stream_woken(two, one, h)
        extra = statistics.median(remote) - statistics.median(local)
        assert extra < 0.05, (local, remote)
        assert stream_remote - stream_local < 0.05, (stream_local, stream_remote)
    finally:
        h.close()


def _claim_woken(poller: Client, committer: Client, tag: str) -> float:
    """Seconds from a StartRun on ``committer`` returning to a waiting claim on
    ``poller`` returning its task."""
    answer: dict[str, float] = {}

    def poll() -> None:
        response = poller.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(
                worker_id="w2", models=["echo"], max_tasks=1, lease_ms=30_000, wait_ms=20_000
            )
        )
        answer["at"] = time.perf_counter()
        answer["tasks"] = len(response.tasks)

    thread = threading.Thread(target=poll)
    thread.start()
    time.sleep(0.3)  # the long poll is waiting
    committer.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=f"wake-{tag}",
            definition_json=json.dumps(definition("a", a=node())),
            input_json="null",
        )
    )
    committed = time.perf_counter()
    thread.join(HELD_S)
    assert answer["tasks"] == 1
    return answer["at"] - committed


def _stream_woken(reader: Client, committer: Client, h: Harness) -> float:
    """Seconds from a StopRun on ``committer`` returning to ``reader``'s stream
    delivering the run's RUN_CANCELLED event."""
    run_id = committer.runs.StartRun(
        run_pb2.StartRunRequest(
            request_id=f"stream-{time.monotonic_ns()}",
            definition_json=json.dumps(definition("a", a=node())),
            input_json="null",
        )
    ).run.run_id
    stream = reader.events.StreamEvents(event_pb2.StreamEventsRequest(run_id=run_id))
    seen: dict[str, float] = {}

    def read() -> None:
        for message in stream:
            if message.event.kind == event_pb2.EVENT_KIND_RUN_CANCELLED:
                seen["at"] = time.perf_counter()
                return

    thread = threading.Thread(target=read)
    thread.start()
    time.sleep(0.5)  # the stream has read the backlog and waits
    committer.runs.StopRun(run_pb2.StopRunRequest(run_id=run_id))
    stopped = time.perf_counter()
    thread.join(HELD_S)
    stream.cancel()
    assert "at" in seen
    return seen["at"] - stopped


def test_concurrent_settles_and_claims_across_replicas_lose_nothing(url: str) -> None:
    """Two replicas, workers on both: every run completes, every attempt settles once."""
    h = start_replicas(url, 2)
    try:
        run_ids = [start(h, definition("a", a=node())).run.run_id for _ in range(20)]
        errors: list[BaseException] = []
        settled: list[str] = []

        def work(worker: str) -> None:
            try:
                for _ in range(200):
                    tasks = claim(h, worker=worker, max_tasks=3)
                    if not tasks and _all_done(h, run_ids):
                        return
                    for task in tasks:
                        h.client("agent").tasks.CompleteTask(
                            task_pb2.CompleteTaskRequest(
                                attempt_id=task.attempt_id, worker_id=worker,
                                result_json='"ok"', effect=common_pb2.EFFECT_OUTCOME_APPLIED,
                            )
                        )  # fmt: skip
                        settled.append(task.attempt_id)
            except BaseException as error:  # reported below
                errors.append(error)

        workers = [threading.Thread(target=work, args=(f"w{i}",)) for i in range(4)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join(60)
        assert not errors, errors
        assert _all_done(h, run_ids)
        assert len(settled) == len(set(settled)) == len(run_ids)
    finally:
        h.close()


def _all_done(h: Harness, run_ids: list[str]) -> bool:
    runs = h.client("agent").runs
    return all(
        runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run.state == run_pb2.RUN_STATE_COMPLETED
        for run_id in run_ids
    )


def test_a_replica_starting_during_a_migration_waits_for_it(url: str) -> None:
    """Migrations run once: a replica that finds the migration lock taken waits, then
    finds the schema current; replicas starting together on a fresh database all start."""
    import psycopg

    from praxis.store.wake.postgres import conninfo

    with psycopg.connect(conninfo(url), autocommit=True) as holder:
        holder.execute(
            "SELECT pg_advisory_lock(%s, %s)", (locks.GLOBAL_NAMESPACE, locks.MIGRATION_KEY)
        )
        started: list[Harness] = []
        thread = threading.Thread(target=lambda: started.append(start_server(url)))
        thread.start()
        time.sleep(1.0)
        assert not started, "the replica did not wait for the migration in progress"
        holder.execute(
            "SELECT pg_advisory_unlock(%s, %s)", (locks.GLOBAL_NAMESPACE, locks.MIGRATION_KEY)
        )
        thread.join(30)
    assert started
    started[0].close()


def test_replicas_starting_together_migrate_once(postgres_cluster: Cluster) -> None:
    url = postgres_cluster.create_database()
    started: list[Harness] = []
    failures: list[BaseException] = []
    barrier = threading.Barrier(3)

    def replica() -> None:
        barrier.wait()
        try:
            started.append(start_server(url))
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=replica) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert not failures, failures
        assert len(started) == 3
        import psycopg

        from praxis.store.wake.postgres import conninfo

        with psycopg.connect(conninfo(url)) as connection:
            versions = [
                row[0] for row in connection.execute("SELECT version FROM schema_migrations")
            ]
        assert len(versions) == len(set(versions)) > 0
    finally:
        for harness in started:
            harness.close()


def test_a_long_poll_that_skipped_a_held_run_claims_it_once_released(single: Harness) -> None:
    """ClaimTasks skips a run another transaction holds (SKIP LOCKED); that transaction's
    commit wakes nobody when it changed nothing (a sweep with nothing due, a claim that
    lost its candidate). The long poll claims again within ~50 ms instead of waiting for
    the recheck (60 s, here past its own 10 s wait)."""
    run_id = start(single, definition("a", a=node())).run.run_id
    held = Held(single.server.engine.db, lambda connection: locks.run(connection, run_id))
    claimed: list[task_pb2.Task] = []
    finished = threading.Event()

    def long_poll() -> None:
        claimed.extend(claim(single, wait_ms=10_000))
        finished.set()

    thread = threading.Thread(target=long_poll)
    try:
        thread.start()
        assert not finished.wait(0.5)  # the only ready task's run is held: nothing yet
    finally:
        released = time.perf_counter()
        held.close()  # commits nothing: no wake-up
    assert finished.wait(HELD_S)
    thread.join()
    assert [task.run_id for task in claimed] == [run_id]
    assert time.perf_counter() - released < 2.0


def test_a_model_taught_through_one_replica_is_known_to_the_other(url: str) -> None:
    """A worker registers a model through replica A; a definition naming it and with
    another problem, sent to replica B, is refused for that problem only (B's cache of
    registered models is re-read on any rejection, not only on MODEL_UNKNOWN)."""
    from praxis_client import error_details

    harness = start_replicas(url, 2)
    a, b = (connect(f"127.0.0.1:{server.port}", token_of("agent")) for server in harness.replicas)
    try:
        b.runs.StartRun(  # B reads the registered models now: none yet
            run_pb2.StartRunRequest(
                request_id="warm", definition_json=json.dumps(definition("a", a=node()))
            )
        )
        a.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(worker_id="w", models=["taught"], max_tasks=1, lease_ms=1000)
        )
        bad = definition("a", a=node(model="taught"), b=node(deps=("missing",), model="taught"))
        with pytest.raises(grpc.RpcError) as caught:
            b.runs.StartRun(
                run_pb2.StartRunRequest(request_id="bad", definition_json=json.dumps(bad))
            )
        details = error_details(caught.value)
        assert (details.code, details.reason) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "DEFINITION_INVALID",
        )
        assert details.field_violations and not any(
            "'taught' is unknown" in text for _, text in details.field_violations
        ), details.field_violations
    finally:
        a.close()
        b.close()
        harness.close()
