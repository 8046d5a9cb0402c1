"""Channels with bearer-token credentials and the typed service stubs."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from aiws.engine.testing.v1 import clock_pb2_grpc
from aiws.engine.v1 import (
    admin_pb2_grpc,
    approval_pb2_grpc,
    assessment_pb2_grpc,
    contract_pb2_grpc,
    event_pb2_grpc,
    handoff_pb2_grpc,
    inbox_pb2_grpc,
    notification_pb2_grpc,
    principal_pb2_grpc,
    reconciliation_pb2_grpc,
    registry_pb2_grpc,
    run_pb2_grpc,
    schedule_pb2_grpc,
    simulation_pb2_grpc,
    task_pb2_grpc,
    wait_pb2_grpc,
    work_order_pb2_grpc,
)


class _BearerInterceptor(
    grpc.UnaryUnaryClientInterceptor,  # type: ignore[misc]  # grpc is untyped
    grpc.UnaryStreamClientInterceptor,  # type: ignore[misc]
):
    """Adds ``authorization: Bearer <token>`` to every call."""

    def __init__(self, token: str) -> None:
        self._metadata = ("authorization", f"Bearer {token}")

    def _with_token(self, details: Any) -> Any:
        metadata = [*(details.metadata or ()), self._metadata]
        return details._replace(metadata=metadata)

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], details: Any, request: Any
    ) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(
        self, continuation: Callable[..., Any], details: Any, request: Any
    ) -> Any:
        return continuation(self._with_token(details), request)


# The canonical service names: the same in every Praxis client (docs/workers.md 11).
SERVICE_NAMES = (
    "registry",
    "approvals",
    "admin",
    "runs",
    "tasks",
    "events",
    "contracts",
    "reconciliations",
    "waits",
    "assessments",
    "handoffs",
    "simulations",
    "test_clock",
)


class Client:
    """Typed stubs for every Praxis service over one channel (names: SERVICE_NAMES)."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self.registry = registry_pb2_grpc.RegistryServiceStub(channel)
        self.approvals = approval_pb2_grpc.ApprovalServiceStub(channel)
        self.admin = admin_pb2_grpc.AdminServiceStub(channel)
        self.runs = run_pb2_grpc.RunServiceStub(channel)
        self.tasks = task_pb2_grpc.TaskServiceStub(channel)
        self.events = event_pb2_grpc.EventServiceStub(channel)
        self.contracts = contract_pb2_grpc.ContractServiceStub(channel)
        self.reconciliations = reconciliation_pb2_grpc.ReconciliationServiceStub(channel)
        self.waits = wait_pb2_grpc.WaitServiceStub(channel)
        self.assessments = assessment_pb2_grpc.AssessmentServiceStub(channel)
        self.handoffs = handoff_pb2_grpc.HandoffServiceStub(channel)
        self.simulations = simulation_pb2_grpc.SimulationServiceStub(channel)
        self.principals = principal_pb2_grpc.PrincipalServiceStub(channel)
        self.inbox = inbox_pb2_grpc.InboxServiceStub(channel)
        self.schedules = schedule_pb2_grpc.ScheduleServiceStub(channel)
        self.notifications = notification_pb2_grpc.NotificationServiceStub(channel)
        self.work_orders = work_order_pb2_grpc.WorkOrderServiceStub(channel)
        self.test_clock = clock_pb2_grpc.TestClockServiceStub(channel)

    def close(self) -> None:
        """Closes the channel."""
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


# A restarted server is found again within a second or so: gRPC's default reconnect
# backoff grows to two minutes (docs/workers.md section 6).
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2_000),
)


def connect(
    address: str,
    token: str | None = None,
    root_certificates: bytes | None = None,
    *,
    private_key: bytes | None = None,
    certificate_chain: bytes | None = None,
    insecure: bool = False,
    options: Sequence[tuple[str, Any]] = (),
) -> Client:
    """A client for ``address`` (``host:port``) sending ``token`` as bearer.

    Args:
        address: The server, e.g. ``127.0.0.1:50051``.
        token: The bearer token; ``None`` sends no credential (or, under mutual TLS, lets
            the client certificate identify the caller).
        root_certificates: PEM roots to verify a TLS server with; ``None`` connects in
            plaintext (loopback and tests).
        private_key: PEM key of a client certificate, for mutual TLS.
        certificate_chain: PEM client certificate chain, for mutual TLS.
        insecure: Allow sending ``token`` in plaintext to a non-loopback address.
        options: Extra gRPC channel options, applied after :data:`CHANNEL_OPTIONS`.

    Raises:
        ValueError: A token would travel in plaintext to a non-loopback address and
            ``insecure`` is not set.
    """
    merged = [*CHANNEL_OPTIONS, *options]
    tls = root_certificates is not None or certificate_chain is not None
    if not tls:
        if token and not insecure and not is_loopback(address):
            raise ValueError(
                f"refusing to send a bearer token in plaintext to {address}: pass "
                "root_certificates (TLS), or insecure=True on a network you trust"
            )
        channel = grpc.insecure_channel(address, options=merged)
    else:
        credentials = grpc.ssl_channel_credentials(
            root_certificates, private_key, certificate_chain
        )
        channel = grpc.secure_channel(address, credentials, options=merged)
    if token:
        channel = grpc.intercept_channel(channel, _BearerInterceptor(token))
    return Client(channel)


LOOPBACK_NAMES = frozenset({"localhost", "ip6-localhost"})
"""The host names taken for this machine (any case), beside loopback IP addresses."""


def is_loopback(address: str) -> bool:
    """True when ``address`` names this machine: ``host:port`` or ``[v6]:port`` with a
    loopback host, a unix socket, or a gRPC list of replicas (``ipv4:``/``ipv6:``) that
    are all loopback. One rule for the client's plaintext-token check, ``praxis serve``'s
    listen check and the MCP server's HTTP host (:func:`is_loopback_host`)."""
    if address.startswith(("unix:", "unix-abstract:")):
        return True
    if address.startswith(("ipv4:", "ipv6:")):  # a list of replicas: every one local
        listed = address.partition(":")[2].split(",")
        return all(is_loopback(item.lstrip("/")) for item in listed if item)
    return is_loopback_host(address.rpartition(":")[0] if ":" in address else address)


def is_loopback_host(host: str) -> bool:
    """True when ``host`` (a name, an IP address, an IPv6 address with or without
    brackets) is this machine; an empty host (every interface) is not."""
    host = host.strip("[]")
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
