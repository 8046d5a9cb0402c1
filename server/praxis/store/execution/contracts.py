"""Contracts, spend and spending caps: the store side of :mod:`praxis.core.contract`.

Costs are charged in the transaction that settles an attempt (:meth:`ContractStore.charge`,
a settle hook of the task protocol), to the run's contract and to the principal that
started the run, as exact decimal sums. Before a dispatch the runtime asks
:meth:`ContractStore.allowance` (its ``ContractTerms`` port) what the run may still
use, counting what the running attempts of the contract's other runs and of the
starter's other runs have reserved (:mod:`praxis.store.runtime.rows.reservations`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from sqlalchemy.engine import Connection

from praxis.authority import guard
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import contract as core
from praxis.core import money, values
from praxis.core.records import Principal
from praxis.core.rejection import Code, Rejection, not_found
from praxis.store.controls import budgets
from praxis.store.controls.rows import tree
from praxis.store.db import paging
from praxis.store.db.database import Database, Rollback
from praxis.store.execution.rows import contracts as rows
from praxis.store.execution.rows import requests
from praxis.store.execution.rows.contracts import ContractView
from praxis.store.runtime.emits import AttemptSettled, RunStarted
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.rows import reservations

_OWNERS_CACHED = 1024
"""Contracts whose work order :meth:`ContractStore.work_order_of` remembers."""


@dataclass(frozen=True)
class Spending:
    """A principal's exact spend, what its running attempts reserve, and its cap.

    Attributes:
        principal_id: The principal.
        spent: The costs reported by attempts of the runs it started.
        reserved: The declared maximum costs of those runs' running attempts.
        cap: Its spending cap, or ``None`` when it has none.
    """

    principal_id: str
    spent: Decimal
    reserved: Decimal
    cap: Decimal | None


class ContractStore:
    """Contracts and spend over a :class:`Database`."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        profile: values.DocumentProfile = values.DEFAULT_PROFILE,
        budgeted: Callable[[Connection, str], tuple[str, ...]] | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.profile = profile
        self._lock = threading.Lock()
        self._owners: OrderedDict[str, str] = OrderedDict()  # contract id -> work order
        # A port: the budgeted work orders on a run's path (the engine wires the
        # process's cached answer; without it, read).
        self.budgeted: Callable[[Connection, str], tuple[str, ...]] = (
            budgeted or budgets.budgeted_path
        )

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        found = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return found if isinstance(found, Rejection) else None

    def create(
        self,
        principal: Principal,
        contract_id: str,
        work_order_id: str,
        criteria_json: str,
        deadline_ms: int,
        budget: str,
        profile: str,
    ) -> tuple[ContractView, bool] | Rejection:
        """Records a contract; the same id with the same content replays it."""
        now = self.clock.now_ms()
        parsed = core.parse(
            contract_id, work_order_id, criteria_json, deadline_ms, budget, profile, now,
            self.profile,
        )  # fmt: skip
        if isinstance(parsed, Rejection):
            return parsed
        denied = self._authorize(principal, "contract.create", work_order_id)
        if denied:
            return denied

        def transaction(connection: Connection) -> tuple[ContractView, bool]:
            existing = rows.load(connection, contract_id)
            if existing is not None:
                problem = core.same_content(existing.contract, parsed)
                if problem:
                    raise Rollback(problem)
                return _with_reserved(connection, existing), True
            rows.add(connection, parsed, principal.principal_id, now)
            requests.append(
                connection, "CONTRACT_CREATED", contract_id, now, digest=parsed.digest()
            )
            found = rows.load(connection, contract_id)
            assert found is not None
            return _with_reserved(connection, found), False

        result: tuple[ContractView, bool] | Rejection = self.db.transact(transaction)
        return result

    def get(self, principal: Principal, contract_id: str) -> ContractView | Rejection:
        """A contract and its spend."""
        problem = values.check_identifier(contract_id, "contract_id")
        if problem:
            return problem
        with self.db.read() as connection:
            found = rows.load(connection, contract_id)
            if found is not None:
                found = _with_reserved(connection, found)
        evidence = guard.authorize_subject(
            self.authority,
            principal,
            "contract.read",
            None if found is None else found.contract.work_order_id,
            self.clock.now_ms(),
            not_found("CONTRACT_NOT_FOUND", f"no contract {contract_id!r}"),
        )
        if isinstance(evidence, Rejection) or found is None:
            return evidence  # type: ignore[return-value]  # a Rejection when not found
        return found

    def list(
        self, principal: Principal, work_order_id: str, page_size: int, page_token: str
    ) -> tuple[list[ContractView], str] | Rejection:
        """One page of contracts with their spend, by contract id."""
        resumed = paging.resume("contracts", work_order_id, page_size, page_token, 1)
        if isinstance(resumed, Rejection):
            return resumed
        query_scope, after = resumed
        denied = self._authorize(principal, "contract.read", work_order_id)
        if denied:
            return denied
        size = page_size or paging.DEFAULT_PAGE
        with self.db.read() as connection:
            page = rows.page(
                connection, work_order_id, None if after is None else after[0], size + 1
            )
            found = [_with_reserved(connection, view) for view in page[:size]]
        token = ""
        if len(page) > size:
            token = paging.encode([found[-1].contract.contract_id], query_scope)
        return found, token

    def spending(self, principal: Principal, principal_id: str) -> Spending | Rejection:
        """The spending of a principal (the caller when ``principal_id`` is empty)."""
        target = principal_id or principal.principal_id
        problem = values.check_identifier(target, "principal_id")
        if problem:
            return problem
        if target != principal.principal_id:
            denied = self._authorize(principal, "contract.read_spending", "")
            if denied:
                return denied
        with self.db.read() as connection:
            spent = rows.principal_spent(connection, target)
            reserved = reservations.principal_reserved(connection, target)
        return Spending(target, spent, reserved, self.authority.spend_cap(target))

    # --- the runtime's ports (ContractTerms) and start and settle hooks ---------------

    def work_order_of(self, contract_id: str) -> str | None:
        """The work order a contract governs, or ``None`` when there is no such contract.

        Read outside any transaction and remembered (at most :data:`_OWNERS_CACHED`
        contracts): a contract never changes nor disappears once recorded.
        """
        with self._lock:
            known = self._owners.get(contract_id)
        if known is not None:
            return known
        with self.db.read() as connection:
            found = rows.load(connection, contract_id)
        if found is None:
            return None
        with self._lock:
            self._owners[contract_id] = found.contract.work_order_id
            while len(self._owners) > _OWNERS_CACHED:
                self._owners.popitem(last=False)
        return found.contract.work_order_id

    def check_start(self, event: RunStarted) -> None:
        """Refuses a run whose contract is unknown or whose starter's cap is spent.

        Raises:
            Rollback: CONTRACT_NOT_FOUND or SPEND_CAP_EXCEEDED.
        """
        connection, principal, record = event.connection, event.principal, event.record
        if record.contract_id:
            found = rows.load(connection, record.contract_id)
            if found is None:
                raise Rollback(
                    not_found("CONTRACT_NOT_FOUND", f"no contract {record.contract_id!r}")
                )
            if record.work_order_id and record.work_order_id != found.contract.work_order_id:
                raise Rollback(
                    not_found(
                        "CONTRACT_NOT_FOUND",
                        f"contract {record.contract_id!r} governs another work order",
                    )
                )
        cap = self.authority.spend_cap(principal.principal_id)
        if cap is not None and rows.principal_spent(connection, principal.principal_id) >= cap:
            raise Rollback(
                Rejection(
                    Code.PERMISSION_DENIED,
                    "SPEND_CAP_EXCEEDED",
                    f"{principal.principal_id!r} has spent its cap of {money.text(cap)}",
                )
            )

    def deadline(self, connection: Connection, contract_id: str) -> int:
        """The contract's deadline, UTC epoch ms (0 when it has none or is unknown: the
        start hook refuses an unknown contract)."""
        found = rows.load(connection, contract_id)
        return found.contract.deadline_ms if found is not None else 0

    def allowance(self, connection: Connection, record: RunRecord) -> core.Allowance | None:
        """What the run may still use, or ``None`` when nothing limits it.

        A budget of the run's work order or of an ancestor limits it too: the remaining
        budget is the least of the contract's and theirs, each net of what the running
        attempts of other runs hold against it (:mod:`praxis.store.controls.budgets`).
        """
        found = rows.load(connection, record.contract_id) if record.contract_id else None
        cap = self.authority.spend_cap(record.principal_id)
        run_id, starter = record.state.run_id, record.principal_id
        order_left = (  # net of what other runs' running attempts hold there
            budgets.remaining(connection, record.work_order_id, run_id)
            if self.budgeted(connection, record.work_order_id)
            else None
        )
        if found is None and cap is None and order_left is None:
            return None
        allowed = core.allowance(
            found.contract if found else None,
            found.spent if found else money.ZERO,
            cap,
            rows.principal_spent(connection, starter),
            reservations.reserved_elsewhere(connection, record.contract_id, run_id)
            if found
            else money.ZERO,
            reservations.principal_reserved_elsewhere(connection, starter, run_id)
            if cap is not None
            else money.ZERO,
        )
        contract_left = (
            None
            if allowed.remaining is None
            else money.subtract(allowed.remaining, allowed.contract_reserved)
        )
        if order_left is None or (contract_left is not None and contract_left <= order_left):
            return allowed
        return replace(allowed, remaining=order_left, contract_reserved=money.ZERO)

    def charge(self, event: AttemptSettled) -> None:
        """Charges the settled attempts' costs to the run's contract and starter."""
        connection, record, outcome = event.connection, event.record, event.outcome
        now = outcome.state.updated_at_ms
        for settled in outcome.attempts:
            if settled.cost_microcredits in ("", "0") or outcome.noop:
                continue
            cost = Decimal(settled.cost_microcredits)
            if record.contract_id:
                found = rows.load(connection, record.contract_id)
                if found is not None:
                    rows.set_spent(connection, record.contract_id, money.add(found.spent, cost))
            rows.add_principal_spend(connection, record.principal_id, cost)
            tree.charge(connection, record.work_order_id, cost, now)
            requests.append(
                connection,
                "COST_CHARGED",
                record.contract_id or record.state.run_id,
                now,
                contract_id=record.contract_id,
                principal_id=record.principal_id,
                run_id=record.state.run_id,
                attempt_id=settled.attempt_id,
                cost_microcredits=settled.cost_microcredits,
            )


def _with_reserved(connection: Connection, view: ContractView) -> ContractView:
    """The view with what the running attempts of the contract's runs reserve."""
    reserved = reservations.reserved(connection, view.contract.contract_id)
    return ContractView(view.contract, view.spent, reserved)
