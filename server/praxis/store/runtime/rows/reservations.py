"""Reservations of running attempts' maximum costs: the store side of dispatch's check.

Each running attempt whose node declares a maximum cost (:func:`praxis.core.run.reservation`)
holds one row per limit it counts against: a ``contract_reservations`` row when its run
is under a contract (the contract's budget), a ``principal_reservations`` row keyed by
the principal that started the run (that principal's spending cap) and a
``work_order_reservations`` row per budgeted work order on its run's path
(:mod:`praxis.store.controls.budgets`). Both are written in
the transaction that dispatches the attempt and deleted in the one that ends it
(completion, failure, lease expiry, timeout, cancellation), where the contract and the
principal are charged its reported cost instead. Amounts are canonical decimal text
summed with :mod:`praxis.core.money`, so totals are exact. Writes are serialized, so a
dispatch sees every reservation of the runs dispatched before it, including earlier ones
of the same claim.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from sqlalchemy import Table, bindparam, delete, select
from sqlalchemy.engine import Connection

from praxis.core import money
from praxis.core import run as core
from praxis.store.controls import budgets
from praxis.store.runtime.tables import contract_reservations, principal_reservations


class _Ledger:
    """The statements of one reservations table, keyed by one column."""

    def __init__(self, table: Table, key: str) -> None:
        self.key = key
        self.reserve = table.insert()
        self.release = delete(table).where(
            table.c.attempt_id.in_(bindparam("aids", expanding=True))
        )
        amounts = select(table.c.amount_microcredits)
        self.total = amounts.where(table.c[key] == bindparam("key"))
        self.elsewhere = self.total.where(table.c.run_id != bindparam("rid"))

    def sum(self, connection: Connection, key: str, run_id: str = "") -> Decimal:
        """The exact total held under ``key``, without ``run_id``'s rows when given."""
        if run_id:
            found = connection.execute(self.elsewhere, {"key": key, "rid": run_id}).scalars()
        else:
            found = connection.execute(self.total, {"key": key}).scalars()
        return money.total(list(found))


_CONTRACT = _Ledger(contract_reservations, "contract_id")
_PRINCIPAL = _Ledger(principal_reservations, "principal_id")


def track(
    connection: Connection,
    contract_id: str,
    principal_id: str,
    state: core.RunState,
    attempts: Iterable[core.Attempt],
    work_order_id: str = "",
) -> None:
    """Reserves for each attempt an outcome dispatched; releases each one it ended.

    Args:
        connection: The command's transaction.
        contract_id: The run's contract (empty: no contract reservation).
        principal_id: The principal that started the run.
        state: The run's new snapshot.
        attempts: The outcome's attempt records.
        work_order_id: The run's work order: the attempts also hold their amounts against
            every budgeted work order on its path (:mod:`praxis.store.controls.budgets`).
    """
    reserve: list[dict[str, object]] = []
    release: list[str] = []
    for attempt in attempts:
        amount = _amount(state, attempt)
        if attempt.status is not core.AttemptStatus.LIVE:
            if amount != 0:  # a node that declares no maximum cost reserved nothing
                release.append(attempt.attempt_id)
            continue
        if not amount:
            continue
        reserve.append(
            {
                "attempt_id": attempt.attempt_id,
                "run_id": state.run_id,
                "amount_microcredits": money.text(amount),
                "reserved_at_ms": attempt.at_ms,
            }
        )
    ledgers = [(_PRINCIPAL, principal_id)] + ([(_CONTRACT, contract_id)] if contract_id else [])
    for ledger, key in ledgers:
        if release:
            connection.execute(ledger.release, {"aids": release})
        if reserve:
            connection.execute(ledger.reserve, [{**row, ledger.key: key} for row in reserve])
    budgets.release(connection, release)
    if reserve and work_order_id:
        budgets.reserve(connection, budgets.budgeted_path(connection, work_order_id), reserve)


def _amount(state: core.RunState, attempt: core.Attempt) -> Decimal | None:
    """What the attempt's node reserves (``None``, to release anyway, if it is gone).

    A dispatched node's spec never changes (a revision that would change it is refused),
    so the amount its attempt reserved is the amount it releases.
    """
    node = state.nodes.get(attempt.node_uid)
    return None if node is None else core.reservation(state.definition, node.node_id)


def reserved_elsewhere(connection: Connection, contract_id: str, run_id: str) -> Decimal:
    """What running attempts of the contract's runs other than ``run_id`` reserve."""
    return _CONTRACT.sum(connection, contract_id, run_id)


def reserved(connection: Connection, contract_id: str) -> Decimal:
    """What all running attempts of the contract's runs reserve, exactly."""
    return _CONTRACT.sum(connection, contract_id)


def principal_reserved_elsewhere(connection: Connection, principal_id: str, run_id: str) -> Decimal:
    """What running attempts of the runs ``principal_id`` started, other than ``run_id``,
    reserve against its cap."""
    return _PRINCIPAL.sum(connection, principal_id, run_id)


def principal_reserved(connection: Connection, principal_id: str) -> Decimal:
    """What all running attempts of the runs ``principal_id`` started reserve, exactly."""
    return _PRINCIPAL.sum(connection, principal_id)
