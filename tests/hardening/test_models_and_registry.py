"""Issue 13 items 10 and 11: definitions validated when they enter the registry, and
models known explicitly (config, or a worker registration that lapses), listed."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest

from aiws.engine.v1 import registry_pb2, run_pb2, task_pb2
from praxis.store.runtime import runs as runs_module
from praxis.store.runtime.worker_models import MODEL_TTL_MS
from tests.support.harness import Harness, expect_error
from tests.support.registry import (
    DEFINITION,
    activate_cmd,
    approve,
    execute,
    propose_cmd,
    ref,
    register_cmd,
    registered,
    variant,
)
from tests.support.runtime import claim, definition, node

CYCLE = definition("a", a=node("node:b", ("b",)), b=node("node:a", ("a",)))
MISSPELT = {
    "version": 1,
    "nodes": {
        "a": {"agent": {"model": "echo"}, "input": {"from": "run_input"}},
        "b": {"agent": {"model": "echo"}, "input": {"from": "run_input"}, "depends_0n": ["a"]},
    },
    "output": {"from": "node:b"},
}
UNKNOWN_MODEL = definition("a", a=node(model="gpt-typo"))


def _register(h: Harness, document: dict[str, object], name: str) -> None:
    command = register_cmd(ref(run_id=name), f"ap-{name}", document)
    approve(h, command, f"ap-{name}")
    execute(h, "alice", f"req-{name}", command)


def test_register_refuses_what_no_run_could_execute(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        _register(harness, CYCLE, "cycle")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "DEFINITION_INVALID"):
        _register(harness, MISSPELT, "misspelt")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        _register(harness, UNKNOWN_MODEL, "model")
    _register(harness, DEFINITION, "fine")


def test_propose_refuses_what_no_run_could_execute(harness: Harness) -> None:
    r = registered(harness)
    for index, (document, reason) in enumerate(
        [(CYCLE, "DEFINITION_INVALID"), (MISSPELT, "DEFINITION_INVALID"),
         (UNKNOWN_MODEL, "MODEL_UNKNOWN")]
    ):  # fmt: skip
        with expect_error(grpc.StatusCode.INVALID_ARGUMENT, reason):
            execute(harness, "agent", f"req-p{index}", propose_cmd(r, f"p{index}", 1, document))


def test_activate_refuses_a_proposal_whose_model_lapsed(harness: Harness) -> None:
    r = registered(harness)
    claim(harness, models=("short-lived",))  # a worker registers the model
    execute(
        harness,
        "agent",
        "req-p",
        propose_cmd(r, "p", 1, definition("a", a=node(model="short-lived"))),
    )
    harness.clock.advance(MODEL_TTL_MS + 1)  # no worker has claimed for it since
    command = activate_cmd(r, "p", 1, "ap-act")
    approve(harness, command, "ap-act")
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        execute(harness, "alice", "req-act", command)


def _start(h: Harness, model: str, request_id: str) -> run_pb2.StartRunResponse:
    return h.client("agent").runs.StartRun(  # type: ignore[no-any-return]
        run_pb2.StartRunRequest(
            request_id=request_id,
            definition_json=json.dumps(definition("a", a=node(model=model))),
            input_json="null",
        )
    )


def test_a_claim_registers_a_model_for_a_lifetime_only(harness: Harness) -> None:
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        _start(harness, "llama", "r-0")
    claim(harness, models=("llama",))  # the worker starts: StartRun works at once
    _start(harness, "llama", "r-1")
    listed = harness.client("agent").tasks.ListModels(task_pb2.ListModelsRequest()).models
    by_name = {model.name: model for model in listed}
    assert by_name["echo"].source == task_pb2.MODEL_SOURCE_CONFIG
    assert by_name["llama"].source == task_pb2.MODEL_SOURCE_WORKER
    assert by_name["llama"].expires_at_ms == harness.clock.now_ms() + MODEL_TTL_MS
    harness.clock.advance(MODEL_TTL_MS - 1)
    claim(harness, models=("llama",))  # renewed by a later claim
    harness.clock.advance(MODEL_TTL_MS - 1)
    _start(harness, "llama", "r-2")
    harness.clock.advance(2)  # no claim for a whole lifetime: the registration lapsed
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "MODEL_UNKNOWN"):
        _start(harness, "llama", "r-3")
    listed = harness.client("agent").tasks.ListModels(task_pb2.ListModelsRequest()).models
    assert [model.name for model in listed] == ["echo"]


def test_the_unknown_model_error_lists_only_live_models(harness: Harness) -> None:
    claim(harness, models=("typo-model",))
    harness.clock.advance(MODEL_TTL_MS + 1)
    with __import__("pytest").raises(grpc.RpcError) as caught:
        _start(harness, "other", "r-1")
    from praxis_client import error_details

    details = error_details(caught.value)
    assert details.reason == "MODEL_UNKNOWN"
    info = _error_info(caught.value)
    assert info["known_models"] == "echo"


def _error_info(error: grpc.RpcError) -> dict[str, str]:
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return dict(info.metadata)
    raise AssertionError("no ErrorInfo")


def test_activate_does_not_parse_again_what_its_propose_checked(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ACTIVATE of a proposal this process checked at PROPOSE reuses that parse while
    its models are known (the lapse case above parses again and refuses)."""
    r = registered(harness)
    execute(harness, "agent", "req-p", propose_cmd(r, "p", 1, variant(2)))
    parses: list[object] = []
    real = runs_module.definitions.parse

    def counted(*args: Any, **kwargs: Any) -> Any:
        parses.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(runs_module.definitions, "parse", counted)
    command = activate_cmd(r, "p", 1, "ap-act")
    approve(harness, command, "ap-act")
    execute(harness, "alice", "req-act", command)
    assert parses == []
    head = harness.client("alice").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    assert head.revision == 2
