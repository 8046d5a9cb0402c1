"""Authentication of every RPC (except health and reflection), and
the catch-all that turns a bug into INTERNAL without leaking its details."""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from typing import Any, NoReturn

import grpc

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core.model import Principal
from praxis.core.rejection import Code, Rejection
from praxis.rpc.errors import abort
from praxis.security import certificate_fingerprint
from praxis.store.files import StorageFailure

log = logging.getLogger("praxis.rpc")

_principal: contextvars.ContextVar[Principal] = contextvars.ContextVar("praxis_principal")

UNAUTHENTICATED_PREFIXES = (
    "/grpc.health.v1.Health/",
    "/grpc.reflection.",
)


def principal() -> Principal:
    """The authenticated principal of the current RPC."""
    return _principal.get()


def bearer_token(context: grpc.ServicerContext) -> str | None:
    """The token of the ``authorization: Bearer`` metadata, if any."""
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def peer_certificate(context: grpc.ServicerContext) -> bytes | None:
    """The PEM certificate a client presented under mutual TLS (verified by TLS), if any."""
    found = context.auth_context().get("x509_pem_cert") or ()
    return bytes(found[0]) if found else None


class AuthInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Authenticates each call and maps unexpected exceptions to INTERNAL."""

    def __init__(self, authority: Authority, clock: Clock) -> None:
        self._authority = authority
        self._clock = clock

    def intercept_service(self, continuation: Callable[[Any], Any], details: Any) -> Any:
        handler = continuation(details)
        if handler is None:
            return None
        method: str = details.method
        needs_auth = not method.startswith(UNAUTHENTICATED_PREFIXES)
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap(handler.unary_unary, needs_auth, method),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, needs_auth, method),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler

    def _authenticate(self, context: grpc.ServicerContext) -> None:
        token = bearer_token(context)
        certify = getattr(self._authority, "authenticate_certificate", None)
        certificate = peer_certificate(context) if token is None and certify else None
        if certify is not None and certificate is not None:
            found = certify(certificate_fingerprint(certificate), self._clock.now_ms())
        else:
            found = self._authority.authenticate(token, self._clock.now_ms())
        if isinstance(found, Rejection):
            abort(context, found)
        _principal.set(found)

    def _wrap(self, behavior: Callable[..., Any], needs_auth: bool, method: str) -> Any:
        def wrapped(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                if needs_auth:
                    self._authenticate(context)
                return behavior(request, context)
            except StorageFailure as failure:
                _storage(context, method, failure)
            except Exception:
                _internal(context, method)
                raise

        return wrapped

    def _wrap_stream(self, behavior: Callable[..., Any], needs_auth: bool, method: str) -> Any:
        def wrapped(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                if needs_auth:
                    self._authenticate(context)
                yield from behavior(request, context)
            except StorageFailure as failure:
                _storage(context, method, failure)
            except Exception:
                _internal(context, method)
                raise

        return wrapped


def _storage(context: grpc.ServicerContext, method: str, failure: StorageFailure) -> NoReturn:
    """Ends the RPC with the storage failure's status (UNAVAILABLE or RESOURCE_EXHAUSTED)."""
    log.error("storage failure in %s: %s", method, failure.rejection.message)
    abort(context, failure.rejection)


def _internal(context: grpc.ServicerContext, method: str) -> None:
    """Aborts with INTERNAL unless the servicer already set a status."""
    if context.code() is not None:
        return
    log.exception("unexpected error in %s", method)
    abort(context, Rejection(Code.INTERNAL, "INTERNAL_FAULT", "internal error; see server log"))
