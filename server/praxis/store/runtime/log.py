"""The run command log: append on every save, rebuild a snapshot from it.

:func:`praxis.store.runtime.rows.saving.save` and
:func:`~praxis.store.runtime.rows.saving.insert` append the command they saved (with the
time it was applied at, :func:`praxis.store.runtime.rows.log.append`) in the same
transaction, one row per run version, so the log of a run holds exactly the commands
that made its snapshot.
:func:`rebuild` folds them over the pure core (:func:`praxis.core.journal.replay`);
the result equals the stored snapshot byte for byte (:func:`praxis.core.journal.snapshot`).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection

from praxis.core import journal
from praxis.core import run as core
from praxis.core.definition import DEFAULT_LIMITS, Definition, Limits
from praxis.store.runtime.rows import log as rows


def rebuild(
    connection: Connection,
    run_id: str,
    definitions: Callable[[Connection, str], Definition],
    limits: Limits = DEFAULT_LIMITS,
) -> core.RunState | None:
    """The run's snapshot rebuilt from its log with the pure core.

    Returns ``None`` when the run has no complete log: it does not exist, or it was
    started before migration 4 (its log does not begin with its Start).

    Args:
        connection: A read (or write) connection.
        run_id: The run.
        definitions: Loads a stored definition by digest (``RuntimeContext.definition``).
        limits: The limits the server applies the reducer with.

    Raises:
        ValueError: The log is not one the reducer wrote (an entry is refused).
    """
    logged = rows.entries(connection, run_id)
    if not logged or logged[0].command["kind"] != "Start":
        return None
    digests = {
        str(entry.command["definition"])
        for entry in logged
        if entry.command["kind"] in ("Start", "Revise") or "definition" in entry.command
    }
    found = {digest: definitions(connection, digest) for digest in digests}
    return journal.replay(logged, found, limits)
