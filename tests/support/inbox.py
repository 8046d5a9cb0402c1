"""A WatchInbox stream read on a thread of the test's own, and its counts by kind."""

from __future__ import annotations

import threading
import time
from typing import Any

import grpc

from aiws.engine.v1 import inbox_pb2 as pb
from tests.support.harness import Harness


class Watcher:
    """Reads a WatchInbox stream on a thread (the test's own, not the server's)."""

    def __init__(self, h: Harness, principal_id: str = "alice", **fields: Any) -> None:
        self.messages: list[pb.WatchInboxResponse] = []
        self.error: grpc.RpcError | None = None
        self._changed = threading.Condition()
        self.call = h.client(principal_id).inbox.WatchInbox(pb.WatchInboxRequest(**fields))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for message in self.call:
                with self._changed:
                    self.messages.append(message)
                    self._changed.notify_all()
        except grpc.RpcError as error:
            with self._changed:
                self.error = error
                self._changed.notify_all()

    def wait_for(self, count: int, timeout_s: float = 10.0) -> pb.WatchInboxResponse:
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"only {len(self.messages)} messages: {self.messages}"
                self._changed.wait(left)
            return self.messages[count - 1]

    def close(self) -> None:
        self.call.cancel()
        self._thread.join(5)


def counted(message: pb.WatchInboxResponse) -> dict[str, int]:
    """The message's non-zero counts by kind name."""
    return {pb.InboxItemKind.Name(c.kind): c.count for c in message.counts if c.count}
