"""Contracts' SQL: a contract and its exact spend, and what each principal's runs spent."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from praxis.core import contract as core
from praxis.core import money, values
from praxis.store.execution.tables import contracts, principal_spend


class ContractView:
    """A contract with its exact spend and what its running attempts reserve."""

    def __init__(
        self, contract: core.Contract, spent: Decimal, reserved: Decimal = money.ZERO
    ) -> None:
        self.contract = contract
        self.spent = spent
        self.reserved = reserved

    @property
    def remaining(self) -> Decimal:
        """Budget minus spend (negative when an attempt reported more than remained)."""
        return money.subtract(self.contract.budget, self.spent)


def add(connection: Connection, parsed: core.Contract, created_by: str, now: int) -> None:
    """Records a new contract, nothing spent yet."""
    connection.execute(
        contracts.insert().values(
            contract_id=parsed.contract_id,
            work_order_id=parsed.work_order_id,
            content_json=values.canonical_json(parsed.content()),
            digest=parsed.digest(),
            created_by=created_by,
            created_at_ms=now,
            spent_microcredits="0",
        )
    )


def page(
    connection: Connection, work_order_id: str, after: str | None, limit: int
) -> Sequence[ContractView]:
    """Up to ``limit`` contracts (of one work order, unless ``""``) past ``after``, by id."""
    query = select(contracts).order_by(contracts.c.contract_id).limit(limit)
    if work_order_id:
        query = query.where(contracts.c.work_order_id == work_order_id)
    if after is not None:
        query = query.where(contracts.c.contract_id > after)
    return [view_of(row) for row in connection.execute(query).all()]


def set_spent(connection: Connection, contract_id: str, spent: Decimal) -> None:
    """Sets what a contract has spent."""
    connection.execute(
        update(contracts)
        .where(contracts.c.contract_id == contract_id)
        .values(spent_microcredits=money.text(spent))
    )


def load(connection: Connection, contract_id: str) -> ContractView | None:
    """A contract and its spend, or ``None``."""
    row = connection.execute(
        select(contracts).where(contracts.c.contract_id == contract_id)
    ).first()
    if row is None:
        return None
    return view_of(row)


def view_of(row: Any) -> ContractView:
    """The contract and spend of a ``contracts`` row."""
    content = json.loads(row.content_json)
    contract = core.Contract(
        contract_id=row.contract_id,
        work_order_id=row.work_order_id,
        criteria=content["criteria"],
        deadline_ms=content["deadline_ms"],
        budget=Decimal(content["budget_microcredits"]),
        profile=content["profile"],
        created_by=row.created_by,
        created_at_ms=row.created_at_ms,
    )
    return ContractView(contract, Decimal(row.spent_microcredits))


def principal_spent(connection: Connection, principal_id: str) -> Decimal:
    """What the runs a principal started have spent."""
    text = connection.execute(
        select(principal_spend.c.spent_microcredits).where(
            principal_spend.c.principal_id == principal_id
        )
    ).scalar()
    return Decimal(text) if text is not None else money.ZERO


def add_principal_spend(connection: Connection, principal_id: str, cost: Decimal) -> None:
    """Adds ``cost`` to what the runs a principal started have spent."""
    current = connection.execute(
        select(principal_spend.c.spent_microcredits).where(
            principal_spend.c.principal_id == principal_id
        )
    ).scalar()
    if current is None:
        connection.execute(
            principal_spend.insert().values(
                principal_id=principal_id, spent_microcredits=money.text(cost)
            )
        )
        return
    connection.execute(
        update(principal_spend)
        .where(principal_spend.c.principal_id == principal_id)
        .values(spent_microcredits=money.text(money.add(Decimal(current), cost)))
    )
