"""Migration 16 gives every run recorded without a work order (ad hoc runs before issue
23 item 2) its contract's work order, or the default one, and its ready rows the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from praxis.store.db import migrations
from praxis.store.execution.tables import contracts
from praxis.store.runtime.tables import ready_nodes, runs
from praxis.store.schema import MIGRATIONS

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


def _run(run_id: str, work_order_id: str, contract_id: str) -> dict[str, object]:
    return {
        "run_id": run_id,
        "principal_id": "agent",
        "request_id": f"req-{run_id}",
        "request_digest": "sha256:" + "0" * 64,
        "status": "RUNNING",
        "work_order_id": work_order_id,
        "ref_run_id": "flow" if work_order_id else "",
        "revision": 0,
        "version": 1,
        "definition_digest": "sha256:" + "1" * 64,
        "input_json": "null",
        "subscriber": "",
        "contract_id": contract_id,
        "result_json": "",
        "result_error": "",
        "created_at_ms": 1,
        "updated_at_ms": 1,
        "finished_at_ms": 0,
    }


def test_old_runs_get_their_contracts_or_the_default_work_order(
    database: Path | str,
) -> None:
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    engine = create_engine(url)
    try:
        assert migrations.migrate(engine, 1, MIGRATIONS[:15]) == list(range(1, 16))
        with engine.begin() as connection:
            connection.execute(
                contracts.insert(),
                [
                    {
                        "contract_id": "c-x",
                        "work_order_id": "wo-x",
                        "content_json": "{}",
                        "digest": "sha256:" + "2" * 64,
                        "created_by": "alice",
                        "created_at_ms": 1,
                        "spent_microcredits": "0",
                    }
                ],
            )
            connection.execute(
                runs.insert(),
                [
                    _run("r-contract", "", "c-x"),
                    _run("r-plain", "", ""),
                    _run("r-governed", "wo-g", "c-x"),  # already had one: unchanged
                    _run("r-lost-contract", "", "c-gone"),
                ],
            )
            connection.execute(
                ready_nodes.insert(),
                [
                    {"run_id": run_id, "node_uid": "a", "model": "echo", "not_before_ms": 0,
                     "work_order_id": ""}
                    for run_id in ("r-contract", "r-plain")
                ]
                + [{"run_id": "r-governed", "node_uid": "a", "model": "echo",
                    "not_before_ms": 0, "work_order_id": "wo-g"}],
            )  # fmt: skip
        assert migrations.migrate(engine, 2, MIGRATIONS) == list(range(16, len(MIGRATIONS) + 1))
        with engine.connect() as connection:
            owners = dict(connection.execute(select(runs.c.run_id, runs.c.work_order_id)).all())
            ready = dict(
                connection.execute(select(ready_nodes.c.run_id, ready_nodes.c.work_order_id)).all()
            )
        assert owners == {
            "r-contract": "wo-x",
            "r-plain": "default",
            "r-governed": "wo-g",
            "r-lost-contract": "default",
        }
        assert ready == {"r-contract": "wo-x", "r-plain": "default", "r-governed": "wo-g"}
    finally:
        engine.dispose()
