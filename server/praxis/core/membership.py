"""Which work order a run belongs to, and the labels it carries.

Every run belongs to exactly one work order, so that the work order's controls (pause,
resume, cancel), its holds and its grants act on all of its runs: a governed run to its
ref's work order; an ad hoc run to its contract's, or to the one its StartRun named, or,
naming neither, to the installation's default work order :data:`DEFAULT_WORK_ORDER`
(an ordinary work order that pause, cancel and holds act on like any other).

Labels are a bounded map set when a run starts and never changed; ListRuns filters on
them.
"""

from __future__ import annotations

from collections.abc import Mapping

from praxis.core import values
from praxis.core.records import Ref
from praxis.core.rejection import Rejection, invalid

DEFAULT_WORK_ORDER = "default"
"""The work order of an ad hoc run that names neither a contract nor a work order."""

MAX_LABELS = 16
"""Labels per run (and per ListRuns filter)."""
LABEL_KEY_MAX = 63
"""Characters of a label key (an identifier)."""
LABEL_VALUE_MAX_BYTES = 256
"""UTF-8 bytes of a label value."""


def work_order_of(ref: Ref | None, named: str, contract_work_order: str | None) -> str | Rejection:
    """The work order of a run about to start.

    Args:
        ref: The governed run's ref (``None`` for an ad hoc run).
        named: ``StartRunRequest.work_order_id`` ("" when not named).
        contract_work_order: The work order of the run's contract (``None``: no contract).

    Returns:
        The work order, or WORK_ORDER_MISMATCH when the sources name different ones.
    """
    sources = [
        (path, found)
        for path, found in (
            ("ref.work_order_id", ref.work_order_id if ref is not None else None),
            ("contract_id", contract_work_order),
            ("work_order_id", named or None),
        )
        if found is not None
    ]
    if not sources:
        return DEFAULT_WORK_ORDER
    first_path, first = sources[0]
    for path, found in sources[1:]:
        if found != first:
            return invalid(
                "WORK_ORDER_MISMATCH",
                path,
                f"{path} names work order {found!r} but {first_path} names {first!r}; "
                "a run belongs to exactly one work order",
            )
    return first


def check_labels(labels: Mapping[str, str], field_path: str = "labels") -> Rejection | None:
    """LABEL_INVALID when a label map is past its bounds (count, key, value size)."""
    if len(labels) > MAX_LABELS:
        return invalid(
            "LABEL_INVALID", field_path, f"at most {MAX_LABELS} labels; got {len(labels)}"
        )
    for key in sorted(labels):
        shown = key if len(key) <= LABEL_KEY_MAX else key[:LABEL_KEY_MAX] + "..."
        path = f"{field_path}[{shown!r}]"
        problem = values.identifier_problem(key)
        if problem is None and len(key) > LABEL_KEY_MAX:
            problem = f"must be at most {LABEL_KEY_MAX} characters"
        if problem is not None:
            return invalid("LABEL_INVALID", path, f"label key {shown!r} {problem}")
        size = len(labels[key].encode("utf-8", errors="surrogatepass"))
        if size > LABEL_VALUE_MAX_BYTES:
            return invalid(
                "LABEL_INVALID",
                path,
                f"label value is {size} bytes; the cap is {LABEL_VALUE_MAX_BYTES}",
            )
    return None


def canonical_labels(labels: Mapping[str, str]) -> str:
    """The labels as canonical JSON (keys sorted), "" when there are none."""
    return values.canonical_json(dict(labels)) if labels else ""
