"""A rejection's status fits gRPC's trailers however much it lists (soft limit 8 KiB)."""

from __future__ import annotations

from google.rpc import error_details_pb2
from grpc_status import rpc_status

from praxis.core.rejection import Code, FieldViolation, Rejection
from praxis.rpc.errors import to_status


def _trailer_bytes(rejection: Rejection) -> int:
    status = rpc_status.to_status(to_status(rejection))
    size = len(status.details.encode("utf-8"))
    for key, value in status.trailing_metadata:
        size += len(key) + (len(value) * 4 // 3 if isinstance(value, bytes) else len(value))
    return size


def test_a_huge_rejection_is_cut_to_fit_and_keeps_its_reason() -> None:
    rejection = Rejection(
        Code.INVALID_ARGUMENT,
        "DEFINITION_INVALID",
        "x" * 20_000,
        tuple(FieldViolation(f"nodes.n{i}.model", "y" * 3_000) for i in range(200)),
        (("known_models", "m," * 5_000),),
    )
    assert _trailer_bytes(rejection) < 7_000
    status = to_status(rejection)
    info = error_details_pb2.ErrorInfo()
    bad = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(info) and info.reason == "DEFINITION_INVALID"
    assert status.details[1].Unpack(bad)
    assert 1 < len(bad.field_violations) < 200
    assert bad.field_violations[-1].description.endswith("more violations not listed")


def test_a_small_rejection_is_unchanged() -> None:
    violations = (FieldViolation("nodes.a.model", "model 'x' is unknown"),)
    rejection = Rejection(Code.INVALID_ARGUMENT, "MODEL_UNKNOWN", "short", violations)
    status = to_status(rejection)
    bad = error_details_pb2.BadRequest()
    assert status.message == "short" and status.details[1].Unpack(bad)
    assert [(v.field, v.description) for v in bad.field_violations] == [
        ("nodes.a.model", "model 'x' is unknown")
    ]
