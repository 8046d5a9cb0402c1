"""A claim that finds nothing to do reads, and writes nothing.

Long polls are woken for tasks other workers may take first; such a claim must not
cost a write transaction (on SQLite, a turn of the single writer that the commands
doing work wait for).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.harness import Harness
from tests.support.runtime import claim, definition, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def _count_write_transactions(harness: Harness) -> list[int]:
    counted = [0]
    for server in harness.replicas or [harness.server]:
        db = server.engine.runs.db
        transact = db.transact

        def counting(body: Callable[..., Any], *args: Any, transact=transact, **kwargs: Any) -> Any:  # type: ignore[no-untyped-def]
            counted[0] += 1
            return transact(body, *args, **kwargs)

        db.transact = counting  # type: ignore[method-assign]
    return counted


def test_a_claim_that_finds_nothing_writes_nothing(harness: Harness) -> None:
    counted = _count_write_transactions(harness)
    assert claim(harness) == []
    assert counted == [0]
    run = start(harness, definition("a", a=node()), {"x": 1}).run
    counted[0] = 0
    tasks = claim(harness)
    assert [(t.run_id, t.node_uid) for t in tasks] == [(run.run_id, "a")]
    assert counted == [1]  # a claim with something ready still leases it in one write
    counted[0] = 0
    assert claim(harness) == []  # the task is leased: nothing left to claim
    assert counted == [0]


def test_a_claim_registering_its_model_writes_even_when_nothing_is_ready(
    harness: Harness,
) -> None:
    counted = _count_write_transactions(harness)
    assert claim(harness, models=("llama",)) == []
    assert counted == [1]  # the registration is a write
    counted[0] = 0
    assert claim(harness, models=("llama",)) == []
    assert counted == [0]  # registered and not due for renewal: a read only
