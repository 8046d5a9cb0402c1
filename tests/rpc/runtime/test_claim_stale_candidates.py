"""A claim whose first candidates turn out stale still leases what else is ready.

On PostgreSQL a claim reads its candidates without locks; another claim may lease one and
commit before this one's lock on its run is granted. That candidate is then stale, and the
claim must look further instead of answering none while other work is ready (a long poll
answered none would sleep with work waiting).
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select

from praxis.store.runtime.tables import ready_nodes
from tests.support.harness import Harness
from tests.support.runtime import claim, definition, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


def test_a_claim_passes_a_stale_candidate_and_leases_the_next(harness: Harness) -> None:
    first = start(harness, definition("a", a=node()), {"x": 1}).run
    [taken] = claim(harness, max_tasks=1)
    assert taken.run_id == first.run_id
    second = start(harness, definition("a", a=node()), {"x": 2}).run
    with harness.server.engine.db.write() as connection:  # the taken one, ready again first
        oldest = connection.execute(select(func.min(ready_nodes.c.seq))).scalar_one()
        connection.execute(
            insert(ready_nodes).values(
                seq=oldest - 1,
                run_id=first.run_id,
                node_uid="a",
                model="echo",
                not_before_ms=0,
                work_order_id="",
            )
        )
    tasks = claim(harness, worker="w2", max_tasks=1)
    assert [(t.run_id, t.node_uid) for t in tasks] == [(second.run_id, "a")]
    with harness.server.engine.db.read() as connection:  # the stale row is gone
        left = connection.execute(select(ready_nodes.c.run_id)).scalars().all()
    assert left == []
