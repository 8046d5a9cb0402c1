"""The CLI's pure helpers: DAG change, progress, grants, times, JSON output."""

from __future__ import annotations

import json

import pytest

from aiws.engine.v1 import common_pb2, run_pb2
from aiws.engine.v1 import principal_pb2 as pb
from praxis_cli.commands.common import parse_moment, parse_ref
from praxis_cli.commands.material import dag_change
from praxis_cli.commands.principals import grants_of, is_administrator
from praxis_cli.commands.runs import measure
from praxis_cli.errors import CliError
from praxis_cli.output import local_time, to_dict


def test_dag_change_names_nodes_edges_and_the_output() -> None:
    base = {"version": 1, "nodes": {"a": {"input": {"from": "run_input"}},
                                    "b": {"input": {"from": "node:a"}}},
            "output": {"from": "node:b"}}  # fmt: skip
    candidate = {"version": 1, "nodes": {
        "a": {"input": {"from": "run_input"}, "timeout_ms": 5},
        "c": {"input": {"from": ["node:a"]}},
        "d": {"input": {"from": "fanout_item"}, "fanout": {"over": "node:c.items"},
              "depends_on": ["a"]}},
        "output": {"from": "node:d"}}  # fmt: skip
    change = dag_change(json.dumps(base), json.dumps(candidate))
    assert change == {
        "output_changed": ["node:b -> node:d"],
        "nodes_added": ["c", "d"],
        "nodes_removed": ["b"],
        "nodes_changed": ["a"],
        "edges_added": ["a -> c", "a -> d", "c -> d"],
        "edges_removed": ["a -> b"],
    }
    assert dag_change("", json.dumps(base))["nodes_added"] == ["a", "b"]  # REGISTER


def test_progress_counts_items_whether_listed_or_omitted() -> None:
    listed = run_pb2.Run(node_count=5, nodes=[
        run_pb2.NodeStatus(node_uid="s", node_id="s", state=run_pb2.NODE_STATE_DONE),
        run_pb2.NodeStatus(node_uid="f", node_id="f", state=run_pb2.NODE_STATE_EXPANDED,
                           fanout_items=3),
        run_pb2.NodeStatus(node_uid="f#0", node_id="f", state=run_pb2.NODE_STATE_DONE),
        run_pb2.NodeStatus(node_uid="f#1", node_id="f", state=run_pb2.NODE_STATE_RUNNING),
        run_pb2.NodeStatus(node_uid="f#2", node_id="f", state=run_pb2.NODE_STATE_DONE),
    ])  # fmt: skip
    progress = measure(listed)
    assert (progress.done, progress.total, progress.fanouts) == (3, 5, (("f", 2, 3),))
    omitted = run_pb2.Run(node_count=2003, items_omitted=True, nodes=[
        run_pb2.NodeStatus(node_uid="s", node_id="s", state=run_pb2.NODE_STATE_DONE),
        run_pb2.NodeStatus(node_uid="f", node_id="f", state=run_pb2.NODE_STATE_EXPANDED,
                           fanout_items=2000, fanout_items_done=1500),
        run_pb2.NodeStatus(node_uid="j", node_id="j", state=run_pb2.NODE_STATE_PENDING),
    ])  # fmt: skip
    progress = measure(omitted)
    assert (progress.done, progress.total, progress.fanouts) == (1501, 2003, (("f", 1500, 2000),))


def test_grants_group_actions_by_work_order_pattern() -> None:
    grants = grants_of(["registry.read", "run.*:wo-a*", "inbox.read"], "250")
    assert [(list(g.actions), list(g.work_orders), g.max_spend_microcredits) for g in grants] == [
        (["registry.read", "inbox.read"], ["*"], "250"),
        (["run.*"], ["wo-a*"], "250"),
    ]
    with pytest.raises(CliError):
        grants_of([":wo"], None)
    [limited] = grants_of(["wait.*"], None, ["payments"], (5, 9))
    assert (list(limited.purposes), limited.not_before_ms, limited.not_after_ms) == (
        ["payments"], 5, 9
    )  # fmt: skip


def test_refs_and_moments() -> None:
    assert (parse_ref("wo-1/run-1").work_order_id, parse_ref("wo-1/run-1").run_id) == (
        "wo-1", "run-1"
    )  # fmt: skip
    for bad in ("wo-1", "/run", "wo/"):
        with pytest.raises(CliError) as caught:
            parse_ref(bad)
        assert caught.value.exit_code == 2
    assert parse_moment("1800000000000", "x") == 1_800_000_000_000
    assert parse_moment("2027-01-15T10:00:00+00:00", "x") == 1_800_007_200_000
    with pytest.raises(CliError):
        parse_moment("tomorrow", "x")


def test_json_output_keeps_64_bit_numbers_and_enum_names() -> None:
    run = run_pb2.Run(
        run_id="r", state=run_pb2.RUN_STATE_COMPLETED, created_at_ms=1_800_000_000_123
    )
    out = to_dict(run)
    assert out["created_at_ms"] == 1_800_000_000_123 and out["state"] == "RUN_STATE_COMPLETED"
    assert out["ref"] is None and out["nodes"] == []
    assert local_time(0) == "-" and local_time(1_800_000_000_123).count(".123") == 1


def test_an_administrator_is_an_active_human_managing_principals_everywhere() -> None:
    def principal(
        *grants: tuple[list[str], list[str]],
        kind: common_pb2.PrincipalKind = common_pb2.PRINCIPAL_KIND_HUMAN,
        state: pb.PrincipalState = pb.PRINCIPAL_STATE_ACTIVE,
    ) -> pb.Principal:
        return pb.Principal(
            principal_id="p",
            kind=kind,
            state=state,
            grants=[pb.Grant(actions=a, work_orders=w) for a, w in grants],
        )

    admins = [(["*"], ["*"]), (["principal.*"], []), (["x", "principal.manage"], ["wo", "*"])]
    for actions, work_orders in admins:
        assert is_administrator(principal((actions, work_orders))), (actions, work_orders)
    others = [(["principal.read"], ["*"]), (["*"], ["wo-*"]), (["registry.*"], ["*"])]
    for actions, work_orders in others:
        assert not is_administrator(principal((actions, work_orders))), (actions, work_orders)
    assert not is_administrator(principal((["*"], ["*"]), kind=common_pb2.PRINCIPAL_KIND_AGENT))
    for state in (pb.PRINCIPAL_STATE_REVOKED, pb.PRINCIPAL_STATE_EXPIRED):
        assert not is_administrator(principal((["*"], ["*"]), state=state))
