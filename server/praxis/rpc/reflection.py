"""Server reflection, ``grpc.reflection.v1`` and ``v1alpha``, over every file of the contract.

Both versions are served by one servicer (their messages are the same on the wire). Every
``aiws`` module is imported so that each file of the contract, ``errors.proto`` with
``ErrorReason`` included, is reachable; symbols resolve for packages, messages, enums,
services and methods (``aiws.engine.v1.RunService.StartRun``, which the stock servicer
does not find). Files are served with their comments when the generated
``contract.binpb`` (a descriptor set with source info, written by
``scripts/generate_python.sh``) is present.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib import resources
from typing import Any

import grpc
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import _async, _base, reflection_pb2, reflection_pb2_grpc

import aiws

V1_SERVICE = "grpc.reflection.v1.ServerReflection"
V1ALPHA_SERVICE: str = reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"].full_name
SOURCE_SET = "contract.binpb"


def import_contract() -> None:
    """Imports every generated module of the contract (registers each file in the pool)."""
    for module in pkgutil.walk_packages(aiws.__path__, "aiws."):
        if module.name.endswith("_pb2"):
            importlib.import_module(module.name)


def _sources() -> dict[str, bytes]:
    """Each contract file's descriptor with its comments, by file name ({} if absent)."""
    try:
        data = resources.files("aiws.engine.v1").joinpath(SOURCE_SET).read_bytes()
    except FileNotFoundError:
        return {}
    found = descriptor_pb2.FileDescriptorSet.FromString(data)
    return {file.name: file.SerializeToString() for file in found.file}


class ContractReflection(_async.ReflectionServicer):  # type: ignore[misc]  # untyped
    """The stock servicer, plus method symbols and files with their comments."""

    def __init__(self, service_names: list[str]) -> None:
        import_contract()
        super().__init__(sorted({*service_names, V1_SERVICE, V1ALPHA_SERVICE}))
        self._with_source = _sources()

    def _file_by_filename(self, request: Any, filename: str) -> Any:
        try:
            descriptor = self._pool.FindFileByName(filename)
        except KeyError:
            return _base._not_found_error(request)
        return self._response(descriptor, request)

    def _file_containing_symbol(self, request: Any, name: str) -> Any:
        descriptor = self._file_of(name)
        if descriptor is None:
            return _base._not_found_error(request)
        return self._response(descriptor, request)

    def _file_of(self, name: str) -> Any:
        try:
            return self._pool.FindFileContainingSymbol(name)
        except KeyError:
            pass
        service_name, _, method = name.rpartition(".")
        try:
            service = self._pool.FindServiceByName(service_name)
        except KeyError:
            return None
        return service.file if method in service.methods_by_name else None

    def _response(self, descriptor: Any, request: Any) -> Any:
        files: dict[str, Any] = {}
        _base._collect_transitive_dependencies(descriptor, files)
        serialized = []
        for name, found in files.items():
            data = self._with_source.get(name)
            if data is None:
                proto = descriptor_pb2.FileDescriptorProto()
                found.CopyToProto(proto)
                data = proto.SerializeToString()
            serialized.append(data)
        return reflection_pb2.ServerReflectionResponse(
            file_descriptor_response=reflection_pb2.FileDescriptorResponse(
                file_descriptor_proto=serialized
            ),
            original_request=request,
        )


def serve_reflection(service_names: list[str], server: grpc.aio.Server) -> None:
    """Adds reflection v1alpha and v1 for ``service_names`` to ``server``."""
    servicer = ContractReflection(service_names)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(V1_SERVICE, {"ServerReflectionInfo": v1}),)
    )
