"""Reads of the registry: heads, proposals, a ref's history and a work order's epochs.

Each read authorizes ``registry.read`` on the ref's work order and writes nothing.
"""

from __future__ import annotations

import json

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import registry, values
from praxis.core.records import Epochs, Principal, Ref
from praxis.core.rejection import Code, Rejection, invalid
from praxis.store.controls import rows as controls
from praxis.store.db import paging
from praxis.store.db.database import Database
from praxis.store.registry.rows import (
    HistoryPage,
    head_rows,
    history_from_row,
    history_rows,
    load_head,
    load_proposal,
    revision_definition,
)

READ_ACTION = "registry.read"


class RegistryReadStore:
    """GetHead, ListRefs, GetProposal, ListHistory and GetEpochs over a :class:`Database`."""

    def __init__(
        self, db: Database, authority: Authority, clock: Clock, installation_id: str
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.installation_id = installation_id

    def _authorize_read(
        self, principal: Principal, action: str, work_order_id: str
    ) -> Rejection | None:
        evidence = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    def get_head(self, principal: Principal, ref: Ref) -> registry.Head | Rejection:
        """The current head of a ref."""
        problem = registry.check_ref(ref, "ref") or self._authorize_read(
            principal, READ_ACTION, ref.work_order_id
        )
        if problem:
            return problem
        with self.db.read() as connection:
            head = load_head(connection, ref)
        if head is None:
            return Rejection(Code.NOT_FOUND, "REF_NOT_FOUND", "the ref is not registered")
        return head

    def get_proposal(
        self, principal: Principal, ref: Ref, proposal_id: str
    ) -> tuple[registry.Proposal, values.JsonValue] | Rejection:
        """One proposal, with the definition of the revision it was proposed against
        (``None`` when that revision is missing, which a stored proposal never has)."""
        problem = (
            registry.check_ref(ref, "ref")
            or values.check_identifier(proposal_id, "proposal_id")
            or self._authorize_read(principal, READ_ACTION, ref.work_order_id)
        )
        if problem:
            return problem
        with self.db.read() as connection:
            proposal = load_proposal(connection, ref, proposal_id)
            base = (
                None
                if proposal is None
                else revision_definition(connection, ref, proposal.base_revision)
            )
        if proposal is None:
            return Rejection(Code.NOT_FOUND, "PROPOSAL_NOT_FOUND", f"no proposal {proposal_id!r}")
        return proposal, base

    def list_history(
        self, principal: Principal, ref: Ref, after: int, limit: int
    ) -> HistoryPage | Rejection:
        """One page of a ref's history, oldest first."""
        size = registry.page_limit(limit)
        if isinstance(size, Rejection):
            return size
        if after < 0:
            return invalid("PAGE_INVALID", "after", "after must not be negative")
        problem = registry.check_ref(ref, "ref") or self._authorize_read(
            principal, READ_ACTION, ref.work_order_id
        )
        if problem:
            return problem
        with self.db.read() as connection:
            rows = history_rows(connection, ref, after, size + 1)
        events = [(row.seq, history_from_row(row)) for row in rows[:size]]
        return HistoryPage(events, events[-1][0] if events else after, has_more=len(rows) > size)

    def list_heads(
        self, principal: Principal, work_order_id: str, page_size: int, page_token: str
    ) -> tuple[list[registry.Head], str] | Rejection:
        """One page of heads (without their definitions), by work order then run id."""
        resumed = paging.resume("refs", work_order_id, page_size, page_token, 2)
        if isinstance(resumed, Rejection):
            return resumed
        query_scope, after = resumed
        problem = self._authorize_read(principal, READ_ACTION, work_order_id)
        if problem:
            return problem
        size = page_size or paging.DEFAULT_PAGE
        with self.db.read() as connection:
            rows = head_rows(connection, work_order_id, after, size + 1)
        found = [
            registry.Head(
                ref=Ref(row.work_order_id, row.run_id),
                revision=row.revision,
                definition=None,
                definition_digest=row.definition_digest,
                policy_digests=json.loads(row.policy_digests_json),
                updated_at_ms=row.updated_at_ms,
                bound_run_id=row.bound_run_id,
            )
            for row in rows[:size]
        ]
        token = ""
        if len(rows) > size:
            last = found[-1].ref
            token = paging.encode([last.work_order_id, last.run_id], query_scope)
        return found, token

    def get_epochs(self, principal: Principal, work_order_id: str) -> Epochs | Rejection:
        """The installation id and the work order's current epochs."""
        problem = values.check_identifier(work_order_id, "work_order_id") or self._authorize_read(
            principal, READ_ACTION, work_order_id
        )
        if problem:
            return problem
        with self.db.read() as connection:
            work_order = controls.load_work_order(connection, work_order_id)
        return controls.epochs_of(self.installation_id, work_order)
