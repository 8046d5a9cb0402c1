"""Health and reflection answer without a credential; everything else needs one."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tests.support.harness import Harness


def test_health_and_reflection_need_no_credential(harness: Harness) -> None:
    with grpc.insecure_channel(harness.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "aiws.engine.v1.RegistryService", "aiws.engine.v1.RunService"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        responses = stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")])
        )
        names = {s.name for r in responses for s in r.list_services_response.service}
    expected = {
        f"aiws.engine.v1.{name}"
        for name in (
            "RegistryService",
            "ApprovalService",
            "AdminService",
            "RunService",
            "TaskService",
            "EventService",
        )
    }
    assert expected <= names
    assert "aiws.engine.testing.v1.TestClockService" in names  # the harness uses a test clock
    assert "grpc.health.v1.Health" in names
