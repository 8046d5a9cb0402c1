"""Handoffs: a node's outputs and the responsibility for them pass to another principal.

A handoff is offered by the authenticated sender for a finished node and acknowledged,
once, by its receiver. Its delivery id is derived from the creating request and carries
its own prefix, so it is never confused with an operation or attempt id.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass

from praxis.core import values
from praxis.core.records import Ref
from praxis.core.rejection import Code, Rejection, invalid, precondition

MAX_NOTE = values.MAX_TEXT_BYTES  # UTF-8 bytes


class State(enum.Enum):
    """Lifecycle of a handoff."""

    OFFERED = "OFFERED"
    ACKNOWLEDGED = "ACKNOWLEDGED"


@dataclass(frozen=True)
class Work:
    """The revision of the work a handoff's outputs come from, bound at the offer.

    ``ref`` is ``None`` for an ad hoc run (whose revision is 0); ``definition_digest``
    is the digest of the definition the node ran under.
    """

    ref: Ref | None
    revision: int
    definition_digest: str


@dataclass(frozen=True)
class Handoff:
    """One transfer of outputs and responsibility."""

    delivery_id: str
    run_id: str
    node_uid: str
    from_principal_id: str
    to_principal_id: str
    outputs_digest: str
    note: str
    state: State = State.OFFERED
    created_at_ms: int = 0
    acknowledged_at_ms: int = 0
    work: Work | None = None
    """The revision of the work handed off; ``None`` only for a handoff offered before
    handoffs recorded it and whose run is no longer there to tell."""


def delivery_id(principal_id: str, request_id: str) -> str:
    """The delivery id of the handoff a principal's request creates."""
    text = f"handoff\x00{principal_id}\x00{request_id}"
    return "dlv_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def check_offer(sender: str, receiver: str, note: str, node_done: bool) -> Rejection | None:
    """The rules of an offer: to someone else, of finished outputs, with a short note."""
    if receiver == sender:
        return invalid(
            "ATTRIBUTION_MISMATCH", "to_principal_id", "a handoff goes to another principal"
        )
    too_long = values.check_text(note, "note")
    if too_long:
        return too_long
    if not node_done:
        return precondition("NODE_NOT_DONE", "only a finished node's outputs can be handed off")
    return None


def acknowledge(handoff: Handoff, principal_id: str, now_ms: int) -> Handoff | Rejection:
    """The acknowledged handoff, or why the principal may not acknowledge it."""
    if principal_id != handoff.to_principal_id:
        return Rejection(
            Code.PERMISSION_DENIED,
            "HANDOFF_NOT_ADDRESSED",
            "only the receiver may acknowledge a handoff",
        )
    if handoff.state is State.ACKNOWLEDGED:
        return precondition("HANDOFF_ALREADY_ACKNOWLEDGED", "the handoff was acknowledged")
    return Handoff(
        **{**handoff.__dict__, "state": State.ACKNOWLEDGED, "acknowledged_at_ms": now_ms}
    )
