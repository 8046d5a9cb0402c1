"""ListRuns' reads (:mod:`praxis.store.runtime.listing`): the keys of the driving index,
a batch at a time, then the runs they name checked against the other filters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, bindparam, exists, literal, select, tuple_
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from praxis.store.runtime import listing
from praxis.store.runtime.listing import Key, RunFilter
from praxis.store.runtime.tables import run_labels, runs


def page(
    connection: Connection, found: RunFilter, size: int, after: Key | None
) -> tuple[list[Any], Key | None]:
    """Up to ``size`` ``runs`` rows matching ``found`` after ``after``, newest first, and
    the key the next page resumes after (``None`` when the listing has ended)."""
    plan, checked = driver(found)
    rows: list[Any] = []
    examined = 0
    cursor = after
    while examined < listing.SCAN_MAX:
        wanted = size + 1 - len(rows)
        most = wanted if not checked else max(wanted, listing.BATCH)
        batch = min(listing.SCAN_MAX - examined, most)
        keys = connection.execute(keys_query(plan, found, cursor, batch)).all()
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


def driver(found: RunFilter) -> tuple[_Driver, list[ColumnElement[bool]]]:
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


def keys_query(driver: _Driver, found: RunFilter, after: Key | None, limit: int) -> Select[Any]:
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
