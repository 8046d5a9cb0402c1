"""The PostgreSQL connection pool: ``db_pool_size`` / ``--db-pool-size``.

A process never holds more than its pool's connections (plus the two of LISTEN/NOTIFY),
however many calls arrive at once, and the calls beyond the executor's threads queue
instead of failing.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from aiws.engine.v1 import run_pb2
from praxis.limits import ServingLimits
from praxis.serve import config as config_module
from praxis.store.db import dialect
from praxis.store.db.database import Database
from praxis.store.schema import MIGRATIONS
from tests.support.harness import Harness, start_server
from tests.support.postgres import Cluster
from tests.support.runtime import definition, node


@pytest.fixture
def url(postgres_cluster: Cluster) -> str:
    return postgres_cluster.create_database()


def _backends(cluster: Cluster, url: str) -> int:
    """Connections open to the test's database, of any state."""
    name = url.rpartition("/")[2]
    with psycopg.connect(cluster.dsn("postgres"), autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
        ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture
def small(url: str) -> Iterator[Harness]:
    """A server with 2 executor threads and the smallest pool they allow (7)."""
    running = start_server(url, serving=ServingLimits(executor_threads=2), db_pool_size=7)
    try:
        yield running
    finally:
        running.close()


def test_default_pool_is_two_per_thread_and_sweeper_plus_one(url: str) -> None:
    running = start_server(url)
    try:
        pool = running.server.engine.db.engine.pool
        assert pool.size() == 2 * (ServingLimits().executor_threads + 1) + 1  # type: ignore[attr-defined]
        assert pool._max_overflow == 0  # type: ignore[attr-defined]  # no connections past it
    finally:
        running.close()


def test_concurrent_calls_stay_within_the_pool(
    small: Harness, url: str, postgres_cluster: Cluster
) -> None:
    """40 StartRun calls at once on a 7-connection pool: all answer, and the database
    never sees more than 7 + 2 (listener, sender) connections from the server."""
    client = small.client("agent")
    document = json.dumps(definition("a", a=node()))
    errors: list[BaseException] = []
    peak = [0]
    done = threading.Event()

    def start(index: int) -> None:
        try:
            client.runs.StartRun(
                run_pb2.StartRunRequest(request_id=f"pool-{index}", definition_json=document),
                timeout=60,
            )
        except BaseException as error:  # reported below
            errors.append(error)

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _backends(postgres_cluster, url))
            done.wait(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    threads = [threading.Thread(target=start, args=(i,)) for i in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    done.set()
    watcher.join()
    assert errors == []
    listed = client.runs.ListRuns(run_pb2.ListRunsRequest(page_size=100)).runs
    assert len(listed) == 40
    assert 1 <= peak[0] <= 7 + 2, peak[0]


def test_a_checkout_past_the_pool_waits_for_a_connection(url: str) -> None:
    """The pool is a hard bound: a fifth reader of a 4-connection pool waits until one
    of the four finishes, then proceeds."""
    db = Database(url, pool_size=4)
    db.migrate(0, MIGRATIONS)
    release = threading.Event()
    holding = threading.Barrier(5)
    fifth_done = threading.Event()

    def hold() -> None:
        with db.read() as connection:
            connection.exec_driver_sql("SELECT 1")
            holding.wait(timeout=30)
            release.wait(timeout=30)

    def fifth() -> None:
        with db.read() as connection:
            connection.exec_driver_sql("SELECT 1")
        fifth_done.set()

    holders = [threading.Thread(target=hold) for _ in range(4)]
    try:
        for thread in holders:
            thread.start()
        holding.wait(timeout=30)  # four connections checked out
        late = threading.Thread(target=fifth)
        late.start()
        assert not fifth_done.wait(0.5)  # waits: no fifth connection
        release.set()
        assert fifth_done.wait(30)
        late.join()
    finally:
        release.set()
        for thread in holders:
            thread.join()
        db.engine.dispose()


def test_a_pool_below_the_executor_threads_is_refused() -> None:
    assert dialect.check_pool_size(19, 8) is None
    for size in (18, 0, -1, True, "20", 1_001):
        problem = dialect.check_pool_size(size, 8)  # type: ignore[arg-type]  # bad on purpose
        assert problem is not None and "db_pool_size" in problem


def test_the_config_key_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    base = {"database_url": "sqlite:///praxis.db", "principals_path": "principals.json"}
    path.write_text(json.dumps(base | {"db_pool_size": 24}), encoding="utf-8")
    assert config_module.load(path).db_pool_size == 24  # >= 19 with 8 executor threads
    path.write_text(json.dumps(base), encoding="utf-8")
    assert config_module.load(path).db_pool_size is None
    for bad in ({"db_pool_size": 18}, {"db_pool_size": 10, "serving": {"executor_threads": 4}}):
        path.write_text(json.dumps(base | bad), encoding="utf-8")
        with pytest.raises(config_module.ConfigError, match="db_pool_size"):
            config_module.load(path)
    path.write_text(
        json.dumps(base | {"db_pool_size": 11, "serving": {"executor_threads": 4}}),
        encoding="utf-8",
    )
    assert config_module.load(path).db_pool_size == 11
