"""ListRuns: runs filtered by work order, ref, contract, state, starter, creation time
and labels, newest first, at a cost bounded by the page.

One filter *drives* the read: its index lists the keys ``(created_at_ms, run_id)`` of
the runs it matches in page order (newest first), a batch at a time, and one query per
batch reads those runs checked against the other filters. The driver is the most
selective filter given, in the order of :func:`_driver`. A call examines at most
:data:`SCAN_MAX` keys: when they did not fill the page, the page holds what matched and
a token that resumes after the last key examined, so that no call's cost grows with
the runs stored, however rare the matches.

A page token is the key the page ended at and a digest of the filters
(:mod:`praxis.store.db.paging`); a token presented with other filters is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, bindparam, exists, literal, select, tuple_
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from praxis.core import membership, registry, values
from praxis.core import run as core
from praxis.core.records import Ref
from praxis.core.rejection import Rejection, invalid
from praxis.store.db import paging
from praxis.store.runtime.tables import run_labels, runs

PAGE_DEFAULT = 100
PAGE_MAX = 1000
SCAN_MAX = 5000
"""Keys of the driving index one call examines at most."""
_BATCH = 500
"""Keys read per round when other filters than the driver's must be checked."""

Key = tuple[int, str]
"""A run's place in a listing: ``(created_at_ms, run_id)``, newest first."""


@dataclass(frozen=True)
class RunFilter:
    """What a listing keeps (every field given must match; empty matches all)."""

    work_order_id: str = ""
    ref: Ref | None = None
    contract_id: str = ""
    status: core.RunStatus | None = None
    started_by: str = ""
    created_after_ms: int = 0
    created_before_ms: int = 0
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def work_order(self) -> str:
        """The work order the listing is confined to ("" for every work order)."""
        return self.ref.work_order_id if self.ref is not None else self.work_order_id

    def scope(self) -> str:
        """The digest its page tokens carry."""
        return paging.scope(
            "runs",
            values.canonical_json(
                {
                    "work_order_id": self.work_order,
                    "ref_run_id": self.ref.run_id if self.ref is not None else "",
                    "contract_id": self.contract_id,
                    "status": self.status.value if self.status is not None else "",
                    "started_by": self.started_by,
                    "created": [self.created_after_ms, self.created_before_ms],
                    "labels": dict(self.labels),
                }
            ),
        )


def check(found: RunFilter, page_size: int) -> Rejection | None:
    """Why a listing request is refused before anything is read, or ``None``."""
    if not 0 <= page_size <= PAGE_MAX:
        return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {PAGE_MAX}]")
    for path, text in (
        ("work_order_id", found.work_order_id),
        ("contract_id", found.contract_id),
        ("started_by", found.started_by),
    ):
        problem = values.check_identifier(text, path) if text else None
        if problem:
            return problem
    if found.ref is not None:
        problem = registry.check_ref(found.ref, "ref")
        if problem:
            return problem
        if found.work_order_id and found.work_order_id != found.ref.work_order_id:
            return invalid(
                "WORK_ORDER_MISMATCH",
                "work_order_id",
                f"work_order_id {found.work_order_id!r} is not the ref's work order "
                f"{found.ref.work_order_id!r}",
            )
    for path, ms in (
        ("created_after_ms", found.created_after_ms),
        ("created_before_ms", found.created_before_ms),
    ):
        problem = values.check_epoch_ms(ms, path) if ms else None
        if problem:
            return problem
    return membership.check_labels(found.labels)


def decode_token(found: RunFilter, token: str) -> Key | Rejection | None:
    """The key a page token resumes after (``None``: the first page), or PAGE_INVALID."""
    if not token:
        return None
    parts = paging.decode(token, found.scope(), 2)
    if isinstance(parts, Rejection):
        return parts
    created, run_id = parts
    if not created.isdigit() or values.identifier_problem(run_id):
        return invalid("PAGE_INVALID", "page_token", "page_token is not a token of this query")
    return int(created), run_id


def encode_token(found: RunFilter, key: Key) -> str:
    """The token of the page that ends at ``key``."""
    return paging.encode([str(key[0]), key[1]], found.scope())


def page(
    connection: Connection, found: RunFilter, size: int, after: Key | None
) -> tuple[list[Any], Key | None]:
    """Up to ``size`` ``runs`` rows matching ``found`` after ``after``, newest first, and
    the key the next page resumes after (``None`` when the listing has ended)."""
    driver, checked = _driver(found)
    rows: list[Any] = []
    examined = 0
    cursor = after
    while examined < SCAN_MAX:
        wanted = size + 1 - len(rows)
        batch = min(SCAN_MAX - examined, wanted if not checked else max(wanted, _BATCH))
        keys = connection.execute(_keys(driver, found, cursor, batch)).all()
        if not keys:
            return rows, None
        examined += len(keys)
        matched = _rows(connection, [key[1] for key in keys], checked)
        for _created, run_id in keys:  # in page order
            row = matched.get(run_id)
            if row is None:
                continue
            rows.append(row)
            if len(rows) > size:
                return rows[:size], _key(rows[size - 1])
        cursor = (int(keys[-1][0]), str(keys[-1][1]))
        if len(keys) < batch:
            return rows, None
    return rows, cursor


def _key(row: Any) -> Key:
    return int(row.created_at_ms), str(row.run_id)


# --- the plan ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Driver:
    """The index a listing reads its keys from: a label's, or one of ``runs``'."""

    label: tuple[str, str] | None
    equal: tuple[tuple[str, object], ...]
    """``runs`` columns and values, matching an index's prefix (without a label)."""


def _driver(found: RunFilter) -> tuple[_Driver, list[ColumnElement[bool]]]:
    """Which filter drives the read, and the conditions the rows read must then pass.

    The preference is by how few runs a filter usually matches: a ref (one lineage), a
    contract, a label, a starter, a work order, a state; else every run by time.
    """
    equal: list[tuple[str, object]] = []
    if found.work_order:
        equal.append(("work_order_id", found.work_order))
    if found.ref is not None:
        equal.append(("ref_run_id", found.ref.run_id))
    if found.contract_id:
        equal.append(("contract_id", found.contract_id))
    if found.started_by:
        equal.append(("principal_id", found.started_by))
    if found.status is not None:
        equal.append(("status", found.status.value))
    labels = sorted(found.labels.items())
    checked: list[ColumnElement[bool]] = [_has_label(key, value) for key, value in labels[1:]]
    if found.ref is not None:
        lead: tuple[str, ...] = ("work_order_id", "ref_run_id")
    elif found.contract_id:
        lead = ("contract_id",)
    elif labels:
        checked += [runs.c[name] == value for name, value in equal]
        return _Driver(labels[0], ()), checked
    elif found.started_by:
        lead = ("principal_id",)
    elif found.work_order:
        lead = ("work_order_id",)
    elif found.status is not None:
        lead = ("status",)
    else:
        lead = ()
    checked += [runs.c[name] == value for name, value in equal if name not in lead]
    if labels:  # the first label, when another filter drives
        checked.append(_has_label(*labels[0]))
    return _Driver(None, tuple((name, value) for name, value in equal if name in lead)), checked


def _has_label(key: str, value: str) -> ColumnElement[bool]:
    return exists().where(
        run_labels.c.run_id == runs.c.run_id, run_labels.c.key == key, run_labels.c.value == value
    )


def _keys(driver: _Driver, found: RunFilter, after: Key | None, limit: int) -> Select[Any]:
    """The driving index's keys after ``after``, newest first (an index range read)."""
    table = run_labels if driver.label is not None else runs
    created, run_id = table.c.created_at_ms, table.c.run_id
    conditions: list[ColumnElement[bool]] = []
    if driver.label is not None:
        conditions += [run_labels.c.key == driver.label[0], run_labels.c.value == driver.label[1]]
    conditions += [runs.c[name] == value for name, value in driver.equal]
    if found.created_after_ms:
        conditions.append(created > found.created_after_ms)
    if found.created_before_ms:
        conditions.append(created < found.created_before_ms)
    if after is not None:
        conditions.append(tuple_(created, run_id) < tuple_(literal(after[0]), literal(after[1])))
    return (
        select(created, run_id)
        .where(*conditions)
        .order_by(created.desc(), run_id.desc())
        .limit(limit)
    )


def _rows(
    connection: Connection, run_ids: Sequence[str], checked: list[ColumnElement[bool]]
) -> dict[str, Any]:
    """The ``runs`` rows of ``run_ids`` that pass ``checked``, by run id."""
    query = select(runs).where(runs.c.run_id.in_(bindparam("ids", expanding=True)), *checked)
    return {row.run_id: row for row in connection.execute(query, {"ids": list(run_ids)})}
