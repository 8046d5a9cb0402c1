"""The events the principals emit, that other slices react to (``praxis.app.reactions``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PrincipalChanged:
    """A principal's revocation or rotation committed (published after the commit, once
    this process forgot its cached lookups): its streams check their credential again."""

    principal_id: str
