"""Webhook notifications, the pure part: names, signatures, bodies and retry times.

Signatures follow Standard Webhooks (https://www.standardwebhooks.com): a secret is
``whsec_`` plus the base64 of its key bytes; each try carries the headers
``webhook-id`` (the delivery id, stable across tries), ``webhook-timestamp`` (integer
seconds) and ``webhook-signature`` (``v1,`` plus the base64 HMAC-SHA256 of
``{id}.{timestamp}.{body}`` under the key). A receiver verifies it with
:func:`verify` (or the ``standardwebhooks`` package), as ``docs/operations.md`` shows.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import urllib.parse
from collections.abc import Collection
from dataclasses import dataclass

from praxis.core import values
from praxis.core.rejection import Rejection, invalid

SECRET_PREFIX = "whsec_"
MAX_WEBHOOKS = 4
"""Destinations one StartRun may name."""
MAX_TEMPLATE_BYTES = 1024
"""The bound of ``reply_template``."""
TOLERANCE_S = 300
"""How far a receiver accepts a timestamp from its own clock (the standard's five minutes)."""
EVENT_TYPES = {
    "COMPLETED": "run.completed",
    "FAILED": "run.failed",
    "CANCELLED": "run.cancelled",
}
"""The body's ``type`` for each terminal run status."""


@dataclass(frozen=True)
class Notify:
    """What a StartRun asked to be notified of (validated by :func:`check_notify`)."""

    webhooks: tuple[str, ...] = ()
    reply_to: bool = False
    reply_template: str = ""

    @property
    def empty(self) -> bool:
        """True when nothing is to be pushed."""
        return not self.webhooks and not self.reply_to


@dataclass(frozen=True)
class Backoff:
    """When a failed delivery is tried again: exponential with jitter, then dead.

    Try ``n`` (1-based) that failed waits ``min(cap, base * 2**(n-1))`` scaled by a
    jitter factor in ``[0.5, 1.0)`` ("equal jitter"); after ``max_attempts`` tries the
    delivery is dead.
    """

    base_ms: int = 1_000
    cap_ms: int = 3_600_000
    max_attempts: int = 8

    def delay_ms(self, attempts: int, unit_random: float) -> int:
        """The wait after the ``attempts``-th failed try; ``unit_random`` in [0, 1)."""
        exponent = min(max(attempts - 1, 0), 40)
        ceiling = min(self.cap_ms, self.base_ms * (2**exponent))
        return max(1, int(ceiling * (0.5 + 0.5 * unit_random)))

    def dead(self, attempts: int) -> bool:
        """True when ``attempts`` failed tries exhaust the delivery."""
        return attempts >= self.max_attempts


def check_notify(notify: Notify, subscriber: str, declared: Collection[str]) -> Rejection | None:
    """Validates a StartRun's ``notify`` against the declared destination names."""
    if len(notify.webhooks) > MAX_WEBHOOKS:
        return invalid(
            "NOTIFY_INVALID", "notify.webhooks", f"at most {MAX_WEBHOOKS} webhook destinations"
        )
    if len(set(notify.webhooks)) != len(notify.webhooks):
        return invalid("NOTIFY_INVALID", "notify.webhooks", "a destination is named twice")
    for index, name in enumerate(notify.webhooks):
        path = f"notify.webhooks[{index}]"
        if values.check_identifier(name, path) is not None:
            return invalid("NOTIFY_INVALID", path, "a destination name is an identifier")
        if name not in declared:
            return invalid(
                "NOTIFY_DESTINATION_UNKNOWN",
                path,
                f"no webhook destination {name!r} is declared in the server's config",
            )
    if notify.reply_to and not subscriber:
        return invalid("NOTIFY_INVALID", "notify.reply_to", "reply_to needs a subscriber")
    if notify.reply_template and not notify.reply_to:
        return invalid("NOTIFY_INVALID", "notify.reply_template", "only with reply_to")
    if len(notify.reply_template.encode("utf-8")) > MAX_TEMPLATE_BYTES:
        return invalid(
            "NOTIFY_INVALID", "notify.reply_template", f"at most {MAX_TEMPLATE_BYTES} bytes"
        )
    return None


def delivery_id(run_id: str, destination: str, ordinal: int) -> str:
    """The stable id of the ``ordinal``-th delivery of a run to a destination (a run
    resumed after it ended may end, and notify, again)."""
    text = f"delivery\x00{run_id}\x00{destination}\x00{ordinal}"
    return "msg_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def outcome_data(
    run_id: str,
    status: str,
    work_order_id: str,
    result: values.JsonValue,
    result_error: str,
    result_reason: str,
    finished_at_ms: int,
) -> dict[str, values.JsonValue]:
    """The outcome a notification carries (the ``data`` of a webhook body)."""
    return {
        "run_id": run_id,
        "status": status,
        "work_order_id": work_order_id,
        "result": result,
        "result_error": result_error,
        "result_reason": result_reason,
        "finished_at_ms": finished_at_ms,
    }


def body(event_type: str, at_ms: int, data: dict[str, values.JsonValue]) -> str:
    """A webhook body in the Standard Webhooks shape ``{type, timestamp, data}``, as
    canonical JSON (the exact bytes signed and sent on every try)."""
    return values.canonical_json({"type": event_type, "timestamp": _iso(at_ms), "data": data})


def _iso(at_ms: int) -> str:
    """UTC ISO 8601 with milliseconds, without reading a clock."""
    days, ms = divmod(at_ms, 86_400_000)
    year, month, day = _civil(days)
    seconds, millis = divmod(ms, 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{year:04d}-{month:02d}-{day:02d}T{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}Z"


def _civil(days: int) -> tuple[int, int, int]:
    """Days since 1970-01-01 to (year, month, day) (Howard Hinnant's algorithm)."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return y + (m <= 2), m, d


def url_problem(url: str) -> str | None:
    """Why the sender cannot use ``url`` as a destination, or ``None`` when it can.

    The sender posts to exactly this URL (no redirects, no proxy): an ``http`` or
    ``https`` scheme, a host, a numeric port in 1..65535 when one is given, no spaces or
    control characters, and no credentials: a ``user:password@`` part is never sent (the
    signature authenticates the sender; put a receiver's token in the path or query), and
    such a URL must not sit in the config to be echoed. The answer never quotes the URL,
    so it can be logged and shown as it is.
    """
    if any(ord(char) <= 0x20 or ord(char) == 0x7F for char in url):
        return "url must not contain spaces or control characters"
    try:
        parsed = urllib.parse.urlsplit(url)
        port = parsed.port
    except ValueError:
        return "url is not a URL the sender can use (its host or port does not parse)"
    if parsed.scheme not in ("http", "https"):
        return "url must be an http or https URL"
    if parsed.username is not None or parsed.password is not None or "@" in parsed.netloc:
        return (
            "url must not carry credentials (user:password@host): they are never sent; the "
            "signature authenticates the sender, and a receiver's token goes in the path"
        )
    if not parsed.hostname:
        return "url must name a host"
    if port == 0:
        return "url's port must be in 1..65535"
    return None


def secret_key(secret: str) -> bytes | None:
    """The key bytes of a ``whsec_`` secret, or None when it is not one (at least 24 bytes
    of key, the standard's recommendation, and at most 64)."""
    if not secret.startswith(SECRET_PREFIX):
        return None
    try:
        key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        return None
    return key if 24 <= len(key) <= 64 else None


def signature(key: bytes, message_id: str, timestamp_s: int, payload: bytes) -> str:
    """The ``webhook-signature`` header: ``v1,`` and the base64 HMAC-SHA256 of
    ``{id}.{timestamp}.{body}``."""
    signed = f"{message_id}.{timestamp_s}.".encode() + payload
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def headers(key: bytes, message_id: str, timestamp_s: int, payload: bytes) -> dict[str, str]:
    """The three Standard Webhooks headers of one try."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp_s),
        "webhook-signature": signature(key, message_id, timestamp_s, payload),
    }


def verify(
    secret: str, message_id: str, timestamp: str, signatures: str, payload: bytes, now_s: int
) -> bool:
    """A receiver's check: the timestamp within :data:`TOLERANCE_S` of ``now_s`` and one
    of the space-separated ``v1,`` signatures matching (compared in constant time)."""
    key = secret_key(secret)
    if key is None or not timestamp.isdigit():
        return False
    if abs(now_s - int(timestamp)) > TOLERANCE_S:
        return False
    expected = signature(key, message_id, int(timestamp), payload)
    return any(hmac.compare_digest(expected, given) for given in signatures.split())
