"""Wiring: database, authority, stores, servicers and the gRPC server."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
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
    inbox_pb2,
    inbox_pb2_grpc,
    notification_pb2,
    notification_pb2_grpc,
    principal_pb2,
    principal_pb2_grpc,
    reconciliation_pb2,
    reconciliation_pb2_grpc,
    registry_pb2,
    registry_pb2_grpc,
    run_pb2,
    run_pb2_grpc,
    schedule_pb2,
    schedule_pb2_grpc,
    simulation_pb2,
    simulation_pb2_grpc,
    task_pb2,
    task_pb2_grpc,
    wait_pb2,
    wait_pb2_grpc,
    work_order_pb2,
    work_order_pb2_grpc,
)
from praxis.authority.certificates import CertificateMappingError, with_certificates
from praxis.authority.guard import HumanOnly
from praxis.authority.protocol import Authority
from praxis.clock import Clock, TestClock
from praxis.core import reload, values
from praxis.core.definition import Limits
from praxis.core.rejection import Code, FieldViolation, Rejection, precondition
from praxis.core.retention import RetentionPolicy
from praxis.deliverer import Deliverer, DeliveryLimits, Destination
from praxis.limits import ServingLimits
from praxis.observability import metrics
from praxis.observability.tracing import Exporter, RpcSpans, excluded_services, from_env
from praxis.rpc.admin import AdminServicer
from praxis.rpc.assessments import AssessmentServicer
from praxis.rpc.auth import AuthInterceptor
from praxis.rpc.contracts import ContractServicer
from praxis.rpc.events import EventServicer
from praxis.rpc.handoffs import HandoffServicer
from praxis.rpc.inbox import InboxServicer
from praxis.rpc.notifications import NotificationServicer
from praxis.rpc.observing import ObservingInterceptor
from praxis.rpc.principals import PrincipalServicer
from praxis.rpc.reconciliations import ReconciliationServicer
from praxis.rpc.reflection import serve_reflection
from praxis.rpc.registry import ApprovalServicer, RegistryServicer
from praxis.rpc.runs import RunServicer
from praxis.rpc.schedules import ScheduleServicer
from praxis.rpc.serving import ON_LOOP, Blocking, Gates
from praxis.rpc.simulation import SimulationServicer
from praxis.rpc.tasks import TaskServicer
from praxis.rpc.testing import TestClockServicer
from praxis.rpc.waits import WaitServicer
from praxis.rpc.work_orders import WorkOrderServicer
from praxis.store.controls import rows as controls
from praxis.store.controls.emits import (
    ControlChanged,
    HoldsChanged,
    OwnerChanged,
    WorkOrderCancelled,
    WorkOrderRecorded,
)
from praxis.store.controls.orders import WorkOrderStore
from praxis.store.controls.scopes import WorkOrderScopes
from praxis.store.controls.store import AdminStore
from praxis.store.db import dialect
from praxis.store.db.database import Database
from praxis.store.db.files import sqlite_path
from praxis.store.db.reactions import Handler, Reactions
from praxis.store.execution.assessments import AssessmentStore
from praxis.store.execution.configuration import REFRESH_MS, ConfigStore, ProcessRow, Reloaded
from praxis.store.execution.contracts import ContractStore
from praxis.store.execution.handoffs import HandoffStore
from praxis.store.execution.reconciliations import ReconciliationStore
from praxis.store.execution.resumes import ResumeStore
from praxis.store.execution.segments import SegmentStore
from praxis.store.execution.waits import WaitStore
from praxis.store.notifications.emits import DeliveriesDue
from praxis.store.notifications.store import Notifications
from praxis.store.principals.emits import PrincipalChanged
from praxis.store.principals.journal import Journal
from praxis.store.principals.store import PrincipalStore
from praxis.store.registry.approvals import ApprovalStore
from praxis.store.registry.emits import HeadChanged, RegistryWritten
from praxis.store.registry.reads import RegistryReadStore
from praxis.store.registry.store import RegistryStore
from praxis.store.retention.store import ArchiveStore
from praxis.store.runtime.context import Ports, RuntimeContext
from praxis.store.runtime.emits import (
    AttemptSettled,
    RunFinished,
    RunSaved,
    RunStarted,
    WorkReadied,
)
from praxis.store.runtime.events import EventStore
from praxis.store.runtime.runs import RunStore
from praxis.store.runtime.simulation import SimulationStore
from praxis.store.runtime.tasks import TaskStore
from praxis.store.runtime.traces import RunTraces
from praxis.store.schedules.emits import Observed
from praxis.store.schedules.store import ScheduleStore
from praxis.store.schema import MIGRATIONS
from praxis.store.views.inbox import InboxStore
from praxis.store.wake.hub import (
    CONFIG,
    INBOX,
    PRINCIPAL,
    WORK_ORDER,
    Hub,
    UnixBroadcast,
    principal_topic,
)
from praxis.store.wake.postgres import PgBroadcast
from praxis.sweeper import Sweeper

log = logging.getLogger("praxis")
T = TypeVar("T")
FOLLOW_S = 5.0
"""How often a server checks for a reload it was not woken for (a lost wake-up)."""


@dataclass(frozen=True)
class LiveConfig:
    """The part of ``config.json`` a reload applies without a restart (praxis.core.reload
    names its keys): webhook destinations, models, limits, retention, logging level."""

    webhooks: dict[str, Destination]
    models: tuple[str, ...]
    limits: Limits
    retention: RetentionPolicy
    log_level: str | None = None


# Reads and validates the config file again: the document and its live part, or every
# problem (a field violation per JSON path).
ConfigReader = Callable[[], tuple[dict[str, Any], LiveConfig] | list[FieldViolation]]


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
    serving: ServingLimits = field(default_factory=ServingLimits)
    profile: values.DocumentProfile = field(default_factory=values.DocumentProfile)
    limits: Limits = field(default_factory=Limits)
    sweep_interval_s: float = 0.1
    # (certificate chain PEM, private key PEM[, client CA PEM: require mutual TLS])
    tls: tuple[bytes, bytes] | tuple[bytes, bytes, bytes | None] | None = None
    reuse_port: bool = False  # SO_REUSEPORT: several processes serve one port
    # Other server processes write the same SQLite file (``--processes N``): decide
    # heartbeats and settlements ahead of the writers' turn (praxis.store.runtime.ahead).
    decide_ahead: bool = False
    recover: bool = True  # start RECOVERY segments (once per installation start)
    sweeper: bool = True  # run the sweeper (one process per installation is enough)
    broadcast: bool = True  # exchange wake-ups with the other processes on this machine
    wake_dir: Path | None = None  # where they meet (default: beside the SQLite file)
    metrics: bool = (
        False  # record Prometheus metrics (praxis.observability.metrics; served by the CLI)
    )
    db_pool_size: int | None = None  # PostgreSQL connections per process (None: the default)
    # SHA-256 (hex) of a TLS client certificate -> principal id: resolved through the
    # adopted (stored) principals on every call, so revocation applies to certificates.
    client_certificates: dict[str, str] = field(default_factory=dict)
    # The principal journal (store/principals/journal.py): revocations and rotations kept
    # outside the database and re-applied at start, so a restored backup cannot revive
    # them. None: not kept (in-process tests).
    principal_journal: Path | None = None
    # Retention and archival of finished runs (core/retention.py, store/retention): the
    # default keeps every run for ever. archive_dir None: ``archive`` beside the database.
    retention: RetentionPolicy = field(default_factory=RetentionPolicy)
    archive_dir: Path | None = None
    # Webhook destinations by name (config.json `webhooks`), the only ones StartRun's
    # `notify.webhooks` may name, and the deliverer's bounds (`notifications`).
    webhooks: dict[str, Destination] = field(default_factory=dict)
    notifications: DeliveryLimits = field(default_factory=DeliveryLimits)
    # The config file, read again by ReloadConfig and SIGHUP (None: not reloadable, as
    # an embedded engine's), and the document it held at start.
    config_reader: ConfigReader | None = None
    config_document: dict[str, Any] = field(default_factory=dict)


class Engine:
    """The stores of one database, usable in-process without gRPC."""

    def __init__(self, settings: Settings) -> None:
        settings = replace(settings)  # its authority becomes the stored principals' below
        self.settings = settings
        self.tracing: Exporter | None = from_env(os.environ)  # OTEL_*: off unless configured
        self.clock = settings.clock
        threads = settings.serving.executor_threads
        pool = settings.db_pool_size or dialect.pool_size_floor(threads)
        problem = dialect.check_pool_size(pool, threads)
        if problem:
            raise ValueError(problem)
        self.db = Database(settings.database_url, settings.synchronous, pool)
        applied = self.db.migrate(self.clock.now_ms(), MIGRATIONS)
        if applied:
            log.info("schema migrations applied", extra={"versions": applied})
        with self.db.write() as connection:
            self.installation_id = controls.ensure_installation(connection, str(uuid.uuid4()))
        self.db.pin(self.installation_id)  # a deleted or replaced file is noticed
        journal = Journal(settings.principal_journal) if settings.principal_journal else None
        # The one dispatcher of events between slices: every store that others react to
        # publishes there; who reacts to what is the table of reactions() below, wired
        # once every store exists.
        self.reactions = Reactions()
        self.principals = PrincipalStore(  # a file: a bootstrap
            self.db, self.clock, journal, self.reactions
        )
        self.principals.replay()  # before anything is served: a restore revives no token
        adopted = self.principals.adopt(settings.authority)
        try:  # after adoption: certificates map to the stored principals, never the file
            adopted = with_certificates(adopted, settings.client_certificates, self.clock.now_ms())
        except CertificateMappingError:
            self.db.close()
            raise
        # Every store asks the authority through the one human-only rule (core.kinds).
        settings.authority = authority = HumanOnly(adopted)
        # And through the actions each work order permits (a child narrows its parent's).
        self.scopes = WorkOrderScopes(authority, self.db)
        settings.authority = authority = self.scopes  # type: ignore[assignment]
        self.signals = Hub()
        # The webhook deliverer, when a server sends webhooks (Server sets it).
        self.deliverer: Deliverer | None = None
        # Its port to the work-order tree: whether a budget limits a run (cached here).
        self.contracts = ContractStore(
            self.db, authority, self.clock, settings.profile, self.scopes.budgeted
        )
        self.archive = ArchiveStore(self.db, self.clock, settings.retention, _archive_dir(settings))
        # What every runtime command runs in, and what the slices on the runtime share.
        self.context = RuntimeContext(
            self.db,
            authority,
            self.clock,
            settings.models,
            settings.limits,
            settings.profile,
            self.signals,
            ports(self),
            webhook_names=frozenset(settings.webhooks),
            reactions=self.reactions,
        )
        self.runs = RunStore(self.context)
        self.notifications = Notifications(self.db, authority, self.clock, self.reactions)
        self.tasks = TaskStore(
            self.context, decide_ahead=settings.decide_ahead and self.db.single_writer
        )
        self.registry = RegistryStore(
            self.db,
            authority,
            self.clock,
            self.installation_id,
            settings.clock_tolerance_ms,
            settings.profile,
            definition_check=self.context.check_definition,
            reactions=self.reactions,
        )
        self.approvals = ApprovalStore(self.db, authority, self.clock, self.reactions)
        self.registry_reads = RegistryReadStore(
            self.db, authority, self.clock, self.installation_id
        )
        self.admin = AdminStore(
            self.db, authority, self.clock, self.installation_id, self.reactions
        )
        self.work_orders = WorkOrderStore(self.db, authority, self.clock, self.reactions)
        self.events = EventStore(self.db, authority, self.clock)
        self.simulations = SimulationStore(
            self.db, authority, self.clock, settings.limits, settings.profile
        )
        self.reconciliations = ReconciliationStore(self.context, self.installation_id)
        self.resumes = ResumeStore(self.context, self.installation_id)
        self.waits = WaitStore(self.context, self.installation_id)
        self.inbox = InboxStore(self.db, authority, self.clock, self.context.unit)
        self.assessments = AssessmentStore(self.context)
        self.handoffs = HandoffStore(self.context)
        self.segments = SegmentStore(self.db)
        self.config = ConfigStore(self.db, authority, self.clock)
        self.schedules = ScheduleStore(self.context, self.installation_id)
        if settings.recover:
            self.segments.recover(self.clock.now_ms())
        self.reactions.wire(reactions(self))
        for topic, forget in wakes_from_elsewhere(self).items():
            self.signals.on_delivered(topic, forget)
        if self.tracing is not None:
            self.context.unit.trace = RunTraces(self.tracing)

    def settle_due(self) -> bool:
        """Test clocks only (TestClockService): sweeps the timers due at the clock's time
        and, with a retention policy, archives the runs due; whether no timer is left."""
        settled = self.runs.settle_due()
        if self.settings.retention.active:
            try:
                self.archive.archive_due()
            except OSError:  # as the sweeper: logged, the next change or pass retries
                log.exception("archiving failed")
        return settled

    # --- the engine's own reactions (rows of reactions() below) -------------------------

    def wake_inbox(self, _event: RegistryWritten | HoldsChanged) -> None:
        """Wakes ``WatchInbox`` streams: what waits for a human may have changed
        (published after the commit)."""
        self.signals.publish({INBOX: 0})

    def wake_inbox_after(self, event: ControlChanged) -> None:
        """Wakes ``WatchInbox`` once a pause, resume or cancel has committed: a run of a
        paused work order is not stuck, and one resumed may be."""
        Database.after_commit(event.connection, self._wake_inbox_now, once=True)

    def _wake_inbox_now(self) -> None:
        self.signals.publish({INBOX: 0})

    def on_work_order_recorded(self, event: WorkOrderRecorded) -> None:
        """A work order was recorded (or proposed, or its proposal decided): this process
        reads its chain at its next use, the others forget the work orders they knew
        without a record, and inbox watchers read again."""
        self.scopes.forget(event.work_order_id)
        # INBOX: a proposal joined (or, decided, left) what waits for a human.
        self.signals.publish({f"{WORK_ORDER}{event.work_order_id}": 0, INBOX: 0})

    def wake_principal(self, event: PrincipalChanged) -> None:
        """Wakes the streams and long polls of a principal revoked or rotated: each checks
        the credential it was opened with again, here and in the other processes."""
        self.signals.publish({principal_topic(event.principal_id): 0})

    def wake_deliverer(self, _event: DeliveriesDue) -> None:
        """Wakes this process's webhook deliverer, when it has one."""
        deliverer = self.deliverer
        if deliverer is not None:
            deliverer.wake.set()

    def observe_schedule(self, event: Observed) -> None:
        """Counts what the sweeper did with a schedule's due time (metrics)."""
        metrics.schedule_time(event.outcome, event.late_ms)

    def close(self) -> None:
        """Exports the spans still queued and releases the database."""
        if self.tracing is not None:
            self.tracing.shutdown()
        self.db.close()


def ports(engine: Engine) -> Ports:
    """What the runtime asks of the slices above it: every port, in one table.

    The runtime imports none of these slices; each port is a Protocol of
    :mod:`praxis.store.runtime.context`, and the store named here answers it.
    """
    return Ports(
        contracts=engine.contracts,  # a contract's work order, deadline and allowance
        archive=engine.archive,  # runs archived (GetRun, a StartRun repeated after)
    )


def reactions(engine: Engine) -> dict[type, tuple[Handler, ...]]:
    """Which slice reacts to which event of another: every reaction, in one table.

    Keyed by event type (each a frozen dataclass of the slice that emits it, in its
    ``emits.py``), the handlers of one event run in the order written here. An event's
    docstring says when: inside the emitting command's transaction (a ``Rollback`` a
    handler raises refuses the command), just before its COMMIT, or after it. Emitters
    publish through the engine's one dispatcher (:class:`Reactions`) and call no other
    slice; tests/unit/test_reactions.py holds that every event has its emitter and a
    handler here.
    """
    e = engine
    return {
        # The runtime: a run was inserted, inside its start's transaction.
        RunStarted: (
            e.notifications.on_start,  # its notify is kept for its end
            e.contracts.check_start,  # its contract admits it (else refused)
            e.waits.on_start,  # its wait nodes are recorded
            e.segments.on_start,  # its first segment opens
        ),
        # The runtime: any command saved an outcome that changed a run, inside its
        # transaction.
        RunSaved: (
            e.reconciliations.on_save,  # uncertain effects: a review
            e.assessments.on_save,  # a contract's run completed: assessments owed
        ),
        # The runtime: the saved outcome ended the run, inside the same transaction.
        RunFinished: (e.notifications.on_finished,),  # its reply and webhook deliveries
        # The task protocol: an attempt settled, inside its transaction.
        AttemptSettled: (e.contracts.charge,),  # its cost is charged exactly
        # The runtime: a transaction readied attempts, just before its COMMIT.
        WorkReadied: (e.tasks.hand_off,),  # leased to a parked long poll
        # The registry: a ref's head changed (activation), inside its transaction.
        HeadChanged: (
            e.runs.on_new_head,  # the bound run takes the new revision
            e.waits.on_new_head,  # and its waits follow it
            e.assessments.on_new_head,  # a new subject: assessed again
        ),
        # The registry: a command or a new approval wrote (after the commit).
        RegistryWritten: (e.wake_inbox,),  # proposals and approvals enter and leave the inbox
        # Work-order controls, inside the admin's transaction.
        ControlChanged: (
            e.runs.on_control,  # resumed work is claimable again
            e.wake_inbox_after,  # and stuck runs depend on it
        ),
        WorkOrderCancelled: (e.runs.on_cancel,),  # a cancelled work order stops its runs
        OwnerChanged: (e.segments.on_owner_change,),  # a new owner, a new segment
        # Work-order controls, after the commit.
        HoldsChanged: (e.wake_inbox,),  # holds are in the inbox
        WorkOrderRecorded: (e.on_work_order_recorded,),  # its actions, budget, proposal
        # Principals: a revocation or rotation committed (after the commit).
        PrincipalChanged: (e.wake_principal,),  # its streams check again
        # Notifications: deliveries fell due (after the commit).
        DeliveriesDue: (e.wake_deliverer,),  # the deliverer sends them
        # Schedules: the sweeper handled a due time (after the commit).
        Observed: (e.observe_schedule,),  # counted (metrics)
    }


def wakes_from_elsewhere(engine: Engine) -> dict[str, Callable[[], None]]:
    """What this process does when another process's wake-up of a topic arrives (the
    hub's broadcast, :meth:`Hub.on_delivered`): every subscription, in one table. These
    are not reactions of one slice to another's event: what changed is already committed
    elsewhere, and this process forgets what it cached of it."""
    return {
        # A principal revoked or rotated: forget the cached lookups before the streams
        # opened here check their credential again.
        PRINCIPAL: engine.principals.lookups.forget,
        # A work order recorded: forget the work orders known without a record.
        WORK_ORDER: engine.scopes.forget_unrecorded,
    }


def _archive_dir(settings: Settings) -> Path:
    """Where archive files go: the setting, else ``archive`` beside a SQLite file, else
    ``archive`` in the working directory."""
    if settings.archive_dir is not None:
        return settings.archive_dir
    path = sqlite_path(settings.database_url)
    return (path.parent if path is not None else Path.cwd()) / settings.retention.archive_dir


def wake_directory(database_url: str) -> Path | None:
    """Where the processes sharing a SQLite file meet for wake-ups: beside the file."""
    prefix = "sqlite:///"
    if not database_url.startswith(prefix) or ":memory:" in database_url:
        return None
    path = database_url[len(prefix) :].partition("?")[0]
    return Path(path + ".wake") if path else None


class Server:
    """A running asyncio gRPC server over an :class:`Engine`.

    The server owns one event-loop thread (every stream, long poll, health and
    reflection call lives there and holds no thread while it waits; the hot unary calls
    too, see :mod:`praxis.rpc.serving`) and one bounded executor (the other unary RPCs).
    Its methods are called from ordinary threads.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.metrics:
            metrics.enable()  # before the engine: its commands are counted from the start
        self.engine = Engine(settings)
        self.executor = ThreadPoolExecutor(
            max_workers=settings.serving.executor_threads, thread_name_prefix="praxis-rpc"
        )
        self.gates = Gates(settings.serving)
        self.engine.signals.recheck_ms = settings.serving.recheck_ms
        wake_dir = settings.wake_dir or wake_directory(settings.database_url)
        if settings.broadcast and self.engine.db.postgres:  # every replica, every machine
            self.engine.signals.broadcast = PgBroadcast(settings.database_url)
        elif wake_dir is not None and settings.broadcast:
            self.engine.signals.broadcast = UnixBroadcast(wake_dir)
        self.sweeper = Sweeper(
            self.engine.runs,
            threading.Event(),
            settings.sweep_interval_s,
            passes=(self.engine.schedules.sweep,),
            archive=self.engine.archive if settings.retention.active else None,
        )
        self.engine.signals.on_any(self.sweeper.wake)
        # Webhooks: sent from a bounded pool, woken after a commit that wrote deliveries.
        self.deliverer: Deliverer | None = None
        if settings.webhooks:
            self.deliverer = self._deliverer(settings.webhooks)
        # The configuration reloaded live (ReloadConfig, SIGHUP, another process's reload).
        self._started_document = self._document = settings.config_document
        self.config_version = reload.version_of(settings.config_document)
        self._reloading = threading.Lock()
        self._follow = threading.Event()
        self._following = False
        self._follower: threading.Thread | None = None
        self._serving = False
        if settings.config_reader is not None:
            self.engine.signals.on_delivered(CONFIG, self._follow.set)
        self.loop = asyncio.new_event_loop()
        self._loop_thread = threading.Thread(
            target=self.loop.run_forever, name="praxis-loop", daemon=True
        )
        self._loop_thread.start()
        try:
            self.port = self._on_loop(self._build())
        except BaseException:
            self._close_loop()
            self.engine.close()
            raise

    def _deliverer(self, destinations: dict[str, Destination]) -> Deliverer:
        """The webhook deliverer, woken after commits that wrote deliveries."""
        deliverer = Deliverer(
            self.engine.notifications,
            dict(destinations),
            self.settings.notifications,
            self.settings.clock,
        )
        self.engine.deliverer = deliverer  # woken by DeliveriesDue (reactions())
        return deliverer

    # --- the configuration reloaded live ------------------------------------------------

    def reload_config(self, reloaded_by: str, only_if_new: bool = False) -> Reloaded | Rejection:
        """Reads the config file again, validates all of it, applies its live part here,
        records the reload and wakes the other processes to read theirs.

        ``only_if_new``: record nothing when the installation's latest reload already has
        this version (a signal forwarded to several processes). A bad file changes nothing
        (FAILED_PRECONDITION / CONFIG_INVALID, a field violation per problem).
        """
        reader = self.settings.config_reader
        if reader is None:
            return precondition(
                "CONFIG_NOT_RELOADABLE", "this server was started without a config file"
            )
        with self._reloading:
            read = reader()
            if isinstance(read, list):
                log.warning(
                    "config reload refused: the file is invalid",
                    extra={"problems": [v.field for v in read]},
                )
                return Rejection(
                    Code.FAILED_PRECONDITION,
                    "CONFIG_INVALID",
                    f"the config file is invalid ({len(read)} problems); nothing changed",
                    tuple(read),
                )
            document, live = read
            change = self._apply(document, live)
            self.engine.config.record(reloaded_by, change, only_if_new)
        self.engine.signals.publish({CONFIG: 0})  # the other processes read theirs
        log.info(
            "config reloaded",
            extra={
                "version": change.version,
                "changed": list(change.changed),
                "restart_required": list(change.restart_required),
                "reloaded_by": reloaded_by,
            },
        )
        return Reloaded(change, self.engine.config.processes(), self.engine.config.process_id)

    def converge(self, version: str, wait_s: float) -> tuple[ProcessRow, ...]:
        """The processes and their versions once every one serves ``version``, or once
        ``wait_s`` has passed."""
        deadline = time.monotonic() + wait_s
        while True:
            rows = self.engine.config.processes()
            if all(row.version == version for row in rows) or time.monotonic() >= deadline:
                return rows
            time.sleep(0.05)

    def _apply(self, document: dict[str, Any], live: LiveConfig) -> reload.Change:
        """Applies the live part of a new config document; what changed."""
        live_change = reload.change(self._document, document)
        restart = reload.change(self._started_document, document).restart_required
        engine = self.engine
        engine.context.reconfigure(live.models, live.limits, frozenset(live.webhooks))
        engine.simulations.limits = live.limits
        engine.settings.limits = live.limits
        engine.settings.retention = live.retention
        engine.archive.policy = live.retention
        self.sweeper.archive = engine.archive if live.retention.active else None
        if self.deliverer is not None:
            self.deliverer.destinations = dict(live.webhooks)
        elif live.webhooks:
            self.deliverer = self._deliverer(live.webhooks)
            if self._serving:
                self.deliverer.start()
        if live.log_level:
            logging.getLogger().setLevel(live.log_level)
        self._document = document
        self.config_version = live_change.version
        return replace(live_change, restart_required=restart)

    def follow_config(self) -> bool:
        """Another process reloaded: reads this process's file again when the latest
        reload's version is not the one served here; whether it applied a new version."""
        latest = self.engine.config.latest_version()
        reader = self.settings.config_reader
        if not latest or latest == self.config_version or reader is None:
            return False
        with self._reloading:
            read = reader()
            if isinstance(read, list):
                log.warning(
                    "config reload of another process not followed: this file is invalid",
                    extra={"problems": [v.field for v in read]},
                )
                return False
            document, live = read
            if reload.version_of(document) == self.config_version:
                return False  # this process's file did not change
            change = self._apply(document, live)
            self.engine.config.report(change.version)
        log.info("config reloaded after another process", extra={"version": change.version})
        return True

    def _follow_loop(self) -> None:
        refreshed = time.monotonic()
        while self._following:
            self._follow.wait(FOLLOW_S)
            self._follow.clear()
            if not self._following:
                return
            try:
                self.follow_config()
                if time.monotonic() - refreshed >= REFRESH_MS / 1000:
                    self.engine.config.refresh()  # still serving: listed, not stale
                    refreshed = time.monotonic()
            except Exception:  # the database is busy or failing: the next wake-up retries
                log.exception("following a config reload failed")

    def _on_loop(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    async def _build(self) -> int:
        settings, engine = self.settings, self.engine
        engine.signals.attach(asyncio.get_running_loop())
        # The hot calls and the database work of streams run on the loop (praxis.rpc.serving):
        # on SQLite their writes join its group commit, on PostgreSQL their round trips
        # park them on their connection's socket (praxis.store.db.loop_pg).
        on_loop = ON_LOOP
        self.grpc = grpc.aio.server(
            migration_thread_pool=self.executor,
            interceptors=[
                *self._observing(),  # outermost: metrics and per-RPC spans
                AuthInterceptor(
                    engine.settings.authority, settings.clock, self.gates.streams_of, on_loop
                ),
            ],
            options=[("grpc.so_reuseport", 1 if settings.reuse_port else 0)],
        )
        self.health = health_aio.HealthServicer()
        engine.db.storage_listeners.append(self._storage_health)
        self.service_names = self._add_servicers(Blocking(self.executor, bool(on_loop)))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        self.service_names += [
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ]
        serve_reflection(self.service_names, self.grpc)  # v1 and v1alpha
        if settings.tls is None:
            port: int = self.grpc.add_insecure_port(settings.listen)
        else:
            chain, key = settings.tls[0], settings.tls[1]
            client_ca = settings.tls[2] if len(settings.tls) > 2 else None
            credentials = grpc.ssl_server_credentials(
                [(key, chain)], root_certificates=client_ca, require_client_auth=bool(client_ca)
            )
            port = self.grpc.add_secure_port(settings.listen, credentials)
        if port == 0:
            raise OSError(f"cannot listen on {settings.listen}")
        return port

    def _observing(self) -> list[ObservingInterceptor]:
        """The interceptor of RPC metrics and spans, when either is on."""
        tracing = self.engine.tracing
        spans = RpcSpans(tracing, excluded_services(os.environ)) if tracing else None
        if not self.settings.metrics and spans is None:
            return []
        return [ObservingInterceptor(self.settings.metrics, spans)]

    def _add_servicers(self, blocking: Blocking) -> list[str]:
        """Registers every service; returns their full names."""
        settings, engine, server = self.settings, self.engine, self.grpc
        hub = engine.signals
        registry_pb2_grpc.add_RegistryServiceServicer_to_server(
            RegistryServicer(engine.registry, engine.registry_reads), server
        )
        approval_pb2_grpc.add_ApprovalServiceServicer_to_server(
            ApprovalServicer(engine.approvals, settings.clock), server
        )
        admin_pb2_grpc.add_AdminServiceServicer_to_server(
            AdminServicer(engine.admin, engine.config, self), server
        )
        run_pb2_grpc.add_RunServiceServicer_to_server(
            RunServicer(
                engine.runs,
                hub,
                engine.resumes,
                engine.segments.list,
                blocking,
                engine.segments.started,
            ),
            server,
        )
        contract_pb2_grpc.add_ContractServiceServicer_to_server(
            ContractServicer(engine.contracts), server
        )
        reconciliation_pb2_grpc.add_ReconciliationServiceServicer_to_server(
            ReconciliationServicer(engine.reconciliations), server
        )
        wait_pb2_grpc.add_WaitServiceServicer_to_server(WaitServicer(engine.waits), server)
        assessment_pb2_grpc.add_AssessmentServiceServicer_to_server(
            AssessmentServicer(engine.assessments), server
        )
        handoff_pb2_grpc.add_HandoffServiceServicer_to_server(
            HandoffServicer(engine.handoffs), server
        )
        task_pb2_grpc.add_TaskServiceServicer_to_server(
            TaskServicer(engine.tasks, hub, settings.clock, blocking, self.gates), server
        )
        event_pb2_grpc.add_EventServiceServicer_to_server(
            EventServicer(engine.events, hub, blocking), server
        )
        schedule_pb2_grpc.add_ScheduleServiceServicer_to_server(
            ScheduleServicer(engine.schedules), server
        )
        simulation_pb2_grpc.add_SimulationServiceServicer_to_server(
            SimulationServicer(engine.simulations), server
        )
        work_order_pb2_grpc.add_WorkOrderServiceServicer_to_server(
            WorkOrderServicer(engine.work_orders), server
        )
        names = [
            schedule_pb2.DESCRIPTOR.services_by_name["ScheduleService"].full_name,
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
            simulation_pb2.DESCRIPTOR.services_by_name["SimulationService"].full_name,
            work_order_pb2.DESCRIPTOR.services_by_name["WorkOrderService"].full_name,
        ]
        if isinstance(settings.clock, TestClock):
            clock_pb2_grpc.add_TestClockServiceServicer_to_server(
                TestClockServicer(settings.clock, settings.clock.changed, engine.settle_due),
                server,
            )
            settings.clock.watch(hub.everything)  # every server sharing the clock wakes
            names.append(clock_pb2.DESCRIPTOR.services_by_name["TestClockService"].full_name)
        principal_pb2_grpc.add_PrincipalServiceServicer_to_server(
            PrincipalServicer(engine.principals), server
        )
        inbox_pb2_grpc.add_InboxServiceServicer_to_server(
            InboxServicer(engine.inbox, hub, blocking), server
        )
        notification_pb2_grpc.add_NotificationServiceServicer_to_server(
            NotificationServicer(engine.notifications), server
        )
        names += [
            principal_pb2.DESCRIPTOR.services_by_name["PrincipalService"].full_name,
            inbox_pb2.DESCRIPTOR.services_by_name["InboxService"].full_name,
            notification_pb2.DESCRIPTOR.services_by_name["NotificationService"].full_name,
        ]
        return names

    def start(self) -> None:
        """Starts serving and reports SERVING on the health service."""
        self._on_loop(self._start())
        if self.settings.sweeper:
            self.sweeper.start()
        with self._reloading:
            self._serving = True
            if self.deliverer is not None:
                self.deliverer.start()
        if self.settings.config_reader is not None:  # which version this process serves
            self.engine.config.sweep_gone()
            self.engine.config.report(self.config_version)
            self._following = True
            self._follower = threading.Thread(
                target=self._follow_loop, name="praxis-config", daemon=True
            )
            self._follower.start()

    async def _start(self) -> None:
        await self.grpc.start()
        for name in ["", *self.service_names]:
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    def _storage_health(self, writable: bool) -> None:
        """NOT_SERVING while writes fail for a storage reason; SERVING once one succeeds.

        Called from whichever thread saw the write succeed or fail.
        """
        status = health_pb2.HealthCheckResponse.SERVING
        if not writable:
            status = health_pb2.HealthCheckResponse.NOT_SERVING

        async def report() -> None:
            for name in ["", *self.service_names]:
                await self.health.set(name, status)

        self.loop.call_soon_threadsafe(lambda: asyncio.ensure_future(report()))

    def stop(self, grace_s: float = 5.0) -> None:
        """Stops accepting calls, ends waiting streams and long polls, lets unary calls
        finish (up to ``grace_s``), and closes the database. A second call does nothing."""
        if self.loop.is_closed():
            return
        self.sweeper.stop()
        if self._follower is not None:
            self._following = False
            self._follow.set()
            self._follower.join(timeout=10)
            try:
                self.engine.config.forget()  # this process serves no version any more
            except Exception:  # a failing database: the row stays, marked gone at a start
                log.exception("forgetting this process's config row failed")
        with self._reloading:
            self._serving = False
        if self.deliverer is not None:
            self.deliverer.stop()
        if isinstance(self.settings.clock, TestClock):
            self.settings.clock.unwatch(self.engine.signals.everything)
        try:
            self._on_loop(self._stop(grace_s))
        finally:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self._close_loop()
            self.engine.close()

    async def _stop(self, grace_s: float) -> None:
        await self.health.enter_graceful_shutdown()
        self.engine.signals.shut()  # waiting long polls answer, streams end UNAVAILABLE
        await self.grpc.stop(grace_s)
        self.engine.signals.close()

    def _close_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._loop_thread.join(timeout=10)
        self.loop.close()
