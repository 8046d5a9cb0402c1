"""Durable state: SQLAlchemy Core over SQLite (default) or PostgreSQL.

This package is the only place that knows SQL. It is split by slice, each with its
tables beside its store: ``db/`` (infrastructure), ``wake/``, ``controls/``,
``registry/``, ``runtime/``, ``execution/``, ``principals/`` and ``views/`` (read
models). :mod:`praxis.store.schema` is the one ordered list of migrations; every
SQLite/PostgreSQL decision lives in :mod:`praxis.store.db.dialect`.
"""
