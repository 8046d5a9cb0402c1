"""The outbox's commands: its reactions to a run's start and end (the engine's
reactions table wires them), the deliverer's claims and settlements, operators' reads
and redeliveries (:mod:`praxis.store.notifications.rows` holds the SQL)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import values
from praxis.core.records import Principal
from praxis.core.rejection import Rejection, invalid, not_found
from praxis.store.db.database import Database
from praxis.store.db.reactions import Reactions
from praxis.store.notifications import rows as outbox
from praxis.store.notifications.emits import DeliveriesDue
from praxis.store.notifications.rows import DeliveryRow
from praxis.store.runtime.emits import RunFinished, RunStarted

LIST_DEFAULT = 100
LIST_MAX = 1000


@dataclass(frozen=True)
class DeliveryFilter:
    """ListDeliveries' filters (each empty for any) and page."""

    state: str = ""
    run_id: str = ""
    destination: str = ""
    page_size: int = 0
    page_token: str = ""


@dataclass(frozen=True)
class DeliveryPage:
    """One page of deliveries and the outbox's counts by state."""

    deliveries: list[DeliveryRow]
    next_page_token: str
    counts: dict[str, int]


class Notifications:
    """The webhook outbox over a :class:`Database`."""

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
        # Where DeliveriesDue is published after a commit (praxis.app.reactions).
        self.reactions = reactions or Reactions()

    # --- reactions to the runtime (inside its transactions) ---------------------------

    def on_start(self, event: RunStarted) -> None:
        """Keeps a starting run's ``notify`` (nothing when it asks for nothing)."""
        outbox.record(event.connection, event.record.state.run_id, event.notify)

    def on_finished(self, event: RunFinished) -> None:
        """Writes the pushes of a run that has just ended: its reply event, and one
        delivery per webhook destination (the deliverer wakes after the commit)."""
        if outbox.write(event.connection, event.saved, event.effects, event.now):
            self.reactions.after_commit(event.connection, DeliveriesDue())

    def _authorize(self, principal: Principal, action: str) -> Rejection | None:
        evidence = self.authority.authorize(principal, action, "", self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    # --- operators ----------------------------------------------------------------

    def page(self, principal: Principal, found: DeliveryFilter) -> DeliveryPage | Rejection:
        """A page of deliveries, newest first (``notification.read``)."""
        size = found.page_size or LIST_DEFAULT
        if not 0 < size <= LIST_MAX:
            return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {LIST_MAX}]")
        before = 0
        if found.page_token:
            if not found.page_token.isdigit() or len(found.page_token) > 18:
                return invalid("PAGE_INVALID", "page_token", "not a token of this listing")
            before = int(found.page_token)
        for path, text in (("run_id", found.run_id), ("destination", found.destination)):
            problem = values.check_identifier(text, path) if text else None
            if problem:
                return problem
        problem = self._authorize(principal, "notification.read")
        if problem:
            return problem
        with self.db.read() as connection:
            rows = outbox.page(
                connection, found.state, found.run_id, found.destination, before, size
            )
            counts = outbox.counts(connection)
        token = str(rows[-1].seq) if len(rows) == size and rows[-1].seq > 1 else ""
        return DeliveryPage(rows, token, counts)

    def redeliver(self, principal: Principal, delivery_id: str) -> DeliveryRow | Rejection:
        """Makes a delivery due now with a fresh count of tries (``notification.redeliver``)."""
        problem = values.check_identifier(delivery_id, "delivery_id") or self._authorize(
            principal, "notification.redeliver"
        )
        if problem:
            return problem
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> DeliveryRow | Rejection:
            found = outbox.redeliver(connection, delivery_id, now)
            if found is None:
                return not_found("DELIVERY_NOT_FOUND", f"no delivery {delivery_id!r}")
            self.reactions.after_commit(connection, DeliveriesDue())
            return found

        result: DeliveryRow | Rejection = self.db.transact(transaction, scoped=False)
        return result

    # --- the deliverer --------------------------------------------------------------

    def claim(self, limit: int, lease_ms: int) -> list[DeliveryRow]:
        """Takes up to ``limit`` due deliveries for one try each."""
        now = self.clock.now_ms()
        taken: list[DeliveryRow] = self.db.transact(
            lambda connection: outbox.claim(connection, now, limit, lease_ms), scoped=False
        )
        return taken

    def settle(
        self, taken: DeliveryRow, status: int, error: str, retry_at_ms: int | None
    ) -> str | None:
        """Records a try's outcome (:func:`outbox.settle`)."""
        now = self.clock.now_ms()
        state: str | None = self.db.transact(
            lambda connection: outbox.settle(connection, taken, now, status, error, retry_at_ms),
            scoped=False,
        )
        return state

    def next_due(self) -> int | None:
        """When the earliest waiting delivery falls due (None: none waits)."""
        with self.db.read() as connection:
            return outbox.next_due(connection)
