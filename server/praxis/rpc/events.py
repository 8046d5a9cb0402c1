"""EventService: the durable event log, read by page or as a resumable stream."""

from __future__ import annotations

from collections.abc import Iterator

import grpc

from aiws.engine.v1 import event_pb2, event_pb2_grpc
from praxis.rpc.auth import principal
from praxis.rpc.errors import abort, unwrap
from praxis.store.events import EventRow, EventStore
from praxis.store.signals import Signal

STREAM_BATCH = 500
STREAM_RECHECK_S = 0.5  # backstop for events written by another server process


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

    def __init__(self, store: EventStore, events: Signal) -> None:
        self.store = store
        self.events = events

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

    def StreamEvents(
        self, request: event_pb2.StreamEventsRequest, context: grpc.ServicerContext
    ) -> Iterator[event_pb2.StreamEventsResponse]:
        caller = principal()
        problem = self.store.check_filters(request.after, request.run_id, request.subscriber)
        if problem:
            abort(context, problem)
        cursor = request.after
        if cursor == 0 and request.subscriber:
            cursor = unwrap(context, self.store.position(caller, request.subscriber))
        else:
            unwrap(context, self.store.list_events(caller, cursor, 1, request.run_id))  # authorizes
        while context.is_active():
            seen = self.events.generation()
            rows = self.store.read(cursor, STREAM_BATCH, request.run_id, request.subscriber)
            for row in rows:
                yield event_pb2.StreamEventsResponse(event=event_to_proto(row))
                cursor = row.seq
            if not rows:
                self.events.wait(seen, STREAM_RECHECK_S)

    def AckEvents(
        self, request: event_pb2.AckEventsRequest, context: grpc.ServicerContext
    ) -> event_pb2.AckEventsResponse:
        cursor = unwrap(context, self.store.ack(principal(), request.subscriber, request.cursor))
        return event_pb2.AckEventsResponse(cursor=cursor)
