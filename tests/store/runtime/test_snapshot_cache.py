"""Loaded run states are reused only for the exact version they were read at."""

from __future__ import annotations

import json
from typing import Any

import pytest

from aiws.engine.v1 import run_pb2
from praxis.store.runtime import codec as run_codec
from tests.support.harness import Harness
from tests.support.runtime import claim, complete, diamond


def test_snapshots_decode_once_per_version(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[int] = []
    real = run_codec.state_of

    def counting(row: Any, definition: Any, nodes: Any) -> Any:
        decoded.append(row.version)
        return real(row, definition, nodes)

    monkeypatch.setattr(run_codec, "state_of", counting)
    client = harness.client("agent")
    run = client.runs.StartRun(
        run_pb2.StartRunRequest(request_id="r", definition_json=json.dumps(diamond()))
    ).run
    for _ in range(3):
        assert client.runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id)).run == run
    assert decoded.count(run.version) <= 1  # read once at most, then served from the cache
    [task] = claim(harness)
    complete(harness, task, {"x": 1})
    after = client.runs.GetRun(run_pb2.GetRunRequest(run_id=run.run_id)).run
    assert after.version > run.version
    assert after.nodes != run.nodes  # a newer version is never served from the old entry
