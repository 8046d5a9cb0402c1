"""EventService: the durable event log, read by page or as a resumable stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from aiws.engine.v1 import event_pb2, event_pb2_grpc
from praxis.core.records import Principal
from praxis.core.rejection import Rejection
from praxis.rpc.auth import credential, principal
from praxis.rpc.errors import unwrap
from praxis.rpc.serving import SHUTTING_DOWN, Blocking, abort_async
from praxis.store.runtime.events import EventRow, EventStore
from praxis.store.wake.hub import EVENTS, Hub, run_topic, subscriber_topic

STREAM_BATCH = 500
HELD_RECHECK_S = 0.05


def event_to_proto(row: EventRow) -> event_pb2.Event:
    """One event."""
    return event_pb2.Event(
        seq=row.seq,
        kind=f"EVENT_KIND_{row.kind}",
        run_id=row.run_id,
        node_uid=row.node_uid,
        at_ms=row.at_ms,
        payload_json=row.payload_json,
    )


class EventServicer(event_pb2_grpc.EventServiceServicer):
    """EventService over an :class:`EventStore`."""

    def __init__(self, store: EventStore, hub: Hub, blocking: Blocking | None = None) -> None:
        self.store = store
        self.hub = hub
        self.blocking = blocking or Blocking()

    def ListEvents(  # gRPC method name
        self, request: event_pb2.ListEventsRequest, context: grpc.ServicerContext
    ) -> event_pb2.ListEventsResponse:
        rows, next_after = unwrap(
            context,
            self.store.list_events(
                principal(), request.after, request.limit, request.run_id, request.subscriber
            ),
        )
        return event_pb2.ListEventsResponse(
            events=[event_to_proto(row) for row in rows], next_after=next_after
        )

    async def StreamEvents(
        self, request: event_pb2.StreamEventsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[event_pb2.StreamEventsResponse]:
        """Sends stored events after the cursor, then each new one; waits on the loop.

        Ends when the caller's credential is refused (checked before each event and when
        its principal is revoked or rotated)."""
        caller = principal()
        checked = credential()
        problem = self.store.check_filters(request.after, request.run_id, request.subscriber)
        if problem:
            await abort_async(context, problem)
        started = await self.blocking.run(self._start, caller, request)
        cursor = await checked.unwrap(context, started)
        if request.run_id:
            topic = run_topic(request.run_id)
        elif request.subscriber:
            topic = subscriber_topic(request.subscriber)
        else:
            topic = EVENTS
        with self.hub.subscribe([topic, checked.topic]) as events:
            while True:
                events.clear()
                rows, held = await self.blocking.run(
                    self.store.read_page, cursor, STREAM_BATCH, request.run_id, request.subscriber
                )
                for row in rows:
                    yield event_pb2.StreamEventsResponse(event=event_to_proto(row))
                    cursor = row.seq
                if len(rows) < STREAM_BATCH:
                    # Events held back behind a writer in flight (PostgreSQL) come with its
                    # commit's wake-up; HELD_RECHECK_S covers a writer that rolled back.
                    await events.wait(HELD_RECHECK_S if held else self.hub.recheck_s())
                if self.hub.closing:
                    await abort_async(context, SHUTTING_DOWN)
                await checked.verify(context)

    def _start(self, caller: Principal, request: event_pb2.StreamEventsRequest) -> int | Rejection:
        """The starting cursor, after authorizing the caller (on the executor)."""
        if request.after == 0 and request.subscriber:
            return self.store.position(caller, request.subscriber)
        found = self.store.list_events(caller, request.after, 1, request.run_id)
        return found if isinstance(found, Rejection) else request.after

    def AckEvents(
        self, request: event_pb2.AckEventsRequest, context: grpc.ServicerContext
    ) -> event_pb2.AckEventsResponse:
        cursor = unwrap(context, self.store.ack(principal(), request.subscriber, request.cursor))
        return event_pb2.AckEventsResponse(cursor=cursor)
