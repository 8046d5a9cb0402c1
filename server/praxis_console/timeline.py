"""A run's attempts, their outcomes and timings, read from its event log."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from aiws.engine.v1 import event_pb2

MAX_ATTEMPTS_SHOWN = 2_000


@dataclass(frozen=True)
class Attempt:
    """One dispatched attempt of a node.

    ``outcome`` is ``running``, ``completed``, ``failed`` (``will retry`` or not),
    ``uncertain`` (blocked for reconciliation), ``reconciled: applied`` or
    ``reconciled: not applied``; ``effect`` is the effect outcome the worker reported
    when it settled the attempt (``APPLIED``, ``NOT_APPLIED`` or ``UNCERTAIN``; empty
    while running, or when the attempt ended without a report: a lease expiry).
    """

    node_uid: str
    number: int
    attempt_id: str
    worker_id: str
    dispatched_at_ms: int
    ended_at_ms: int = 0
    outcome: str = "running"
    error: str = ""
    effect: str = ""

    def as_json(self) -> dict[str, Any]:
        """A JSON object for the live page."""
        return asdict(self)


def payload(event: event_pb2.Event) -> dict[str, Any]:
    """An event's payload object ({} when empty or not an object)."""
    try:
        found = json.loads(event.payload_json or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


class Timeline:
    """Folds events, in order, into attempts (bounded to :data:`MAX_ATTEMPTS_SHOWN`)."""

    def __init__(self) -> None:
        self.attempts: dict[str, Attempt] = {}
        self._current: dict[str, str] = {}
        self.cursor = 0
        self.truncated = False

    def add(self, event: event_pb2.Event) -> Attempt | None:
        """Applies one event; returns the attempt it created or changed, if any."""
        self.cursor = max(self.cursor, event.seq)
        body = payload(event)
        kind = event_pb2.EventKind.Name(event.kind)
        if kind == "EVENT_KIND_NODE_DISPATCHED":
            return self._dispatched(event, body)
        key = self._key_of(event.node_uid, body)
        attempt = self.attempts.get(key) if key else None
        if attempt is None:
            return None
        changed = _settled(attempt, kind, event.at_ms, body)
        if changed is None:
            return None
        self.attempts[key] = changed
        return changed

    def _dispatched(self, event: event_pb2.Event, body: dict[str, Any]) -> Attempt | None:
        attempt_id = str(body.get("attempt_id", ""))
        if not attempt_id:
            return None
        if len(self.attempts) >= MAX_ATTEMPTS_SHOWN:
            self.truncated = True
            return None
        attempt = Attempt(
            node_uid=event.node_uid,
            number=_int(body.get("attempt")),
            attempt_id=attempt_id,
            worker_id=str(body.get("worker_id", "")),
            dispatched_at_ms=event.at_ms,
        )
        self.attempts[attempt_id] = attempt
        self._current[event.node_uid] = attempt_id
        return attempt

    def _key_of(self, node_uid: str, body: dict[str, Any]) -> str:
        attempt_id = body.get("attempt_id")
        if isinstance(attempt_id, str) and attempt_id in self.attempts:
            return attempt_id
        return self._current.get(node_uid, "")


def _settled(attempt: Attempt, kind: str, at_ms: int, body: dict[str, Any]) -> Attempt | None:
    changed = _outcome(attempt, kind, at_ms, body)
    effect = body.get("effect")
    if changed is not None and isinstance(effect, str) and effect:
        changed = replace(changed, effect=effect[:32])
    return changed


def _outcome(attempt: Attempt, kind: str, at_ms: int, body: dict[str, Any]) -> Attempt | None:
    if attempt.outcome.startswith("uncertain") and kind != "EVENT_KIND_NODE_RECONCILED":
        return None  # the node settling after a reconciliation: the outcome stays as decided
    if kind == "EVENT_KIND_NODE_COMPLETED" and "items" not in body:
        return replace(attempt, ended_at_ms=at_ms, outcome="completed")
    if kind == "EVENT_KIND_NODE_FAILED":
        outcome = "failed, will retry" if body.get("will_retry") else "failed"
        return replace(attempt, ended_at_ms=at_ms, outcome=outcome, error=str(body.get("error")))
    if kind == "EVENT_KIND_NODE_BLOCKED":
        return replace(attempt, ended_at_ms=at_ms, outcome="uncertain")
    if kind == "EVENT_KIND_NODE_RECONCILED":
        decided = "applied" if body.get("applied") else "not applied"
        return replace(attempt, outcome=f"uncertain, reconciled: {decided}")
    return None


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0
