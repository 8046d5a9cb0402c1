"""ListRuns reads its driving filter's index, in page order, never a scan of every run
(SQLite's query plans of :mod:`praxis.store.runtime.listing`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from praxis.core import run as core
from praxis.core.records import Ref
from praxis.store.db import migrations
from praxis.store.runtime import listing
from praxis.store.runtime.rows import listing as listing_rows
from praxis.store.schema import MIGRATIONS


@pytest.mark.parametrize(
    ("found", "index"),
    [
        (listing.RunFilter(labels={"team": "search", "tier": "gold"}), "run_labels_match"),
        (listing.RunFilter(ref=Ref("wo-1", "plan"), labels={"k": "v"}), "runs_ref_created"),
        (listing.RunFilter(contract_id="c-1", started_by="agent"), "runs_contract_created"),
        (listing.RunFilter(started_by="agent", work_order_id="wo-1"), "runs_started_by_created"),
        (
            listing.RunFilter(work_order_id="wo-1", status=core.RunStatus.RUNNING),
            "runs_work_order_created",
        ),
        (listing.RunFilter(status=core.RunStatus.FAILED), "runs_status_created"),
        (listing.RunFilter(created_after_ms=5, created_before_ms=9), "runs_created"),
        (listing.RunFilter(), "runs_created"),
    ],
)
def test_the_driving_filter_reads_its_index_in_page_order(
    tmp_path: Path, found: listing.RunFilter, index: str
) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'plans.db'}")
    try:
        migrations.migrate(engine, 1, MIGRATIONS)
        driver, _checked = listing_rows.driver(found)
        query = listing_rows.keys_query(driver, found, (10, "run_x"), 101)
        sql = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
        with engine.connect() as connection:
            plan = " | ".join(
                row[-1] for row in connection.execute(text("EXPLAIN QUERY PLAN " + sql))
            )
    finally:
        engine.dispose()
    assert f"USING COVERING INDEX {index}" in plan or f"USING INDEX {index}" in plan, plan
    assert "TEMP B-TREE" not in plan, plan  # no sort: the index yields the page order
    assert "SCAN" not in plan.replace(f"SCAN {index}", ""), plan
