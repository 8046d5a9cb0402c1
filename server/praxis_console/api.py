"""The console's only way to the engine: the public gRPC API, with the session's token.

One ``grpc.aio`` channel is shared by every session; each call carries the signed-in
principal's own bearer token as metadata, so the server applies the same authority to a
console user as to any other client. Streams (WatchRun, StreamEvents, WatchInbox) are async
iterators on the event loop: no thread per waiting browser.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2

from aiws.engine.v1 import (
    admin_pb2_grpc,
    approval_pb2_grpc,
    contract_pb2_grpc,
    event_pb2,
    event_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    reconciliation_pb2_grpc,
    registry_pb2_grpc,
    run_pb2,
    run_pb2_grpc,
    wait_pb2_grpc,
    work_order_pb2_grpc,
)

CALL_TIMEOUT_S = 15.0
_STATUS_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class ApiError(Exception):
    """A failed call: canonical code, the engine's ErrorReason name, message, violations."""

    code: str
    reason: str
    message: str
    violations: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return f"{self.reason or self.code}: {self.message}"


def error_of(error: grpc.RpcError) -> ApiError:
    """Reads code, ``ErrorInfo.reason`` and field violations out of a failed call."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    message = (error.details() if hasattr(error, "details") else "") or ""
    reason = ""
    violations: list[tuple[str, str]] = []
    trailing = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    for key, value in trailing or ():
        if key != _STATUS_DETAILS_KEY or not isinstance(value, bytes):
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason = info.reason
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations += [(v.field, v.description) for v in bad.field_violations]
    name = code.name if isinstance(code, grpc.StatusCode) else str(code)
    return ApiError(name, reason, message, tuple(violations))


class Engine:
    """Typed stubs over one shared channel; :meth:`call` adds a principal's token."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self.channel = channel
        self.registry = registry_pb2_grpc.RegistryServiceStub(channel)
        self.approvals = approval_pb2_grpc.ApprovalServiceStub(channel)
        self.admin = admin_pb2_grpc.AdminServiceStub(channel)
        self.runs = run_pb2_grpc.RunServiceStub(channel)
        self.events = event_pb2_grpc.EventServiceStub(channel)
        self.contracts = contract_pb2_grpc.ContractServiceStub(channel)
        self.reconciliations = reconciliation_pb2_grpc.ReconciliationServiceStub(channel)
        self.waits = wait_pb2_grpc.WaitServiceStub(channel)
        self.inbox = inbox_pb2_grpc.InboxServiceStub(channel)
        self.work_orders = work_order_pb2_grpc.WorkOrderServiceStub(channel)
        self._extra: dict[str, Any] = {}

    @classmethod
    def connect(
        cls,
        address: str,
        root_certificates: bytes | None = None,
        client_certificate: bytes | None = None,
        client_key: bytes | None = None,
    ) -> Engine:
        """A channel to ``address``; TLS when ``root_certificates`` (or a client
        certificate, for mutual TLS) are given, verified with the system's roots when no
        roots are."""
        if root_certificates is None and client_certificate is None:
            channel = grpc.aio.insecure_channel(address)
        else:
            credentials = grpc.ssl_channel_credentials(
                root_certificates, client_key, client_certificate
            )
            channel = grpc.aio.secure_channel(address, credentials)
        return cls(channel)

    def stub(self, name: str, factory: Any) -> Any:
        """A stub of a service added after this module was written (e.g. the inbox)."""
        if name not in self._extra:
            self._extra[name] = factory(self.channel)
        return self._extra[name]

    async def close(self) -> None:
        """Closes the channel."""
        await self.channel.close()

    async def call(self, token: str, method: Any, request: Any) -> Any:
        """Calls a unary ``method`` as the token's principal; raises :class:`ApiError`."""
        try:
            return await method(request, metadata=_auth(token), timeout=CALL_TIMEOUT_S)
        except grpc.RpcError as error:
            raise error_of(error) from None

    async def read(self, token: str, method: Any, request: Any) -> tuple[Any, ApiError | None]:
        """:meth:`call` for a page that shows a failed read beside the rest: the
        response and ``None``, or ``None`` and the error."""
        try:
            return await self.call(token, method, request), None
        except ApiError as error:
            return None, error

    async def watch_run(self, token: str, run_id: str) -> AsyncIterator[run_pb2.Run]:
        """Snapshots of a run now and after every change until it ends."""
        call = self.runs.WatchRun(run_pb2.WatchRunRequest(run_id=run_id), metadata=_auth(token))
        try:
            async for response in call:
                yield response.run
        except grpc.RpcError as error:
            raise error_of(error) from None
        finally:
            call.cancel()

    async def watch_inbox(self, token: str) -> AsyncIterator[inbox_pb2.WatchInboxResponse]:
        """The inbox's counts now and after each change of it (WatchInbox)."""
        call = self.inbox.WatchInbox(inbox_pb2.WatchInboxRequest(), metadata=_auth(token))
        try:
            async for response in call:
                yield response
        except grpc.RpcError as error:
            raise error_of(error) from None
        finally:
            call.cancel()

    async def stream_events(
        self, token: str, run_id: str, after: int
    ) -> AsyncIterator[event_pb2.Event]:
        """A run's events after ``after``, then new ones as they are written."""
        request = event_pb2.StreamEventsRequest(run_id=run_id, after=after)
        call = self.events.StreamEvents(request, metadata=_auth(token))
        try:
            async for response in call:
                yield response.event
        except grpc.RpcError as error:
            raise error_of(error) from None
        finally:
            call.cancel()


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)
