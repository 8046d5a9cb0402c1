"""The Python client's helper layer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import grpc
import pytest

from aiws.engine.v1 import registry_pb2
from praxis_client import (
    canonical_decimal,
    connect,
    error_details,
    from_epoch_ms,
    parse_decimal,
    to_epoch_ms,
)
from tests.support.harness import Harness


@pytest.mark.parametrize("text", ["0", "-1", "1.5", "123456789012345678901234567890.001"])
def test_decimals_round_trip(text: str) -> None:
    assert canonical_decimal(parse_decimal(text)) == text


@pytest.mark.parametrize("text", ["1.50", "01", "+1", "1e3", "-0", ".5", "1.", ""])
def test_non_canonical_decimals_raise(text: str) -> None:
    with pytest.raises(ValueError, match="canonical"):
        parse_decimal(text)


def test_canonical_decimal_refuses_floats_and_normalises_decimals() -> None:
    with pytest.raises(TypeError):
        canonical_decimal(0.1)  # type: ignore[arg-type]
    assert canonical_decimal(Decimal("1.2300")) == "1.23"
    assert canonical_decimal(Decimal("-0.000")) == "0"
    assert canonical_decimal(10**30) == "1" + "0" * 30


def test_epoch_ms() -> None:
    moment = datetime(2027, 1, 2, 3, 4, 5, 678_000, tzinfo=timezone(timedelta(hours=2)))
    ms = to_epoch_ms(moment)
    assert from_epoch_ms(ms) == moment.astimezone(UTC)
    assert to_epoch_ms(datetime(1969, 12, 31, 23, 59, 59, 999_000, tzinfo=UTC)) == -1
    with pytest.raises(ValueError):
        to_epoch_ms(datetime(2027, 1, 1))  # naive
    for bad in (8_640_000_000_000_001, True, 1.5):
        with pytest.raises(ValueError):
            from_epoch_ms(bad)  # type: ignore[arg-type]


def test_error_details_read_reason_and_violations(harness: Harness) -> None:
    with (
        connect(harness.address, "token-alice") as client,
        pytest.raises(grpc.RpcError) as caught,
    ):
        client.registry.GetHead(registry_pb2.GetHeadRequest())
    details = error_details(caught.value)
    assert details.code == grpc.StatusCode.INVALID_ARGUMENT
    assert (details.reason, details.domain) == ("FIELD_REQUIRED", "engine.aiws")
    assert details.field_violations[0][0] == "ref.work_order_id"


def test_the_task_context_carries_the_provider_and_the_function_policy() -> None:
    from aiws.engine.v1 import task_pb2
    from praxis_client import TaskContext

    agent = task_pb2.AgentSpec(
        model="m",
        provider="acme",
        functions_json='{"allow":["calc","web.*"],"deny":["*.fetch"]}',
    )
    ctx = TaskContext(task_pb2.Task(agent=agent), None)
    assert ctx.provider == "acme"
    assert ctx.functions == {"allow": ["calc", "web.*"], "deny": ["*.fetch"]}
    assert ctx.function_allowed("calc") and ctx.function_allowed("web.search")
    assert not ctx.function_allowed("web.fetch") and not ctx.function_allowed("calculator")
    older = TaskContext(task_pb2.Task(agent=task_pb2.AgentSpec(model="m")), None)
    assert older.provider == "" and older.function_allowed("anything")
