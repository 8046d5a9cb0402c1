"""AdminService servicer."""

from __future__ import annotations

from typing import Protocol

import grpc

from aiws.engine.v1 import admin_pb2, admin_pb2_grpc, config_pb2
from praxis.core.records import Control, Hold, HoldKind
from praxis.core.rejection import Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import abort, unwrap
from praxis.rpc.registry import epochs_to_proto
from praxis.store.controls.rows import epochs_of
from praxis.store.controls.store import AdminStore, WorkOrderView
from praxis.store.execution.configuration import ConfigStore, ProcessRow, Reloaded

DEFAULT_WAIT_MS = 2_000
MAX_WAIT_MS = 10_000


class Reloader(Protocol):
    """The server's reload of its config file (praxis.app.Server)."""

    def reload_config(self, reloaded_by: str, only_if_new: bool = False) -> Reloaded | Rejection:
        """Reads, validates and applies the config file; records and announces it."""

    def converge(self, version: str, wait_s: float) -> tuple[ProcessRow, ...]:
        """The processes once each serves ``version``, or after ``wait_s``."""


_CONTROL = {
    Control.ACTIVE: admin_pb2.CONTROL_STATE_ACTIVE,
    Control.PAUSED: admin_pb2.CONTROL_STATE_PAUSED,
    Control.CANCELING: admin_pb2.CONTROL_STATE_CANCELING,
    Control.CANCELED: admin_pb2.CONTROL_STATE_CANCELED,
}
_HOLD_KIND = {
    HoldKind.RESTORE: admin_pb2.HOLD_KIND_RESTORE,
    HoldKind.CLOCK_UNCERTAINTY: admin_pb2.HOLD_KIND_CLOCK_UNCERTAINTY,
}
_HOLD_KIND_IN = {value: key for key, value in _HOLD_KIND.items()}
_EPOCH_KIND = {admin_pb2.EPOCH_KIND_OWNERSHIP: True, admin_pb2.EPOCH_KIND_AUTHORITY: False}


def hold_to_proto(hold: Hold) -> admin_pb2.Hold:
    """The proto hold."""
    return admin_pb2.Hold(
        kind=_HOLD_KIND[hold.kind],
        work_order_id=hold.work_order_id,
        reason=hold.reason,
        placed_at_ms=hold.placed_at_ms,
        placed_by=hold.placed_by,
    )


def work_order_to_proto(view: WorkOrderView) -> admin_pb2.WorkOrder:
    """The proto work order."""
    return admin_pb2.WorkOrder(
        work_order_id=view.work_order.work_order_id,
        control_state=_CONTROL[view.work_order.control],
        epochs=epochs_to_proto(epochs_of(view.installation_id, view.work_order)),
        holds=[hold_to_proto(hold) for hold in view.holds],
    )


def processes_to_proto(
    rows: tuple[ProcessRow, ...], answering: str
) -> list[config_pb2.ConfigProcess]:
    """The proto processes."""
    return [
        config_pb2.ConfigProcess(
            process_id=row.process_id,
            version=row.version,
            applied_at_ms=row.applied_at_ms,
            answering=row.process_id == answering,
        )
        for row in rows
    ]


class AdminServicer(admin_pb2_grpc.AdminServiceServicer):
    """AdminService over an :class:`AdminStore` (and the configuration's reloads)."""

    def __init__(
        self, store: AdminStore, config: ConfigStore | None = None, reloader: Reloader | None = None
    ) -> None:
        self.store = store
        self.config = config
        self.reloader = reloader

    def ReloadConfig(
        self, request: config_pb2.ReloadConfigRequest, context: grpc.ServicerContext
    ) -> config_pb2.ReloadConfigResponse:
        assert self.config is not None and self.reloader is not None
        caller = principal()
        problem = self.config.authorize(caller, "admin.config")
        if problem:
            abort(context, problem)
        if not 0 <= request.wait_ms <= MAX_WAIT_MS:
            abort(
                context,
                invalid("TIME_INVALID", "wait_ms", f"wait_ms must be in [0, {MAX_WAIT_MS}]"),
            )
        reloaded = unwrap(context, self.reloader.reload_config(caller.principal_id))
        change = reloaded.change
        rows = self.reloader.converge(change.version, (request.wait_ms or DEFAULT_WAIT_MS) / 1000)
        return config_pb2.ReloadConfigResponse(
            version=change.version,
            previous_version=change.previous_version,
            changed=change.changed,
            restart_required=change.restart_required,
            processes=processes_to_proto(rows, reloaded.process_id),
            converged=all(row.version == change.version for row in rows),
        )

    def GetConfigStatus(
        self, request: config_pb2.GetConfigStatusRequest, context: grpc.ServicerContext
    ) -> config_pb2.GetConfigStatusResponse:
        assert self.config is not None
        status = unwrap(context, self.config.status(principal(), request.reload_limit))
        return config_pb2.GetConfigStatusResponse(
            version=status.version,
            processes=processes_to_proto(status.processes, self.config.process_id),
            reloads=[
                config_pb2.ConfigReload(
                    seq=row.seq,
                    previous_version=row.previous_version,
                    version=row.version,
                    reloaded_by=row.reloaded_by,
                    reloaded_at_ms=row.reloaded_at_ms,
                    changed=row.changed,
                    restart_required=row.restart_required,
                )
                for row in status.reloads
            ],
        )

    def GetWorkOrder(  # gRPC method name
        self, request: admin_pb2.GetWorkOrderRequest, context: grpc.ServicerContext
    ) -> admin_pb2.GetWorkOrderResponse:
        view = unwrap(context, self.store.get_work_order(principal(), request.work_order_id))
        return admin_pb2.GetWorkOrderResponse(work_order=work_order_to_proto(view))

    def PauseWorkOrder(
        self, request: admin_pb2.PauseWorkOrderRequest, context: grpc.ServicerContext
    ) -> admin_pb2.PauseWorkOrderResponse:
        view = unwrap(
            context,
            self.store.transition(principal(), request.work_order_id, "pause", request.reason),
        )
        return admin_pb2.PauseWorkOrderResponse(work_order=work_order_to_proto(view))

    def ResumeWorkOrder(
        self, request: admin_pb2.ResumeWorkOrderRequest, context: grpc.ServicerContext
    ) -> admin_pb2.ResumeWorkOrderResponse:
        view = unwrap(
            context, self.store.transition(principal(), request.work_order_id, "resume", "")
        )
        return admin_pb2.ResumeWorkOrderResponse(work_order=work_order_to_proto(view))

    def CancelWorkOrder(
        self, request: admin_pb2.CancelWorkOrderRequest, context: grpc.ServicerContext
    ) -> admin_pb2.CancelWorkOrderResponse:
        view = unwrap(
            context,
            self.store.transition(principal(), request.work_order_id, "cancel", request.reason),
        )
        return admin_pb2.CancelWorkOrderResponse(work_order=work_order_to_proto(view))

    def PlaceHold(
        self, request: admin_pb2.PlaceHoldRequest, context: grpc.ServicerContext
    ) -> admin_pb2.PlaceHoldResponse:
        hold = unwrap(
            context,
            self.store.place_hold(
                principal(),
                _HOLD_KIND_IN.get(request.kind),
                request.work_order_id,
                request.reason,
            ),
        )
        return admin_pb2.PlaceHoldResponse(hold=hold_to_proto(hold))

    def ClearHold(
        self, request: admin_pb2.ClearHoldRequest, context: grpc.ServicerContext
    ) -> admin_pb2.ClearHoldResponse:
        hold = unwrap(
            context,
            self.store.clear_hold(
                principal(), _HOLD_KIND_IN.get(request.kind), request.work_order_id
            ),
        )
        return admin_pb2.ClearHoldResponse(hold=hold_to_proto(hold))

    def ListHolds(
        self, request: admin_pb2.ListHoldsRequest, context: grpc.ServicerContext
    ) -> admin_pb2.ListHoldsResponse:
        holds = unwrap(context, self.store.list_holds(principal()))
        return admin_pb2.ListHoldsResponse(holds=[hold_to_proto(hold) for hold in holds])

    def AdvanceEpoch(
        self, request: admin_pb2.AdvanceEpochRequest, context: grpc.ServicerContext
    ) -> admin_pb2.AdvanceEpochResponse:
        view = unwrap(
            context,
            self.store.advance_epoch(
                principal(),
                request.work_order_id,
                _EPOCH_KIND.get(request.kind),
                request.expected_epoch,
            ),
        )
        return admin_pb2.AdvanceEpochResponse(
            epochs=epochs_to_proto(epochs_of(view.installation_id, view.work_order))
        )
