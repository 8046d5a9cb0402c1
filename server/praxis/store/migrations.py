"""Numbered, recorded schema migrations, and the start-up schema check.

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

from praxis.store import locks, runtime_schema, schema
from praxis.store.dialect import WRITE_OPTION


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


MIGRATIONS: list[Migration] = [
    Migration(1, "registry", schema.REGISTRY_TABLES),
    Migration(2, "runtime", runtime_schema.RUNTIME_TABLES),
]


def register(migration: Migration) -> None:
    """Adds a migration (the runtime and model packages register theirs at import)."""
    if any(known.version == migration.version for known in MIGRATIONS):
        raise ValueError(f"migration {migration.version} is already registered")
    MIGRATIONS.append(migration)
    MIGRATIONS.sort(key=lambda known: known.version)


def _expected(migrations: Sequence[Migration]) -> dict[str, set[str]]:
    tables = {schema.schema_migrations.name: set(schema.schema_migrations.c.keys())}
    for migration in migrations:
        for table in migration.tables:
            tables[table.name] = set(table.c.keys())
    applied = {migration.version for migration in migrations}
    for later in MIGRATIONS:
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
    """Drops a column if the table has it. True when it did."""
    present = {column["name"] for column in inspect(connection).get_columns(table_name)}
    if name not in present:
        return False
    connection.execute(text(f"ALTER TABLE {table_name} DROP COLUMN {name}"))
    return True


def check(engine: Engine) -> list[int]:
    """Verifies the schema and returns the versions already applied.

    Raises:
        SchemaError: The database is incomplete, foreign or from the future.
    """
    inspector = inspect(engine)
    present = set(inspector.get_table_names())
    if schema.schema_migrations.name not in present:
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
                select(schema.schema_migrations.c.version).order_by(
                    schema.schema_migrations.c.version
                )
            )
        ]
    known = [migration.version for migration in MIGRATIONS]
    if applied and applied[-1] > known[-1]:
        raise SchemaError(
            f"the database schema is version {applied[-1]}, newer than this server "
            f"(version {known[-1]}): upgrade the server"
        )
    if applied != known[: len(applied)]:
        raise SchemaError(
            f"the database's recorded migrations {applied} are not a prefix of {known}: "
            "the schema is incomplete"
        )
    unrecorded = sorted(
        table.name
        for migration in MIGRATIONS
        if migration.version not in applied
        for table in migration.tables
        if table.name in present
    )
    if unrecorded:
        raise SchemaError(
            f"tables {unrecorded} exist but their migrations are not recorded: "
            "the schema is incomplete"
        )
    expected = _expected([m for m in MIGRATIONS if m.version in applied])
    for table, columns in expected.items():
        if table not in present:
            raise SchemaError(f"table {table!r} is missing: the schema is incomplete")
        found = {column["name"] for column in inspector.get_columns(table)}
        if not columns <= found:
            raise SchemaError(
                f"table {table!r} lacks columns {sorted(columns - found)}: the schema is incomplete"
            )
    return applied


def migrate(engine: Engine, now_ms: int) -> list[int]:
    """Checks the schema, then applies the missing migrations in order.

    On PostgreSQL the check and the migrations run under a session advisory lock
    (:func:`praxis.store.locks.migrating`): of several replicas starting at once, one
    migrates and the others wait for it (saying so in the log), then find the schema
    current and apply nothing.

    Returns:
        The versions applied by this call.
    """
    with locks.migrating(engine):
        return _migrate(engine, now_ms)


def _migrate(engine: Engine, now_ms: int) -> list[int]:
    applied = check(engine)
    done: list[int] = []
    for migration in MIGRATIONS:
        if migration.version in applied:
            continue
        with (
            engine.connect().execution_options(**{WRITE_OPTION: True}) as connection,
            connection.begin(),
        ):
            schema.schema_migrations.create(connection, checkfirst=True)
            for table in migration.tables:
                table.create(connection)
            if migration.extra:
                migration.extra(connection)
            connection.execute(
                schema.schema_migrations.insert().values(
                    version=migration.version, name=migration.name, applied_at_ms=now_ms
                )
            )
        done.append(migration.version)
    return done
