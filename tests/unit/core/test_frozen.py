"""``evolve``: the reducer's copy of a record with changes, the same as
``dataclasses.replace`` where it is allowed, refused where it would not be."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from praxis.core.frozen import evolve
from praxis.core.run.state import Event, NodeRun, NodeStatus


@given(
    status=st.sampled_from(list(NodeStatus)),
    attempts=st.integers(0, 10),
    error=st.text(max_size=20),
    deadline_ms=st.integers(0, 2**53),
)
def test_an_evolved_node_is_the_node_replace_gives(
    status: NodeStatus, attempts: int, error: str, deadline_ms: int
) -> None:
    node = NodeRun("a#1", "a", item=1, attempt_id="att_1", items_done=2)
    changes: dict[str, Any] = {
        "status": status,
        "attempts": attempts,
        "error": error,
        "deadline_ms": deadline_ms,
    }
    evolved, replaced = evolve(node, **changes), dataclasses.replace(node, **changes)
    assert evolved == replaced
    assert vars(evolved) == vars(replaced)
    assert node == NodeRun("a#1", "a", item=1, attempt_id="att_1", items_done=2)  # unchanged
    with pytest.raises(dataclasses.FrozenInstanceError):
        evolved.status = NodeStatus.DONE  # type: ignore[misc]  # still frozen


def test_a_change_that_names_no_field_is_refused() -> None:
    with pytest.raises(TypeError):
        evolve(NodeRun("a", "a"), stauts=NodeStatus.DONE)


@dataclasses.dataclass(frozen=True)
class _Cached:
    value: int

    @functools.cached_property
    def doubled(self) -> int:
        return self.value * 2


@pytest.mark.parametrize(
    "record",
    [Event("RUN_STARTED"), _Cached(1), object()],
    ids=["post-init check", "cached on the instance", "not a dataclass"],
)
def test_records_a_dict_copy_would_get_wrong_are_refused(record: object) -> None:
    with pytest.raises(TypeError):
        evolve(record)
