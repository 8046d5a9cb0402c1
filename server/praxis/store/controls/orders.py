"""WorkOrderService's store: work orders created, read, listed and closed as records.

Controls (pause, resume, cancel, holds, epochs) stay the :class:`AdminStore`'s; this
store keeps what a work order is (its creator, title, labels, parent, budget and actions)
and answers its state, spend, runs' counts and children.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import values
from praxis.core import work_orders as core
from praxis.core.records import Control, Principal, PrincipalKind
from praxis.core.rejection import Code, Rejection, invalid, not_found, precondition
from praxis.store.controls import tree
from praxis.store.controls.emits import WorkOrderCreated
from praxis.store.db import paging
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions

CREATE, READ, CLOSE = "work_order.create", "work_order.read", "work_order.close"
CHILDREN_SHOWN = 100
"""GetWorkOrderRecord answers at most this many children."""
_TERMINAL = ("COMPLETED", "FAILED", "CANCELLED")
_STATES = {state.value: state for state in core.State}


@dataclass(frozen=True)
class Record:
    """A work order with its runs' counts and first children."""

    node: core.Node
    remaining: Decimal | None
    """What its runs may still spend (``None``: no budget limits them)."""
    child_count: int
    state_from: str
    """The work order whose control gives its state (itself or an ancestor)."""
    run_counts: tuple[tuple[str, int], ...] = ()
    children: tuple[Record, ...] = ()


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
        # Where WorkOrderCreated is published (praxis.app.reactions): its actions are
        # then enforced.
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
                "creating a work order is a human's or a service's decision: an agent asks "
                "a human for one (a wait of its run)",
            )
        denied = self._authorize(principal, CREATE, parent_id or work_order_id)
        if denied:
            return denied
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> tuple[Record, bool]:
            existing = tree.load(connection, work_order_id)
            if existing is not None:
                if core.same_request(existing, request, principal.principal_id):
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
            )
            if parent_id:
                parent = tree.load(connection, parent_id)
                if parent is None:
                    raise Rollback(
                        not_found("WORK_ORDER_NOT_FOUND", f"no work order {parent_id!r}")
                    )
                chain = tree.chain(connection, parent)
                problem = core.check_child(chain, tree.child_count(connection, parent_id), request)
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
            self.reactions.publish(WorkOrderCreated(work_order_id))
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
        with self.db.read() as connection:
            batch = tree.page(connection, parent_id, after, limit)
            for node in batch:
                after = node.work_order_id
                if state is not None and node.state is not state:
                    continue
                if (not parent_id or action) and self._authorize(
                    principal, wanted, node.work_order_id
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
                if child.state not in (core.State.CLOSED, core.State.CANCELLED)
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
        chain = tree.chain(connection, node)
        children: tuple[Record, ...] = ()
        if full:
            shown = tree.page(connection, node.work_order_id, None, CHILDREN_SHOWN)
            children = tuple(self._record(connection, child, False) for child in shown)
        return Record(
            node,
            core.remaining(chain),
            tree.child_count(connection, node.work_order_id),
            core.state_from(chain),
            counts,
            children,
        )


def state_of(name: str) -> core.State | None:
    """The state of its name, ``None`` for any other."""
    return _STATES.get(name)
