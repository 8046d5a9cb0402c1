"""The schema check a server runs at every start, on PostgreSQL: it reads the columns of
every table in one catalog query (a query per table took most of a server's start-up,
and every PostgreSQL test starts one), and still refuses a schema that lacks a column."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from praxis.store.db.database import Database
from praxis.store.db.migrations import SchemaError, check
from praxis.store.schema import MIGRATIONS
from tests.support.harness import migrate
from tests.support.postgres import Cluster


def test_the_check_reads_the_catalog_in_a_few_statements_and_refuses_a_missing_column(
    postgres_cluster: Cluster,
) -> None:
    url = postgres_cluster.create_database(migrate)
    db = Database(url)
    statements: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _count(*args: Any) -> None:
        statements.append(str(args[2]))

    try:
        assert check(db.engine, MIGRATIONS) == [m.version for m in MIGRATIONS]
        tables = {table.name for migration in MIGRATIONS for table in migration.tables}
        assert len(tables) > 30
        assert len(statements) <= 8, statements  # one per table before: more than 40
    finally:
        db.close()
    database = url.rsplit("/", 1)[1]
    with psycopg.connect(postgres_cluster.dsn(database), autocommit=True) as connection:
        connection.execute("ALTER TABLE runs DROP COLUMN labels_json")
    db = Database(url)
    try:
        with pytest.raises(SchemaError, match="lacks columns"):
            check(db.engine, MIGRATIONS)
    finally:
        db.close()
