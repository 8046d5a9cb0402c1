"""The runs a process holds (:class:`praxis.store.runtime.held.HeldRuns`): what a copy
holds at which version, and its bounds."""

from __future__ import annotations

from dataclasses import replace

from praxis.core import definition as definitions
from praxis.core import run as core
from praxis.store.runtime.held import HeldRuns
from praxis.store.runtime.records import RunRecord
from tests.support.runtime import definition, json_out, node


def parsed() -> definitions.Definition:
    found = definitions.parse(definition("a", a=node(output=json_out())), None)
    assert isinstance(found, definitions.Definition)
    return found


PARSED = parsed()


def record(run_id: str, version: int) -> RunRecord:
    outcome = core.apply(None, core.Start(run_id, PARSED, 0, 0), 1_000)
    assert isinstance(outcome, core.Outcome)
    state = replace(outcome.state, version=version)
    return RunRecord(state, "agent", "req", "default", "", "", "", "null", node_count=1)


def attempt(run_id: str, attempt_id: str) -> core.Attempt:
    return core.Attempt(attempt_id, run_id, "a", 1, "w1")


def test_attempts_are_held_along_an_unbroken_chain_of_this_process_s_saves() -> None:
    held = HeldRuns()
    held.written(None, record("r", 1), [attempt("r", "t1")], None)
    held.written(1, record("r", 2), [], None)  # saved from the version held
    found = held.attempt("t1")
    assert found is not None and found[0].state.version == 2
    held.written(5, record("r", 6), [attempt("r", "t2")], None)  # another process wrote 3-5
    assert held.attempt("t1") is None  # unknown at version 6: read it
    assert held.attempt("t2") is not None  # written at 6
    held.read(record("r", 8))  # read after another process's writes
    assert held.attempt("t2") is None
    assert held.record("r") == record("r", 8)


def test_only_live_attempts_are_held() -> None:
    held = HeldRuns()
    held.written(None, record("r", 1), [attempt("r", "t1"), attempt("r", "t2")], None)
    settled = replace(attempt("r", "t1"), status=core.AttemptStatus.COMPLETED)
    held.written(1, record("r", 2), [settled], None)
    assert held.attempt("t1") is None  # settled: a settlement repeated reads it
    assert held.attempt("t2") is not None


def test_a_copy_never_goes_back_to_an_older_version() -> None:
    held = HeldRuns()
    held.written(None, record("r", 5), [attempt("r", "t1")], ("a", "1"))
    held.read(record("r", 4))  # a read snapshot older than what this process wrote
    held.remember(record("r", 3).state)
    copy = held.record("r")
    assert copy is not None and copy.state.version == 5
    assert held.attempt("t1") is not None
    assert held.result("r", "a") == "1"


def test_runs_held_are_bounded_by_count_and_results_by_bytes() -> None:
    held = HeldRuns(size=2, result_bytes=10, result_each=8)
    for run_id in ("r1", "r2", "r3"):
        held.written(None, record(run_id, 1), [attempt(run_id, "t" + run_id)], None)
    assert len(held) == 2
    assert held.record("r1") is None and held.attempt("tr1") is None  # least recently used
    held.keep_result("r2", "a", "123456")
    held.keep_result("r3", "a", "123456")  # 12 bytes in all: r2 (least recent) goes
    assert held.record("r2") is None and held.attempt("tr2") is None
    assert held.result("r3", "a") == "123456"
    assert held.result_bytes == 6
    held.keep_result("r3", "b", "123456789")  # over the size of one result held
    assert held.result("r3", "b") is None
    held.drop("r3")
    assert len(held) == 0 and held.result_bytes == 0
    assert held.attempt("tr3") is None


def test_a_result_is_kept_when_its_run_is_held_again() -> None:
    held = HeldRuns()
    held.written(None, record("r", 1), [], ("a", '{"x":1}'))
    held.read(record("r", 4))  # a newer version read: results never change
    assert held.result("r", "a") == '{"x":1}'
    assert held.result_bytes == len('{"x":1}')
