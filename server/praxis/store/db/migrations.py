"""The migrations runner: applies numbered, recorded schema migrations, and checks the
schema at start-up. The list itself is :data:`praxis.store.schema.MIGRATIONS`.

Each migration runs in its own transaction and records itself in ``schema_migrations``.
A migration creates its new tables from the current :class:`~sqlalchemy.Table` objects;
one that changes an existing table declares the columns it adds (``adds``), so that the
start-up check expects them only once it is applied, and writes its ``extra`` step to be
correct on a table created at any version (add a column only where it is missing; see
:func:`add_columns` and :func:`drop_column`).
A database whose recorded migrations are not a prefix of the known ones (a gap, a
future version) or whose tables do not match what its migrations created is refused:
the server never repairs a schema silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, Table, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateColumn

from praxis.store.db import locks
from praxis.store.db.dialect import WRITE_OPTION, table_columns
from praxis.store.db.metadata import schema_migrations


class SchemaError(Exception):
    """The database's schema is incomplete, foreign or from a future version."""


@dataclass(frozen=True)
class Migration:
    """One schema step: the tables it creates and any extra DDL."""

    version: int
    name: str
    tables: tuple[Table, ...]
    extra: Callable[[Connection], None] | None = None
    adds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``(table name, column names)`` this migration adds to tables created earlier."""


def _expected(known: Sequence[Migration], applied: set[int]) -> dict[str, set[str]]:
    """The tables and columns the applied migrations of ``known`` created."""
    tables = {schema_migrations.name: set(schema_migrations.c.keys())}
    for migration in known:
        if migration.version not in applied:
            continue
        for table in migration.tables:
            tables[table.name] = set(table.c.keys())
    for later in known:
        if later.version in applied:
            continue
        for table_name, columns in later.adds:
            if table_name in tables:
                tables[table_name] -= set(columns)
    return tables


def add_columns(connection: Connection, table: Table, names: Sequence[str]) -> None:
    """Adds the columns ``names`` of ``table`` (as declared now) where they are missing."""
    present = {column["name"] for column in inspect(connection).get_columns(table.name)}
    for name in names:
        if name in present:
            continue
        ddl = CreateColumn(table.c[name]).compile(dialect=connection.dialect)
        connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {ddl}"))


def drop_column(connection: Connection, table_name: str, name: str) -> bool:
    """Drops a column if the table has it, with the indexes that name it (SQLite refuses
    to drop an indexed column). True when it did."""
    inspector = inspect(connection)
    present = {column["name"] for column in inspector.get_columns(table_name)}
    if name not in present:
        return False
    for index in inspector.get_indexes(table_name):
        if name in index["column_names"]:
            connection.execute(text(f"DROP INDEX {index['name']}"))
    connection.execute(text(f"ALTER TABLE {table_name} DROP COLUMN {name}"))
    return True


def check(engine: Engine, known: Sequence[Migration]) -> list[int]:
    """Verifies the schema against the migrations ``known`` and returns the versions
    already applied.

    Raises:
        SchemaError: The database is incomplete, foreign or from the future.
    """
    inspector = inspect(engine)
    present = set(inspector.get_table_names())
    if schema_migrations.name not in present:
        if present:
            raise SchemaError(
                "the database has tables but no schema_migrations table: it is not a Praxis "
                f"database or its schema is incomplete (tables: {sorted(present)})"
            )
        return []
    with engine.connect() as connection:
        applied = [
            row.version
            for row in connection.execute(
                select(schema_migrations.c.version).order_by(schema_migrations.c.version)
            )
        ]
        found_of = table_columns(connection)  # every table's columns in one catalog query
    versions = [migration.version for migration in known]
    if applied and applied[-1] > versions[-1]:
        raise SchemaError(
            f"the database schema is version {applied[-1]}, newer than this server "
            f"(version {versions[-1]}): upgrade the server"
        )
    if applied != versions[: len(applied)]:
        raise SchemaError(
            f"the database's recorded migrations {applied} are not a prefix of {versions}: "
            "the schema is incomplete"
        )
    unrecorded = sorted(
        table.name
        for migration in known
        if migration.version not in applied
        for table in migration.tables
        if table.name in present
    )
    if unrecorded:
        raise SchemaError(
            f"tables {unrecorded} exist but their migrations are not recorded: "
            "the schema is incomplete"
        )
    expected = _expected(known, set(applied))
    for table, columns in expected.items():
        if table not in present:
            raise SchemaError(f"table {table!r} is missing: the schema is incomplete")
        found = found_of.get(table, set())
        if not columns <= found:
            raise SchemaError(
                f"table {table!r} lacks columns {sorted(columns - found)}: the schema is incomplete"
            )
    return applied


def migrate(engine: Engine, now_ms: int, known: Sequence[Migration]) -> list[int]:
    """Checks the schema, then applies the missing migrations of ``known`` in order.

    On PostgreSQL the check and the migrations run under a session advisory lock
    (:func:`praxis.store.db.locks.migrating`): of several replicas starting at once, one
    migrates and the others wait for it (saying so in the log), then find the schema
    current and apply nothing.

    Returns:
        The versions applied by this call.
    """
    with locks.migrating(engine):
        return _migrate(engine, now_ms, known)


def _migrate(engine: Engine, now_ms: int, known: Sequence[Migration]) -> list[int]:
    if [m.version for m in known] != list(range(1, len(known) + 1)):
        raise ValueError("migrations must be numbered 1, 2, 3, ... in order")
    applied = check(engine, known)
    done: list[int] = []
    for migration in known:
        if migration.version in applied:
            continue
        with (
            engine.connect().execution_options(**{WRITE_OPTION: True}) as connection,
            connection.begin(),
        ):
            schema_migrations.create(connection, checkfirst=True)
            for table in migration.tables:
                table.create(connection)
            if migration.extra:
                migration.extra(connection)
            connection.execute(
                schema_migrations.insert().values(
                    version=migration.version, name=migration.name, applied_at_ms=now_ms
                )
            )
        done.append(migration.version)
    return done
