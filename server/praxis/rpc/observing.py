"""The outermost interceptor: each RPC's metrics and, with tracing on, its SERVER span.

Installed first when metrics or tracing is on (never otherwise), so it wraps the
authenticating interceptor's handler and sees every outcome, refusals included. One
wrapper per call does both, so a call is timed and traced by the same code:

- metrics (``--metrics-listen``): RPCs by service, method and final code, unary latency;
- traces (``OTEL_*``): one SERVER span per call following the OpenTelemetry RPC
  conventions (:class:`praxis.observability.tracing.RpcSpans`), parented on the caller's
  ``traceparent``, for a stream or a long poll over the call's whole lifetime. While the
  call runs its span is the current RPC span (:func:`praxis.observability.tracing.current_rpc`): log
  lines carry its ids and a run started by the call is its child.

``opentelemetry-instrumentation-grpc`` is not used: its grpc.aio server interceptor
awaits every handler as a coroutine, and this server's unary handlers are synchronous
functions run on the bounded executor; wrapping both kinds here keeps one interceptor
and one code path for metrics and spans.

Unknown methods are neither counted nor traced (their names are the caller's choice: an
unbounded label).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import grpc

from praxis.observability import metrics, tracing

if TYPE_CHECKING:
    from praxis.observability.tracing import RpcSpans


class ObservingInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Counts (``count``) and traces (``spans``) every RPC of a registered method."""

    def __init__(self, count: bool, spans: RpcSpans | None) -> None:
        self._count = count
        self._spans = spans
        self._names: dict[str, tuple[str, str, bool]] = {}

    def _call_names(self, method: str) -> tuple[str, str, bool]:
        names = self._names.get(method)
        if names is None:
            service, _, name = method.lstrip("/").rpartition("/")
            traced = self._spans is not None and self._spans.traces(service)
            names = self._names[method] = (service, name, traced)
        return names

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Any],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        service, method, traced = self._call_names(details.method)
        call = _Observer(service, method, self._count, self._spans if traced else None)
        if not call.count and call.spans is None:
            return handler  # an excluded service of a server that only traces
        if handler.unary_unary:
            behavior = handler.unary_unary
            if inspect.iscoroutinefunction(behavior):
                wrapped = _observed_coroutine(behavior, call, timed=True)
            else:
                wrapped = _observed(behavior, call)
            return grpc.unary_unary_rpc_method_handler(
                wrapped,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                _observed_stream(handler.unary_stream, call),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                _observed_stream(handler.stream_stream, call),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler


class _Observer:
    """What one method's calls record (shared by its calls; holds no call's state)."""

    __slots__ = ("count", "method", "service", "spans")

    def __init__(self, service: str, method: str, count: bool, spans: RpcSpans | None) -> None:
        self.service = service
        self.method = method
        self.count = count
        self.spans = spans

    def begin(self, context: Any) -> Any:
        """The call's span (made the current RPC span), or ``None`` when not traced."""
        if self.spans is None:
            return None
        return self.spans.start(self.service, self.method, context.invocation_metadata())

    def end(self, span: Any, code: str, started: float | None, trailing: Any) -> None:
        """Records the call's end with its final status code name."""
        if self.count:
            if started is not None:
                _latency(self.service, self.method).observe(time.perf_counter() - started)
            _calls(self.service, self.method, code).inc()
        if span is not None and self.spans is not None:
            self.spans.end(span, code, trailing)


# The labelled children, looked up once: ``labels()`` takes a lock and builds a key on
# every call. Bounded: registered methods (unknown ones are not counted) x status codes.
@functools.cache
def _latency(service: str, method: str) -> Any:
    return metrics.RPC_SECONDS.labels(service, method)


@functools.cache
def _calls(service: str, method: str, code: str) -> Any:
    return metrics.RPCS.labels(service, method, code)


def code_name(context: Any, cancelled: bool = False) -> str:
    """The call's final status code name (``OK`` when none was set)."""
    if cancelled:
        return "CANCELLED"
    code = context.code()
    if code is None:
        return "OK"
    if isinstance(code, grpc.StatusCode):
        return str(code.name)
    for status in grpc.StatusCode:  # an int from the asyncio context
        if status.value[0] == code:
            return str(status.name)
    return "UNKNOWN"


def _trailing(context: Any) -> Any:
    """The trailing metadata a call ended with (its ``ErrorInfo``), when it can be read."""
    read = getattr(context, "trailing_metadata", None)
    try:
        return read() if read is not None else None
    except Exception:  # an implementation without it: no reason attribute
        return None


class _Observed:
    """The context of a synchronous handler, remembering the code it ends with (the
    asyncio server's context for those has no ``code()``) and its trailing metadata."""

    __slots__ = ("_code", "_context", "_trailing")

    def __init__(self, context: Any) -> None:
        self._context = context
        self._code: Any = None
        self._trailing: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    def abort(self, code: Any, details: str = "", trailing_metadata: Any = ()) -> Any:
        self._code = code
        self._trailing = trailing_metadata
        return self._context.abort(code, details, trailing_metadata)

    def set_code(self, code: Any) -> None:
        self._code = code
        self._context.set_code(code)

    def code(self) -> Any:
        return self._code

    def ended_with(self) -> Any:
        """The trailing metadata of its abort, if any."""
        return self._trailing


def _observed(behavior: Callable[..., Any], call: _Observer) -> Callable[..., Any]:
    def wrapped(request: Any, context: Any) -> Any:
        started, observed, failed = time.perf_counter(), _Observed(context), False
        span = call.begin(context)
        token = tracing.enter_rpc(span) if span is not None else None
        try:
            return behavior(request, observed)
        except BaseException:
            failed = True  # gRPC answers UNKNOWN
            raise
        finally:
            if token is not None:
                tracing.leave_rpc(token)  # the pool thread's next call is not this one
            code = "UNKNOWN" if failed and observed.code() is None else code_name(observed)
            call.end(span, code, started, observed.ended_with())

    return wrapped


def _observed_coroutine(behavior: Callable[..., Any], call: _Observer, timed: bool) -> Any:
    async def wrapped(request: Any, context: Any) -> Any:
        started, cancelled = time.perf_counter() if timed else None, False
        span = call.begin(context)
        if span is not None:
            tracing.enter_rpc(span)  # the call's own task: its context ends with it
        try:
            return await behavior(request, context)
        except BaseException as error:
            cancelled = isinstance(error, asyncio.CancelledError)
            raise
        finally:
            call.end(span, code_name(context, cancelled), started, _trailing(context))

    return wrapped


def _observed_stream(behavior: Callable[..., Any], call: _Observer) -> Any:
    if inspect.iscoroutinefunction(behavior):  # writes with context.write (health Watch)
        return _observed_coroutine(behavior, call, timed=False)

    async def wrapped(request: Any, context: Any) -> Any:
        cancelled = False
        span = call.begin(context)
        if span is not None:
            tracing.enter_rpc(span)  # not reset: a generator may be closed in another context
        try:
            async for response in behavior(request, context):
                yield response
        except BaseException as error:
            cancelled = isinstance(error, asyncio.CancelledError | GeneratorExit)
            raise
        finally:
            call.end(span, code_name(context, cancelled), None, _trailing(context))

    return wrapped
