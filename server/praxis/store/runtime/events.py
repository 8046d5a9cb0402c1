"""The durable run event log and named subscribers' acknowledged positions."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import values
from praxis.core.records import Principal
from praxis.core.rejection import Rejection, invalid
from praxis.store.db import locks
from praxis.store.db.database import Database, Rollback
from praxis.store.runtime import subscriptions
from praxis.store.runtime.rows import events as rows

LIST_DEFAULT = 100
LIST_MAX = 1000


@dataclass(frozen=True)
class EventRow:
    """One stored event."""

    seq: int
    kind: str
    run_id: str
    node_uid: str
    at_ms: int
    payload_json: str


class EventStore:
    """Reads of the event log and subscriber acknowledgements."""

    def __init__(self, db: Database, authority: Authority, clock: Clock) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock

    def _authorize(self, principal: Principal, action: str) -> Rejection | None:
        evidence = self.authority.authorize(principal, action, "", self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    def check_filters(self, after: int, run_id: str, subscriber: str) -> Rejection | None:
        """Validates a cursor and the optional filters."""
        if after < 0:
            return invalid("PAGE_INVALID", "after", "after must not be negative")
        if run_id:
            problem = values.check_identifier(run_id, "run_id")
            if problem:
                return problem
        if subscriber:
            return values.check_identifier(subscriber, "subscriber")
        return None

    def list_events(
        self,
        principal: Principal,
        after: int,
        limit: int,
        run_id: str = "",
        subscriber: str = "",
    ) -> tuple[list[EventRow], int] | Rejection:
        """Events with ``seq > after`` (oldest first) and the cursor for the next page."""
        size = limit or LIST_DEFAULT
        if not 0 < size <= LIST_MAX:
            return invalid("PAGE_INVALID", "limit", f"limit must be in [0, {LIST_MAX}]")
        problem = self.check_filters(after, run_id, subscriber) or self._authorize(
            principal, "event.read"
        )
        if problem:
            return problem
        events = self.read(after, size, run_id, subscriber)
        return events, events[-1].seq if events else after

    def read(
        self, after: int, limit: int, run_id: str = "", subscriber: str = ""
    ) -> list[EventRow]:
        """Events after a cursor (no authorization: the caller has checked it)."""
        return self.read_page(after, limit, run_id, subscriber)[0]

    def read_page(
        self, after: int, limit: int, run_id: str = "", subscriber: str = ""
    ) -> tuple[list[EventRow], bool]:
        """Events after a cursor, and whether some may be held back below the horizon.

        On PostgreSQL only events below the safe horizon are read (see
        :func:`praxis.store.db.locks.event_horizon`): a transaction still appending holds
        back the events after its own, so a reader never skips one. The flag says a
        writer was in flight: a stream should look again soon even without a wake-up.
        """
        with self.db.read() as connection:
            found, held_back = rows.page(connection, after, limit, run_id, subscriber)
        events = [
            EventRow(row.seq, row.kind, row.run_id, row.node_uid, row.at_ms, row.payload_json)
            for row in found
        ]
        return events, held_back

    def position(self, principal: Principal, subscriber: str) -> int | Rejection:
        """A subscriber's acknowledged cursor (0 when it never acknowledged)."""
        problem = values.check_identifier(subscriber, "subscriber") or self._authorize(
            principal, "event.read"
        )
        if problem:
            return problem
        with self.db.read() as connection:
            return _cursor(connection, subscriber)

    def ack(self, principal: Principal, subscriber: str, cursor: int) -> int | Rejection:
        """Records that ``subscriber`` processed every event up to ``cursor``."""
        problem = values.check_identifier(subscriber, "subscriber") or self._authorize(
            principal, "event.ack"
        )
        if problem:
            return problem
        if cursor < 0:
            return invalid("PAGE_INVALID", "cursor", "cursor must not be negative")
        now = self.clock.now_ms()

        def transaction(connection: Connection) -> int:
            locks.key(connection, "subscriber:" + subscriber)
            refused = subscriptions.claim(connection, self.authority, principal, subscriber, now)
            if refused:
                raise Rollback(refused)
            last = rows.last_seq(connection)
            if cursor > last:
                raise Rollback(
                    invalid("PAGE_INVALID", "cursor", f"cursor {cursor} is past the log's end")
                )
            current = rows.cursor(connection, subscriber)
            if current is None:
                rows.insert_cursor(connection, subscriber, cursor, now)
                return cursor
            if cursor > current:
                rows.advance_cursor(connection, subscriber, cursor, now)
            return max(cursor, current)

        result: int | Rejection = self.db.transact(transaction, scoped=True)
        return result


def _cursor(connection: Connection, subscriber: str) -> int:
    return rows.cursor(connection, subscriber) or 0
