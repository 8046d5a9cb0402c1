"""Statements written once for every backend: each function below builds the one its
connection's database understands, so that a slice's code calls it without asking which
database it is on (the rule of :mod:`praxis.store.db.dialect`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import BigInteger, Column, ColumnElement, Insert, Table, literal
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from praxis.store.db.statements import Statement


def seq_after(column: ColumnElement[int], after: int) -> ColumnElement[bool]:
    """``column > after`` for a caller's int64 cursor over a ``seq`` column.

    The bound is a BIGINT: on PostgreSQL a ``seq`` column is a 32-bit ``SERIAL`` and a
    cursor past 2^31 - 1 (valid: it returns an empty page) would fail to cast to it.
    """
    return column > literal(after, BigInteger())


def insert_missing(connection: Connection, table: Table) -> Insert:
    """``INSERT`` into ``table`` that skips rows whose primary key is already there."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


class Upsert:
    """``INSERT ... ON CONFLICT (key) DO UPDATE SET ...`` into ``table``, prepared once
    for each backend (a :class:`~praxis.store.db.statements.Statement` each) and run as
    the connection's. ``changes`` gives the ``SET`` clause from the row that conflicted
    (``excluded``: the values the insert would have written)."""

    def __init__(
        self,
        table: Table,
        key: Sequence[Column[Any]],
        changes: Callable[[Any], Mapping[str, Any]],
    ) -> None:
        self._by_backend: dict[str, Statement] = {}
        for name, insert in (("sqlite", sqlite.insert), ("postgresql", postgresql.insert)):
            statement = insert(table)
            self._by_backend[name] = Statement(
                statement.on_conflict_do_update(
                    index_elements=list(key), set_=dict(changes(statement.excluded))
                )
            )

    def run(self, connection: Connection, parameters: Mapping[str, Any]) -> Any:
        """Inserts or updates one row (in the caller's transaction)."""
        return self._by_backend[connection.dialect.name].run(connection, parameters)
