"""A real webhook receiver on loopback (``http.server`` in a thread) and an independent
Standard Webhooks verifier (stdlib only, not the server's code)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiws.engine.v1 import notification_pb2
from tests.support.harness import Harness

SECRET = "whsec_" + base64.b64encode(b"praxis-test-webhook-key-32-bytes").decode()


def logged_secrets(records: list[logging.LogRecord], *hidden: str) -> list[str]:
    """The log records (message, fields and traceback) that carry any of ``hidden``, or
    the webhook test secret in either form."""
    needles = (*hidden, SECRET, SECRET.removeprefix("whsec_"))
    found = []
    for record in records:
        text = record.getMessage() + str(record.__dict__)
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        if any(needle in text for needle in needles):
            found.append(text)
    return found


def new_secret() -> str:
    """A fresh secret in the standard's form."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def signed_correctly(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """The receiver's check of ``docs/operations.md``, written from the standard."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    message_id, timestamp = headers["webhook-id"], headers["webhook-timestamp"]
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [part.partition(",")[2] for part in headers["webhook-signature"].split()]
    return any(hmac.compare_digest(expected, value) for value in given)


@dataclass(frozen=True)
class Received:
    """One request the receiver answered."""

    headers: dict[str, str]
    body: bytes
    answered: int  # the status it answered; 0 when it hung past the sender's timeout

    @property
    def delivery_id(self) -> str:
        return self.headers["webhook-id"]

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """Answers each POST by the next step of ``plan`` (``ok`` 200, ``fail`` 503, ``hang``:
    sleeps ``hang_s`` before answering 200, past the sender's timeout), then ``default``."""

    def __init__(self, default: str = "ok", hang_s: float = 3.0) -> None:
        self.plan: deque[str] = deque()
        self.default = default
        self.hang_s = hang_s
        self.received: list[Received] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with receiver._lock:
                    step = receiver.plan.popleft() if receiver.plan else receiver.default
                headers = {k.lower(): v for k, v in self.headers.items()}
                if step == "hang":
                    time.sleep(receiver.hang_s)
                    receiver._record(Received(headers, body, 0))
                    self._answer(200)
                    return
                status = 200 if step == "ok" else 503
                receiver._record(Received(headers, body, status))
                self._answer(status)

            def _answer(self, status: int) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the sender gave up (its timeout)

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def _record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)

    def accepted(self) -> list[Received]:
        """The requests answered 2xx."""
        with self._lock:
            return [r for r in self.received if 200 <= r.answered < 300]

    def all(self) -> list[Received]:
        with self._lock:
            return list(self.received)

    def wait_for(self, predicate: Any, timeout_s: float = 30.0) -> None:
        """Waits until ``predicate(self)`` holds."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate(self):
                return
            time.sleep(0.02)
        raise TimeoutError(f"receiver: condition not met; got {self.all()}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def deliveries(h: Harness, **fields: object) -> notification_pb2.ListDeliveriesResponse:
    """``ListDeliveries`` as alice (an operator), with these filters."""
    return h.client("alice").notifications.ListDeliveries(  # type: ignore[no-any-return]
        notification_pb2.ListDeliveriesRequest(**fields)  # type: ignore[arg-type]
    )


def wait_state(h: Harness, run_id: str, state: int) -> notification_pb2.Delivery:
    """The run's first delivery once it is in ``state`` (15 s at most)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = deliveries(h, run_id=run_id).deliveries
        if found and found[0].state == state:
            return found[0]
        time.sleep(0.02)
    raise AssertionError(deliveries(h, run_id=run_id))
