"""The one :class:`~sqlalchemy.MetaData` every slice's tables belong to, and the two
tables of the database itself: ``schema_migrations`` (what :mod:`praxis.store.db.migrations`
applied) and ``meta`` (the installation's keys: its id, clock high-water).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, Integer, MetaData, String, Table, Text

metadata = MetaData()

CLUSTERED_BY_KEY: dict[str, Any] = {"sqlite_with_rowid": False}
"""A table option: the rows are stored in one B-tree keyed by the primary key (SQLite's
``WITHOUT ROWID``: one page write per row instead of two); PostgreSQL ignores it."""

schema_migrations = Table(
    "schema_migrations",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("applied_at_ms", BigInteger, nullable=False),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
