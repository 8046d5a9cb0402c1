"""The console's pure parts: graph layout and change, the diff, sessions, the timeline."""

from __future__ import annotations

import json

from aiws.engine.v1 import event_pb2
from praxis_console import diff, graph
from praxis_console.sessions import Limits, SessionStore, csrf_matches
from praxis_console.timeline import Timeline
from praxis_console.web import credits, format_ms, plural
from tests.support.console import FANOUT, FANOUT_V2


def test_layout_puts_each_node_right_of_its_dependencies() -> None:
    laid = graph.layout(graph.parse_nodes(json.dumps(FANOUT_V2)))
    x = {n.node_id: n.x for n in laid.nodes}
    assert x["plan"] < x["work"] < x["join"] < x["check"]
    assert {(e.source, e.target) for e in laid.edges} == {
        ("plan", "work"),
        ("work", "join"),
        ("join", "check"),
    }
    assert [n.fanout for n in laid.nodes if n.node_id == "work"] == [True]
    assert laid.width > x["check"] and laid.height >= graph.NODE_H


def test_change_names_added_removed_and_changed_nodes_and_edges() -> None:
    base = graph.parse_nodes(json.dumps(FANOUT_V2))
    candidate = dict(graph.parse_nodes(json.dumps(FANOUT)))
    candidate["join"] = {**candidate["join"], "timeout_ms": 5000}
    candidate["audit"] = {"agent": {"model": "echo"}, "input": {"from": ["node:plan", "node:join"]}}
    found = graph.change(base, candidate)
    assert found.added == ("audit",)
    assert found.removed == ("check",)
    assert found.changed == ("join",)
    assert set(found.edges_added) == {("plan", "audit"), ("join", "audit")}
    assert found.edges_removed == (("join", "check"),)


def test_layout_survives_bad_documents_and_cycles() -> None:
    assert graph.parse_nodes("not json") == {}
    assert graph.parse_nodes('{"nodes": []}') == {}
    cyclic = {"a": {"depends_on": ["b"]}, "b": {"depends_on": ["a"]}}
    assert {n.node_id for n in graph.layout(cyclic).nodes} == {"a", "b"}
    huge = {f"n{i}": {} for i in range(graph.MAX_DRAWN_NODES + 5)}
    assert graph.layout(huge).truncated
    assert not graph.layout_without_edges(["a", "b"]).has_edges


def test_side_by_side_diff_aligns_and_marks_lines() -> None:
    result = diff.side_by_side('{"a": 1, "b": 2}', '{"a": 1, "b": 3, "c": 4}')
    kinds = [row.kind for row in result.rows]
    assert kinds.count("same") >= 3
    assert "changed" in kinds and "added" in kinds
    assert (result.additions, result.removals) == (2, 1)
    everything_new = diff.side_by_side("", '{"a": 1}')
    assert {row.kind for row in everything_new.rows} == {"added"}


def test_sessions_expire_when_idle_or_old_and_are_bounded() -> None:
    now = [1000.0]
    store = SessionStore(
        lambda: now[0], Limits(max_sessions=2, idle_timeout_s=10, absolute_timeout_s=25)
    )
    first = store.create("token-1", "alice")
    assert store.get(first.session_id) is not None
    now[0] += 9
    assert store.get(first.session_id) is not None  # used: the idle clock restarts
    now[0] += 9
    assert store.alive(first.session_id)
    now[0] += 9  # 27 s old: past the absolute lifetime though used recently
    assert store.get(first.session_id) is None
    a, b, c = (store.create(f"t{i}", "bob") for i in range(3))
    assert store.get(a.session_id) is None  # evicted: only two are kept
    assert store.get(b.session_id) is not None and store.get(c.session_id) is not None
    assert len(store) == 2
    idle = store.create("t", "carol")
    now[0] += 11
    assert not store.alive(idle.session_id) and store.get(idle.session_id) is None
    assert store.get("") is None and store.get("unknown") is None


def test_csrf_tokens_and_one_time_codes() -> None:
    now = [0.0]
    store = SessionStore(lambda: now[0], Limits(code_ttl_s=60))
    session = store.create("secret-bearer", "alice")
    assert csrf_matches(session, session.csrf_token)
    assert not csrf_matches(session, "")
    assert not csrf_matches(session, session.csrf_token + "x")
    assert "secret-bearer" not in repr(session)
    code = store.issue_code("token")
    assert store.redeem_code(code) == "token"
    assert store.redeem_code(code) is None  # single use
    late = store.issue_code("token")
    now[0] += 61
    assert store.redeem_code(late) is None  # expired


def _event(seq: int, kind: str, uid: str, **payload: object) -> event_pb2.Event:
    return event_pb2.Event(
        seq=seq,
        kind=event_pb2.EventKind.Value(f"EVENT_KIND_{kind}"),
        node_uid=uid,
        at_ms=seq * 1000,
        payload_json=json.dumps(payload),
    )


def test_timeline_folds_events_into_attempts_with_outcomes() -> None:
    timeline = Timeline()
    timeline.add(_event(1, "RUN_STARTED", ""))
    timeline.add(_event(2, "NODE_DISPATCHED", "a", attempt=1, attempt_id="at-1", worker_id="w"))
    timeline.add(_event(3, "NODE_FAILED", "a", error="boom", will_retry=True, attempt=1))
    timeline.add(_event(4, "NODE_DISPATCHED", "a", attempt=2, attempt_id="at-2", worker_id="w"))
    timeline.add(_event(5, "NODE_BLOCKED", "a", attempt_id="at-2", attempt=2))
    timeline.add(_event(6, "NODE_RECONCILED", "a", attempt_id="at-2", applied=False))
    timeline.add(_event(7, "NODE_DISPATCHED", "a", attempt=3, attempt_id="at-3", worker_id="w"))
    timeline.add(_event(8, "NODE_COMPLETED", "a", attempt_id="at-3", attempt=3))
    outcomes = {a.attempt_id: a.outcome for a in timeline.attempts.values()}
    assert outcomes == {
        "at-1": "failed, will retry",
        "at-2": "uncertain, reconciled: not applied",
        "at-3": "completed",
    }
    assert timeline.attempts["at-3"].ended_at_ms == 8000
    assert timeline.cursor == 8


def test_formatting_is_exact() -> None:
    assert credits("1") == "0.000001"
    assert credits("123456789012345678.000001") == "123456789012.345678000001"
    assert credits("-2500000") == "-2.5"
    assert credits("garbage") == ""
    assert format_ms(1_800_000_000_123) == "2027-01-15 08:00:00.123 UTC"
    assert format_ms(0) == ""


def test_counts_agree_with_their_nouns() -> None:
    assert plural(1, "line") == "1 line"
    assert plural(0, "edge") == "0 edges"
    assert plural(2, "node") == "2 nodes"
    assert plural(10_000, "item") == "10,000 items"
    assert plural(3, "child", "children") == "3 children"
