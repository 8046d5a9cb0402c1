"""RegistryService and ApprovalService servicers."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import (
    approval_pb2,
    approval_pb2_grpc,
    common_pb2,
    registry_pb2,
    registry_pb2_grpc,
)
from praxis.clock import Clock
from praxis.core import definition, registry, values
from praxis.core.records import Epochs, Ref
from praxis.core.rejection import Rejection, invalid
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.registry.approvals import ApprovalStore
from praxis.store.registry.reads import RegistryReadStore
from praxis.store.registry.rows import ApprovalView
from praxis.store.registry.store import RegistryStore

_ACTIONS = {
    registry.Action.REGISTER: registry_pb2.REGISTRY_ACTION_REGISTER,
    registry.Action.PROPOSE: registry_pb2.REGISTRY_ACTION_PROPOSE,
    registry.Action.ACTIVATE: registry_pb2.REGISTRY_ACTION_ACTIVATE,
    registry.Action.REJECT: registry_pb2.REGISTRY_ACTION_REJECT,
}
_BINDING = {
    False: registry_pb2.EXECUTION_BINDING_UNBOUND,
    True: registry_pb2.EXECUTION_BINDING_BOUND,
}
_PROPOSAL_STATE = {
    registry.ProposalStatus.PENDING: registry_pb2.PROPOSAL_STATE_PENDING,
    registry.ProposalStatus.ACTIVATED: registry_pb2.PROPOSAL_STATE_ACTIVATED,
    registry.ProposalStatus.REJECTED: registry_pb2.PROPOSAL_STATE_REJECTED,
}
_HISTORY_KIND = {
    registry.HistoryKind.REGISTERED: registry_pb2.HISTORY_EVENT_KIND_REGISTERED,
    registry.HistoryKind.PROPOSED: registry_pb2.HISTORY_EVENT_KIND_PROPOSED,
    registry.HistoryKind.ACTIVATED: registry_pb2.HISTORY_EVENT_KIND_ACTIVATED,
    registry.HistoryKind.REJECTED: registry_pb2.HISTORY_EVENT_KIND_REJECTED,
    registry.HistoryKind.BOUND: registry_pb2.HISTORY_EVENT_KIND_BOUND,
}


def ref_from_proto(message: common_pb2.WorkflowRef) -> Ref:
    """The core ref of a proto ref."""
    return Ref(message.work_order_id, message.run_id)


def ref_to_proto(ref: Ref) -> common_pb2.WorkflowRef:
    """The proto ref of a core ref."""
    return common_pb2.WorkflowRef(work_order_id=ref.work_order_id, run_id=ref.run_id)


def epochs_from_proto(message: common_pb2.Epochs) -> Epochs:
    """The core epochs of proto epochs."""
    return Epochs(message.installation_id, message.ownership_epoch, message.authority_epoch)


def epochs_to_proto(epochs: Epochs) -> common_pb2.Epochs:
    """Proto epochs."""
    return common_pb2.Epochs(
        installation_id=epochs.installation_id,
        ownership_epoch=epochs.ownership_epoch,
        authority_epoch=epochs.authority_epoch,
    )


_WARNINGS: dict[str, tuple[common_pb2.DefinitionWarning, ...]] = {}
"""The warnings of the definitions answered lately, by digest (never mutated: a response
built with them holds copies)."""
WARNINGS_KEPT = 1024
"""How many definitions' warnings :data:`_WARNINGS` keeps (all forgotten past it)."""


def warnings_to_proto(
    document: values.JsonValue, digest: str = ""
) -> list[common_pb2.DefinitionWarning]:
    """The warnings of an accepted definition document (RegistryService, StartRun).

    ``digest``: the document's, when the caller knows it. A definition's warnings depend
    on it alone, so they are built once per process (every StartRun of one definition
    answered the same warnings, each built anew: 2% of a StartRun's interpreter time).
    """
    if not digest:
        return _warnings_of(document)
    found = _WARNINGS.get(digest)
    if found is None:
        if len(_WARNINGS) >= WARNINGS_KEPT:
            _WARNINGS.clear()
        found = _WARNINGS[digest] = tuple(_warnings_of(document))
    return list(found)


def _warnings_of(document: values.JsonValue) -> list[common_pb2.DefinitionWarning]:
    return [
        common_pb2.DefinitionWarning(
            kind=f"DEFINITION_WARNING_KIND_{w.kind}",  # the enum value's name
            node_ids=list(w.node_ids),
            node_count=w.node_count,
            message=w.message,
        )
        for w in definition.warnings(document)
    ]


def command_from_proto(
    message: registry_pb2.RegistryCommand, profile: values.DocumentProfile
) -> registry.Command | Rejection:
    """Parses a proto command, including its definition document."""
    kind = message.WhichOneof("command")
    if kind is None:
        return invalid("FIELD_REQUIRED", "command", "exactly one command must be set")
    if kind == "register":
        body = message.register
        definition = registry.parse_definition(
            body.definition_json, "command.register.definition_json", profile
        )
        if isinstance(definition, Rejection):
            return definition
        return registry.Command(
            registry.Action.REGISTER,
            ref_from_proto(body.ref),
            definition=definition,
            policy_digests=dict(body.policy_digests),
            approval_id=body.approval_id,
        )
    if kind == "propose":
        propose = message.propose
        definition = registry.parse_definition(
            propose.definition_json, "command.propose.definition_json", profile
        )
        if isinstance(definition, Rejection):
            return definition
        return registry.Command(
            registry.Action.PROPOSE,
            ref_from_proto(propose.ref),
            definition=definition,
            policy_digests=dict(propose.policy_digests),
            proposal_id=propose.proposal_id,
            base_revision=propose.base_revision,
            proposed_by=propose.proposed_by,
            summary=propose.summary,
        )
    if kind == "activate":
        activate = message.activate
        return registry.Command(
            registry.Action.ACTIVATE,
            ref_from_proto(activate.ref),
            proposal_id=activate.proposal_id,
            base_revision=activate.base_revision,
            next_revision=activate.next_revision,
            approval_id=activate.approval_id,
        )
    reject = message.reject
    return registry.Command(
        registry.Action.REJECT,
        ref_from_proto(reject.ref),
        proposal_id=reject.proposal_id,
        reason=reject.reason,
        approval_id=reject.approval_id,
    )


def _json(value: values.JsonValue) -> str:
    return "" if value is None else values.canonical_json(value)


def material_to_proto(material: registry.Material) -> registry_pb2.ReviewMaterial:
    """The proto review material."""
    return registry_pb2.ReviewMaterial(
        action=_ACTIONS[material.action],
        ref=ref_to_proto(material.ref),
        base_revision=material.base_revision,
        base_digest=material.base_digest,
        candidate_revision=material.candidate_revision,
        candidate_digest=material.candidate_digest,
        proposal_id=material.proposal_id,
        proposal_digest=material.proposal_digest,
        reason=material.reason,
        installation_id=material.epochs.installation_id,
        ownership_epoch=material.epochs.ownership_epoch,
        authority_epoch=material.epochs.authority_epoch,
        proposed_by=material.proposed_by,
        candidate_definition_json=_json(material.candidate_definition),
        base_definition_json=_json(material.base_definition),
        policy_digests=dict(material.policy_digests),
    )


def receipt_to_proto(receipt: registry.Receipt) -> registry_pb2.Receipt:
    """The proto receipt."""
    return registry_pb2.Receipt(
        request_id=receipt.request_id,
        principal_id=receipt.principal_id,
        command_digest=receipt.command_digest,
        action=_ACTIONS[receipt.action],
        ref=ref_to_proto(receipt.ref),
        head_revision=receipt.head_revision,
        head_digest=receipt.head_digest,
        proposal_id=receipt.proposal_id,
        approval_id=receipt.approval_id,
        event_seq=receipt.event_seq,
        committed_at_ms=receipt.committed_at_ms,
    )


def head_to_proto(head: registry.Head) -> registry_pb2.Head:
    """The proto head."""
    return registry_pb2.Head(
        ref=ref_to_proto(head.ref),
        revision=head.revision,
        definition_digest=head.definition_digest,
        definition_json=_json(head.definition),
        policy_digests=dict(head.policy_digests),
        execution_binding=_BINDING[bool(head.bound_run_id)],
        bound_run_id=head.bound_run_id,
        updated_at_ms=head.updated_at_ms,
    )


def proposal_to_proto(proposal: registry.Proposal) -> registry_pb2.Proposal:
    """The proto proposal."""
    return registry_pb2.Proposal(
        ref=ref_to_proto(proposal.ref),
        proposal_id=proposal.proposal_id,
        base_revision=proposal.base_revision,
        definition_json=_json(proposal.definition),
        candidate_digest=proposal.candidate_digest,
        proposal_digest=proposal.proposal_digest,
        proposed_by=proposal.proposed_by,
        summary=proposal.summary,
        state=_PROPOSAL_STATE[proposal.status],
        created_at_ms=proposal.created_at_ms,
        decided_at_ms=proposal.decided_at_ms,
        activated_revision=proposal.activated_revision,
        rejection_reason=proposal.rejection_reason,
        decided_by=proposal.decided_by,
    )


def history_to_proto(seq: int, entry: registry.HistoryEntry) -> registry_pb2.HistoryEvent:
    """The proto history event."""
    return registry_pb2.HistoryEvent(
        seq=seq,
        kind=_HISTORY_KIND[entry.kind],
        ref=ref_to_proto(entry.ref),
        revision=entry.revision,
        proposal_id=entry.proposal_id,
        principal_id=entry.principal_id,
        approval_id=entry.approval_id,
        request_id=entry.request_id,
        at_ms=entry.at_ms,
        digest=entry.digest,
        reason=entry.reason,
    )


class RegistryServicer(registry_pb2_grpc.RegistryServiceServicer):
    """RegistryService: its commands over a :class:`RegistryStore`, its reads over a
    :class:`RegistryReadStore`."""

    def __init__(self, store: RegistryStore, reads: RegistryReadStore) -> None:
        self.store = store
        self.reads = reads

    def _command(
        self, context: grpc.ServicerContext, message: registry_pb2.RegistryCommand
    ) -> registry.Command:
        return unwrap(context, command_from_proto(message, self.store.profile))

    def Review(  # gRPC method name
        self, request: registry_pb2.ReviewRequest, context: grpc.ServicerContext
    ) -> registry_pb2.ReviewResponse:
        command = self._command(context, request.command)
        material = unwrap(
            context,
            self.store.review(principal(), epochs_from_proto(request.epochs), command),
        )
        warned = material.action is not registry.Action.REJECT
        return registry_pb2.ReviewResponse(
            material=material_to_proto(material),
            material_digest=material.digest(),
            warnings=(
                warnings_to_proto(material.candidate_definition, material.candidate_digest)
                if warned
                else []
            ),
        )

    def Execute(
        self, request: registry_pb2.ExecuteRequest, context: grpc.ServicerContext
    ) -> registry_pb2.ExecuteResponse:
        command = self._command(context, request.command)
        executed = unwrap(
            context,
            self.store.execute(
                principal(),
                epochs_from_proto(request.epochs),
                request.request_id,
                command,
                request.dry_run,
            ),
        )
        return registry_pb2.ExecuteResponse(
            receipt=receipt_to_proto(executed.receipt),
            replayed=executed.replayed,
            # None for ACTIVATE, REJECT
            warnings=warnings_to_proto(command.definition, command.definition_digest),
            dry_run=request.dry_run,
        )

    def GetHead(
        self, request: registry_pb2.GetHeadRequest, context: grpc.ServicerContext
    ) -> registry_pb2.GetHeadResponse:
        head = unwrap(context, self.reads.get_head(principal(), ref_from_proto(request.ref)))
        return registry_pb2.GetHeadResponse(head=head_to_proto(head))

    def ListRefs(
        self, request: registry_pb2.ListRefsRequest, context: grpc.ServicerContext
    ) -> registry_pb2.ListRefsResponse:
        found, token = unwrap(
            context,
            self.reads.list_heads(
                principal(), request.work_order_id, request.page_size, request.page_token
            ),
        )
        heads = []
        for head in found:
            message = head_to_proto(head)
            message.definition_json = ""  # read it with GetHead
            heads.append(message)
        return registry_pb2.ListRefsResponse(heads=heads, next_page_token=token)

    def GetProposal(
        self, request: registry_pb2.GetProposalRequest, context: grpc.ServicerContext
    ) -> registry_pb2.GetProposalResponse:
        proposal, base = unwrap(
            context,
            self.reads.get_proposal(principal(), ref_from_proto(request.ref), request.proposal_id),
        )
        message = proposal_to_proto(proposal)
        message.base_definition_json = _json(base)
        return registry_pb2.GetProposalResponse(proposal=message)

    def ListHistory(
        self, request: registry_pb2.ListHistoryRequest, context: grpc.ServicerContext
    ) -> registry_pb2.ListHistoryResponse:
        page = unwrap(
            context,
            self.reads.list_history(
                principal(), ref_from_proto(request.ref), request.after, request.limit
            ),
        )
        return registry_pb2.ListHistoryResponse(
            events=[history_to_proto(seq, entry) for seq, entry in page.events],
            next_after=page.next_after,
            has_more=page.has_more,
        )

    def GetEpochs(
        self, request: registry_pb2.GetEpochsRequest, context: grpc.ServicerContext
    ) -> registry_pb2.GetEpochsResponse:
        epochs = unwrap(context, self.reads.get_epochs(principal(), request.work_order_id))
        return registry_pb2.GetEpochsResponse(epochs=epochs_to_proto(epochs))


def approval_to_proto(view: ApprovalView, now_ms: int) -> approval_pb2.Approval:
    """The proto approval, with its state as of ``now_ms``."""
    record = view.record
    if view.consumed_at_ms:
        state = approval_pb2.APPROVAL_STATE_CONSUMED
    elif record.expires_at_ms <= now_ms:
        state = approval_pb2.APPROVAL_STATE_EXPIRED
    else:
        state = approval_pb2.APPROVAL_STATE_ACTIVE
    return approval_pb2.Approval(
        approval_id=record.approval_id,
        material_digest=record.material_digest,
        approver_id=record.approver_id,
        proof_digest=record.proof_digest,
        created_at_ms=record.created_at_ms,
        expires_at_ms=record.expires_at_ms,
        state=state,
        consumed_at_ms=view.consumed_at_ms,
        consumed_by_request_id=view.consumed_by_request_id,
        purpose=record.purpose,
    )


class ApprovalServicer(approval_pb2_grpc.ApprovalServiceServicer):
    """ApprovalService over an :class:`ApprovalStore`."""

    def __init__(self, store: ApprovalStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def CreateApproval(
        self, request: approval_pb2.CreateApprovalRequest, context: grpc.ServicerContext
    ) -> approval_pb2.CreateApprovalResponse:
        view, replayed = unwrap(
            context,
            self.store.create_approval(
                principal(),
                request.approval_id,
                request.material_digest,
                request.expires_at_ms,
                request.work_order_id,
                request.purpose,
            ),
        )
        return approval_pb2.CreateApprovalResponse(
            approval=approval_to_proto(view, self.clock.now_ms()), replayed=replayed
        )

    def GetApproval(
        self, request: approval_pb2.GetApprovalRequest, context: grpc.ServicerContext
    ) -> approval_pb2.GetApprovalResponse:
        view = unwrap(context, self.store.get_approval(principal(), request.approval_id))
        return approval_pb2.GetApprovalResponse(
            approval=approval_to_proto(view, self.clock.now_ms())
        )
