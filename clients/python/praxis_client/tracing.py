"""Continuing a task's trace in the worker (optional: needs ``opentelemetry-api``).

A server that exports traces hands each task its attempt's span as a W3C ``traceparent``
(``Task.traceparent``). When ``opentelemetry-api`` is importable (``pip install
'praxis-engine-client[otel]'``), the worker runtime runs the handler inside a context
whose parent is that span, so the spans a handler makes sit under the attempt in the
run's trace. Without it the handler runs as before; ``TaskContext.traceparent`` carries
the value either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

_MISSING = object()
_api: Any = None  # (context module, propagator) once imported; _MISSING without the API


def _load() -> Any:
    global _api
    if _api is None:
        try:
            from opentelemetry import context
            from opentelemetry.trace.propagation.tracecontext import (
                TraceContextTextMapPropagator,
            )
        except ImportError:
            _api = _MISSING
        else:
            _api = (context, TraceContextTextMapPropagator())
    return _api


def available() -> bool:
    """True when ``opentelemetry-api`` is importable here."""
    return _load() is not _MISSING


@contextlib.contextmanager
def attempt_context(traceparent: str, tracestate: str = "") -> Iterator[None]:
    """Makes the attempt's span (``traceparent``) the current parent for the block.

    Does nothing when ``traceparent`` is empty or ``opentelemetry-api`` is missing.
    """
    api: Any = _load() if traceparent else _MISSING
    if api is _MISSING:
        yield
        return
    context, propagator = api
    carrier = {"traceparent": traceparent}
    if tracestate:
        carrier["tracestate"] = tracestate
    token = context.attach(propagator.extract(carrier))
    try:
        yield
    finally:
        context.detach(token)
