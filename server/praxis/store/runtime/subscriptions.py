"""Who may use a subscription: the principal that made it, or one granted every one.

A subscription is a subscriber name: the runs started with it (StartRun's
``subscriber``) send their events into it, a ``notify.reply_to`` posts the run's outcome
(and its free-text template) into it as ``RUN_REPLY``, and AckEvents moves its position.
The first StartRun naming it, or the first AckEvents of it, makes it, owned by the
caller; from then on only that principal, or one whose grant covers
:data:`ANY_ACTION` on every work order, may route runs into it or move its position.
Anyone else is refused ``PERMISSION_DENIED`` / ``SUBSCRIPTION_NOT_GRANTED`` and nothing
is written, so one agent cannot push events or a reply into another's session.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.core.records import Principal
from praxis.core.rejection import Code, Rejection
from praxis.store.runtime.rows import subscriptions as rows

ANY_ACTION = "subscription.any"
"""The grant that lets its holder use every principal's subscriptions (an operator's)."""


def not_granted(subscriber: str) -> Rejection:
    """The one refusal of a subscription that is not the caller's to use."""
    return Rejection(
        Code.PERMISSION_DENIED,
        "SUBSCRIPTION_NOT_GRANTED",
        f"subscription {subscriber!r} belongs to another principal; use a subscriber name "
        f"of your own (or hold a {ANY_ACTION!r} grant)",
    )


def claim(
    connection: Connection,
    authority: Authority,
    principal: Principal,
    subscriber: str,
    now_ms: int,
) -> Rejection | None:
    """Makes ``subscriber`` the caller's when nobody made it yet; the refusal when
    another principal did and the caller holds no :data:`ANY_ACTION` grant. In the
    caller's transaction (two first uses at once: one makes it, the other sees it)."""
    rows.make(connection, subscriber, principal.principal_id, now_ms)
    owner = rows.owner(connection, subscriber)
    if owner == principal.principal_id:
        return None
    granted = authority.authorize(principal, ANY_ACTION, "", now_ms)
    return not_granted(subscriber) if isinstance(granted, Rejection) else None
