"""PostgreSQL runs the bodies of one key (one run) of a batch in one transaction.

A worker settling a fan-out's items in one ``SettleTasks`` pays one COMMIT (one WAL flush)
for them instead of one each; each body still keeps or undoes its own writes, and a body
that lost a race runs again alone after the group's COMMIT.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from praxis.store.db.database import Database, Rollback
from praxis.store.schema import MIGRATIONS
from tests.support.postgres import Cluster


@pytest.fixture
def db(postgres_cluster: Cluster) -> Iterator[Database]:
    database = Database(postgres_cluster.create_database(), pool_size=4)
    database.migrate(0, MIGRATIONS)
    with database.engine.begin() as connection:
        connection.execute(text("CREATE TABLE probe (k INTEGER PRIMARY KEY, v TEXT)"))
    try:
        yield database
    finally:
        database.close()


def _txid(connection: Connection) -> int:
    return int(connection.execute(text("SELECT txid_current()")).scalar_one())


Body = Callable[[Connection], object]


def _insert(k: int, v: str) -> Body:
    def body(connection: Connection) -> int:
        connection.execute(text("INSERT INTO probe VALUES (:k, :v)"), {"k": k, "v": v})
        return _txid(connection)

    return body


def _rows(db: Database) -> dict[int, str]:
    with db.read() as connection:
        return {k: v for k, v in connection.execute(text("SELECT k, v FROM probe")).all()}


def test_bodies_of_one_key_share_a_transaction_others_do_not(db: Database) -> None:
    bodies = [_insert(k, "x") for k in range(5)]
    keys = ["run-a", "run-b", "run-a", "", "run-a"]
    answers: list[object] = list(db.transact_many(bodies, scoped=True, keys=keys))
    assert all(isinstance(answer, int) for answer in answers)
    assert answers[0] == answers[2] == answers[4]  # one transaction for run-a
    assert len({answers[0], answers[1], answers[3]}) == 3
    assert _rows(db) == {k: "x" for k in range(5)}


def test_each_body_of_a_group_keeps_or_undoes_its_own_writes(db: Database) -> None:
    def refused(connection: Connection) -> str:
        _insert(11, "undone")(connection)
        raise Rollback("refused")

    def broken(connection: Connection) -> None:
        _insert(12, "undone")(connection)
        raise ValueError("a bug")

    bodies: list[Body] = [_insert(10, "kept"), refused, broken, _insert(13, "kept")]
    answers: list[object] = list(
        db.transact_many(
            bodies,
            scoped=True,
            keys=["run"] * 4,
        )
    )
    assert answers[1] == "refused"
    assert isinstance(answers[2], ValueError)
    assert answers[0] == answers[3]
    assert _rows(db) == {10: "kept", 13: "kept"}


def test_a_body_that_lost_a_race_runs_again_alone_after_the_commit(db: Database) -> None:
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO probe VALUES (20, 'the winner')"))
    tries: list[int] = []

    def racing(connection: Connection) -> str:
        tries.append(_txid(connection))
        if len(tries) == 1:  # the first try collides with the winner's row (23505)
            connection.execute(text("INSERT INTO probe VALUES (20, 'mine')"))
        return str(connection.execute(text("SELECT v FROM probe WHERE k = 20")).scalar_one())

    bodies: list[Body] = [_insert(21, "kept"), racing, _insert(22, "kept")]
    answers: list[object] = list(
        db.transact_many(
            bodies,
            scoped=True,
            keys=["run"] * 3,
        )
    )
    assert answers[1] == "the winner"  # the replay answer of its retry
    assert tries[0] == answers[0] == answers[2] and tries[1] != tries[0]
    assert _rows(db) == {20: "the winner", 21: "kept", 22: "kept"}
