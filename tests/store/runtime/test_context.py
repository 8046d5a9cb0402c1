"""The runtime context's ports: what the runtime asks of the contracts and retention
slices, answered here by plain objects instead of those slices' stores.

The runtime's stores are built on a :class:`RuntimeContext` alone, so a runtime without
the slices above it runs, and answers as if they held nothing; and whatever a port
answers is what StartRun, GetRun and a claim observe.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Connection

from praxis.clock import TestClock
from praxis.core.contract import Allowance
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Rejection, not_found
from praxis.store.db.database import Database
from praxis.store.runtime.context import Ports, RuntimeContext
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.runs import RunStore, StartRequest
from praxis.store.runtime.tasks import TaskStore
from praxis.store.schema import MIGRATIONS
from tests.support.harness import T0, authority
from tests.support.runtime import definition, node

ALICE = Principal("alice", PrincipalKind.HUMAN)
AGENT = Principal("agent", PrincipalKind.AGENT)
ONE_NODE = json.dumps(definition("a", a=node()))


class Contracts:
    """A contracts port with one contract, ``c-1`` of work order ``wo-1``, due at T0 + 60 s;
    it records each run whose allowance it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def work_order_of(self, contract_id: str) -> str | None:
        return "wo-1" if contract_id == "c-1" else None

    def deadline(self, connection: Connection, contract_id: str) -> int:
        return T0 + 60_000 if contract_id == "c-1" else 0

    def allowance(self, connection: Connection, record: RunRecord) -> Allowance | None:
        self.asked.append(record.state.run_id)
        return None


class Archive:
    """An archive that holds one run, ``run_gone`` of work order ``wo-1``."""

    def archived(self, run_id: str) -> tuple[str, Rejection] | None:
        if run_id != "run_gone":
            return None
        return "wo-1", not_found("RUN_ARCHIVED", "archived")

    def archived_request(
        self, connection: Connection, principal_id: str, request_id: str
    ) -> Rejection | None:
        if request_id != "started-then-archived":
            return None
        return not_found("RUN_ARCHIVED", "archived")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'runtime.db'}")
    database.migrate(T0, MIGRATIONS)
    yield database
    database.close()


def _context(db: Database, ports: Ports | None = None) -> RuntimeContext:
    return RuntimeContext(db, authority(), TestClock(T0), ("echo",), ports=ports)


def test_without_the_slices_above_the_runtime_answers_as_if_they_held_nothing(
    db: Database,
) -> None:
    runs = RunStore(_context(db))
    refused = runs.start(ALICE, StartRequest("r-1", ONE_NODE, contract_id="c-1"))
    assert isinstance(refused, Rejection) and refused.reason == "CONTRACT_NOT_FOUND"
    missing = runs.get_run(ALICE, "run_gone")
    assert isinstance(missing, Rejection) and missing.reason == "RUN_NOT_FOUND"
    started = runs.start(ALICE, StartRequest("r-2", ONE_NODE))
    assert not isinstance(started, Rejection)
    record, created = started
    assert created and record.state.deadline_ms == 0 and record.work_order_id == "default"


def test_what_the_ports_answer_is_what_start_get_and_claim_observe(db: Database) -> None:
    contracts = Contracts()
    context = _context(db, Ports(contracts=contracts, archive=Archive()))
    runs, tasks = RunStore(context), TaskStore(context)
    started = runs.start(ALICE, StartRequest("r-1", ONE_NODE, contract_id="c-1"))
    assert not isinstance(started, Rejection)
    record, _ = started
    # The contract's work order and deadline bound the run.
    assert record.work_order_id == "wo-1" and record.state.deadline_ms == T0 + 60_000
    # A claim asks the contract what the run still allows before it leases the attempt.
    claimed = tasks.claim(AGENT, "w1", ["echo"], 1, 60_000)
    assert not isinstance(claimed, Rejection) and [t.run_id for t in claimed] == [
        record.state.run_id
    ]
    assert contracts.asked == [record.state.run_id]
    # An archived run, and a start repeating the request of one, answer RUN_ARCHIVED.
    gone = runs.get_run(ALICE, "run_gone")
    assert isinstance(gone, Rejection) and gone.reason == "RUN_ARCHIVED"
    again = runs.start(ALICE, StartRequest("started-then-archived", ONE_NODE))
    assert isinstance(again, Rejection) and again.reason == "RUN_ARCHIVED"
