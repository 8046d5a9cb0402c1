"""The authentication interceptor wraps each method's handler once, not on every call.

gRPC asks the interceptors for a call's handler on every call; the wrapped handler
(authentication, error mapping, the loop or the pool) depends only on the method and the
servicer's handler, so the interceptor keeps it per method and wraps again only when the
servicer's handler is another object.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc

from praxis.clock import TestClock
from praxis.rpc.auth import AuthInterceptor
from praxis.rpc.serving import Gate
from tests.support.harness import authority

METHOD = "/aiws.engine.v1.RegistryService/GetHead"


def _details(method: str) -> Any:
    class Details:
        pass

    details = Details()
    details.method = method  # type: ignore[attr-defined]
    details.invocation_metadata = ()  # type: ignore[attr-defined]
    return details


def _handler() -> grpc.RpcMethodHandler:
    return grpc.unary_unary_rpc_method_handler(lambda request, _context: request)


def test_a_methods_wrapped_handler_is_reused_until_its_handler_changes() -> None:
    interceptor = AuthInterceptor(
        authority(), TestClock(0), lambda _method: Gate("STREAM_LIMIT_REACHED", "streams", 1, 1)
    )
    servicer, replaced = _handler(), _handler()

    async def handlers() -> list[grpc.RpcMethodHandler]:
        async def servicer_of(_details: Any) -> grpc.RpcMethodHandler:
            return servicer

        async def replaced_of(_details: Any) -> grpc.RpcMethodHandler:
            return replaced

        async def none_of(_details: Any) -> None:
            return None

        return [
            await interceptor.intercept_service(servicer_of, _details(METHOD)),
            await interceptor.intercept_service(servicer_of, _details(METHOD)),
            await interceptor.intercept_service(replaced_of, _details(METHOD)),
            await interceptor.intercept_service(replaced_of, _details(METHOD)),
            await interceptor.intercept_service(none_of, _details("/unknown/Method")),
        ]

    first, again, other, other_again, unknown = asyncio.run(handlers())
    assert first is again  # wrapped once
    assert first is not servicer and first.unary_unary is not servicer.unary_unary
    assert other is not first and other is other_again  # a new servicer handler: wrapped anew
    assert unknown is None
