"""RunService: start, read, stop, list and watch runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import replace
from typing import Any

import grpc

from aiws.engine.v1 import common_pb2, run_pb2, run_pb2_grpc
from praxis.core import resume as resumes
from praxis.core import run as core
from praxis.core import segments, values, webhooks
from praxis.core.progress import Progress
from praxis.core.records import Principal, Ref
from praxis.core.rejection import Rejection, invalid
from praxis.observability import logs
from praxis.observability.tracing import current_rpc, metadata_context
from praxis.rpc.auth import credential, principal
from praxis.rpc.errors import abort, unwrap
from praxis.rpc.registry import epochs_from_proto, epochs_to_proto, warnings_to_proto
from praxis.rpc.serving import SHUTTING_DOWN, Blocking, abort_async
from praxis.store.execution.resumes import ResumeRequest, ResumeStore
from praxis.store.runtime.listing import RunFilter
from praxis.store.runtime.records import SNAPSHOT_NODES_MAX, RunRecord
from praxis.store.runtime.runs import RunStore, StartRequest, page_token_after
from praxis.store.wake.hub import Hub, run_topic

RUN_STATES = {
    core.RunStatus.RUNNING: run_pb2.RUN_STATE_RUNNING,
    core.RunStatus.AWAITING_NODES: run_pb2.RUN_STATE_AWAITING_NODES,
    core.RunStatus.COMPLETED: run_pb2.RUN_STATE_COMPLETED,
    core.RunStatus.FAILED: run_pb2.RUN_STATE_FAILED,
    core.RunStatus.CANCELLED: run_pb2.RUN_STATE_CANCELLED,
    core.RunStatus.COMPLETING: run_pb2.RUN_STATE_COMPLETING,
    core.RunStatus.FAILING: run_pb2.RUN_STATE_FAILING,
    core.RunStatus.CANCELLING: run_pb2.RUN_STATE_CANCELLING,
}
_STATUS_OF = {value: key for key, value in RUN_STATES.items()}
NODE_STATES = {
    core.NodeStatus.PENDING: run_pb2.NODE_STATE_PENDING,
    core.NodeStatus.READY: run_pb2.NODE_STATE_READY,
    core.NodeStatus.RUNNING: run_pb2.NODE_STATE_RUNNING,
    core.NodeStatus.DONE: run_pb2.NODE_STATE_DONE,
    core.NodeStatus.FAILED: run_pb2.NODE_STATE_FAILED,
    core.NodeStatus.CANCELLED: run_pb2.NODE_STATE_CANCELLED,
    core.NodeStatus.BLOCKED: run_pb2.NODE_STATE_BLOCKED,
    core.NodeStatus.EXPANDED: run_pb2.NODE_STATE_EXPANDED,
    core.NodeStatus.WAITING: run_pb2.NODE_STATE_WAITING,
    core.NodeStatus.STOPPING: run_pb2.NODE_STATE_STOPPING,
}


_NODE_STATUS_OF = {value: key for key, value in NODE_STATES.items()}
LIST_PAGE_BYTES = 3 * 1024 * 1024
"""The runs of one ListRuns page, serialized (a page holds at least one run)."""


def node_to_proto(state: core.RunState, node: core.NodeRun) -> run_pb2.NodeStatus:
    """One node's status."""
    return _listed_node(state.run_id, node)


def run_to_proto(record: RunRecord) -> run_pb2.Run:
    """A run snapshot: nodes in definition order, fan-out items after their node; only
    the definition's nodes when the run has more than ``SNAPSHOT_NODES_MAX`` nodes."""
    state = record.state
    count = record.nodes
    omitted = count > SNAPSHOT_NODES_MAX
    if omitted:
        uids = [node_id for node_id in state.definition.nodes if node_id in state.nodes]
    else:
        uids = core.ordered_uids(state.definition, state.nodes)
    return run_pb2.Run(
        run_id=state.run_id,
        state=RUN_STATES[state.status],
        nodes=[node_to_proto(state, state.nodes[uid]) for uid in uids],
        node_count=count,
        items_omitted=omitted,
        result_json=record.result_json,
        result_error=state.result_error,
        ref=common_pb2.WorkflowRef(work_order_id=record.work_order_id, run_id=record.ref_run_id)
        if record.ref_run_id
        else None,
        revision=state.revision,
        definition_digest=state.definition.digest,
        version=state.version,
        created_at_ms=state.created_at_ms,
        updated_at_ms=state.updated_at_ms,
        finished_at_ms=state.finished_at_ms,
        request_id=record.request_id,
        subscriber=record.subscriber,
        contract_id=record.contract_id,
        result_reason=state.result_reason,
        failed_node_ids=failed_node_ids(state),
        work_order_id=record.work_order_id,
        started_by=record.principal_id,
        labels=record.labels,
        deadline_ms=state.deadline_ms,
    )


def failed_node_ids(state: core.RunState) -> list[str]:
    """The definition's nodes that failed (a failed fan-out item fails its node), in
    definition order: the cause of a failed run, or failed orphan branches."""
    return [
        node_id
        for node_id in state.definition.nodes
        if node_id in state.nodes and state.nodes[node_id].status is core.NodeStatus.FAILED
    ]


def _listed_node(run_id: str, node: core.NodeRun) -> run_pb2.NodeStatus:
    """One node of a run snapshot or a ListRunNodes page."""
    return run_pb2.NodeStatus(
        node_uid=node.uid,
        node_id=node.node_id,
        state=NODE_STATES[node.status],
        attempts=node.attempts,
        attempt_id=node.attempt_id,
        error=node.error,
        has_result=node.has_result,
        revision=node.revision,
        fanout_items=node.items,
        operation_id=core.operation_id(run_id, node.uid, node.operation),
        not_before_ms=node.not_before_ms,
        fanout_items_done=node.items_done,
        started_at_ms=node.started_at_ms,
        finished_at_ms=node.finished_at_ms,
    )


def with_progress(
    nodes: Iterable[run_pb2.NodeStatus], progress_of: Callable[[list[str]], dict[str, Progress]]
) -> None:
    """Fills each node's ``progress``: the latest report of its current or last attempt."""
    listed = [node for node in nodes if node.attempt_id]
    if not listed:
        return
    found = progress_of([node.attempt_id for node in listed])
    for node in listed:
        report = found.get(node.attempt_id)
        if report is not None:
            node.progress.CopyFrom(
                run_pb2.AttemptProgress(
                    attempt_id=report.attempt_id,
                    text=report.text,
                    data_json=report.data_json,
                    reported_at_ms=report.reported_at_ms,
                    reports=report.reports,
                )
            )


def start_from_proto(request: run_pb2.StartRunRequest) -> StartRequest:
    """The store's start request."""
    source = request.WhichOneof("source")
    ref = None
    if source == "ref":
        ref = Ref(request.ref.work_order_id, request.ref.run_id)
    return StartRequest(
        request_id=request.request_id,
        definition_json=request.definition_json if source == "definition_json" else "",
        ref=ref,
        input_json=request.input_json,
        subscriber=request.subscriber,
        contract_id=request.contract_id,
        work_order_id=request.work_order_id,
        labels=dict(request.labels),
        run_timeout_ms=request.run_timeout_ms,
        notify=webhooks.Notify(
            tuple(request.notify.webhooks),
            request.notify.reply_to,
            request.notify.reply_template,
        ),
        dry_run=request.dry_run,
    )


def filter_from_proto(request: run_pb2.ListRunsRequest, status: core.RunStatus | None) -> RunFilter:
    """The store's listing filter (checked by the store)."""
    return RunFilter(
        work_order_id=request.work_order_id,
        ref=Ref(request.ref.work_order_id, request.ref.run_id) if request.HasField("ref") else None,
        contract_id=request.contract_id,
        status=status,
        started_by=request.started_by,
        created_after_ms=request.created_after_ms,
        created_before_ms=request.created_before_ms,
        labels=dict(request.labels),
    )


def resume_from_proto(
    request: run_pb2.ResumeRunRequest | run_pb2.ReviewResumeRequest,
) -> ResumeRequest:
    """The store's resume request (a review carries no request id or approval)."""
    epochs = epochs_from_proto(request.epochs) if request.HasField("epochs") else None
    if isinstance(request, run_pb2.ReviewResumeRequest):
        return ResumeRequest(
            request.run_id, request.reason, request.run_timeout_ms, epochs, to_head=request.to_head
        )
    return ResumeRequest(
        request.run_id,
        request.reason,
        request.run_timeout_ms,
        epochs,
        request.request_id,
        request.approval_id,
        request.to_head,
        request.dry_run,
    )


def _resume_node(node: resumes.Again) -> run_pb2.ResumeNode:
    return run_pb2.ResumeNode(
        node_uid=node.node_uid,
        operation_id=node.operation_id,
        new_operation=node.new_operation,
        needs_approval=node.needs_approval,
        effect_applied=node.applied,
        authorized=node.authorized,
        input_digest=node.input_digest,
    )


def resume_material_to_proto(material: resumes.Material) -> run_pb2.ResumeMaterial:
    """The review material of a resume (its first nodes listed, all of them counted)."""
    return run_pb2.ResumeMaterial(
        epochs=epochs_to_proto(material.epochs),
        work_order_id=material.work_order_id,
        ref_run_id=material.ref_run_id,
        run_id=material.run_id,
        run_version=material.run_version,
        revision=material.revision,
        definition_digest=material.definition_digest,
        nodes=[_resume_node(node) for node in material.nodes[: resumes.MAX_LISTED_NODES]],
        node_count=len(material.nodes),
        reason=material.reason,
        run_timeout_ms=material.run_timeout_ms,
        reapprove=[_resume_node(n) for n in material.needs_approval[: resumes.MAX_LISTED_NODES]],
        reapprove_count=len(material.needs_approval),
        to_revision=material.to_revision,
        to_definition_digest=material.to_definition_digest,
        changes=[
            run_pb2.ResumeChange(
                node_id=change.node_id,
                state=NODE_STATES[change.status],
                old_spec_digest=change.old_spec_digest,
                new_spec_digest=change.new_spec_digest,
                old_node_json=values.canonical_json(change.old_document),
                new_node_json=values.canonical_json(change.new_document),
            )
            for change in material.changes
        ],
    )


_SEGMENT_REASONS = {
    segments.Reason.START: run_pb2.SEGMENT_REASON_START,
    segments.Reason.RECOVERY: run_pb2.SEGMENT_REASON_RECOVERY,
    segments.Reason.OWNER_CHANGE: run_pb2.SEGMENT_REASON_OWNER_CHANGE,
}


class RunServicer(run_pb2_grpc.RunServiceServicer):
    """RunService over a :class:`RunStore`."""

    def __init__(
        self,
        store: RunStore,
        hub: Hub,
        resumes: ResumeStore,
        segments_of: Callable[[str], list[segments.Segment]] | None = None,
        blocking: Blocking | None = None,
        started_segments: Callable[[RunRecord], list[segments.Segment] | None] | None = None,
    ) -> None:
        self.store = store
        self.resumes = resumes
        self.hub = hub
        self.segments_of = segments_of
        self.blocking = blocking or Blocking()
        self.started_segments = started_segments

    def _snapshot(self, record: RunRecord, created: bool = False) -> run_pb2.Run:
        """A run snapshot with its segments (those of a run just ``created`` without
        reading them back, when the segment store can tell them)."""
        run = run_to_proto(record)
        with_progress(run.nodes, self.store.progress_of)
        if self.segments_of is not None:
            found = None
            if created and self.started_segments is not None:
                found = self.started_segments(record)
            run.segments.extend(
                run_pb2.Segment(
                    number=segment.number,
                    reason=_SEGMENT_REASONS[segment.reason],
                    started_at_ms=segment.started_at_ms,
                    ownership_epoch=segment.ownership_epoch,
                )
                for segment in (
                    found if found is not None else self.segments_of(record.state.run_id)
                )
            )
        return run

    def StartRun(  # gRPC method name
        self, request: run_pb2.StartRunRequest, context: grpc.ServicerContext
    ) -> run_pb2.StartRunResponse:
        start = start_from_proto(request)
        if self.store.traced:  # tracing on: this call's span is the run's parent
            parent = current_rpc() or metadata_context(context.invocation_metadata())
            start = replace(start, trace=parent)
        record, created = unwrap(context, self.store.start(principal(), start))
        definition = record.state.definition
        warnings = warnings_to_proto(definition.document, definition.digest)
        if request.dry_run:  # nothing was stored: no segments to read
            return run_pb2.StartRunResponse(
                run=run_to_proto(record), created=created, dry_run=True, warnings=warnings
            )
        logs.add(run_id=record.state.run_id)
        return run_pb2.StartRunResponse(
            run=self._snapshot(record, created), created=created, warnings=warnings
        )

    def GetRun(
        self, request: run_pb2.GetRunRequest, context: grpc.ServicerContext
    ) -> run_pb2.GetRunResponse:
        record = unwrap(context, self.store.get_run(principal(), request.run_id))
        response = run_pb2.GetRunResponse(run=self._snapshot(record))
        if request.include_definition:
            response.definition_json = self.store.definition_json(record.state.definition.digest)
        return response

    def GetNodeResult(
        self, request: run_pb2.GetNodeResultRequest, context: grpc.ServicerContext
    ) -> run_pb2.GetNodeResultResponse:
        present, text = unwrap(
            context, self.store.get_node_result(principal(), request.run_id, request.node_uid)
        )
        return run_pb2.GetNodeResultResponse(present=present, result_json=text)

    def StopRun(
        self, request: run_pb2.StopRunRequest, context: grpc.ServicerContext
    ) -> run_pb2.StopRunResponse:
        record = unwrap(context, self.store.stop(principal(), request.run_id, request.reason))
        return run_pb2.StopRunResponse(run=run_to_proto(record))

    def ResumeRun(
        self, request: run_pb2.ResumeRunRequest, context: grpc.ServicerContext
    ) -> run_pb2.ResumeRunResponse:
        record, replayed = unwrap(
            context, self.resumes.resume(principal(), resume_from_proto(request))
        )
        if request.dry_run:  # nothing was stored: the run's segments are as they were
            return run_pb2.ResumeRunResponse(
                run=run_to_proto(record), replayed=replayed, dry_run=True
            )
        return run_pb2.ResumeRunResponse(run=self._snapshot(record), replayed=replayed)

    def ReviewResume(
        self, request: run_pb2.ReviewResumeRequest, context: grpc.ServicerContext
    ) -> run_pb2.ReviewResumeResponse:
        material = unwrap(context, self.resumes.review(principal(), resume_from_proto(request)))
        return run_pb2.ReviewResumeResponse(
            material=resume_material_to_proto(material), material_digest=material.digest()
        )

    def ListRuns(
        self, request: run_pb2.ListRunsRequest, context: grpc.ServicerContext
    ) -> run_pb2.ListRunsResponse:
        status = None
        if request.state != run_pb2.RUN_STATE_UNSPECIFIED:
            status = _STATUS_OF.get(request.state)
            if status is None:
                abort(context, invalid("ENUM_INVALID", "state", "unknown run state"))
        found = filter_from_proto(request, status)
        records, token = unwrap(
            context,
            self.store.list_runs(principal(), found, request.page_size, request.page_token),
        )
        listed: list[run_pb2.Run] = []
        size = 0
        for index, record in enumerate(records):
            run = run_to_proto(record)
            size += run.ByteSize()
            if listed and size > LIST_PAGE_BYTES:
                # Cut by size: the next page starts after the last run listed.
                token = page_token_after(found, records[index - 1])
                break
            listed.append(run)
        return run_pb2.ListRunsResponse(runs=listed, next_page_token=token)

    def ListRunNodes(
        self, request: run_pb2.ListRunNodesRequest, context: grpc.ServicerContext
    ) -> run_pb2.ListRunNodesResponse:
        status = None
        if request.state != run_pb2.NODE_STATE_UNSPECIFIED:
            status = _NODE_STATUS_OF.get(request.state)
            if status is None:
                abort(context, invalid("ENUM_INVALID", "state", "unknown node state"))
        version, nodes, token = unwrap(
            context,
            self.store.list_nodes(
                principal(),
                request.run_id,
                request.node_id,
                status,
                request.page_size,
                request.page_token,
            ),
        )
        response = run_pb2.ListRunNodesResponse(
            nodes=[_listed_node(request.run_id, node) for node in nodes],
            next_page_token=token,
            version=version,
        )
        with_progress(response.nodes, self.store.progress_of)
        return response

    async def WatchRun(
        self, request: run_pb2.WatchRunRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[run_pb2.WatchRunResponse]:
        """Sends the run at once and after each change of it; waits on the event loop.

        Ends when the caller's credential is refused (checked before each snapshot and
        when its principal is revoked or rotated)."""
        caller = principal()
        checked = credential()
        last_version = -1
        with self.hub.subscribe([run_topic(request.run_id), checked.topic]) as changes:
            while True:
                changes.clear()
                found = await self.blocking.run(self._watched, caller, request.run_id, last_version)
                status, response = await checked.unwrap(context, found)
                if response is not None:
                    last_version = response.run.version
                    yield response
                if status in core.TERMINAL:
                    return
                await changes.wait(self.hub.recheck_s())
                if self.hub.closing:
                    await abort_async(context, SHUTTING_DOWN)
                await checked.verify(context)

    def _watched(
        self, caller: Principal, run_id: str, last_version: int
    ) -> tuple[core.RunStatus, run_pb2.WatchRunResponse | None] | Rejection:
        """The run's status, and its snapshot when its version moved (on the executor)."""
        record = self.store.get_run(caller, run_id)
        if isinstance(record, Rejection):
            return record
        if record.state.version == last_version:
            return record.state.status, None
        return record.state.status, run_pb2.WatchRunResponse(run=self._snapshot(record))
