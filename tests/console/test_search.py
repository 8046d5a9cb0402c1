"""The runs page's search line, read without a server (praxis_console.search)."""

from __future__ import annotations

from praxis_console.search import RunSearch, matches, parse


def test_words_are_read_as_id_state_label_and_ref() -> None:
    assert parse("run_0a1b") == RunSearch(run_id="run_0a1b")
    assert parse("failed") == RunSearch(state="RUN_STATE_FAILED")
    assert parse("state:Awaiting-Nodes").state == "RUN_STATE_AWAITING_NODES"
    assert parse("team=search label:tier=gold").labels == (("team", "search"), ("tier", "gold"))
    assert parse("orders/nightly").ref == ("orders", "nightly")
    assert parse("ref:orders/nightly cancelled team=x") == RunSearch(
        state="RUN_STATE_CANCELLED", ref=("orders", "nightly"), labels=(("team", "x"),)
    )
    assert parse('"note=two words"').labels == (("note", "two words"),)
    assert parse("run:failed") == RunSearch(run_id="failed")  # run: forces an id
    assert parse("") == RunSearch()


def test_words_that_cannot_be_read_say_why() -> None:
    assert "not a run state" in parse("state:sleeping").problem
    assert "not a ref" in parse("ref:orders").problem
    assert "not a label" in parse("=x").problem
    assert "one run id" in parse("run_a run_b").problem
    assert parse('team="unclosed').labels == (("team", '"unclosed'),)  # read as typed


def test_a_run_found_by_id_must_meet_the_other_words() -> None:
    wanted = parse("run_1 failed team=search")
    assert matches(wanted, "RUN_STATE_FAILED", None, {"team": "search", "x": "y"})
    assert not matches(wanted, "RUN_STATE_COMPLETED", None, {"team": "search"})
    assert not matches(wanted, "RUN_STATE_FAILED", None, {"team": "billing"})
    assert not matches(parse("a/b"), "RUN_STATE_FAILED", ("a", "c"), {})
