"""The run command log (``run_commands``, migration 4): one row per run version.

:mod:`praxis.store.runtime.rows.saving` appends the command it saved in the same
transaction; :func:`praxis.store.runtime.log.rebuild` reads the entries back.
"""

from __future__ import annotations

import json

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from praxis.core import journal, values
from praxis.core import run as core
from praxis.store.db.statements import Statement
from praxis.store.runtime.tables import run_commands

# Built once: appending is on every command's path (see praxis.store.runtime.rows.saving).
_APPEND = Statement(run_commands.insert())
_ENTRIES = (
    select(run_commands.c.now_ms, run_commands.c.command_json)
    .where(run_commands.c.run_id == bindparam("rid"))
    .order_by(run_commands.c.version)
)


def append(connection: Connection, state: core.RunState, command: core.Command, now: int) -> None:
    """Logs ``command``, applied at ``now``, as what made version ``state.version``."""
    _APPEND.run(
        connection,
        {
            "run_id": state.run_id,
            "version": state.version,
            "now_ms": now,
            "command_json": values.canonical_json(journal.encode(command)),
        },
    )


def entries(connection: Connection, run_id: str) -> list[journal.Entry]:
    """The logged commands of a run, in version order."""
    return [
        journal.Entry(row.now_ms, json.loads(row.command_json))
        for row in connection.execute(_ENTRIES, {"rid": run_id})
    ]
