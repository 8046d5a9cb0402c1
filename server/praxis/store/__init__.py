"""Durable state: SQLAlchemy Core over SQLite (default) or PostgreSQL.

This package is the only place that knows SQL. It is split by slice, each with its
tables beside its store: ``db/`` (infrastructure), ``wake/``, ``controls/``,
``registry/``, ``runtime/``, ``execution/``, ``principals/`` and ``views/`` (read
models). :mod:`praxis.store.schema` is the one ordered list of migrations. A slice's SQL
lives in its ``rows`` (``rows.py`` or a ``rows/`` package); every SQLite/PostgreSQL
difference lives in ``db/`` or in a row function of its slice (the rule of
:mod:`praxis.store.db.dialect`).
"""
