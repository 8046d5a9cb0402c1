"""Budget reservations across the runs of a contract: the store side of dispatch's check.

Each running attempt of a run under a contract holds one ``contract_reservations`` row:
its node's declared maximum cost (:func:`praxis.core.run.reservation`), written in the
transaction that dispatches it and deleted in the one that ends it (completion, failure,
lease expiry, timeout, cancellation), where the contract is charged its reported cost
instead. Amounts are canonical decimal text summed with :mod:`praxis.core.money`, so the
total is exact. Writes are serialized, so a dispatch sees every reservation of the
runs dispatched before it, including earlier ones of the same claim.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from sqlalchemy import bindparam, delete, select
from sqlalchemy.engine import Connection

from praxis.core import money
from praxis.core import run as core
from praxis.store.ledger_schema import contract_reservations

_table = contract_reservations
_RESERVE = _table.insert()
_RELEASE = delete(_table).where(_table.c.attempt_id.in_(bindparam("aids", expanding=True)))
_ELSEWHERE = select(_table.c.amount_microcredits).where(
    _table.c.contract_id == bindparam("cid"), _table.c.run_id != bindparam("rid")
)
_OF_CONTRACT = select(_table.c.amount_microcredits).where(_table.c.contract_id == bindparam("cid"))


def track(
    connection: Connection,
    contract_id: str,
    state: core.RunState,
    attempts: Iterable[core.Attempt],
) -> None:
    """Reserves for each attempt an outcome dispatched; releases each one it ended.

    Args:
        connection: The command's transaction.
        contract_id: The run's contract (nothing is tracked without one).
        state: The run's new snapshot.
        attempts: The outcome's attempt records.
    """
    if not contract_id:
        return
    reserve, release = [], []
    for attempt in attempts:
        if attempt.status is not core.AttemptStatus.LIVE:
            release.append(attempt.attempt_id)
            continue
        amount = core.reservation(state.definition, state.nodes[attempt.node_uid].node_id)
        if amount > 0:
            reserve.append(
                {
                    "attempt_id": attempt.attempt_id,
                    "contract_id": contract_id,
                    "run_id": state.run_id,
                    "amount_microcredits": money.text(amount),
                    "reserved_at_ms": attempt.at_ms,
                }
            )
    if release:
        connection.execute(_RELEASE, {"aids": release})
    if reserve:
        connection.execute(_RESERVE, reserve)


def reserved_elsewhere(connection: Connection, contract_id: str, run_id: str) -> Decimal:
    """What running attempts of the contract's runs other than ``run_id`` reserve."""
    rows = connection.execute(_ELSEWHERE, {"cid": contract_id, "rid": run_id}).scalars()
    return money.total(list(rows))


def reserved(connection: Connection, contract_id: str) -> Decimal:
    """What all running attempts of the contract's runs reserve, exactly."""
    return money.total(list(connection.execute(_OF_CONTRACT, {"cid": contract_id}).scalars()))
