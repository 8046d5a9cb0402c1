"""The events the notifications slice emits (``praxis.app.reactions``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeliveriesDue:
    """Deliveries became due: a run's end wrote some, or an operator redelivered one.
    Published after the commit, once per group commit: the deliverer wakes."""
