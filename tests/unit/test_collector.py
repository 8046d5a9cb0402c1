"""The serving process's garbage collector (issue 40 item 6): the start-up heap frozen
before the server serves."""

from __future__ import annotations

import argparse
import gc
import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from praxis.serve import cli, collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        yield
    finally:
        gc.unfreeze()
        for number, handler in handlers.items():
            signal.signal(number, handler)


def test_settling_freezes_what_is_alive(restored_collector: None) -> None:
    gc.unfreeze()
    kept: list[object] = []  # a container: tracked by the collector until frozen
    assert any(found is kept for found in gc.get_objects())
    collector.settle_heap()
    assert gc.get_freeze_count() > 1000  # the test process's modules, at least
    assert not any(found is kept for found in gc.get_objects())  # frozen: never scanned


class _Server:
    """What ``praxis serve`` runs, reduced to the order of its steps: it stops itself
    (SIGTERM, as an operator would) as soon as it starts."""

    port = 0

    def __init__(self) -> None:
        self.frozen_at_start: int | None = None
        self.stopped = False

    def start(self) -> None:
        self.frozen_at_start = gc.get_freeze_count()
        os.kill(os.getpid(), signal.SIGTERM)

    def stop(self) -> None:
        self.stopped = True


def test_serve_settles_the_heap_before_it_serves(restored_collector: None) -> None:
    gc.unfreeze()
    server = _Server()
    args = argparse.Namespace(listen="127.0.0.1:0", test_clock=None, heartbeat_fd=None)
    served: Any = server
    assert cli._run(args, served, None) == 0
    assert server.stopped
    assert server.frozen_at_start is not None and server.frozen_at_start > 1000
