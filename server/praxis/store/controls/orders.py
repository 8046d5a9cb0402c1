"""WorkOrderService's store: work orders created, read, listed and closed as records.

Controls (pause, resume, cancel, holds, epochs) stay the :class:`AdminStore`'s; this
store keeps what a work order is (its creator, title, labels, parent, budget and actions)
and answers its state, spend, runs' counts and children.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import values
from praxis.core import work_orders as core
from praxis.core.records import Control, Principal, PrincipalKind
from praxis.core.rejection import Code, Rejection, invalid, not_found, precondition
from praxis.store.controls.emits import WorkOrderRecorded
from praxis.store.controls.records import Record, record_of
from praxis.store.controls.rows import tree
from praxis.store.db import paging
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions

CREATE, READ, CLOSE = "work_order.create", "work_order.read", "work_order.close"
PROPOSE, DECIDE = "work_order.propose", "work_order.decide"
"""Proposing a child needs ``work_order.propose`` on its parent; deciding a proposal
needs ``work_order.decide`` there, a human-only action
(:data:`praxis.core.kinds.HUMAN_ONLY_ACTIONS`)."""
MAX_REASON = 1000
"""A decline's reason is at most this many characters."""
_TERMINAL = ("COMPLETED", "FAILED", "CANCELLED")
_STATES = {state.value: state for state in core.State}


class WorkOrderStore:
    """Work orders as records over a :class:`Database`."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        # Where WorkOrderRecorded is published after a work order was recorded, proposed
        # or decided (its actions are then enforced; the inbox changed;
        # praxis.app.reactions).
        self.reactions = reactions or Reactions()

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        found = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return found if isinstance(found, Rejection) else None

    def create(
        self,
        principal: Principal,
        work_order_id: str,
        parent_id: str,
        title: str,
        labels: dict[str, str],
        budget: str,
        actions: list[str],
    ) -> tuple[Record, bool] | Rejection:
        """Records a work order; the same request by the same creator replays it."""
        request = core.check_request(work_order_id, parent_id, title, labels, budget, actions)
        if isinstance(request, Rejection):
            return request
        if principal.kind is PrincipalKind.AGENT:
            return Rejection(
                Code.PERMISSION_DENIED,
                "HUMAN_REQUIRED",
                "creating a work order is a human's or a service's decision: an agent "
                "proposes a child (ProposeWorkOrder) and a human approves it",
            )
        denied = self._authorize(principal, CREATE, parent_id or work_order_id)
        if denied:
            return denied
        return self._record_request(principal, request, proposed=False)

    def propose(
        self,
        principal: Principal,
        work_order_id: str,
        parent_id: str,
        title: str,
        labels: dict[str, str],
        budget: str,
        actions: list[str],
    ) -> tuple[Record, bool] | Rejection:
        """Records a proposed child of ``parent_id`` (PROPOSED: it admits nothing until a
        human approves it); the same proposal by the same proposer replays it."""
        request = core.check_request(work_order_id, parent_id, title, labels, budget, actions)
        if isinstance(request, Rejection):
            return request
        if not parent_id:
            return invalid(
                "FIELD_REQUIRED", "parent_id", "a proposal is of a child: name its parent"
            )
        denied = self._authorize(principal, PROPOSE, parent_id)
        if denied:
            return denied
        return self._record_request(principal, request, proposed=True)

    def decide(
        self, principal: Principal, work_order_id: str, approve: bool, reason: str
    ) -> Record | Rejection:
        """A human's decision on a proposed child: approved (OPEN, after the checks of a
        direct create, made now) or declined with ``reason`` (DECLINED, final). Taking
        the same decision again answers the record unchanged."""
        problem = values.check_identifier(work_order_id, "work_order_id")
        if problem:
            return problem
        if not approve and not reason.strip():
            return invalid("FIELD_REQUIRED", "reason", "a decline says why (the proposer reads it)")
        if len(reason) > MAX_REASON:
            return invalid("TEXT_TOO_LONG", "reason", f"reason is over {MAX_REASON} characters")
        with self.db.read() as connection:
            found = tree.load(connection, work_order_id)
        # Deciding needs the grant on the parent (on itself for a root, never proposed):
        # without it, a caller learns nothing of which ids exist.
        scope = found.parent_id or work_order_id if found else work_order_id
        denied = self._authorize(principal, DECIDE, scope)
        if denied:
            return denied
        if found is None:
            return not_found("WORK_ORDER_NOT_FOUND", f"no work order {work_order_id!r}")
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> Record:
            node = tree.load(connection, work_order_id)
            assert node is not None  # a record is never deleted
            refused = core.check_decision(node, approve)
            if refused:
                raise Rollback(refused)
            if node.proposal is not core.Proposal.PROPOSED:
                return self._record(connection, node, False)  # the same decision again
            if approve:
                parent = tree.load(connection, node.parent_id)
                assert parent is not None
                request = core.Request(
                    node.work_order_id,
                    node.parent_id,
                    node.title,
                    node.labels,
                    node.budget,
                    node.actions,
                )
                chain = tree.chain(connection, parent)
                problem = core.check_child(
                    chain, tree.child_count(connection, parent.work_order_id), request
                )
                if problem:
                    raise Rollback(problem)
            decided = core.Proposal.APPROVED if approve else core.Proposal.DECLINED
            reason_kept = "" if approve else reason
            by = principal.principal_id
            if not tree.decide(connection, work_order_id, decided, by, reason_kept, now):
                # Another human decided it meanwhile (PostgreSQL): answer as after it.
                after = tree.load(connection, work_order_id)
                assert after is not None
                refused = core.check_decision(after, approve)
                if refused:
                    raise Rollback(refused)
                return self._record(connection, after, False)
            changed = replace(
                node,
                proposal=decided,
                decided_by=by,
                decided_at_ms=now,
                decline_reason=reason_kept,
            )
            return self._record(connection, changed, False)

        result: Record | Rejection = self.db.transact(transaction)
        if not isinstance(result, Rejection):
            self.reactions.publish(WorkOrderRecorded(work_order_id))
        return result

    def _record_request(
        self, principal: Principal, request: core.Request, proposed: bool
    ) -> tuple[Record, bool] | Rejection:
        """Records a create (or a proposal) in one transaction."""
        work_order_id, parent_id = request.work_order_id, request.parent_id
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> tuple[Record, bool]:
            existing = tree.load(connection, work_order_id)
            if existing is not None:
                if core.same_request(existing, request, principal.principal_id, proposed):
                    return self._record(connection, existing, False), True
                raise Rollback(
                    Rejection(
                        Code.ALREADY_EXISTS,
                        "WORK_ORDER_EXISTS",
                        f"work order {work_order_id!r} is already recorded",
                    )
                )
            node = core.Node(
                work_order_id,
                title=request.title,
                labels=request.labels,
                creator=principal.principal_id,
                created_at_ms=now,
                budget=request.budget,
                actions=request.actions,
                proposal=core.Proposal.PROPOSED if proposed else core.Proposal.NONE,
            )
            if parent_id:
                parent = tree.load(connection, parent_id)
                if parent is None:
                    raise Rollback(
                        not_found("WORK_ORDER_NOT_FOUND", f"no work order {parent_id!r}")
                    )
                chain = tree.chain(connection, parent)
                problem = core.check_child(chain, tree.child_count(connection, parent_id), request)
                if problem is None and proposed:
                    problem = core.check_proposals(
                        parent_id, tree.proposal_count(connection, parent_id)
                    )
                if problem:
                    raise Rollback(problem)
                node = replace(
                    node,
                    parent_id=parent_id,
                    ancestors=(*parent.ancestors, parent_id),
                    control=core.effective(Control.ACTIVE, parent.control),
                )
            tree.insert(connection, node, now)
            return self._record(connection, node, False), False

        result: tuple[Record, bool] | Rejection = self.db.transact(transaction)
        if not isinstance(result, Rejection):
            self.reactions.publish(WorkOrderRecorded(work_order_id))
        return result

    def get(self, principal: Principal, work_order_id: str) -> Record | Rejection:
        """A work order's record with its runs' counts and first children."""
        problem = values.check_identifier(work_order_id, "work_order_id") or self._authorize(
            principal, READ, work_order_id
        )
        if problem:
            return problem
        with self.db.read() as connection:
            node = tree.load(connection, work_order_id)
            counts = tuple(tree.run_counts(connection, work_order_id))
            if node is None:
                if not counts:
                    return not_found("WORK_ORDER_NOT_FOUND", f"no work order {work_order_id!r}")
                node = core.Node(work_order_id)  # named by runs only: a root
            return self._record(connection, node, True, counts)

    def list(
        self,
        principal: Principal,
        parent_id: str,
        state: core.State | None,
        page_size: int,
        page_token: str,
        action: str = "",
    ) -> tuple[list[Record], str] | Rejection:
        """One page of the roots or of one parent's children, by id, that the caller may
        read; optionally of one state (a page may hold fewer than ``page_size`` records
        while its token says more may follow)."""
        problem = (
            values.check_identifier(parent_id, "parent_id") if parent_id else None
        ) or paging.check_page_size(page_size)
        if problem:
            return problem
        if len(action) > 128 or "*" in action or any(c.isspace() for c in action):
            return invalid("GRANT_INVALID", "action", "action is an action name, e.g. run.start")
        wanted = action or READ
        query_scope = paging.scope("work_orders", parent_id, state.value if state else "", wanted)
        after: str | None = None
        if page_token:
            decoded = paging.decode(page_token, query_scope, 1)
            if isinstance(decoded, Rejection):
                return decoded
            after = decoded[0]
        if parent_id and not action:
            denied = self._authorize(principal, READ, parent_id)
            if denied:
                return denied
        limit = page_size or paging.DEFAULT_PAGE
        found: list[Record] = []
        # Proposals anywhere in the tree, each listed to a caller who may act (or read)
        # in its parent: what a human has to decide.
        anywhere = state is core.State.PROPOSED and not parent_id
        with self.db.read() as connection:
            if anywhere:
                batch = tree.pending(connection, after, limit)
            else:
                batch = tree.page(connection, parent_id, after, limit)
            for node in batch:
                after = node.work_order_id
                if state is not None and node.state is not state:
                    continue
                scope = node.parent_id if anywhere else node.work_order_id
                if (anywhere or not parent_id or action) and self._authorize(
                    principal, wanted, scope
                ):
                    continue  # one the caller may not read (or act in) is not listed
                found.append(self._record(connection, node, False))
        more = len(batch) == limit
        return found, paging.encode([after or ""], query_scope) if more else ""

    def close(self, principal: Principal, work_order_id: str) -> Record | Rejection:
        """Closes a work order whose runs have ended and whose children are closed or
        cancelled."""
        problem = values.check_identifier(work_order_id, "work_order_id") or self._authorize(
            principal, CLOSE, work_order_id
        )
        if problem:
            return problem
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> Record:
            node = tree.load(connection, work_order_id)
            if node is None:
                raise Rollback(
                    not_found("WORK_ORDER_NOT_FOUND", f"no work order {work_order_id!r}")
                )
            if node.closed_at_ms:
                return self._record(connection, node, False)
            live = tree.live_runs(connection, work_order_id, _TERMINAL)
            open_children = [
                child.work_order_id
                for child in tree.page(connection, work_order_id, None, core.MAX_CHILDREN)
                if child.state not in (core.State.CLOSED, core.State.CANCELLED, core.State.DECLINED)
            ]
            if live or open_children:
                raise Rollback(
                    precondition(
                        "WORK_ORDER_NOT_DRAINED",
                        f"work order {work_order_id!r} has {live} live runs and "
                        f"{len(open_children)} open children",
                    )
                )
            tree.close(connection, work_order_id, now)
            return self._record(connection, replace(node, closed_at_ms=now), False)

        result: Record | Rejection = self.db.transact(transaction)
        return result

    def _record(
        self,
        connection: Connection,
        node: core.Node,
        full: bool,
        counts: tuple[tuple[str, int], ...] = (),
    ) -> Record:
        return record_of(connection, node, full, counts)


def state_of(name: str) -> core.State | None:
    """The state of its name, ``None`` for any other."""
    return _STATES.get(name)
