"""Wiring: database, authority, stores, servicers and the gRPC server."""

from __future__ import annotations

import logging
import uuid
from concurrent import futures
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from aiws.engine.testing.v1 import clock_pb2, clock_pb2_grpc
from aiws.engine.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    approval_pb2,
    approval_pb2_grpc,
    assessment_pb2,
    assessment_pb2_grpc,
    contract_pb2,
    contract_pb2_grpc,
    event_pb2,
    event_pb2_grpc,
    handoff_pb2,
    handoff_pb2_grpc,
    reconciliation_pb2,
    reconciliation_pb2_grpc,
    registry_pb2,
    registry_pb2_grpc,
    run_pb2,
    run_pb2_grpc,
    task_pb2,
    task_pb2_grpc,
    wait_pb2,
    wait_pb2_grpc,
)
from praxis.authority.protocol import Authority
from praxis.clock import Clock, TestClock
from praxis.core import values
from praxis.core.definition import Limits
from praxis.rpc.admin import AdminServicer
from praxis.rpc.assessments import AssessmentServicer
from praxis.rpc.auth import AuthInterceptor
from praxis.rpc.contracts import ContractServicer
from praxis.rpc.events import EventServicer
from praxis.rpc.handoffs import HandoffServicer
from praxis.rpc.operator import add_operator_services
from praxis.rpc.reconciliations import ReconciliationServicer
from praxis.rpc.registry import ApprovalServicer, RegistryServicer
from praxis.rpc.runs import RunServicer
from praxis.rpc.tasks import TaskServicer
from praxis.rpc.testing import TestClockServicer
from praxis.rpc.waits import WaitServicer
from praxis.store import controls, ledger_schema, model_schema
from praxis.store.admin import AdminStore
from praxis.store.assessments import AssessmentStore
from praxis.store.contracts import ContractStore
from praxis.store.database import Database
from praxis.store.events import EventStore
from praxis.store.handoffs import HandoffStore
from praxis.store.inbox import InboxStore
from praxis.store.principals import PrincipalStore
from praxis.store.reconciliations import ReconciliationStore
from praxis.store.registry import RegistryStore
from praxis.store.runs import RunStore
from praxis.store.segments import SegmentStore
from praxis.store.signals import Signals
from praxis.store.waits import WaitStore
from praxis.sweeper import Sweeper

log = logging.getLogger("praxis")


@dataclass
class Settings:
    """Everything a server needs, already resolved."""

    database_url: str
    authority: Authority
    clock: Clock
    listen: str = "127.0.0.1:50051"
    models: tuple[str, ...] = ("echo",)
    clock_tolerance_ms: int = 5_000
    synchronous: str = "FULL"
    max_workers: int = 64
    profile: values.DocumentProfile = field(default_factory=values.DocumentProfile)
    limits: Limits = field(default_factory=Limits)
    sweep_interval_s: float = 0.1
    tls: tuple[bytes, bytes] | None = None  # (certificate chain PEM, private key PEM)


class Engine:
    """The stores of one database, usable in-process without gRPC."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.clock = settings.clock
        assert model_schema.MODEL_TABLES  # registers migration 3 before migrating
        assert ledger_schema.run_commands is not None  # and migrations 4 to 6
        self.db = Database(settings.database_url, settings.synchronous)
        applied = self.db.migrate(self.clock.now_ms())
        if applied:
            log.info("schema migrations applied", extra={"versions": applied})
        with self.db.write() as connection:
            self.installation_id = controls.ensure_installation(connection, str(uuid.uuid4()))
        self.principals = PrincipalStore(self.db, self.clock)  # the file is only a bootstrap
        settings.authority = self.principals.adopt(settings.authority)
        self.registry = RegistryStore(
            self.db,
            settings.authority,
            self.clock,
            self.installation_id,
            settings.clock_tolerance_ms,
            settings.profile,
        )
        self.admin = AdminStore(self.db, settings.authority, self.clock, self.installation_id)
        self.signals = Signals()
        self.runs = RunStore(
            self.db,
            settings.authority,
            self.clock,
            settings.models,
            settings.limits,
            settings.profile,
            self.signals,
        )
        self.events = EventStore(self.db, settings.authority, self.clock)
        self.registry.head_hooks.append(self.runs.on_new_head)
        self.admin.cancel_hooks.append(self.runs.on_cancel)
        self._wire_model(settings)

    def _wire_model(self, settings: Settings) -> None:
        """The execution model: contracts, effects, waits, assessments, handoffs, segments."""
        self.contracts = ContractStore(self.db, settings.authority, self.clock, settings.profile)
        self.reconciliations = ReconciliationStore(self.runs, self.registry)
        self.waits = WaitStore(self.runs)
        self.inbox = InboxStore(self.db, settings.authority, self.clock, self.waits)
        self.assessments = AssessmentStore(self.runs)
        self.handoffs = HandoffStore(self.runs)
        self.segments = SegmentStore(self.db)
        self.segments.recover(self.clock.now_ms())
        self.runs.start_hooks += [
            self.contracts.check_start,
            self.waits.on_start,
            self.segments.on_start,
        ]
        self.runs.settle_hooks += [self.contracts.charge, self.reconciliations.on_settle]
        self.runs.allowance_of = self.contracts.allowance
        self.admin.owner_hooks.append(self.segments.on_owner_change)
        self.registry.head_hooks.append(self.waits.on_new_head)

    def close(self) -> None:
        """Releases the database."""
        self.db.close()


class Server:
    """A running gRPC server over an :class:`Engine`."""

    def __init__(self, settings: Settings) -> None:
        self.engine = Engine(settings)
        self.grpc = grpc.server(
            futures.ThreadPoolExecutor(max_workers=settings.max_workers),
            interceptors=[AuthInterceptor(settings.authority, settings.clock)],
            options=[("grpc.so_reuseport", 0)],
        )
        self.health = health.HealthServicer()
        names = [
            registry_pb2.DESCRIPTOR.services_by_name["RegistryService"].full_name,
            approval_pb2.DESCRIPTOR.services_by_name["ApprovalService"].full_name,
            admin_pb2.DESCRIPTOR.services_by_name["AdminService"].full_name,
            run_pb2.DESCRIPTOR.services_by_name["RunService"].full_name,
            task_pb2.DESCRIPTOR.services_by_name["TaskService"].full_name,
            event_pb2.DESCRIPTOR.services_by_name["EventService"].full_name,
            contract_pb2.DESCRIPTOR.services_by_name["ContractService"].full_name,
            reconciliation_pb2.DESCRIPTOR.services_by_name["ReconciliationService"].full_name,
            wait_pb2.DESCRIPTOR.services_by_name["WaitService"].full_name,
            assessment_pb2.DESCRIPTOR.services_by_name["AssessmentService"].full_name,
            handoff_pb2.DESCRIPTOR.services_by_name["HandoffService"].full_name,
        ]
        registry_pb2_grpc.add_RegistryServiceServicer_to_server(
            RegistryServicer(self.engine.registry), self.grpc
        )
        approval_pb2_grpc.add_ApprovalServiceServicer_to_server(
            ApprovalServicer(self.engine.registry, settings.clock), self.grpc
        )
        admin_pb2_grpc.add_AdminServiceServicer_to_server(
            AdminServicer(self.engine.admin), self.grpc
        )
        signals = self.engine.signals
        engine = self.engine
        run_pb2_grpc.add_RunServiceServicer_to_server(
            RunServicer(engine.runs, signals.runs, engine.segments.list), self.grpc
        )
        contract_pb2_grpc.add_ContractServiceServicer_to_server(
            ContractServicer(engine.contracts), self.grpc
        )
        reconciliation_pb2_grpc.add_ReconciliationServiceServicer_to_server(
            ReconciliationServicer(engine.reconciliations), self.grpc
        )
        wait_pb2_grpc.add_WaitServiceServicer_to_server(WaitServicer(engine.waits), self.grpc)
        assessment_pb2_grpc.add_AssessmentServiceServicer_to_server(
            AssessmentServicer(engine.assessments), self.grpc
        )
        handoff_pb2_grpc.add_HandoffServiceServicer_to_server(
            HandoffServicer(engine.handoffs), self.grpc
        )
        task_pb2_grpc.add_TaskServiceServicer_to_server(
            TaskServicer(self.engine.runs, signals.work, settings.clock), self.grpc
        )
        event_pb2_grpc.add_EventServiceServicer_to_server(
            EventServicer(self.engine.events, signals.events), self.grpc
        )
        names += add_operator_services(self.grpc, engine)
        self.sweeper = Sweeper(self.engine.runs, signals.timers, settings.sweep_interval_s)
        if isinstance(settings.clock, TestClock):
            clock_pb2_grpc.add_TestClockServiceServicer_to_server(
                TestClockServicer(settings.clock, signals.all), self.grpc
            )
            names.append(clock_pb2.DESCRIPTOR.services_by_name["TestClockService"].full_name)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        names += [
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ]
        reflection.enable_server_reflection(names, self.grpc)
        self.service_names = names
        if settings.tls is None:
            self.port = self.grpc.add_insecure_port(settings.listen)
        else:
            chain, key = settings.tls
            credentials = grpc.ssl_server_credentials([(key, chain)])
            self.port = self.grpc.add_secure_port(settings.listen, credentials)
        if self.port == 0:
            raise OSError(f"cannot listen on {settings.listen}")

    def start(self) -> None:
        """Starts serving and reports SERVING on the health service."""
        self.grpc.start()
        self.sweeper.start()
        for name in ["", *self.service_names]:
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace_s: float = 5.0) -> None:
        """Stops accepting calls, lets running ones finish, and closes the database."""
        self.health.enter_graceful_shutdown()
        self.sweeper.stop()
        self.engine.signals.all()  # long polls and streams notice the shutdown sooner
        self.grpc.stop(grace_s).wait()
        self.engine.close()
