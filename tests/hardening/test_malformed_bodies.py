"""Issue 13 item 7: a body that is not the method's request message answers
INVALID_ARGUMENT (REQUEST_MALFORMED) after authentication, with one log line."""

from __future__ import annotations

import logging

import grpc
import pytest

from tests.support.harness import Harness, expect_error

GARBAGE = b"\xff\xff\xff\xff"  # an invalid tag: no message decodes it
UNARY = "/aiws.engine.v1.RunService/GetRun"
STREAM = "/aiws.engine.v1.RunService/WatchRun"


def test_malformed_unary_body_is_invalid_argument(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    channel = harness.client("agent").channel
    with (
        caplog.at_level(logging.INFO),
        expect_error(grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_MALFORMED"),
    ):
        channel.unary_unary(UNARY)(GARBAGE, timeout=10)
    lines = [r for r in caplog.records if "malformed" in r.getMessage() or r.exc_info]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
    assert "GetRun" in lines[0].getMessage()


def test_malformed_stream_body_is_invalid_argument(harness: Harness) -> None:
    channel = harness.client("agent").channel
    with expect_error(grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_MALFORMED"):
        list(channel.unary_stream(STREAM)(GARBAGE, timeout=10))


def test_unauthenticated_malformed_body_is_unauthenticated(harness: Harness) -> None:
    channel = harness.client(None).channel
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        channel.unary_unary(UNARY)(GARBAGE, timeout=10)
    with expect_error(grpc.StatusCode.UNAUTHENTICATED, "CREDENTIAL_MISSING"):
        list(channel.unary_stream(STREAM)(GARBAGE, timeout=10))
