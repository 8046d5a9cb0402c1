"""Grants as a request states them: their checks and their stored (JSON) form.

The stored form is the principals file's grant form (``praxis.authority.principals``),
so a stored principal is read by the same parser as a file's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from praxis.core import money, purposes
from praxis.core.rejection import Code, FieldViolation, Rejection, invalid

MAX_GRANTS = 32
MAX_PATTERNS = 64
_PATTERN = re.compile(r"^(\*|[A-Za-z0-9_.:@-]{1,127}\*?)$")


@dataclass(frozen=True)
class GrantSpec:
    """One grant as a request states it (a window end of 0 leaves that side open)."""

    actions: tuple[str, ...]
    work_orders: tuple[str, ...]
    max_spend_microcredits: str = ""
    purposes: tuple[str, ...] = ()
    not_before_ms: int = 0
    not_after_ms: int = 0


def to_json(grants: Sequence[GrantSpec]) -> str:
    """The stored form of ``grants`` (``principals.grants_json``)."""
    out: list[dict[str, Any]] = []
    for grant in grants:
        entry: dict[str, Any] = {
            "actions": list(grant.actions),
            "work_orders": list(grant.work_orders) or ["*"],
        }
        if grant.max_spend_microcredits:
            entry["max_spend_microcredits"] = grant.max_spend_microcredits
        # Written only when set: the grants stored before purposes and windows existed
        # read the same, and so do the grants that use neither.
        if grant.purposes:
            entry["purposes"] = list(grant.purposes)
        if grant.not_before_ms:
            entry["not_before_ms"] = grant.not_before_ms
        if grant.not_after_ms:
            entry["not_after_ms"] = grant.not_after_ms
        out.append(entry)
    return json.dumps(out, separators=(",", ":"))


def from_json(grants_json: str) -> tuple[GrantSpec, ...]:
    """The grants of a stored principal, as a request would state them."""
    return tuple(
        GrantSpec(
            tuple(grant["actions"]),
            tuple(grant.get("work_orders", ["*"])),
            str(grant.get("max_spend_microcredits", "")),
            tuple(grant.get("purposes", ())),
            int(grant.get("not_before_ms", 0)),
            int(grant.get("not_after_ms", 0)),
        )
        for grant in json.loads(grants_json)
    )


def _purpose_and_window(grant: GrantSpec, path: str) -> list[FieldViolation]:
    """What is wrong with a grant's purposes and validity window."""
    found: list[FieldViolation] = []
    if len(grant.purposes) > purposes.MAX_PURPOSES:
        found.append(FieldViolation(f"{path}.purposes", f"at most {purposes.MAX_PURPOSES}"))
    for position, purpose in enumerate(grant.purposes):
        problem = purposes.purpose_problem(purpose)
        if problem:
            found.append(FieldViolation(f"{path}.purposes[{position}]", problem))
    if len(set(grant.purposes)) != len(grant.purposes):
        found.append(FieldViolation(f"{path}.purposes", "a purpose is named twice"))
    for name in ("not_before_ms", "not_after_ms"):
        if getattr(grant, name) < 0:
            found.append(FieldViolation(f"{path}.{name}", f"{name} must not be negative"))
    if grant.not_after_ms and grant.not_after_ms <= grant.not_before_ms:
        found.append(
            FieldViolation(f"{path}.not_after_ms", "not_after_ms must be after not_before_ms")
        )
    return found


def check_grants(grants: Sequence[GrantSpec]) -> Rejection | None:
    """GRANT_INVALID (with every violation) or FIELD_REQUIRED when the grants are unusable."""
    if not grants:
        return invalid("FIELD_REQUIRED", "grants", "at least one grant is required")
    if len(grants) > MAX_GRANTS:
        return invalid("GRANT_INVALID", "grants", f"at most {MAX_GRANTS} grants")
    violations: list[FieldViolation] = []
    for index, grant in enumerate(grants):
        path = f"grants[{index}]"
        if not grant.actions:
            violations.append(FieldViolation(f"{path}.actions", "at least one action"))
        for name, patterns in (("actions", grant.actions), ("work_orders", grant.work_orders)):
            if len(patterns) > MAX_PATTERNS:
                violations.append(FieldViolation(f"{path}.{name}", f"at most {MAX_PATTERNS}"))
            for position, pattern in enumerate(patterns):
                if not _PATTERN.match(pattern):
                    violations.append(
                        FieldViolation(
                            f"{path}.{name}[{position}]",
                            f"{pattern[:40]!r} is not a name or a name ending in '*'",
                        )
                    )
        if grant.max_spend_microcredits:
            amount = money.parse_amount(
                grant.max_spend_microcredits, f"{path}.max_spend_microcredits", "GRANT_INVALID"
            )
            if isinstance(amount, Rejection):
                violations.extend(amount.violations)
        violations.extend(_purpose_and_window(grant, path))
    if violations:
        return Rejection(
            Code.INVALID_ARGUMENT, "GRANT_INVALID", violations[0].description, tuple(violations)
        )
    return None
