"""Reservations of running attempts' maximum costs against work-order budgets.

A running attempt whose node declares a maximum cost holds one ``work_order_reservations``
row per work order with a budget on its run's path (its run's work order and each
ancestor): written in the transaction that dispatches it, deleted in the one that ends
it (completion, failure, lease expiry, timeout, stop or cancellation), where the
attempt's reported cost is charged instead (:func:`praxis.store.controls.rows.tree.charge`).
Dispatch counts the rows of every budgeted work order on the path as spent
(:func:`remaining`), so concurrent runs in one budgeted work order, or in several
children of a budgeted parent, cannot together spend beyond it. On PostgreSQL a dispatch
locks the ledger key ``work_order:<id>`` of each of them first (every ``contract:`` and
``principal:`` key sorts before them, :func:`praxis.store.db.locks.budget_key`).
Amounts are canonical decimal text summed with :mod:`praxis.core.money`: exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from sqlalchemy.engine import Connection

from praxis.core import money
from praxis.core import work_orders as core
from praxis.store.controls.rows import reservations, tree

KEY_PREFIX = "work_order:"
"""The ledger key of a work order's budget (``locks.budget_key``)."""


def budgeted_path(connection: Connection, work_order_id: str) -> tuple[str, ...]:
    """The work orders with a budget on the path of a run in ``work_order_id`` (root
    first; empty when none has one)."""
    return core.budgeted(tree.chain_of(connection, work_order_id))


def reserve(
    connection: Connection,
    work_order_ids: Sequence[str],
    rows: Sequence[dict[str, object]],
) -> None:
    """Holds each attempt's amount against each work order of ``work_order_ids``.

    Args:
        connection: The dispatch's transaction.
        work_order_ids: The budgeted work orders of the run's path.
        rows: ``attempt_id``, ``run_id``, ``amount_microcredits``, ``reserved_at_ms``.
    """
    if work_order_ids and rows:
        reservations.insert(
            connection, [{**row, "work_order_id": w} for row in rows for w in work_order_ids]
        )


def release(connection: Connection, attempt_ids: Iterable[str]) -> None:
    """Lets go of what the ended attempts held, in every work order."""
    wanted = list(attempt_ids)
    if wanted:
        reservations.delete_of(connection, wanted)


def reserved(connection: Connection, work_order_id: str, run_id: str = "") -> Decimal:
    """What running attempts hold against ``work_order_id``'s budget, exactly; without
    ``run_id``'s own when given."""
    return money.total(reservations.amounts(connection, work_order_id, run_id))


def remaining(connection: Connection, work_order_id: str, run_id: str = "") -> Decimal | None:
    """What a run in ``work_order_id`` may still spend: the least that a budgeted work
    order on its path has left after its spend and the reservations of running attempts
    (``run_id``'s own excepted: a dispatch counts those from its run); ``None`` when no
    budget limits it."""
    ids = budgeted_path(connection, work_order_id)
    if not ids:
        return None
    # The reservations first, the spend after: a settlement that commits in between
    # (it charges the cost and lets the reservation go in one transaction, without this
    # dispatch's key locks) is then counted twice, never missed.
    held = {each: reserved(connection, each, run_id) for each in ids}
    return core.remaining(tree.chain_of(connection, work_order_id), held)
