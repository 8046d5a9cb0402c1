"""Shared rows of the execution model: idempotent requests and the append-only event log."""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.engine import Connection

from praxis.core import values
from praxis.core.rejection import Code, Rejection
from praxis.store.db.database import Rollback
from praxis.store.db.statements import Statement
from praxis.store.execution.tables import model_events, model_requests

_INSERT_EVENT = Statement(model_events.insert())  # built once, raw on SQLite


def append(
    connection: Connection, kind: str, subject: str, at_ms: int, **payload: values.JsonValue
) -> None:
    """Appends one event to the model's log (in the caller's transaction)."""
    _INSERT_EVENT.run(
        connection,
        {
            "kind": kind,
            "subject": subject,
            "payload_json": values.canonical_json(payload),
            "at_ms": at_ms,
        },
    )


Check = Callable[[str], Rejection | None]
"""Today's grant check of a replay, given the stored result's key: the refusal a fresh
request by the same caller would get for its grants (``None``: still covered)."""


def replayed(
    connection: Connection,
    principal_id: str,
    scope: str,
    request_id: str,
    digest: str,
    check: Check,
) -> str | None:
    """The result key of an earlier request with this id, or ``None`` for a new one.

    Every command that replays by request id asks here, and a replay answers only a
    caller whose grants cover the command today: ``check`` runs on the stored result's
    key before anything is returned, so a lapsed or narrowed grant gets the refusal a
    fresh call would get, never the stored answer.

    Raises:
        Rollback: REQUEST_ID_REUSED when the id was used for a different request; the
            refusal of ``check`` when the caller's grants no longer cover the command.
    """
    row = connection.execute(
        select(model_requests.c.request_digest, model_requests.c.result_key).where(
            model_requests.c.principal_id == principal_id,
            model_requests.c.scope == scope,
            model_requests.c.request_id == request_id,
        )
    ).first()
    if row is None:
        return None
    if row.request_digest != digest:
        raise Rollback(
            Rejection(
                Code.ALREADY_EXISTS,
                "REQUEST_ID_REUSED",
                f"request_id {request_id!r} was already used for a different request",
            )
        )
    key = str(row.result_key)
    denied = check(key)
    if denied is not None:
        raise Rollback(denied)
    return key


def remember(
    connection: Connection,
    principal_id: str,
    scope: str,
    request_id: str,
    digest: str,
    result_key: str,
) -> None:
    """Records a request so that a retry replays it."""
    connection.execute(
        model_requests.insert().values(
            principal_id=principal_id,
            scope=scope,
            request_id=request_id,
            request_digest=digest,
            result_key=result_key,
        )
    )


def events(connection: Connection, subject: str = "") -> list[tuple[str, str, dict[str, object]]]:
    """``(kind, subject, payload)`` of the log in order, optionally of one subject."""
    query = select(model_events).order_by(model_events.c.seq)
    if subject:
        query = query.where(model_events.c.subject == subject)
    return [
        (row.kind, row.subject, json.loads(row.payload_json)) for row in connection.execute(query)
    ]
