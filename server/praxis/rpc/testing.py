"""TestClockService: registered only when the server runs with ``--test-clock``."""

from __future__ import annotations

from collections.abc import Callable

import grpc

from aiws.engine.testing.v1 import clock_pb2, clock_pb2_grpc
from praxis.clock import TestClock
from praxis.core.rejection import invalid
from praxis.core.values import check_epoch_ms
from praxis.rpc.errors import abort


class TestClockServicer(clock_pb2_grpc.TestClockServiceServicer):
    """Sets and advances the server's :class:`TestClock`."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        clock: TestClock,
        on_change: Callable[[], None] | None = None,
        settle: Callable[[], object] | None = None,
    ) -> None:
        self.clock = clock
        self.on_change = on_change
        # Called after each change: returns once the timers due at the new time have
        # been swept, so that a caller sees the time take effect when the call returns.
        self.settle = settle

    def SetTime(  # gRPC method name
        self, request: clock_pb2.SetTimeRequest, context: grpc.ServicerContext
    ) -> clock_pb2.SetTimeResponse:
        problem = check_epoch_ms(request.now_ms, "now_ms")
        if problem:
            abort(context, problem)
        now = self.clock.set(request.now_ms)
        self._changed()
        return clock_pb2.SetTimeResponse(now_ms=now)

    def Advance(
        self, request: clock_pb2.AdvanceRequest, context: grpc.ServicerContext
    ) -> clock_pb2.AdvanceResponse:
        if request.by_ms < 0:
            abort(context, invalid("TIME_INVALID", "by_ms", "by_ms must not be negative"))
        now = self.clock.advance(request.by_ms)
        self._changed()
        return clock_pb2.AdvanceResponse(now_ms=now)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
        if self.settle is not None:
            self.settle()
