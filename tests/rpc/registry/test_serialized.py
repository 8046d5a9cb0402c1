"""What a registry command runs inside its write transaction, the serialized section.

Writers of every server process on one SQLite file take turns, so whatever a command's
transaction body runs is paid once per command by all of them. A command reads its state
in one statement, and checks a new definition before the transaction, while every check
that depends on stored state stays inside, in its order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest

from praxis.core import definition
from praxis.core.rejection import Rejection, invalid
from praxis.store.db import statements
from praxis.store.db.database import Database
from tests.support.harness import Harness, expect_error
from tests.support.registry import activate_cmd, approve, execute, propose_cmd, registered, variant

pytestmark = pytest.mark.backends("sqlite", "postgres")

STATE_TABLES = ("meta", "work_orders", "holds", "receipts", "heads", "proposals", "approvals")


@contextmanager
def bodies(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Records the SELECTs that read registry state inside a registry command's
    transaction body, and whether a body is running."""
    seen: dict[str, Any] = {"inside": False, "reads": []}
    transact = Database.transact

    def wrapped_transact(self: Database, body: Callable[..., Any], scoped: bool = False) -> Any:
        def inside(connection: Any) -> Any:
            seen["inside"] = True
            try:
                return body(connection)
            finally:
                seen["inside"] = False

        return transact(self, inside, scoped)

    def record(element: Any) -> None:
        sql = str(element).lower()
        reads_state = any(f"from {t}" in sql or f"join {t}" in sql for t in STATE_TABLES)
        if seen["inside"] and sql.lstrip().startswith("select") and reads_state:
            seen["reads"].append(sql)

    run = statements.Statement.run

    def recorded_run(self: statements.Statement, connection: Any, params: Any = None) -> Any:
        record(self.element)
        return run(self, connection, params)

    monkeypatch.setattr(Database, "transact", wrapped_transact)
    monkeypatch.setattr(statements.Statement, "run", recorded_run)
    yield seen


def test_a_command_reads_its_state_in_one_statement(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = registered(harness)
    activate = activate_cmd(r, "p-1", 1, "ap-1")
    with bodies(monkeypatch) as seen:
        execute(harness, "agent", "req-prop", propose_cmd(r, "p-1", 1, variant(2)))
        assert len(seen["reads"]) == 1, seen["reads"]  # was 6: clock, work order, holds, ...
        seen["reads"].clear()
        approve(harness, activate, "ap-1")
        assert len(seen["reads"]) == 1, seen["reads"]  # the approval with its proof
        seen["reads"].clear()
        receipt = execute(harness, "alice", "req-act", activate).receipt
        assert len(seen["reads"]) == 1, seen["reads"]  # was 7
        assert receipt.head_revision == 2
        seen["reads"].clear()
        replay = execute(harness, "alice", "req-act", activate)
        assert replay.replayed and replay.receipt == receipt
        assert len(seen["reads"]) == 1, seen["reads"]


def test_a_new_definition_is_checked_before_the_transaction(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = harness.server.engine.registry
    check = store.definition_check
    assert check is not None
    calls: list[tuple[str, bool, bool]] = []
    with bodies(monkeypatch) as seen:

        def recorded(document: Any, path: str, connection: Any, digest: str) -> Rejection | None:
            calls.append((path, connection is None, seen["inside"]))
            return check(document, path, connection, digest)

        monkeypatch.setattr(store, "definition_check", recorded)
        r = registered(harness)
        execute(harness, "agent", "req-prop", propose_cmd(r, "p-1", 1, variant(2)))
        activate = activate_cmd(r, "p-1", 1, "ap-1")
        approve(harness, activate, "ap-1")
        execute(harness, "alice", "req-act", activate)
    assert calls == [
        # The REGISTER's review checks its definition (a human approves only material
        # Execute would accept), and so does the REGISTER, from the cache.
        ("command.register.definition_json", True, False),
        ("command.register.definition_json", True, False),
        ("command.propose.definition_json", True, False),
        # The review of the ACTIVATE checks the proposal beside other commands ...
        ("command.activate.proposal_id", True, False),
        # ... and the ACTIVATE inside (the stored proposal is read there), where a
        # definition this process checked already is not parsed again.
        ("command.activate.proposal_id", False, True),
    ]


def test_an_activation_parses_nothing_inside_after_its_review(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PROPOSE may have reached another server process (as here, its parsed
    definition forgotten): the Review before the ACTIVATE parses the proposal, so the
    ACTIVATE's transaction does not."""
    r = registered(harness)
    execute(harness, "agent", "req-prop", propose_cmd(r, "p-1", 1, variant(2)))
    harness.server.engine.runs.unit.definitions.clear()  # as if another process
    parsed_inside: list[bool] = []
    parse = definition.parse
    with bodies(monkeypatch) as seen:

        def recorded(*args: Any, **kwargs: Any) -> Any:
            parsed_inside.append(seen["inside"])
            return parse(*args, **kwargs)

        monkeypatch.setattr(definition, "parse", recorded)
        activate = activate_cmd(r, "p-1", 1, "ap-1")
        approve(harness, activate, "ap-1")
        assert execute(harness, "alice", "req-act", activate).receipt.head_revision == 2
    assert parsed_inside == [False]  # once, by the Review


def test_a_refused_definition_is_answered_after_the_gates_and_the_replay(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = registered(harness)
    first = execute(harness, "agent", "req-prop", propose_cmd(r, "p-1", 1, variant(2)))
    store = harness.server.engine.registry

    def refuse(document: Any, path: str, connection: Any, digest: str) -> Rejection | None:
        return invalid("DEFINITION_INVALID", path, "refused by the test")

    monkeypatch.setattr(store, "definition_check", refuse)
    # A retry replays its receipt: the check's answer comes after the replay, as before.
    again = execute(harness, "agent", "req-prop", propose_cmd(r, "p-1", 1, variant(2)))
    assert again.replayed and again.receipt == first.receipt
    # Stale epochs are refused first: the gates come before the check's answer.
    stale = harness.epochs(r.work_order_id)
    stale.authority_epoch += 1
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "EPOCH_MISMATCH"):
        execute(harness, "agent", "req-2", propose_cmd(r, "p-2", 1, variant(3)), epochs=stale)
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        execute(harness, "agent", "req-2", propose_cmd(r, "p-2", 1, variant(3)))
    # Nothing of the refused command was stored: the request id is still free.
    monkeypatch.undo()
    assert not execute(harness, "agent", "req-2", propose_cmd(r, "p-2", 1, variant(3))).replayed
