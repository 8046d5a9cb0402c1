"""The notification outbox's rows: what a run pushes when it ends, written with its end.

A run started with ``notify`` keeps its request in ``run_notifications`` (:func:`record`,
on the runtime's ``RunStarted``). The command that moves the run to a terminal state
(any command: a settlement, a stop, a sweep, a cancelled work order) publishes the
runtime's ``RunFinished`` inside its transaction, and :func:`write` then

* appends one ``RUN_REPLY`` event to the run's subscriber (``reply_to``): the event log
  is itself durable and resumable, so that reply is delivered by the event stream;
* writes one PENDING ``deliveries`` row per webhook destination, with the exact body
  every try will send. :mod:`praxis.deliverer` posts them after the commit.

The rest of this module is the outbox's SQL for the deliverer (claim, settle) and for
operators (list, count, redeliver).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Row, bindparam, func, select, update
from sqlalchemy.engine import Connection

from praxis.core import values, webhooks
from praxis.store.db import locks
from praxis.store.db.statements import Statement
from praxis.store.notifications.tables import deliveries, run_notifications
from praxis.store.runtime.records import Effects, RunRecord
from praxis.store.runtime.tables import run_events

PENDING, FAILED, DELIVERED, DEAD = "PENDING", "FAILED", "DELIVERED", "DEAD"
STATES = (PENDING, FAILED, DELIVERED, DEAD)
MAX_RESULT_BYTES = 256 * 1024
"""A result larger than this (canonical JSON) is left out of a notification
(``result_omitted: true``; read it with GetRun): a body stays under ~260 KiB."""
MAX_ERROR_CHARS = 256


@dataclass(frozen=True)
class DeliveryRow:
    """One outbox row, as operators and the deliverer see it."""

    seq: int
    delivery_id: str
    run_id: str
    destination: str
    event_type: str
    body: str
    state: str
    attempts: int
    next_at_ms: int
    last_error: str
    last_status: int
    created_at_ms: int
    delivered_at_ms: int


def record(connection: Connection, run_id: str, notify: webhooks.Notify) -> None:
    """Keeps a starting run's ``notify`` (nothing when it asks for nothing)."""
    if notify.empty:
        return
    connection.execute(
        run_notifications.insert().values(
            run_id=run_id,
            webhooks_json=values.canonical_json(list(notify.webhooks)),
            reply_to=int(notify.reply_to),
            reply_template=notify.reply_template,
        )
    )


def write(connection: Connection, saved: RunRecord, effects: Effects, now: int) -> bool:
    """Writes the pushes of a run that has just ended; True when it wrote deliveries."""
    notify = _notify_of(connection, saved.state.run_id)
    if notify is None:
        return False
    data = _data(saved)
    if notify.reply_to and saved.subscriber:
        _reply(connection, saved, data, notify.reply_template, effects)
    event_type = webhooks.EVENT_TYPES[saved.state.status.value]
    payload = webhooks.body(event_type, now, data)
    for destination in notify.webhooks:
        ordinal = _count(connection, saved.state.run_id, destination)
        connection.execute(
            deliveries.insert().values(
                delivery_id=webhooks.delivery_id(saved.state.run_id, destination, ordinal),
                run_id=saved.state.run_id,
                destination=destination,
                event_type=event_type,
                body=payload,
                state=PENDING,
                attempts=0,
                next_at_ms=now,
                last_error="",
                last_status=0,
                created_at_ms=now,
                updated_at_ms=now,
                delivered_at_ms=0,
            )
        )
    return bool(notify.webhooks)


def _notify_of(connection: Connection, run_id: str) -> webhooks.Notify | None:
    row = _NOTIFY_OF.run(connection, {"run_id": run_id}).first()
    if row is None:
        return None
    return webhooks.Notify(
        tuple(json.loads(row.webhooks_json)), bool(row.reply_to), row.reply_template
    )


# Read in every run's terminal transaction: a prepared statement.
_NOTIFY_OF = Statement(
    select(run_notifications).where(run_notifications.c.run_id == bindparam("run_id"))
)


def _data(saved: RunRecord) -> dict[str, values.JsonValue]:
    state = saved.state
    result: values.JsonValue = None
    omitted = len(saved.result_json.encode("utf-8")) > MAX_RESULT_BYTES
    if saved.result_json and not omitted:
        result = json.loads(saved.result_json)
    data = webhooks.outcome_data(
        state.run_id,
        state.status.value,
        saved.work_order_id,
        result,
        state.result_error,
        state.result_reason,
        state.finished_at_ms,
    )
    if omitted:
        data["result_omitted"] = True
    return data


def _reply(
    connection: Connection,
    saved: RunRecord,
    data: dict[str, values.JsonValue],
    template: str,
    effects: Effects,
) -> None:
    """Appends the RUN_REPLY event to the run's subscriber."""
    run_id = saved.state.run_id
    ordinal = connection.execute(
        select(func.count())
        .select_from(run_events)
        .where(run_events.c.run_id == run_id, run_events.c.kind == "RUN_REPLY")
    ).scalar_one()
    payload = {
        **data,
        "delivery_id": webhooks.delivery_id(run_id, "reply_to", int(ordinal)),
        "template": template,
    }
    locks.before_events(connection)
    connection.execute(
        run_events.insert().values(
            run_id=run_id,
            node_uid="",
            kind="RUN_REPLY",
            subscriber=saved.subscriber,
            payload_json=values.canonical_json(payload),
            at_ms=saved.state.updated_at_ms,
        )
    )
    effects.events = True
    effects.subscribers.add(saved.subscriber)


def _count(connection: Connection, run_id: str, destination: str) -> int:
    return int(
        connection.execute(
            select(func.count())
            .select_from(deliveries)
            .where(deliveries.c.run_id == run_id, deliveries.c.destination == destination)
        ).scalar_one()
    )


# --- the deliverer ------------------------------------------------------------------


def claim(connection: Connection, now: int, limit: int, lease_ms: int) -> list[DeliveryRow]:
    """Takes up to ``limit`` due deliveries for one try each: counts the try and moves
    their due time past the try's lease, so that no other process takes them meanwhile
    and a process that dies mid-try leaves them due again (at least once)."""
    due = connection.execute(
        select(deliveries)
        .where(deliveries.c.state.in_((PENDING, FAILED)), deliveries.c.next_at_ms <= now)
        .order_by(deliveries.c.next_at_ms, deliveries.c.seq)
        .limit(limit)
    ).all()
    taken = []
    for row in due:
        changed = connection.execute(
            update(deliveries)
            .where(
                deliveries.c.seq == row.seq,
                deliveries.c.next_at_ms == row.next_at_ms,
                deliveries.c.attempts == row.attempts,
            )
            .values(attempts=row.attempts + 1, next_at_ms=now + lease_ms, updated_at_ms=now)
        ).rowcount
        if changed:
            taken.append(_row(row, attempts=row.attempts + 1, next_at_ms=now + lease_ms))
    return taken


def settle(
    connection: Connection,
    taken: DeliveryRow,
    now: int,
    status: int,
    error: str,
    retry_at_ms: int | None,
) -> str | None:
    """Records a try's outcome; the delivery's new state, or None when an operator
    redelivered it meanwhile (the try no longer counts).

    ``error`` empty: delivered. Else ``retry_at_ms`` is when to try again, or None when
    the delivery is dead.
    """
    if not error:
        values_ = {"state": DELIVERED, "next_at_ms": 0, "delivered_at_ms": now}
    elif retry_at_ms is None:
        values_ = {"state": DEAD, "next_at_ms": 0}
    else:
        values_ = {"state": FAILED, "next_at_ms": retry_at_ms}
    changed = connection.execute(
        update(deliveries)
        .where(
            deliveries.c.seq == taken.seq,
            deliveries.c.attempts == taken.attempts,
            deliveries.c.next_at_ms == taken.next_at_ms,  # this try's lease, not a later one's
        )
        .values(
            last_status=status,
            last_error=error[:MAX_ERROR_CHARS],
            updated_at_ms=now,
            **values_,
        )
    ).rowcount
    return str(values_["state"]) if changed else None


def next_due(connection: Connection) -> int | None:
    """When the earliest delivery falls due, or None when none waits."""
    value = connection.execute(
        select(func.min(deliveries.c.next_at_ms)).where(deliveries.c.state.in_((PENDING, FAILED)))
    ).scalar()
    return None if value is None else int(value)


# --- operators ----------------------------------------------------------------------


def page(
    connection: Connection,
    state: str,
    run_id: str,
    destination: str,
    before_seq: int,
    limit: int,
) -> list[DeliveryRow]:
    """Deliveries newest first, below ``before_seq`` (0: from the newest)."""
    query = select(deliveries)
    if state:
        query = query.where(deliveries.c.state == state)
    if run_id:
        query = query.where(deliveries.c.run_id == run_id)
    if destination:
        query = query.where(deliveries.c.destination == destination)
    if before_seq:
        query = query.where(deliveries.c.seq < before_seq)
    rows = connection.execute(query.order_by(deliveries.c.seq.desc()).limit(limit)).all()
    return [_row(row) for row in rows]


def counts(connection: Connection) -> dict[str, int]:
    """Deliveries in each state."""
    found = dict.fromkeys(STATES, 0)
    rows = connection.execute(
        select(deliveries.c.state, func.count()).group_by(deliveries.c.state)
    ).all()
    for state, count in rows:
        found[str(state)] = int(count)
    return found


def redeliver(connection: Connection, delivery_id: str, now: int) -> DeliveryRow | None:
    """Makes a delivery due now with a fresh count of tries; None when there is none."""
    changed = connection.execute(
        update(deliveries)
        .where(deliveries.c.delivery_id == delivery_id)
        .values(state=PENDING, attempts=0, next_at_ms=now, updated_at_ms=now, delivered_at_ms=0)
    ).rowcount
    if not changed:
        return None
    row = connection.execute(
        select(deliveries).where(deliveries.c.delivery_id == delivery_id)
    ).one()
    return _row(row)


def _row(row: Row[Any], attempts: int | None = None, next_at_ms: int | None = None) -> DeliveryRow:
    found = DeliveryRow(
        seq=int(row.seq),
        delivery_id=row.delivery_id,
        run_id=row.run_id,
        destination=row.destination,
        event_type=row.event_type,
        body=row.body,
        state=row.state,
        attempts=int(row.attempts),
        next_at_ms=int(row.next_at_ms),
        last_error=row.last_error,
        last_status=int(row.last_status),
        created_at_ms=int(row.created_at_ms),
        delivered_at_ms=int(row.delivered_at_ms),
    )
    if attempts is not None and next_at_ms is not None:
        found = replace(found, attempts=attempts, next_at_ms=next_at_ms)
    return found
