"""Stored definitions: a run's definition document, stored once per digest."""

from __future__ import annotations

import functools
import json
import weakref

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection, Engine

from praxis.core.definition import Definition
from praxis.store.db.database import Database
from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import run_definitions

_DEFINITION = Statement(
    select(run_definitions.c.definition_json).where(run_definitions.c.digest == bindparam("d"))
)
_DEFINITION_STORED = Statement(
    select(run_definitions.c.digest).where(run_definitions.c.digest == bindparam("d"))
)
_INSERT_DEFINITION = Statement(run_definitions.insert())
_STORED_DEFINITIONS: weakref.WeakKeyDictionary[Engine, set[str]] = weakref.WeakKeyDictionary()
"""Per database, the digests of definitions known to be stored (added once a transaction
that stored or saw one commits); a definition row is never deleted, so the check is
skipped for them."""


def load_definition_json(connection: Connection, digest: str) -> str:
    """The stored document of a definition digest."""
    text = _DEFINITION.run(connection, {"d": digest}).scalar()
    if text is None:
        raise LookupError(f"definition {digest} is missing")
    return str(text)


def save_definition(connection: Connection, definition: Definition) -> None:
    """Stores a definition document once per digest."""
    digest = definition.digest
    known = _STORED_DEFINITIONS.setdefault(connection.engine, set())
    if digest in known:
        return
    if _DEFINITION_STORED.run(connection, {"d": digest}).first() is None:
        _INSERT_DEFINITION.run(
            connection,
            {
                "digest": digest,
                "definition_json": json.dumps(definition.document, ensure_ascii=False),
            },
        )
    Database.after_commit(connection, functools.partial(known.add, digest))
