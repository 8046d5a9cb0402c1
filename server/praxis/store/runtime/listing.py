"""ListRuns: runs filtered by work order, ref, contract, state, starter, creation time
and labels, newest first, at a cost bounded by the page.

One filter *drives* the read: its index lists the keys ``(created_at_ms, run_id)`` of
the runs it matches in page order (newest first), a batch at a time, and one query per
batch reads those runs checked against the other filters. The driver is the most
selective filter given, in the order of
:func:`praxis.store.runtime.rows.listing.driver` (which reads the pages). A call examines at most
:data:`SCAN_MAX` keys: when they did not fill the page, the page holds what matched and
a token that resumes after the last key examined, so that no call's cost grows with
the runs stored, however rare the matches.

A page token is the key the page ended at and a digest of the filters
(:mod:`praxis.store.db.paging`); a token presented with other filters is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from praxis.core import membership, registry, values
from praxis.core import run as core
from praxis.core.records import Ref
from praxis.core.rejection import Rejection, invalid
from praxis.store.db import paging

PAGE_DEFAULT = 100
PAGE_MAX = 1000
SCAN_MAX = 5000
"""Keys of the driving index one call examines at most."""
BATCH = 500
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
