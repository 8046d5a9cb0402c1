"""The run reducer: ``apply(state, command, now) -> Outcome | Rejection``.

A :class:`RunState` is the compact snapshot of one run: its definition, revision and one
:class:`NodeRun` per node and fan-out item. Commands (:class:`Start`, :class:`Dispatch`,
:class:`Heartbeat`, :class:`Complete`, :class:`Fail`, :class:`Expire`, :class:`Stop`,
:class:`Revise`) each have one handler. An :class:`Outcome` holds the next state, the
events to append, the node uids whose queue rows must be re-synced, the attempt records
to upsert and the result to store. Nothing here reads a clock, a database or the network;
attempt and operation ids are derived from (run, node uid, attempt number).

Semantics (SPEC section 6): only the output node and its transitive dependencies decide
the outcome; other branches are cancelled when the run ends. A fan-out freezes its array
when it expands (the source result is immutable); an empty fan-out completes at once; a
fan-out over a non-array fails the fan-out node with a reason naming node and path.
Failed retryable attempts, expired leases and timeouts retry with exponential backoff up
to the node's budget. Expiry compares absolute times, so a clock that steps backwards
delays expiry and never brings it forward.

Execution model (SPEC section 7): a :class:`Dispatch` carries the run's
:class:`~praxis.core.contract.Allowance`; an attempt that would exceed the budget, the
spending cap or the deadline is not dispatched, and the node fails with the reason in
``RunState.result_reason``. An attempt settled with an ``UNCERTAIN`` effect leaves its
node BLOCKED, which blocks the run's completion, until a :class:`Reconcile` records a
reviewed decision: NOT_APPLIED retries under the same operation id, APPLIED settles.
Wait nodes open as WAITING with an expiry; :class:`SatisfyWait` completes them with a
validated payload, and :class:`Expire` fails them or takes their default at (never
before) the expiry.

Governed execution: an attempt that ends without the worker's report (lease lost,
timeout) is retried only on a node whose declared ``effects`` make a repeat safe;
otherwise its effect is UNCERTAIN and the node blocks for a reconciliation. A stop is a
request: when the run's outcome is decided (stopped, failed, deadline passed, output
done under orphan branches) each RUNNING node becomes STOPPING (heartbeats answer
``cancelled``) and its worker's report still settles it until the lease runs out
(NOT_APPLIED: cancelled; a completion: DONE with its result and effect; UNCERTAIN:
blocked). Meanwhile the run is COMPLETING, FAILING or CANCELLING; it ends once nothing
is unsettled (a completion also waits for its blocked orphans' reconciliations). A
ready node no worker claims within its ``schedule_to_start_ms`` fails
(SCHEDULE_TO_START_TIMEOUT); a run past its deadline fails (DEADLINE_EXCEEDED).
:class:`Resume` runs a failed or cancelled run again from where it stopped.
"""

from __future__ import annotations

from praxis.core.run.commands import (
    Command,
    Complete,
    Dispatch,
    Expire,
    Fail,
    Heartbeat,
    Outcome,
    Reconcile,
    Reply,
    Resume,
    Return,
    Revise,
    SatisfyWait,
    Start,
    Stop,
    attempt_id,
    operation_id,
)
from praxis.core.run.graph import (
    cancel,
    check_result,
    conclude,
    ended_attempt,
    finish,
    node_done,
    probe,
    promote,
    reprobe,
    retry_or_fail,
    revision_sources,
    settle,
    stopped,
    unsettled,
)
from praxis.core.run.handlers import (
    apply,
    lease_base,
    same_operation,
)
from praxis.core.run.queues import (
    RUN_TIMER,
    ready_entry,
    timer_due,
    timer_entry,
)
from praxis.core.run.state import (
    DECIDED,
    ENDING,
    ENDS_AS,
    EVENT_KINDS,
    HOLDING,
    LIVE,
    REQUIRED,
    STARTING,
    TERMINAL,
    TIMED,
    Attempt,
    AttemptStatus,
    Effect,
    Event,
    NodeRun,
    NodeStatus,
    RunState,
    RunStatus,
    Tally,
    item_uid,
    node_keys,
    order_key,
    ordered_uids,
    reservation,
)
from praxis.core.run.work import (
    Work,
)

__all__ = [
    "DECIDED",
    "ENDING",
    "ENDS_AS",
    "EVENT_KINDS",
    "HOLDING",
    "LIVE",
    "REQUIRED",
    "RUN_TIMER",
    "STARTING",
    "TERMINAL",
    "TIMED",
    "Attempt",
    "AttemptStatus",
    "Command",
    "Complete",
    "Dispatch",
    "Effect",
    "Event",
    "Expire",
    "Fail",
    "Heartbeat",
    "NodeRun",
    "NodeStatus",
    "Outcome",
    "Reconcile",
    "Reply",
    "Resume",
    "Return",
    "Revise",
    "RunState",
    "RunStatus",
    "SatisfyWait",
    "Start",
    "Stop",
    "Tally",
    "Work",
    "apply",
    "attempt_id",
    "cancel",
    "check_result",
    "conclude",
    "ended_attempt",
    "finish",
    "item_uid",
    "lease_base",
    "node_done",
    "node_keys",
    "operation_id",
    "order_key",
    "ordered_uids",
    "probe",
    "promote",
    "ready_entry",
    "reprobe",
    "reservation",
    "retry_or_fail",
    "revision_sources",
    "same_operation",
    "settle",
    "stopped",
    "timer_due",
    "timer_entry",
    "unsettled",
]
