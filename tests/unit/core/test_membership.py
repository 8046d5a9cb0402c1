"""Which work order a run belongs to, and the bounds of its labels (core.membership)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from praxis.core import membership
from praxis.core.records import Ref
from praxis.core.rejection import Code, Rejection

WORK_ORDERS = st.sampled_from(["wo-a", "wo-b", "default"])


@given(
    ref=st.none() | WORK_ORDERS,
    named=st.sampled_from(["", "wo-a", "wo-b"]),
    contract=st.none() | WORK_ORDERS,
)
def test_a_run_belongs_to_the_one_work_order_its_sources_agree_on(
    ref: str | None, named: str, contract: str | None
) -> None:
    found = membership.work_order_of(
        Ref(ref, "run-1") if ref is not None else None, named, contract
    )
    named_ones = {name for name in (ref, named or None, contract) if name is not None}
    if len(named_ones) > 1:
        assert isinstance(found, Rejection)
        assert (found.code, found.reason) == (Code.INVALID_ARGUMENT, "WORK_ORDER_MISMATCH")
    elif named_ones:
        assert found == named_ones.pop()
    else:
        assert found == membership.DEFAULT_WORK_ORDER


@pytest.mark.parametrize(
    "labels",
    [
        {f"k{i}": "v" for i in range(16)},
        {"k" * 63: "v" * 256},
        {"ключ": "é" * 128},
        {"k": ""},
        {},
    ],
)
def test_labels_within_their_bounds_pass(labels: dict[str, str]) -> None:
    assert membership.check_labels(labels) is None


@pytest.mark.parametrize(
    "labels",
    [
        {f"k{i}": "v" for i in range(17)},
        {"k" * 64: "v"},
        {"": "v"},
        {"a b": "v"},
        {"a/b": "v"},
        {"k": "v" * 257},
        {"k": "é" * 129},
    ],
)
def test_labels_past_their_bounds_are_refused(labels: dict[str, str]) -> None:
    found = membership.check_labels(labels)
    assert found is not None and (found.code, found.reason) == (
        Code.INVALID_ARGUMENT,
        "LABEL_INVALID",
    )
    assert found.violations and found.violations[0].field.startswith("labels")


def test_a_long_bad_key_is_not_echoed_whole() -> None:
    found = membership.check_labels({"x" * 10_000: "v"})
    assert found is not None and len(found.message) < 200


def test_canonical_labels_sort_their_keys() -> None:
    assert membership.canonical_labels({"b": "2", "a": "1"}) == '{"a":"1","b":"2"}'
    assert membership.canonical_labels({}) == ""
