"""Retention: how long a finished run is kept before it is archived (pure).

The policy is the installation's (``retention`` in the config): ``keep_finished_ms``
for every work order (0: for ever), overridden per work order by ``work_orders``
patterns (an exact id, or a prefix ending in ``*``; an exact id wins, then the longest
prefix). What may never be archived (an unfinished run, one a pending reconciliation,
handoff or acceptance refers to) is decided by the store, which can see those records.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DAY_MS = 86_400_000
MAX_BATCH_RUNS = 500
MAX_OVERRIDES = 1_000


@dataclass(frozen=True)
class RetentionPolicy:
    """The retention settings of an installation (see the module docstring)."""

    keep_finished_ms: int = 0  # 0: finished runs are kept for ever (no archiving)
    work_orders: tuple[tuple[str, int], ...] = ()  # (pattern, keep_finished_ms)
    archive_dir: str = "archive"  # resolved against the config's folder by the server
    batch_runs: int = 20  # runs archived per write transaction, at most
    interval_ms: int = 60_000  # how often the archiver looks for due runs
    # How long a tombstone answers GetRun (0: for ever); None: as long again as the runs
    # were kept (:attr:`tombstone_keep_ms`).
    keep_archived_ms: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = []
        if self.keep_finished_ms < 0 or (self.keep_archived_ms or 0) < 0:
            problems.append("keep_finished_ms and keep_archived_ms must be >= 0")
        if not 1 <= self.batch_runs <= MAX_BATCH_RUNS:
            problems.append(f"batch_runs must be in [1, {MAX_BATCH_RUNS}]")
        if self.interval_ms < 1_000:
            problems.append("interval_ms must be >= 1000")
        if len(self.work_orders) > MAX_OVERRIDES:
            problems.append(f"at most {MAX_OVERRIDES} work_orders overrides")
        for pattern, keep in self.work_orders:
            if not pattern or "*" in pattern[:-1] or keep < 0:
                problems.append(f"work_orders: {pattern!r}: a work order or prefix*, keep >= 0")
        if self.extra:
            problems.append(f"unknown keys {sorted(self.extra)}")
        if problems:
            raise ValueError("retention: " + "; ".join(problems))

    @property
    def active(self) -> bool:
        """Whether any run may ever be archived."""
        return self.keep_finished_ms > 0 or any(keep > 0 for _, keep in self.work_orders)

    @property
    def tombstone_keep_ms(self) -> int:
        """How long an archived run's tombstone is kept (0: for ever): ``keep_archived_ms``
        when set, else the longest keep of the policy, so every archived run answers
        RUN_ARCHIVED at least as long again as it was kept (``keep_finished_ms`` unless a
        work order keeps its runs longer), and the tombstones stay bounded by the policy."""
        if self.keep_archived_ms is not None:
            return self.keep_archived_ms
        return max((self.keep_finished_ms, *(k for _, k in self.work_orders)), default=0)

    def keep_for(self, work_order_id: str) -> int:
        """How long a finished run of ``work_order_id`` is kept (0: for ever)."""
        best: tuple[int, int] | None = None  # (specificity, keep)
        for pattern, keep in self.work_orders:
            if pattern.endswith("*"):
                prefix = pattern[:-1]
                if work_order_id.startswith(prefix) and (best is None or len(prefix) > best[0]):
                    best = (len(prefix), keep)
            elif pattern == work_order_id:
                return keep
        return self.keep_finished_ms if best is None else best[1]

    def shortest_keep_ms(self) -> int:
        """The shortest non-zero keep of the policy: no run finished after ``now`` minus
        this is ever due (0 when nothing is archived)."""
        keeps = [k for k in (self.keep_finished_ms, *(k for _, k in self.work_orders)) if k]
        return min(keeps) if keeps else 0

    def scope(self) -> tuple[str, ...] | None:
        """The work-order patterns whose runs may be archived; ``None`` when any work
        order's may (``keep_finished_ms`` > 0). A superset: :meth:`due` decides."""
        if self.keep_finished_ms:
            return None
        return tuple(pattern for pattern, keep in self.work_orders if keep)

    def due(self, work_order_id: str, finished_at_ms: int, now_ms: int) -> bool:
        """Whether a run that finished at ``finished_at_ms`` is past its keep."""
        keep = self.keep_for(work_order_id)
        return keep > 0 and finished_at_ms > 0 and finished_at_ms + keep <= now_ms


def parse_policy(data: Mapping[str, Any]) -> RetentionPolicy:
    """The policy of a config's ``retention`` object.

    Raises:
        ValueError: An unknown key or a value out of bounds.
    """
    known = {
        "keep_finished_ms", "archive_dir", "batch_runs", "interval_ms", "keep_archived_ms",
    }  # fmt: skip
    overrides = data.get("work_orders", {})
    if not isinstance(overrides, Mapping):
        raise ValueError("retention: work_orders must map work orders to keep_finished_ms")
    try:
        numbers: dict[str, Any] = {
            k: int(v) for k, v in data.items() if k in known and k != "archive_dir"
        }
        return RetentionPolicy(
            work_orders=tuple(sorted((str(k), int(v)) for k, v in overrides.items())),
            archive_dir=str(data.get("archive_dir", "archive")),
            extra={k: v for k, v in data.items() if k not in known and k != "work_orders"},
            **numbers,
        )
    except (TypeError, ValueError) as error:
        text = str(error)
        raise ValueError(text if text.startswith("retention") else f"retention: {text}") from None


def run_digest(run_id: str, tables: Mapping[str, list[dict[str, Any]]]) -> str:
    """``sha256:<hex>`` of an archived run: its id and every row archived, as canonical
    JSON (sorted keys, no insignificant whitespace; rows in the order archived)."""
    text = json.dumps(
        {"run_id": run_id, "tables": tables},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
