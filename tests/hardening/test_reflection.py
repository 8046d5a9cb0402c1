"""Issue 13 item 16: reflection v1 and v1alpha, method symbols, every file, comments."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from tests.support.harness import Harness

V1 = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"


def test_v1alpha_resolves_methods_every_file_and_error_reasons(harness: Harness) -> None:
    channel = grpc.insecure_channel(harness.address)  # reflection needs no credential
    try:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = set(database.get_services())
        assert {"aiws.engine.v1.RunService", "grpc.reflection.v1.ServerReflection"} <= services
        pool = DescriptorPool(database)
        method = pool.FindMethodByName("aiws.engine.v1.RunService.StartRun")
        assert method.input_type.full_name == "aiws.engine.v1.StartRunRequest"
        reason = pool.FindEnumTypeByName("aiws.engine.v1.ErrorReason")
        assert "ATTEMPT_NOT_YOURS" in reason.values_by_name
        found = database.FindFileContainingSymbol("aiws.engine.v1.TaskService.SettleTasks")
        assert found.name == "aiws/engine/v1/task.proto"
        assert pool.FindFileByName("aiws/engine/v1/errors.proto").name
        # Descriptors carry their comments (source info).
        assert found.source_code_info.location
        comments = " ".join(loc.leading_comments for loc in found.source_code_info.location)
        assert "ClaimTasksRequest asks for work." in comments
    finally:
        channel.close()


def _ask(channel: grpc.Channel, request: reflection_pb2.ServerReflectionRequest) -> bytes:
    call = channel.stream_stream(V1)
    (answer,) = list(call(iter([request.SerializeToString()]), timeout=10))
    return bytes(answer)


@pytest.mark.parametrize(
    "symbol", ["aiws.engine.v1.RunService.StartRun", "aiws.engine.v1.ErrorReason"]
)
def test_v1_is_served(harness: Harness, symbol: str) -> None:
    channel = grpc.insecure_channel(harness.address)
    try:
        raw = _ask(channel, reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol))
        answer = reflection_pb2.ServerReflectionResponse.FromString(raw)  # same wire format
        assert answer.WhichOneof("message_response") == "file_descriptor_response"
        names = [
            descriptor_pb2.FileDescriptorProto.FromString(data).name
            for data in answer.file_descriptor_response.file_descriptor_proto
        ]
        assert names[0].startswith("aiws/engine/v1/")
        listed = reflection_pb2.ServerReflectionResponse.FromString(
            _ask(channel, reflection_pb2.ServerReflectionRequest(list_services=""))
        )
        assert "aiws.engine.v1.ErrorReason" not in {
            s.name for s in listed.list_services_response.service
        }
        assert "aiws.engine.v1.TaskService" in {
            s.name for s in listed.list_services_response.service
        }
    finally:
        channel.close()
