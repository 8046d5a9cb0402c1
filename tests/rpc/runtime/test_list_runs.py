"""ListRuns filters (issue 23, item 2): work order, ref, contract, state, who started the
run, creation time and labels, with page tokens bound to the filters and a cost bounded
by the page."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from aiws.engine.v1 import common_pb2, run_pb2
from praxis.store.runtime import listing
from tests.support.execution import create_contract
from tests.support.harness import Harness, expect_error
from tests.support.runtime import claim, complete, definition, governed, node, start

pytestmark = pytest.mark.backends("sqlite", "postgres")

ONE = definition("a", a=node())


def _ids(h: Harness, principal: str = "alice", **filters: object) -> list[str]:
    """Every run id the filters list, following page tokens (page size 2)."""
    return [run.run_id for run in _pages(h, principal, **filters)]


def _pages(h: Harness, principal: str = "alice", **filters: object) -> Iterator[run_pb2.Run]:
    runs = h.client(principal).runs
    token = ""
    for _ in range(100):
        page = runs.ListRuns(run_pb2.ListRunsRequest(page_size=2, page_token=token, **filters))
        yield from page.runs
        token = page.next_page_token
        if not token:
            return
    raise AssertionError("the listing did not end")


@pytest.fixture
def runs(harness: Harness) -> dict[str, str]:
    """Runs of several work orders, contracts, starters, labels and times, 10 ms apart."""
    create_contract(harness, "c-x", work_order_id="wo-x")
    made: dict[str, str] = {}

    def add(name: str, principal: str = "agent", **fields: object) -> None:
        harness.clock.advance(10)
        made[name] = start(harness, ONE, principal=principal, **fields).run.run_id

    add("x1", contract_id="c-x", labels={"team": "search", "tier": "gold"})
    add("x2", work_order_id="wo-x", labels={"team": "search"})
    add("y1", work_order_id="wo-y", labels={"team": "search", "tier": "gold"})
    add("y2", principal="alice", work_order_id="wo-y", labels={"team": "ads"})
    add("d1")
    made["gov"] = governed(harness).run_id
    return made


def test_listing_filters_by_work_order(harness: Harness, runs: dict[str, str]) -> None:
    assert _ids(harness, work_order_id="wo-x") == [runs["x2"], runs["x1"]]
    assert _ids(harness, work_order_id="wo-y") == [runs["y2"], runs["y1"]]
    assert _ids(harness, work_order_id="default") == [runs["d1"]]
    assert _ids(harness, work_order_id="wo-1") == [runs["gov"]]
    assert _ids(harness, work_order_id="wo-none") == []


def test_listing_filters_by_ref(harness: Harness, runs: dict[str, str]) -> None:
    ref = common_pb2.WorkflowRef(work_order_id="wo-1", run_id="run-1")
    assert _ids(harness, ref=ref) == [runs["gov"]]
    other = common_pb2.WorkflowRef(work_order_id="wo-1", run_id="run-2")
    assert _ids(harness, ref=other) == []
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "WORK_ORDER_MISMATCH"):
        harness.client("alice").runs.ListRuns(
            run_pb2.ListRunsRequest(ref=ref, work_order_id="wo-x")
        )
    assert _ids(harness, ref=ref, work_order_id="wo-1") == [runs["gov"]]


def test_listing_filters_by_contract(harness: Harness, runs: dict[str, str]) -> None:
    assert _ids(harness, contract_id="c-x") == [runs["x1"]]
    assert _ids(harness, contract_id="c-none") == []


def test_listing_filters_by_starter(harness: Harness, runs: dict[str, str]) -> None:
    assert _ids(harness, started_by="alice") == [runs["y2"]]
    assert runs["y2"] not in _ids(harness, started_by="agent")
    assert len(_ids(harness, started_by="agent")) == 5


def test_listing_filters_by_state(harness: Harness, runs: dict[str, str]) -> None:
    [task] = [t for t in claim(harness) if t.run_id == runs["y1"]]
    complete(harness, task, "done")
    assert _ids(harness, state=run_pb2.RUN_STATE_COMPLETED) == [runs["y1"]]
    assert _ids(harness, state=run_pb2.RUN_STATE_COMPLETED, work_order_id="wo-x") == []
    assert _ids(harness, state=run_pb2.RUN_STATE_COMPLETED, work_order_id="wo-y") == [runs["y1"]]


def test_listing_filters_by_creation_time(harness: Harness, runs: dict[str, str]) -> None:
    listed = {r.run_id: r.created_at_ms for r in _pages(harness)}
    after, before = listed[runs["x1"]], listed[runs["d1"]]
    # created_after_ms and created_before_ms are exclusive bounds
    assert _ids(harness, created_after_ms=after, created_before_ms=before) == [
        runs["y2"],
        runs["y1"],
        runs["x2"],
    ]
    assert _ids(harness, created_after_ms=listed[runs["gov"]]) == []
    assert _ids(harness, created_before_ms=after) == []
    assert _ids(harness, created_before_ms=after + 1, work_order_id="wo-x") == [runs["x1"]]


def test_listing_filters_by_labels_all_of_which_must_match(
    harness: Harness, runs: dict[str, str]
) -> None:
    assert _ids(harness, labels={"team": "search"}) == [runs["y1"], runs["x2"], runs["x1"]]
    assert _ids(harness, labels={"team": "search", "tier": "gold"}) == [runs["y1"], runs["x1"]]
    assert _ids(harness, labels={"tier": "gold", "team": "ads"}) == []
    assert _ids(harness, labels={"team": "search"}, work_order_id="wo-x") == [
        runs["x2"],
        runs["x1"],
    ]
    assert _ids(harness, labels={"team": "search"}, started_by="alice") == []
    assert _ids(harness, labels={"team": "nobody"}) == []


def test_listed_runs_carry_their_work_order_starter_and_labels(
    harness: Harness, runs: dict[str, str]
) -> None:
    by_id = {r.run_id: r for r in _pages(harness)}
    y2 = by_id[runs["y2"]]
    assert (y2.work_order_id, y2.started_by, dict(y2.labels)) == ("wo-y", "alice", {"team": "ads"})
    assert by_id[runs["gov"]].work_order_id == "wo-1"


def test_a_token_of_another_filter_is_refused(harness: Harness, runs: dict[str, str]) -> None:
    client = harness.client("alice").runs
    page = client.ListRuns(run_pb2.ListRunsRequest(page_size=1, work_order_id="wo-x"))
    assert page.next_page_token
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListRuns(
            run_pb2.ListRunsRequest(
                page_size=1, work_order_id="wo-y", page_token=page.next_page_token
            )
        )
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "PAGE_INVALID"):
        client.ListRuns(
            run_pb2.ListRunsRequest(
                page_size=1,
                work_order_id="wo-x",
                labels={"team": "search"},
                page_token=page.next_page_token,
            )
        )
    following = client.ListRuns(
        run_pb2.ListRunsRequest(page_size=1, work_order_id="wo-x", page_token=page.next_page_token)
    )
    assert [r.run_id for r in following.runs] == [runs["x1"]]


def test_a_listing_examines_a_bounded_number_of_runs_per_page(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = [start(harness, ONE, work_order_id="wo-old", labels={"k": "v"}).run.run_id]
    for _ in range(3):
        harness.clock.advance(1)
        older.append(start(harness, ONE, work_order_id="wo-old", labels={"k": "v"}).run.run_id)
    for _ in range(6):
        harness.clock.advance(1)
        start(harness, ONE, work_order_id="wo-new", labels={"k": "v"})
    monkeypatch.setattr(listing, "SCAN_MAX", 4)
    client = harness.client("alice").runs
    request = run_pb2.ListRunsRequest(page_size=10, labels={"k": "v"}, work_order_id="wo-old")
    first = client.ListRuns(request)
    # the labels drive the query: the 4 newest runs examined are all of wo-new
    assert list(first.runs) == [] and first.next_page_token
    found = [r.run_id for r in _pages(harness, labels={"k": "v"}, work_order_id="wo-old")]
    assert found == older[::-1]


@pytest.mark.parametrize(
    ("request_fields", "reason"),
    [
        ({"work_order_id": "bad id"}, "IDENTIFIER_INVALID"),
        ({"contract_id": "bad id"}, "IDENTIFIER_INVALID"),
        ({"started_by": "bad id"}, "IDENTIFIER_INVALID"),
        ({"ref": common_pb2.WorkflowRef(work_order_id="wo-1")}, "FIELD_REQUIRED"),
        ({"created_after_ms": -1}, "TIME_INVALID"),
        ({"created_before_ms": -5}, "TIME_INVALID"),
        ({"labels": {"bad key": "v"}}, "LABEL_INVALID"),
        ({"labels": {f"k{i}": "v" for i in range(17)}}, "LABEL_INVALID"),
    ],
)
def test_bad_filters_are_refused(
    harness: Harness, request_fields: dict[str, object], reason: str
) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
        harness.client("alice").runs.ListRuns(run_pb2.ListRunsRequest(**request_fields))  # type: ignore[arg-type]
