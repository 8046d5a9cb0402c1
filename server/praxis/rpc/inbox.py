"""InboxService servicer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc

from aiws.engine.v1 import inbox_pb2, inbox_pb2_grpc
from praxis.core import handoff, registry
from praxis.core.records import Hold
from praxis.rpc.admin import hold_to_proto
from praxis.rpc.auth import credential, principal
from praxis.rpc.errors import unwrap
from praxis.rpc.handoffs import handoff_to_proto
from praxis.rpc.reconciliations import reconciliation_to_proto
from praxis.rpc.registry import approval_to_proto, proposal_to_proto
from praxis.rpc.serving import SHUTTING_DOWN, Blocking, abort_async
from praxis.rpc.waits import wait_to_proto
from praxis.rpc.work_orders import record_to_proto
from praxis.store.controls.records import Record
from praxis.store.execution.reconciliations import ReconciliationView
from praxis.store.views import owed
from praxis.store.views.inbox import KINDS, InboxItem, InboxStore, InboxSummary
from praxis.store.views.stuck import StuckRun
from praxis.store.wake.hub import INBOX, Hub

_KIND = {kind: getattr(inbox_pb2, f"INBOX_ITEM_KIND_{kind}") for kind in KINDS}
_KIND_IN = {value: key for key, value in _KIND.items()}
COALESCE_S = 0.25
"""WatchInbox reads again at most this often: wake-ups in between are coalesced."""


def item_to_proto(item: InboxItem, now_ms: int) -> inbox_pb2.InboxItem:
    """The proto inbox item (``now_ms``: an approval's state is as of then)."""
    message = inbox_pb2.InboxItem(
        item_id=item.item_id,
        kind=_KIND[item.kind],
        since_ms=item.since_ms,
        work_order_id=item.work_order_id,
        run_id=item.run_id,
        summary=item.summary,
    )
    subject = item.subject
    if isinstance(subject, registry.Proposal):
        message.proposal.CopyFrom(proposal_to_proto(subject))
        message.proposal.definition_json = ""  # read it with GetProposal
    elif isinstance(subject, ReconciliationView):
        message.reconciliation.CopyFrom(reconciliation_to_proto(subject))
    elif isinstance(subject, Hold):
        message.hold.CopyFrom(hold_to_proto(subject))
    elif isinstance(subject, StuckRun):
        message.stuck_run.CopyFrom(stuck_to_proto(subject))
    elif isinstance(subject, owed.AssessmentDue):
        message.assessment_due.CopyFrom(
            inbox_pb2.AssessmentDue(
                run_id=subject.run_id,
                kind=f"ASSESSMENT_KIND_{subject.kind}",
                contract_id=subject.contract_id,
                since_ms=subject.since_ms,
            )
        )
    elif isinstance(subject, handoff.Handoff):
        message.handoff.CopyFrom(handoff_to_proto(subject))
    elif isinstance(subject, owed.ExpiringApproval):
        message.approval.CopyFrom(approval_to_proto(subject.approval, now_ms))
    elif isinstance(subject, Record):
        message.work_order_proposal.CopyFrom(record_to_proto(subject))
    else:
        message.wait.CopyFrom(wait_to_proto(subject))
    return message


def stuck_to_proto(stuck: StuckRun) -> inbox_pb2.StuckRun:
    """The proto of a stuck run."""
    return inbox_pb2.StuckRun(
        run_id=stuck.run_id,
        node_uid=stuck.node_uid,
        model=stuck.model,
        ready_since_ms=stuck.ready_since_ms,
        served=stuck.served,
        schedule_to_start_deadline_ms=stuck.schedule_to_start_deadline_ms,
        stuck_nodes=stuck.stuck_nodes,
    )


class InboxServicer(inbox_pb2_grpc.InboxServiceServicer):
    """InboxService over an :class:`InboxStore`."""

    def __init__(
        self, store: InboxStore, hub: Hub | None = None, blocking: Blocking | None = None
    ) -> None:
        self.store = store
        self.hub = hub or Hub()
        self.blocking = blocking or Blocking()

    def ListInbox(  # gRPC method name
        self, request: inbox_pb2.ListInboxRequest, context: grpc.ServicerContext
    ) -> inbox_pb2.ListInboxResponse:
        page = unwrap(
            context,
            self.store.page(
                principal(),
                [_KIND_IN.get(kind) for kind in request.kinds],
                request.work_order_id,
                request.page_size,
                request.page_token,
            ),
        )
        return inbox_pb2.ListInboxResponse(
            items=[item_to_proto(item, self.store.clock.now_ms()) for item in page.items],
            next_page_token=page.next_page_token,
            counts=[
                inbox_pb2.InboxCount(kind=_KIND[kind], count=page.counts[kind]) for kind in KINDS
            ],
            total=page.total,
        )

    async def WatchInbox(  # gRPC method name
        self, request: inbox_pb2.WatchInboxRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[inbox_pb2.WatchInboxResponse]:
        """Sends the counts at once and after each change; waits on the event loop.

        A change is a commit that wakes the ``inbox`` topic, or the time the summary
        names for the next run to become stuck (no write marks it), or the hub's
        safety-net recheck (at most a minute), whichever comes first. Ends when the
        caller's credential is refused (checked before each message and when its
        principal is revoked or rotated)."""
        caller = principal()
        checked = credential()
        last: inbox_pb2.WatchInboxResponse | None = None
        with self.hub.subscribe([INBOX, checked.topic]) as changes:
            while True:
                changes.clear()
                found = await self.blocking.run(self.store.summary, caller, request.work_order_id)
                summary = await checked.unwrap(context, found)
                response = summary_to_proto(summary)
                if response != last:
                    last = response
                    yield response
                await changes.wait(self._timeout_s(summary))
                if self.hub.closing:
                    await abort_async(context, SHUTTING_DOWN)
                await checked.verify(context)
                await asyncio.sleep(COALESCE_S)  # one read for a burst of commits

    def _timeout_s(self, summary: InboxSummary) -> float:
        """How long to wait for a wake-up: until the next run becomes stuck, at most the
        hub's recheck."""
        timeout = self.hub.recheck_s()
        if summary.next_change_ms:
            due = (summary.next_change_ms - self.store.clock.now_ms()) / 1000
            timeout = max(0.0, min(timeout, due))
        return timeout


def summary_to_proto(summary: InboxSummary) -> inbox_pb2.WatchInboxResponse:
    """The WatchInbox message of an inbox summary."""
    return inbox_pb2.WatchInboxResponse(
        counts=[
            inbox_pb2.InboxCount(kind=_KIND[kind], count=summary.counts[kind]) for kind in KINDS
        ],
        total=summary.total,
        fingerprint=summary.fingerprint,
    )
