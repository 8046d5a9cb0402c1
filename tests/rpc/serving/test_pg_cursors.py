"""Cursors past 2^31 - 1 (valid int64 values) read empty pages on both databases.

On PostgreSQL the ``seq`` columns are 32-bit ``SERIAL``; a larger cursor bound as
INTEGER failed with INTERNAL (found by the conformance vectors against replicas).
"""

from __future__ import annotations

import pytest

from aiws.engine.v1 import event_pb2, principal_pb2, registry_pb2
from tests.support.harness import Harness
from tests.support.registry import ref

pytestmark = pytest.mark.backends("sqlite", "postgres")

CURSORS = [2**31, 2**53 + 1, 2**63 - 1]


@pytest.mark.parametrize("after", CURSORS)
def test_large_cursors_read_empty_pages(harness: Harness, after: int) -> None:
    alice = harness.client("alice")
    events = alice.events.ListEvents(event_pb2.ListEventsRequest(after=after))
    assert list(events.events) == [] and events.next_after == after
    history = alice.registry.ListHistory(registry_pb2.ListHistoryRequest(ref=ref(), after=after))
    assert list(history.events) == [] and history.next_after == after
    principals = alice.principals.ListPrincipalHistory(
        principal_pb2.ListPrincipalHistoryRequest(after=after)
    )
    assert list(principals.events) == [] and principals.next_after == after
