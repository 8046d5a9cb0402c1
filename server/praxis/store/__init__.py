"""Durable state: SQLAlchemy Core over SQLite (default) or PostgreSQL.

This package is the only place that knows SQL. SQLite-specific statements live in
:mod:`praxis.store.dialect` alone.
"""
