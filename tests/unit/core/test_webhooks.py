"""Webhook signing, bodies, names and retry times (praxis.core.webhooks), checked against
the Standard Webhooks reference verifier and the standard library."""

from __future__ import annotations

import base64
import json
import time
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from praxis.core import webhooks
from praxis.core.webhooks import Backoff, Notify, check_notify

SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()
KEY = webhooks.secret_key(SECRET)


def test_the_reference_verifier_accepts_our_signature_and_refuses_a_changed_body() -> None:
    assert KEY is not None
    body = webhooks.body("run.completed", 1_800_000_000_000, {"run_id": "r1"}).encode()
    now = int(time.time())
    headers = webhooks.headers(KEY, "msg_1", now, body)
    assert Webhook(SECRET).verify(body, headers) == json.loads(body)
    assert webhooks.verify(SECRET, "msg_1", str(now), headers["webhook-signature"], body, now)
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(body + b" ", headers)
    assert not webhooks.verify(SECRET, "msg_1", str(now), headers["webhook-signature"],
                               body + b" ", now)  # fmt: skip
    assert not webhooks.verify(SECRET, "msg_2", str(now), headers["webhook-signature"], body, now)
    late = now + webhooks.TOLERANCE_S + 1
    assert not webhooks.verify(SECRET, "msg_1", str(now), headers["webhook-signature"], body, late)
    other = "whsec_" + base64.b64encode(bytes(32)).decode()
    assert not webhooks.verify(other, "msg_1", str(now), headers["webhook-signature"], body, now)


def test_secrets_are_whsec_base64_of_24_to_64_bytes() -> None:
    assert webhooks.secret_key(SECRET) == bytes(range(32))
    assert webhooks.secret_key(base64.b64encode(bytes(32)).decode()) is None  # no prefix
    assert webhooks.secret_key("whsec_" + base64.b64encode(bytes(16)).decode()) is None
    assert webhooks.secret_key("whsec_" + base64.b64encode(bytes(65)).decode()) is None
    assert webhooks.secret_key("whsec_not base64!") is None


def test_the_body_is_canonical_with_an_iso_timestamp() -> None:
    text = webhooks.body("run.failed", 1_800_000_000_123, {"run_id": "r"})
    assert text == (
        '{"data":{"run_id":"r"},"timestamp":"2027-01-15T08:00:00.123Z","type":"run.failed"}'
    )


@given(st.integers(min_value=0, max_value=253_402_300_799_999))
def test_timestamps_match_the_standard_library(at_ms: int) -> None:
    expected = datetime.fromtimestamp(at_ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    assert webhooks._iso(at_ms) == f"{expected}.{at_ms % 1000:03d}Z"


def test_delivery_ids_are_stable_and_distinct() -> None:
    first = webhooks.delivery_id("run_1", "ops", 0)
    assert first == webhooks.delivery_id("run_1", "ops", 0)
    assert first.startswith("msg_") and len(first) == 36
    others = {webhooks.delivery_id("run_1", "ops", 1), webhooks.delivery_id("run_1", "b", 0),
              webhooks.delivery_id("run_2", "ops", 0)}  # fmt: skip
    assert first not in others and len(others) == 3


@given(st.integers(min_value=1, max_value=200), st.floats(min_value=0, max_value=0.999999))
def test_backoff_is_exponential_with_jitter_and_capped(attempts: int, unit: float) -> None:
    backoff = Backoff(base_ms=1_000, cap_ms=3_600_000, max_attempts=8)
    ceiling = min(3_600_000, 1_000 * 2 ** (attempts - 1))
    delay = backoff.delay_ms(attempts, unit)
    assert ceiling // 2 <= delay <= ceiling
    assert backoff.dead(attempts) == (attempts >= 8)


def test_notify_checks() -> None:
    declared = {"ops", "billing"}
    assert check_notify(Notify(("ops", "billing")), "", declared) is None
    assert check_notify(Notify(reply_to=True, reply_template="x"), "me", declared) is None
    cases = [
        (Notify(("nope",)), "", "NOTIFY_DESTINATION_UNKNOWN"),
        (Notify(("ops", "ops")), "", "NOTIFY_INVALID"),
        (Notify(tuple("abcde")), "", "NOTIFY_INVALID"),
        (Notify(("",)), "", "NOTIFY_INVALID"),
        (Notify(reply_to=True), "", "NOTIFY_INVALID"),
        (Notify(reply_template="x"), "me", "NOTIFY_INVALID"),
        (Notify(reply_to=True, reply_template="x" * 1025), "me", "NOTIFY_INVALID"),
    ]
    for notify, subscriber, reason in cases:
        rejection = check_notify(notify, subscriber, declared)
        assert rejection is not None and rejection.reason == reason, notify
