"""The one :class:`~sqlalchemy.MetaData` every slice's tables belong to, and the two
tables of the database itself: ``schema_migrations`` (what :mod:`praxis.store.db.migrations`
applied) and ``meta`` (the installation's keys: its id, clock high-water).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, MetaData, String, Table, Text

metadata = MetaData()

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
