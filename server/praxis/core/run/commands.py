"""The commands of the run reducer, its reply and outcome, and the ids derived from
(run, node uid, attempt number)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from praxis.core import contract, values
from praxis.core.definition import Definition
from praxis.core.run.state import Attempt, Effect, Event, RunState


@dataclass(frozen=True)
class Start:
    """Create a run.

    Attributes:
        deadline_ms: When the run fails with DEADLINE_EXCEEDED unless it ended (0: none):
            the earlier of its own deadline and its contract's.
    """

    run_id: str
    definition: Definition
    revision: int = 0
    deadline_ms: int = 0


@dataclass(frozen=True)
class Dispatch:
    """Lease a READY node to a worker, within the run's allowance (if it has one)."""

    uid: str
    worker_id: str
    lease_ms: int
    allowance: contract.Allowance | None = None
    principal_id: str = ""
    """The claiming principal, recorded on the attempt."""
    input_bytes: int = 0
    """The size of the node's gathered input; over ``Limits.max_input_bytes`` the node
    fails with INPUT_TOO_LARGE instead of being leased."""


@dataclass(frozen=True)
class Return:
    """Give back an attempt that was leased but never delivered (the long poll it was
    handed to went away first): its node is ready again, the attempt is cancelled and
    does not count against the node's retry policy."""

    uid: str
    attempt_id: str
    worker_id: str


@dataclass(frozen=True)
class Heartbeat:
    """Extend the lease of a live attempt."""

    attempt: Attempt
    worker_id: str
    lease_ms: int


@dataclass(frozen=True)
class Complete:
    """Settle an attempt with a result."""

    attempt: Attempt
    worker_id: str
    result: values.JsonValue
    effect: Effect
    cost_microcredits: str = "0"


@dataclass(frozen=True)
class Fail:
    """Settle an attempt as failed."""

    attempt: Attempt
    worker_id: str
    error: str
    retryable: bool
    effect: Effect
    cost_microcredits: str = "0"


@dataclass(frozen=True)
class Expire:
    """Expire what is due at ``now``: the run's deadline, leases and timeouts, waits, and
    ready nodes past their schedule-to-start deadline.

    Attributes:
        held: The run's work order is paused or held, so no worker may claim its ready
            nodes: their schedule-to-start timers are re-armed rather than fired.
    """

    held: bool = False


@dataclass(frozen=True)
class Stop:
    """Cancel the run and its live attempts.

    Attributes:
        reason: Why, recorded as the run's ``result_error``.
        result_reason: The ``ErrorReason`` name recorded as the run's ``result_reason``
            ("" for a caller's StopRun; WORK_ORDER_CANCELED when its work order was).
    """

    reason: str
    result_reason: str = ""


@dataclass(frozen=True)
class Revise:
    """Apply a new revision to the nodes not yet dispatched.

    Attributes:
        source_results: Results of finished nodes that new fan-outs read
            (see :func:`revision_sources`).
    """

    definition: Definition
    revision: int
    source_results: Mapping[str, values.JsonValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Reconcile:
    """Record a reviewed decision about the uncertain effect of a BLOCKED node's attempt.

    Attributes:
        uid: The blocked node.
        attempt_id: The attempt whose effect was uncertain.
        applied: The decision: the effect was applied (settle) or not (retry).
        result: The attempt's result when it completed; ``None`` when it failed.
        completed: Whether the attempt completed (``True``) or failed.
    """

    uid: str
    attempt_id: str
    applied: bool
    result: values.JsonValue = None
    completed: bool = False


@dataclass(frozen=True)
class SatisfyWait:
    """Satisfy a WAITING node with a payload (validated against the wait's schema)."""

    uid: str
    payload: values.JsonValue


@dataclass(frozen=True)
class Resume:
    """Run a failed or cancelled run again from where it stopped: its DONE nodes keep
    their results; failed and cancelled nodes run again with new attempts.

    Attributes:
        reason: Why, recorded on the RUN_RESUMED event.
        by: The principal that resumed it.
        deadline_ms: The run's deadline from now on (0: none).
        definition: Agent replacement: the ref's head the run is resumed onto (``None``:
            its own revision). The nodes it changes run under their new spec, those
            that ran under a new operation id; a head that changes a DONE node or the
            graph's shape is refused (:func:`praxis.core.run.replace.conflicts`).
        revision: The head's revision (with ``definition``).
    """

    reason: str
    by: str
    deadline_ms: int = 0
    definition: Definition | None = None
    revision: int = 0


Command = (
    Start
    | Dispatch
    | Return
    | Heartbeat
    | Complete
    | Fail
    | Expire
    | Stop
    | Revise
    | Reconcile
    | SatisfyWait
    | Resume
)


@dataclass(frozen=True)
class Reply:
    """What the caller of a command learns beyond the new state."""

    replayed: bool = False
    will_retry: bool = False
    cancelled: bool = False
    lease_expires_at_ms: int = 0
    paused: bool = False
    """A heartbeat's: the run's work order is paused (set by the store, which reads it)."""


@dataclass(frozen=True)
class Outcome:
    """Everything one command writes."""

    state: RunState
    events: tuple[Event, ...] = ()
    changed: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    attempts: tuple[Attempt, ...] = ()
    result: tuple[str, values.JsonValue] | None = None
    reply: Reply = Reply()
    noop: bool = False


# --- ids ------------------------------------------------------------------------------


def attempt_id(run_id: str, uid: str, number: int) -> str:
    """The deterministic id of attempt ``number`` of node ``uid`` in ``run_id``."""
    text = f"attempt\x00{run_id}\x00{uid}\x00{number}"
    return "att_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def operation_id(run_id: str, uid: str, generation: int = 0) -> str:
    """The operation id of node ``uid``: stable across its retries, and across resumes
    that run it again after an effect settled as not applied; a resume after any other
    outcome begins a new ``generation`` (``NodeRun.operation``), so a new id."""
    text = f"operation\x00{run_id}\x00{uid}"
    if generation:
        text += f"\x00{generation}"
    return "op_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
