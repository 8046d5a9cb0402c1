"""Contracts and budgets: the immutable terms of a work order and what may still be spent.

A :class:`Contract` fixes criteria, deadline, budget and profile once. Attempts report
their cost; the store keeps each contract's and each principal's spend as exact sums.
Before an attempt is dispatched the run reducer receives an :class:`Allowance` (what
remains of the budget and of the starter's spending cap, the deadline, and what the
running attempts of the contract's other runs and of the starter's other runs have
reserved) and refuses the dispatch when the attempt would exceed it (see :func:`refusal`).

Reservations make both limits hold across runs: dispatching an attempt reserves its
node's declared maximum cost, against the run's contract and against the principal that
started the run, until the attempt ends (completes, fails, expires, times out or is
cancelled), when its reported cost is charged instead. An attempt is dispatched only
while ``spent + reserved + its maximum cost`` stays within the budget and within the
cap, so runs that share a contract, or a capped principal's concurrent runs, cannot
overspend it together.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from praxis.core import money, values
from praxis.core.rejection import Code, Rejection, invalid

MAX_CONTRACT_HORIZON_MS = 366 * 24 * 3600 * 1000


@dataclass(frozen=True)
class Contract:
    """The immutable terms of a work order.

    Attributes:
        contract_id: Its id, distinct from the work order id.
        work_order_id: The work order it governs.
        criteria: The acceptance criteria (a JSON object).
        deadline_ms: No attempt is dispatched at or after this time.
        budget: The budget in microcredits.
        profile: The supported profile.
        created_by: Who created it.
        created_at_ms: When.
    """

    contract_id: str
    work_order_id: str
    criteria: dict[str, values.JsonValue]
    deadline_ms: int
    budget: Decimal
    profile: str
    created_by: str = ""
    created_at_ms: int = 0

    def content(self) -> dict[str, values.JsonValue]:
        """The immutable content (what the digest and idempotency compare)."""
        return {
            "contract_id": self.contract_id,
            "work_order_id": self.work_order_id,
            "criteria": self.criteria,
            "deadline_ms": self.deadline_ms,
            "budget_microcredits": money.text(self.budget),
            "profile": self.profile,
        }

    def digest(self) -> str:
        """``sha256`` over the content."""
        return values.digest(self.content())


@dataclass(frozen=True)
class Allowance:
    """What an attempt of a run may still use, as of the dispatch.

    Attributes:
        remaining: The contract's remaining budget, or ``None`` without a contract.
        deadline_ms: The contract's deadline, or 0 without a contract.
        cap_remaining: What remains of the starter's spending cap, or ``None``.
        contract_reserved: The declared maximum costs of the running attempts of the
            contract's other runs (this run's own are counted from its snapshot).
        cap_reserved: The declared maximum costs of the running attempts of the
            starter's other runs, counted against its cap.
    """

    remaining: Decimal | None = None
    deadline_ms: int = 0
    cap_remaining: Decimal | None = None
    contract_reserved: Decimal = money.ZERO
    cap_reserved: Decimal = money.ZERO


def parse(
    contract_id: str,
    work_order_id: str,
    criteria_json: str,
    deadline_ms: int,
    budget_text: str,
    profile: str,
    now_ms: int,
    document_profile: values.DocumentProfile = values.DEFAULT_PROFILE,
) -> Contract | Rejection:
    """Validates a CreateContract request into a contract (without creator and time)."""
    problem = (
        values.check_identifier(contract_id, "contract_id")
        or values.check_identifier(work_order_id, "work_order_id")
        or values.check_identifier(profile, "profile")
    )
    if problem:
        return problem
    if contract_id == work_order_id:
        return invalid(
            "IDENTIFIER_INVALID", "contract_id", "contract_id must differ from work_order_id"
        )
    criteria = values.parse_document(criteria_json, "criteria_json", document_profile)
    if isinstance(criteria, Rejection):
        return criteria
    if not isinstance(criteria, dict):
        return invalid("DOCUMENT_MALFORMED", "criteria_json", "criteria must be a JSON object")
    if not now_ms < deadline_ms <= now_ms + MAX_CONTRACT_HORIZON_MS:
        return invalid(
            "TIME_INVALID", "deadline_ms", "deadline_ms must be in the future, at most a year ahead"
        )
    budget = money.parse_amount(budget_text, "budget_microcredits")
    if isinstance(budget, Rejection):
        return budget
    return Contract(contract_id, work_order_id, criteria, deadline_ms, budget, profile)


def same_content(existing: Contract, requested: Contract) -> Rejection | None:
    """CONTRACT_ALREADY_EXISTS unless a repeated create asks for the same content."""
    if existing.content() == requested.content():
        return None
    return Rejection(
        Code.ALREADY_EXISTS,
        "CONTRACT_ALREADY_EXISTS",
        f"contract {existing.contract_id!r} exists with different content; contracts are immutable",
    )


def allowance(
    contract: Contract | None,
    spent: Decimal,
    cap: Decimal | None,
    cap_spent: Decimal,
    reserved_elsewhere: Decimal = money.ZERO,
    cap_reserved_elsewhere: Decimal = money.ZERO,
) -> Allowance:
    """The allowance of a run under ``contract`` started by a principal with ``cap``.

    Args:
        contract: The run's contract, or ``None``.
        spent: What the contract's attempts have reported.
        cap: The starter's spending cap, or ``None``.
        cap_spent: What the starter's runs have reported.
        reserved_elsewhere: The maximum costs reserved by running attempts of the
            contract's other runs.
        cap_reserved_elsewhere: The maximum costs reserved by running attempts of the
            starter's other runs.
    """
    return Allowance(
        remaining=money.subtract(contract.budget, spent) if contract else None,
        deadline_ms=contract.deadline_ms if contract else 0,
        cap_remaining=money.subtract(cap, cap_spent) if cap is not None else None,
        contract_reserved=reserved_elsewhere if contract else money.ZERO,
        cap_reserved=cap_reserved_elsewhere if cap is not None else money.ZERO,
    )


def refusal(
    allowance: Allowance, reserve: Decimal, reserved: Decimal, timeout_ms: int, now_ms: int
) -> tuple[str, str] | None:
    """Why an attempt may not be dispatched, as ``(reason, message)``, or ``None``.

    Args:
        allowance: The run's allowance.
        reserve: The attempt's declared maximum cost (0 when undeclared).
        reserved: The maximum costs of the run's attempts still running. The budget
            also counts ``allowance.contract_reserved`` (the contract's other runs),
            the cap ``allowance.cap_reserved`` (the starter's other runs).
        timeout_ms: The node's timeout (0 for none).
        now_ms: The dispatch time.
    """
    deadline = allowance.deadline_ms
    if deadline and (now_ms >= deadline or (timeout_ms and now_ms + timeout_ms > deadline)):
        return "DEADLINE_EXCEEDED", f"the attempt would pass the contract deadline {deadline}"
    for reason, left, elsewhere in (
        ("BUDGET_EXCEEDED", allowance.remaining, allowance.contract_reserved),
        ("SPEND_CAP_EXCEEDED", allowance.cap_remaining, allowance.cap_reserved),
    ):
        if left is None:
            continue
        available = money.subtract(left, money.add(reserved, elsewhere))
        if available <= 0 or available < reserve:
            return reason, (
                f"{money.text(available)} microcredits remain; the attempt may cost "
                f"{money.text(reserve)}"
            )
    return None


def replay_spend(
    events: list[tuple[str, str, dict[str, values.JsonValue]]],
) -> tuple[dict[str, Decimal], dict[str, Decimal]]:
    """Contract and principal spend rebuilt from the model's event log.

    Args:
        events: ``(kind, subject, payload)`` in log order; only ``COST_CHARGED`` counts.

    Returns:
        ``(spent by contract id, spent by principal id)``, exact.
    """
    by_contract: dict[str, Decimal] = {}
    by_principal: dict[str, Decimal] = {}
    for kind, _subject, payload in events:
        if kind != "COST_CHARGED":
            continue
        cost = Decimal(str(payload["cost_microcredits"]))
        contract_id, principal_id = str(payload["contract_id"]), str(payload["principal_id"])
        if contract_id:
            by_contract[contract_id] = money.add(by_contract.get(contract_id, money.ZERO), cost)
        by_principal[principal_id] = money.add(by_principal.get(principal_id, money.ZERO), cost)
    return by_contract, by_principal
