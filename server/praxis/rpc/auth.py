"""Authentication of every RPC (except health and reflection), and
the catch-all that turns a bug into INTERNAL without leaking its details.

A stream or long poll keeps the credential it was opened with (:class:`Credential`) and
authenticates it again before each message it sends, and whenever its principal is
revoked or rotated (the ``principal:<id>`` wake-up): it ends with the status a unary call
with that credential gets, and sends nothing once the credential is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from praxis.authority.certificates import certificate_fingerprint
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core.records import Principal
from praxis.core.rejection import Code, Rejection
from praxis.observability import logs
from praxis.observability.tracing import current_rpc, metadata_context
from praxis.rpc.errors import Aborted, abort
from praxis.rpc.serving import SERVICE_STREAMS, Gate, abort_async, on_the_loop
from praxis.store.db.files import StorageFailure
from praxis.store.wake.hub import principal_topic

log = logging.getLogger("praxis.rpc")
T = TypeVar("T")

_principal: contextvars.ContextVar[Principal] = contextvars.ContextVar("praxis_principal")
_credential: contextvars.ContextVar[Credential] = contextvars.ContextVar("praxis_credential")

ANONYMOUS = "anonymous"  # whose stream slot a call without a credential takes
UNAUTHENTICATED_PREFIXES = tuple(SERVICE_STREAMS)  # health and reflection
MAX_WRAPPED = 1024  # methods whose wrapped handler an AuthInterceptor keeps


def principal() -> Principal:
    """The authenticated principal of the current RPC."""
    return _principal.get()


def credential() -> Credential:
    """The credential of the current stream or long poll (set for coroutine and
    async-generator handlers that need authentication)."""
    return _credential.get()


class Credential:
    """The credential a call was opened with, to authenticate again while it stays open.

    A check asks the authority exactly as the call's own authentication did (the
    built-in authority answers from its short-lived cache), so a revoked principal gets
    CREDENTIAL_REVOKED and a rotated-away token CREDENTIAL_INVALID, as a unary call would.
    """

    __slots__ = ("_authenticate", "principal")

    def __init__(
        self, authenticate: Callable[[], Principal | Rejection], principal: Principal
    ) -> None:
        self._authenticate = authenticate
        self.principal = principal

    @property
    def topic(self) -> str:
        """The wake-up published when this principal is revoked or rotated."""
        return principal_topic(self.principal.principal_id)

    def problem(self) -> Rejection | None:
        """Why the credential is no longer accepted, or ``None`` while it is."""
        found = self._authenticate()
        if isinstance(found, Rejection):
            return found
        if found.principal_id != self.principal.principal_id:  # a token handed to another
            return Rejection(Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", "unknown credential")
        return None

    async def verify(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """Ends the call with the credential's problem, if it has one."""
        problem = self.problem()
        if problem is not None:
            await abort_async(context, problem)

    async def unwrap(self, context: grpc.aio.ServicerContext[Any, Any], value: T | Rejection) -> T:
        """The value, or the call ends: with the credential's problem when it has one (a
        read refused because the principal was just revoked says so), else the value's."""
        if isinstance(value, Rejection):
            await abort_async(context, self.problem() or value)
        return value


def bearer_token(metadata: Any) -> str | None:
    """The token of the ``authorization: Bearer`` metadata, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def peer_certificate(context: Any) -> bytes | None:
    """The PEM certificate a client presented under mutual TLS (verified by TLS), if any."""
    found = context.auth_context().get("x509_pem_cert") or ()
    return bytes(found[0]) if found else None


class AuthInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Authenticates each call, holds a stream slot per open stream, and maps
    unexpected exceptions to INTERNAL.

    Synchronous handlers run on the server's executor, or on the event loop for the
    methods of ``on_loop`` (:data:`praxis.rpc.serving.ON_LOOP`): the wrapper
    authenticates where the handler runs, so :func:`principal` works inside them.
    Coroutine and async-generator handlers are authenticated on the event loop, in the
    call's task.
    """

    def __init__(
        self,
        authority: Authority,
        clock: Clock,
        streams_of: Callable[[str], Gate],
        on_loop: frozenset[str] = frozenset(),
    ) -> None:
        self._authority = authority
        self._clock = clock
        self._streams_of = streams_of  # the stream gate of a method
        self._on_loop = on_loop  # synchronous methods run on the loop (serving.ON_LOOP)
        # method -> (the servicer's handler, its wrapped handler): gRPC asks for a call's
        # handler on every call, and wrapping it anew cost each call a few µs.
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        method: str = details.method
        known = self._wrapped.get(method)
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = self._wrap_handler(handler, method)
        if len(self._wrapped) < MAX_WRAPPED:  # the server's methods: a bound never reached
            self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _wrap_handler(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        """``handler`` authenticating its calls (see the class's docstring)."""
        needs_auth = not method.startswith(UNAUTHENTICATED_PREFIXES)
        if handler.unary_unary:
            behavior = handler.unary_unary
            if inspect.iscoroutinefunction(behavior):
                wrapped = self._wrap_coroutine(behavior, needs_auth, method, stream=False)
            elif method in self._on_loop:
                wrapped = on_the_loop(self._wrap(behavior, needs_auth, method))
            else:
                wrapped = self._wrap(behavior, needs_auth, method)
            return grpc.unary_unary_rpc_method_handler(
                wrapped,
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, needs_auth, method),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                self._wrap_stream(handler.stream_stream, needs_auth, method),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler

    def _authenticate(self, context: Any) -> Principal | Rejection:
        """The caller: by bearer token, or by its client certificate under mutual TLS."""
        return self._authentication(context)()

    def _authentication(self, context: Any) -> Callable[[], Principal | Rejection]:
        """How to authenticate the call's credential, now or again later."""
        token = bearer_token(context.invocation_metadata())
        clock = self._clock
        if token is None:  # a client certificate, under mutual TLS, when the authority
            # can tell its principal (asked only here: an authority without the capability
            # answers through its wrappers' __getattr__ with a raised AttributeError)
            certify = getattr(self._authority, "authenticate_certificate", None)
            certificate = peer_certificate(context) if certify else None
            if certify is not None and certificate is not None:
                fingerprint = certificate_fingerprint(certificate)

                def by_certificate() -> Principal | Rejection:
                    found: Principal | Rejection = certify(fingerprint, clock.now_ms())
                    return found

                return by_certificate
        authority = self._authority
        return lambda: authority.authenticate(token, clock.now_ms())

    def _wrap(self, behavior: Callable[..., Any], needs_auth: bool, method: str) -> Any:
        def wrapped(request: Any, context: grpc.ServicerContext) -> Any:
            _bind_log_fields(request, context)
            try:
                if needs_auth:
                    found = self._authenticate(context)
                    if isinstance(found, Rejection):
                        abort(context, found)
                    _principal.set(found)
                if isinstance(request, Malformed):
                    abort(context, request.rejection(method))
                return behavior(request, context)
            except Aborted:
                return None
            except StorageFailure as failure:
                log.error("storage failure in %s: %s", method, failure.rejection.message)
                try:
                    abort(context, failure.rejection)
                except Aborted:
                    return None
            except Exception:
                log.exception("unexpected error in %s", method)
                try:
                    abort(context, _INTERNAL)
                except Aborted:
                    return None
            finally:
                logs.bind({})  # the pool thread's next work is not this call's

        return wrapped

    async def _enter(
        self, context: grpc.aio.ServicerContext[Any, Any], needs_auth: bool
    ) -> Principal | None:
        if not needs_auth:
            return None
        authenticate = self._authentication(context)
        found = authenticate()
        if isinstance(found, Rejection):
            await abort_async(context, found)
        _principal.set(found)
        _credential.set(Credential(authenticate, found))
        return found

    def _wrap_coroutine(
        self, behavior: Callable[..., Any], needs_auth: bool, method: str, stream: bool
    ) -> Any:
        streams = self._streams_of(method)

        async def wrapped(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            _bind_log_fields(request, context)
            try:
                caller = await self._enter(context, needs_auth)
                if isinstance(request, Malformed):
                    await abort_async(context, request.rejection(method))
                if not stream:
                    return await behavior(request, context)
                with streams.held(_holder(caller)) as problem:
                    if problem is not None:
                        await abort_async(context, problem)
                    return await behavior(request, context)
            except (grpc.aio.AbortError, asyncio.CancelledError):
                raise
            except StorageFailure as failure:
                log.error("storage failure in %s: %s", method, failure.rejection.message)
                await abort_async(context, failure.rejection)
            except Exception:
                log.exception("unexpected error in %s", method)
                await abort_async(context, _INTERNAL)

        return wrapped

    def _wrap_stream(self, behavior: Callable[..., Any], needs_auth: bool, method: str) -> Any:
        if inspect.iscoroutinefunction(behavior):  # writes with context.write (health Watch)
            return self._wrap_coroutine(behavior, needs_auth, method, stream=True)
        if not inspect.isasyncgenfunction(behavior):
            raise TypeError(f"{method}: streams must be async generators or coroutines")
        streams = self._streams_of(method)

        async def wrapped(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            _bind_log_fields(request, context)
            try:
                caller = await self._enter(context, needs_auth)
                if isinstance(request, Malformed):
                    await abort_async(context, request.rejection(method))
                with streams.held(_holder(caller)) as problem:
                    if problem is not None:
                        await abort_async(context, problem)
                    checked = None if caller is None else credential()
                    async with contextlib.aclosing(behavior(request, context)) as responses:
                        async for response in responses:
                            if checked is not None:  # the credential, again before each message
                                await checked.verify(context)
                            yield response
            except (grpc.aio.AbortError, asyncio.CancelledError):
                raise
            except StorageFailure as failure:
                log.error("storage failure in %s: %s", method, failure.rejection.message)
                await abort_async(context, failure.rejection)
            except Exception:
                log.exception("unexpected error in %s", method)
                await abort_async(context, _INTERNAL)

        return wrapped


_INTERNAL = Rejection(Code.INTERNAL, "INTERNAL_FAULT", "internal error; see server log")


def _bind_log_fields(request: Any, context: Any) -> None:
    """The fields this call's log lines carry (:func:`praxis.observability.logs.bind`)."""
    found: dict[str, str] = {}
    trace = current_rpc() or metadata_context(context.invocation_metadata())
    if trace is not None:
        found["trace_id"] = f"{trace.trace_id:032x}"
        found["span_id"] = f"{trace.span_id:016x}"
    for name in _log_fields_of(type(request)):
        value = getattr(request, name, "")
        if value and isinstance(value, str):
            found[name] = value
    logs.bind(found)


_LOG_FIELDS = ("run_id", "attempt_id")
_log_fields: dict[type, tuple[str, ...]] = {}


def _log_fields_of(kind: type) -> tuple[str, ...]:
    """Which of ``_LOG_FIELDS`` a request message of ``kind`` has (by its descriptor,
    learnt once per type): asking a message for a field it lacks raises and catches an
    ``AttributeError``, about 1 µs a field on every call of most methods."""
    found = _log_fields.get(kind)
    if found is None:
        fields = getattr(getattr(kind, "DESCRIPTOR", None), "fields_by_name", None)
        found = _LOG_FIELDS if fields is None else tuple(n for n in _LOG_FIELDS if n in fields)
        _log_fields[kind] = found
    return found


class Malformed:
    """A request body the method's message could not decode.

    The deserializer returns it instead of raising (which gRPC would answer with INTERNAL
    and a traceback, before authentication); the handler wrapper, once the caller is
    authenticated, answers INVALID_ARGUMENT with REQUEST_MALFORMED and logs one line.
    """

    __slots__ = ("error", "size")

    def __init__(self, error: str, size: int) -> None:
        self.error = error
        self.size = size

    def rejection(self, method: str) -> Rejection:
        """The refusal (and its one log line)."""
        log.warning("malformed request body for %s (%d bytes): %s", method, self.size, self.error)
        return Rejection(
            Code.INVALID_ARGUMENT,
            "REQUEST_MALFORMED",
            f"the request body is not a valid {method.rsplit('/', 1)[-1]} request message",
        )


def _tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """``deserializer``, answering :class:`Malformed` instead of raising."""
    if deserializer is None:
        return None
    parse = deserializer

    def deserialize(data: bytes) -> Any:
        try:
            return parse(data)
        except Exception as error:  # any decode failure of any message type
            return Malformed(f"{type(error).__name__}: {error}"[:200], len(data))

    return deserialize


def _holder(caller: Principal | None) -> str:
    """Whose stream slot a call takes: its principal, or the anonymous pool."""
    return caller.principal_id if caller is not None else ANONYMOUS
