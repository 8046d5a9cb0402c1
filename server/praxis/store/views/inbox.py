"""The inbox: what waits for a human, oldest first, in one server-side query.

Items are derived from the durable records, so an item leaves the inbox in the same
transaction that decides it: pending proposals (``proposals``), pending reconciliations
(``reconciliations``, whose nodes are BLOCKED), open ``human_input`` and
``authorization`` waits (wait rows not yet satisfied whose node is WAITING), placed
holds, stuck runs (:mod:`praxis.store.views.stuck`: a ready node unclaimed past
:data:`~praxis.store.views.stuck.STUCK_AFTER_MS`), and (:mod:`praxis.store.views.owed`)
the verification and acceptance owed by completed runs under a contract, handoffs
awaiting acknowledgement and unconsumed approvals about to expire; and child work orders
an agent proposed (:func:`praxis.store.controls.rows.tree.oldest_pending`). At most
:data:`MAX_SCAN` records of each kind, the oldest, are considered per call (for stuck
runs, the oldest ready nodes); proposal and reconciliation counts are exact database
counts, the others count the items found.

A run becomes stuck, and an approval nears or reaches its expiry, by the clock alone,
with no write to wake ``WatchInbox``: the summary says when the next of these it saw
happens (:attr:`InboxSummary.next_change_ms`), and the stream reads again then.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import handoff, registry, values
from praxis.core.records import Hold, Principal, Ref
from praxis.core.rejection import Rejection, invalid
from praxis.store.controls import records
from praxis.store.controls import rows as controls
from praxis.store.controls.rows import tree
from praxis.store.db.database import Database
from praxis.store.execution.rows.reconciliations import ReconciliationView, reconciliation_view
from praxis.store.execution.rows.waits import WaitState, WaitView, wait_view
from praxis.store.registry.rows import proposal_of
from praxis.store.runtime.unit import Unit
from praxis.store.views import owed
from praxis.store.views.rows import inbox as rows
from praxis.store.views.stuck import StuckRun, scan

KINDS = (
    "PROPOSAL", "RECONCILIATION", "HUMAN_INPUT", "AUTHORIZATION", "HOLD", "STUCK_RUN",
    "ACCEPTANCE", "VERIFICATION", "HANDOFF", "APPROVAL_EXPIRING", "WORK_ORDER_PROPOSAL",
)  # fmt: skip
ACTION = "inbox.read"
MAX_SCAN = 2_000
MAX_PAGE = 500
DEFAULT_PAGE = 100

Subject = (
    registry.Proposal
    | ReconciliationView
    | WaitView
    | Hold
    | StuckRun
    | owed.AssessmentDue
    | handoff.Handoff
    | owed.ExpiringApproval
    | records.Record
)


@dataclass(frozen=True)
class InboxItem:
    """One thing waiting for a human."""

    kind: str
    since_ms: int
    item_id: str
    work_order_id: str
    run_id: str
    summary: str
    subject: Subject

    @property
    def key(self) -> tuple[int, int, str]:
        """The sort key: oldest first, then kind, then id."""
        return (self.since_ms, KINDS.index(self.kind), self.item_id)


@dataclass(frozen=True)
class InboxPage:
    """One page and the counts of the whole inbox."""

    items: list[InboxItem]
    next_page_token: str
    counts: dict[str, int]
    total: int


@dataclass(frozen=True)
class InboxSummary:
    """The counts of the inbox, a digest of the ids of its items, and when it next
    changes by the clock alone (a run becoming stuck; 0 when none is known)."""

    counts: dict[str, int]
    total: int
    fingerprint: str
    next_change_ms: int = 0


class InboxStore:
    """Reads the inbox across the registry, runs, waits and holds."""

    def __init__(self, db: Database, authority: Authority, clock: Clock, unit: Unit) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.unit = unit  # the runtime's: loads runs

    def page(
        self,
        principal: Principal,
        kinds: Sequence[str | None],
        work_order_id: str,
        page_size: int,
        page_token: str,
    ) -> InboxPage | Rejection:
        """One page of the inbox, oldest first."""
        problem = _check(kinds, work_order_id, page_size)
        if problem:
            return problem
        wanted = frozenset(kind for kind in kinds if kind) or frozenset(KINDS)
        scope = _scope(wanted, work_order_id)
        cursor = _decode(page_token, scope) if page_token else None
        if isinstance(cursor, Rejection):
            return cursor
        evidence = self.authority.authorize(principal, ACTION, work_order_id, self.clock.now_ms())
        if isinstance(evidence, Rejection):
            return evidence
        items, counts, _ = self._gather(work_order_id, cursor[0] if cursor else 0)
        chosen = sorted((item for item in items if item.kind in wanted), key=lambda i: i.key)
        if cursor is not None:
            chosen = [item for item in chosen if item.key > cursor]
        size = page_size or DEFAULT_PAGE
        page = chosen[:size]
        token = _encode(page[-1].key, scope) if len(chosen) > size and page else ""
        return InboxPage(page, token, counts, sum(counts[kind] for kind in wanted))

    def summary(self, principal: Principal, work_order_id: str) -> InboxSummary | Rejection:
        """The counts of the inbox and a fingerprint of its items (WatchInbox)."""
        problem = _check((), work_order_id, 0)
        if problem:
            return problem
        evidence = self.authority.authorize(principal, ACTION, work_order_id, self.clock.now_ms())
        if isinstance(evidence, Rejection):
            return evidence
        items, counts, next_change = self._gather(work_order_id, 0)
        fingerprint = values.digest(sorted(item.item_id for item in items))
        return InboxSummary(counts, sum(counts.values()), fingerprint, next_change)

    def _gather(
        self, work_order_id: str, since: int
    ) -> tuple[list[InboxItem], dict[str, int], int]:
        """The items considered (the oldest :data:`MAX_SCAN` of each kind from ``since``),
        the counts of each kind, and when a run next becomes stuck (0: not known)."""
        now = self.clock.now_ms()
        scope = work_order_id
        with self.db.read() as connection:
            stuck = scan(connection, work_order_id, now, MAX_SCAN)
            expiring, approvals_change = (
                owed.expiring_approvals(connection, now, MAX_SCAN) if not work_order_id else ([], 0)
            )
            items = [
                *_proposals(connection, work_order_id, since),
                *_reconciliations(connection, work_order_id, since),
                *self._waits(connection, work_order_id),
                *_holds(connection, work_order_id),
                *(_stuck_item(run, now) for run in stuck.runs),
                *map(_assessment_item, owed.assessments(connection, scope, since, MAX_SCAN)),
                *_handoff_items(owed.offered_handoffs(connection, scope, since, MAX_SCAN)),
                *map(_approval_item, expiring),
                *_work_order_proposals(connection, work_order_id),
            ]
            counts = {kind: 0 for kind in KINDS}
            for item in items:
                counts[item.kind] += 1
            counts["PROPOSAL"] = rows.count_proposals(connection, work_order_id)
            counts["RECONCILIATION"] = rows.count_reconciliations(connection, work_order_id)
        changes = [t for t in (stuck.next_ms, approvals_change) if t]
        return items, counts, min(changes, default=0)

    def _waits(self, connection: Connection, work_order_id: str) -> list[InboxItem]:
        items: list[InboxItem] = []
        now = self.clock.now_ms()
        for run_id in rows.runs_waiting(connection, work_order_id, MAX_SCAN):
            record = self.unit.load(connection, run_id)
            if record is None:
                continue
            for row in rows.waits_of(connection, run_id):
                if row.node_uid not in record.state.definition.nodes:
                    continue
                view = wait_view(connection, record, row, now)
                kind = {"human_input": "HUMAN_INPUT", "authorization": "AUTHORIZATION"}.get(
                    view.spec.kind
                )
                if kind is None or view.state is not WaitState.PENDING:
                    continue
                items.append(
                    InboxItem(
                        kind, view.opened_at_ms, f"wait:{view.wait_id}", record.work_order_id,
                        run_id, _wait_summary(view), view,
                    )
                )  # fmt: skip
        return items


SUMMARY_QUESTION_CHARS = 200
"""Characters of a question kept in an inbox item's one-line summary (the item's wait
carries it whole)."""


def _wait_summary(view: WaitView) -> str:
    """The wait's question on one line (whitespace folded, cut to
    :data:`SUMMARY_QUESTION_CHARS` with ``…``) when it asks one; otherwise the wait and,
    for an authorization, the actions it authorises (node and operation id; the first
    three)."""
    assert view.spec.wait is not None
    question = " ".join(view.spec.wait.question.split())
    if question:
        cut = len(question) > SUMMARY_QUESTION_CHARS
        return question[: SUMMARY_QUESTION_CHARS - 1] + "…" if cut else question
    text = f"{view.spec.kind} wait on {view.node_uid} of run {view.run_id}"
    if view.spec.kind != "authorization":
        return text
    named = [
        f"{action.node_uid} ({action.operation_id or 'fan-out'})" for action in view.actions[:3]
    ]
    more = f" and {len(view.actions) - 3} more" if len(view.actions) > 3 else ""
    purpose = f" for {view.purpose}" if view.purpose else ""
    return f"{text}: authorises {', '.join(named) or 'no agent node'}{more}{purpose}"


def _check(kinds: Sequence[str | None], work_order_id: str, page_size: int) -> Rejection | None:
    if len(kinds) > len(KINDS):
        return invalid("ENUM_INVALID", "kinds", f"at most {len(KINDS)} kinds")
    if any(kind is None for kind in kinds):
        return invalid("ENUM_INVALID", "kinds", "kinds must not hold an unspecified kind")
    if work_order_id:
        problem = values.check_identifier(work_order_id, "work_order_id")
        if problem:
            return problem
    if not 0 <= page_size <= MAX_PAGE:
        return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {MAX_PAGE}]")
    return None


def _scope(kinds: frozenset[str], work_order_id: str) -> str:
    text = json.dumps([sorted(kinds), work_order_id])
    return values.digest(text)[-12:]


def _encode(key: tuple[int, int, str], scope: str) -> str:
    text = json.dumps([key[0], key[1], key[2], scope])
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii")


def _decode(token: str, scope: str) -> tuple[int, int, str] | Rejection:
    bad = invalid("PAGE_INVALID", "page_token", "page_token is not a token of this inbox query")
    try:
        since, kind, item_id, token_scope = json.loads(base64.urlsafe_b64decode(token))
    except (ValueError, TypeError):
        return bad
    if token_scope != scope or not isinstance(since, int) or not isinstance(kind, int):
        return bad
    if not isinstance(item_id, str):
        return bad
    return (since, kind, item_id)


def _proposals(connection: Connection, work_order_id: str, since: int) -> list[InboxItem]:
    items = []
    for row in rows.pending_proposals(connection, work_order_id, since, MAX_SCAN):
        proposal = proposal_of(row, Ref(row.work_order_id, row.run_id))
        items.append(
            InboxItem(
                "PROPOSAL",
                row.created_at_ms,
                f"proposal:{row.work_order_id}/{row.run_id}/{row.proposal_id}",
                row.work_order_id,
                row.run_id,
                f"proposal {row.proposal_id} by {row.proposed_by} against revision "
                f"{row.base_revision}: {row.summary[:80]}",
                proposal,
            )
        )
    return items


def _reconciliations(connection: Connection, work_order_id: str, since: int) -> list[InboxItem]:
    items = []
    for row in rows.pending_reconciliations(connection, work_order_id, since, MAX_SCAN):
        view = reconciliation_view(row)
        outcome = "completed" if view.completed else "failed"
        items.append(
            InboxItem(
                "RECONCILIATION", view.opened_at_ms, f"reconciliation:{view.attempt_id}",
                row.work_order_id, view.run_id,
                f"uncertain effect of {view.node_uid} in run {view.run_id} (attempt {outcome})",
                view,
            )
        )  # fmt: skip
    return items


def _holds(connection: Connection, work_order_id: str) -> list[InboxItem]:
    found = controls.active_holds(connection, work_order_id if work_order_id else None)
    return [
        InboxItem(
            "HOLD",
            hold.placed_at_ms,
            f"hold:{hold.kind.value}/{hold.work_order_id}",
            hold.work_order_id,
            "",
            f"{hold.kind.value.lower().replace('_', ' ')} hold on "
            f"{hold.work_order_id or 'the installation'}: {hold.reason[:80]}",
            hold,
        )
        for hold in found
    ]


def _stuck_item(run: StuckRun, now_ms: int) -> InboxItem:
    waited = _duration(now_ms - run.ready_since_ms)
    workers = (
        f"workers of model {run.model!r} are busy"
        if run.served
        else f"no worker serves model {run.model!r}"
    )
    more = f" (and {run.stuck_nodes - 1} more)" if run.stuck_nodes > 1 else ""
    return InboxItem(
        "STUCK_RUN", run.ready_since_ms, f"stuck:{run.run_id}", run.work_order_id, run.run_id,
        f"node {run.node_uid}{more} of run {run.run_id} unclaimed for {waited}: {workers}", run,
    )  # fmt: skip


def _assessment_item(due: owed.AssessmentDue) -> InboxItem:
    owes = "acceptance" if due.kind == "ACCEPTANCE" else "verification"
    return InboxItem(
        due.kind, due.since_ms, f"{owes}:{due.run_id}", due.work_order_id, due.run_id,
        f"completed run {due.run_id} awaits {owes} against contract {due.contract_id}", due,
    )  # fmt: skip


def _handoff_items(found: list[tuple[handoff.Handoff, str]]) -> list[InboxItem]:
    return [
        InboxItem(
            "HANDOFF",
            offered.created_at_ms,
            f"handoff:{offered.delivery_id}",
            work_order_id,
            offered.run_id,
            f"{offered.from_principal_id} hands {offered.node_uid} of run {offered.run_id} "
            f"to {offered.to_principal_id}: {offered.note[:80]}",
            offered,
        )
        for offered, work_order_id in found
    ]


def _approval_item(expiring: owed.ExpiringApproval) -> InboxItem:
    record = expiring.approval.record
    purpose = f" for {record.purpose}" if record.purpose else ""
    return InboxItem(
        "APPROVAL_EXPIRING", expiring.since_ms, f"approval:{record.approval_id}", "", "",
        f"approval {record.approval_id} by {record.approver_id}{purpose} of "
        f"{record.material_digest[:19]}... is unused and expires soon",
        expiring,
    )  # fmt: skip


def _duration(ms: int) -> str:
    """``ms`` for a person: ``45s``, ``7m05s``, ``2h03m``, ``3d04h``."""
    seconds = max(ms, 0) // 1000
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    days, hour = divmod(hours, 24)
    if days:
        return f"{days}d{hour:02d}h"
    if hours:
        return f"{hours}h{minute:02d}m"
    if minutes:
        return f"{minutes}m{second:02d}s"
    return f"{second}s"


def _work_order_proposals(connection: Connection, work_order_id: str) -> list[InboxItem]:
    """Proposed child work orders waiting for a decision (of ``work_order_id``'s
    children only, when given): the oldest :data:`MAX_SCAN`."""
    items = []
    for node in tree.oldest_pending(connection, MAX_SCAN, work_order_id):
        record = records.record_of(connection, node)
        budget = "no budget of its own" if node.budget is None else f"budget {node.budget}"
        actions = ", ".join(node.actions) if node.actions else "its parent's actions"
        title = f": {node.title[:80]}" if node.title else ""
        items.append(
            InboxItem(
                "WORK_ORDER_PROPOSAL",
                node.created_at_ms,
                f"work_order:{node.work_order_id}",
                node.parent_id,
                "",
                f"{node.creator} proposes {node.work_order_id} under {node.parent_id}{title} "
                f"({budget}; {actions})",
                record,
            )
        )
    return items
