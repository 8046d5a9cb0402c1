"""Structured logs: one JSON object per line on stderr.

gRPC's C core (and anything else below Python) writes its own lines to file descriptor 2.
:func:`route_native_stderr` puts a pipe there and turns each such line into a JSON log
record of the ``native`` logger, so stderr stays JSON lines whatever writes to it. An
exception nothing caught (a bug, in any thread) is one CRITICAL record with its
traceback in ``exc``, not lines of a ``native`` record that a ``--log-level`` above INFO
would drop. A command's own verdicts (``error: ...``) go to :func:`console` instead.

Each line written while an RPC is handled carries that call's fields (:func:`bind`): the
caller's W3C trace context as ``trace_id`` and ``span_id`` (from its ``traceparent``
metadata), and the ``run_id`` and ``attempt_id`` the request names, where it names one.
"""

from __future__ import annotations

import atexit
import contextvars
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Mapping
from types import TracebackType
from typing import IO

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
_NONE: Mapping[str, str] = {}
_call: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
    "praxis_log_fields", default=_NONE
)


def bind(fields: Mapping[str, str]) -> None:
    """Sets the fields every line of the current RPC carries (the RPC layer calls it first
    thing in each call, so nothing of an earlier call on the same thread remains)."""
    _call.set(fields)


def add(**fields: str) -> None:
    """Adds fields to the current RPC's (a run id learnt while handling it)."""
    _call.set({**_call.get(), **fields})


def fields() -> Mapping[str, str]:
    """The current RPC's fields."""
    return _call.get()


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON with its ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts_ms": int(record.created * 1000),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update(_call.get())
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup(level: str = "INFO", stream: IO[str] | None = None) -> None:
    """Installs the JSON formatter on the root logger (writing to ``stream``, default stderr)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())  # records name levels in lower case: both are accepted
    logging.Formatter.converter = time.gmtime


_original: IO[str] | None = None  # the real stderr, once fd 2 is routed through the pipe


def console() -> IO[str]:
    """Where a command's own one-line messages go: the real stderr, never the JSON pipe."""
    return _original or sys.stderr


# absl / gpr line prefixes: "E0000 00:00:1796017607.354762    3541 add_port.cc:83] ..."
_NATIVE_LEVEL = re.compile(r"^([EWIDF])\d{4} ")
_LEVELS = {"E": logging.ERROR, "F": logging.CRITICAL, "W": logging.WARNING, "I": logging.INFO}


def route_native_stderr(level: str = "INFO") -> None:
    """Routes file descriptor 2 through a pipe: each line becomes a JSON record.

    The JSON handler writes to a duplicate of the original stderr. At exit the pipe is
    closed and drained, so the last lines (an error before exiting) are not lost.
    """
    global _original
    original = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
    setup(level, original)
    _original = original
    read_fd, write_fd = os.pipe()
    sys.stderr.flush()
    os.dup2(write_fd, 2)
    os.close(write_fd)
    native = logging.getLogger("native")
    reader = threading.Thread(
        target=_relay, args=(read_fd, native), name="native-stderr", daemon=True
    )
    reader.start()

    def _drain() -> None:
        sys.stderr.flush()
        os.dup2(original.fileno(), 2)  # closes the pipe's last writer: the relay sees EOF
        reader.join(timeout=2.0)

    atexit.register(_drain)
    sys.excepthook = _unhandled
    threading.excepthook = _unhandled_in_thread


def _unhandled(
    kind: type[BaseException], value: BaseException, traceback: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, traceback)
        return
    logging.getLogger("praxis").critical("unhandled exception", exc_info=(kind, value, traceback))


def _unhandled_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    logging.getLogger("praxis").critical(
        "unhandled exception in a thread",
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        extra={"thread_name": args.thread.name if args.thread else None},
    )


def _relay(read_fd: int, logger: logging.Logger) -> None:
    with os.fdopen(read_fd, "r", encoding="utf-8", errors="replace") as pipe:
        for raw in pipe:
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            match = _NATIVE_LEVEL.match(line)
            logger.log(_LEVELS.get(match.group(1), logging.DEBUG) if match else logging.INFO, line)
