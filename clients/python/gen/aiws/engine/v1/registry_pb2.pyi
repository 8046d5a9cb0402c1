from aiws.engine.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegistryAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REGISTRY_ACTION_UNSPECIFIED: _ClassVar[RegistryAction]
    REGISTRY_ACTION_REGISTER: _ClassVar[RegistryAction]
    REGISTRY_ACTION_PROPOSE: _ClassVar[RegistryAction]
    REGISTRY_ACTION_ACTIVATE: _ClassVar[RegistryAction]
    REGISTRY_ACTION_REJECT: _ClassVar[RegistryAction]

class ExecutionBinding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EXECUTION_BINDING_UNSPECIFIED: _ClassVar[ExecutionBinding]
    EXECUTION_BINDING_UNBOUND: _ClassVar[ExecutionBinding]
    EXECUTION_BINDING_BOUND: _ClassVar[ExecutionBinding]

class ProposalState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROPOSAL_STATE_UNSPECIFIED: _ClassVar[ProposalState]
    PROPOSAL_STATE_PENDING: _ClassVar[ProposalState]
    PROPOSAL_STATE_ACTIVATED: _ClassVar[ProposalState]
    PROPOSAL_STATE_REJECTED: _ClassVar[ProposalState]

class HistoryEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HISTORY_EVENT_KIND_UNSPECIFIED: _ClassVar[HistoryEventKind]
    HISTORY_EVENT_KIND_REGISTERED: _ClassVar[HistoryEventKind]
    HISTORY_EVENT_KIND_PROPOSED: _ClassVar[HistoryEventKind]
    HISTORY_EVENT_KIND_ACTIVATED: _ClassVar[HistoryEventKind]
    HISTORY_EVENT_KIND_REJECTED: _ClassVar[HistoryEventKind]
    HISTORY_EVENT_KIND_BOUND: _ClassVar[HistoryEventKind]
REGISTRY_ACTION_UNSPECIFIED: RegistryAction
REGISTRY_ACTION_REGISTER: RegistryAction
REGISTRY_ACTION_PROPOSE: RegistryAction
REGISTRY_ACTION_ACTIVATE: RegistryAction
REGISTRY_ACTION_REJECT: RegistryAction
EXECUTION_BINDING_UNSPECIFIED: ExecutionBinding
EXECUTION_BINDING_UNBOUND: ExecutionBinding
EXECUTION_BINDING_BOUND: ExecutionBinding
PROPOSAL_STATE_UNSPECIFIED: ProposalState
PROPOSAL_STATE_PENDING: ProposalState
PROPOSAL_STATE_ACTIVATED: ProposalState
PROPOSAL_STATE_REJECTED: ProposalState
HISTORY_EVENT_KIND_UNSPECIFIED: HistoryEventKind
HISTORY_EVENT_KIND_REGISTERED: HistoryEventKind
HISTORY_EVENT_KIND_PROPOSED: HistoryEventKind
HISTORY_EVENT_KIND_ACTIVATED: HistoryEventKind
HISTORY_EVENT_KIND_REJECTED: HistoryEventKind
HISTORY_EVENT_KIND_BOUND: HistoryEventKind

class RegisterCommand(_message.Message):
    __slots__ = ("ref", "definition_json", "policy_digests", "approval_id")
    class PolicyDigestsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REF_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_DIGESTS_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    definition_json: str
    policy_digests: _containers.ScalarMap[str, str]
    approval_id: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., definition_json: _Optional[str] = ..., policy_digests: _Optional[_Mapping[str, str]] = ..., approval_id: _Optional[str] = ...) -> None: ...

class ProposeCommand(_message.Message):
    __slots__ = ("ref", "proposal_id", "base_revision", "definition_json", "policy_digests", "proposed_by", "summary")
    class PolicyDigestsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REF_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    BASE_REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_DIGESTS_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_BY_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    proposal_id: str
    base_revision: int
    definition_json: str
    policy_digests: _containers.ScalarMap[str, str]
    proposed_by: str
    summary: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., proposal_id: _Optional[str] = ..., base_revision: _Optional[int] = ..., definition_json: _Optional[str] = ..., policy_digests: _Optional[_Mapping[str, str]] = ..., proposed_by: _Optional[str] = ..., summary: _Optional[str] = ...) -> None: ...

class ActivateCommand(_message.Message):
    __slots__ = ("ref", "proposal_id", "base_revision", "next_revision", "approval_id")
    REF_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    BASE_REVISION_FIELD_NUMBER: _ClassVar[int]
    NEXT_REVISION_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    proposal_id: str
    base_revision: int
    next_revision: int
    approval_id: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., proposal_id: _Optional[str] = ..., base_revision: _Optional[int] = ..., next_revision: _Optional[int] = ..., approval_id: _Optional[str] = ...) -> None: ...

class RejectCommand(_message.Message):
    __slots__ = ("ref", "proposal_id", "reason", "approval_id")
    REF_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    proposal_id: str
    reason: str
    approval_id: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., proposal_id: _Optional[str] = ..., reason: _Optional[str] = ..., approval_id: _Optional[str] = ...) -> None: ...

class RegistryCommand(_message.Message):
    __slots__ = ("register", "propose", "activate", "reject")
    REGISTER_FIELD_NUMBER: _ClassVar[int]
    PROPOSE_FIELD_NUMBER: _ClassVar[int]
    ACTIVATE_FIELD_NUMBER: _ClassVar[int]
    REJECT_FIELD_NUMBER: _ClassVar[int]
    register: RegisterCommand
    propose: ProposeCommand
    activate: ActivateCommand
    reject: RejectCommand
    def __init__(self, register: _Optional[_Union[RegisterCommand, _Mapping]] = ..., propose: _Optional[_Union[ProposeCommand, _Mapping]] = ..., activate: _Optional[_Union[ActivateCommand, _Mapping]] = ..., reject: _Optional[_Union[RejectCommand, _Mapping]] = ...) -> None: ...

class ReviewMaterial(_message.Message):
    __slots__ = ("action", "ref", "base_revision", "base_digest", "candidate_revision", "candidate_digest", "proposal_id", "proposal_digest", "reason", "installation_id", "ownership_epoch", "authority_epoch", "proposed_by", "candidate_definition_json", "base_definition_json", "policy_digests")
    class PolicyDigestsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    BASE_REVISION_FIELD_NUMBER: _ClassVar[int]
    BASE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_REVISION_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    INSTALLATION_ID_FIELD_NUMBER: _ClassVar[int]
    OWNERSHIP_EPOCH_FIELD_NUMBER: _ClassVar[int]
    AUTHORITY_EPOCH_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_BY_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    BASE_DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_DIGESTS_FIELD_NUMBER: _ClassVar[int]
    action: RegistryAction
    ref: _common_pb2.WorkflowRef
    base_revision: int
    base_digest: str
    candidate_revision: int
    candidate_digest: str
    proposal_id: str
    proposal_digest: str
    reason: str
    installation_id: str
    ownership_epoch: int
    authority_epoch: int
    proposed_by: str
    candidate_definition_json: str
    base_definition_json: str
    policy_digests: _containers.ScalarMap[str, str]
    def __init__(self, action: _Optional[_Union[RegistryAction, str]] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., base_revision: _Optional[int] = ..., base_digest: _Optional[str] = ..., candidate_revision: _Optional[int] = ..., candidate_digest: _Optional[str] = ..., proposal_id: _Optional[str] = ..., proposal_digest: _Optional[str] = ..., reason: _Optional[str] = ..., installation_id: _Optional[str] = ..., ownership_epoch: _Optional[int] = ..., authority_epoch: _Optional[int] = ..., proposed_by: _Optional[str] = ..., candidate_definition_json: _Optional[str] = ..., base_definition_json: _Optional[str] = ..., policy_digests: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Receipt(_message.Message):
    __slots__ = ("request_id", "principal_id", "command_digest", "action", "ref", "head_revision", "head_digest", "proposal_id", "approval_id", "event_seq", "committed_at_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_DIGEST_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    HEAD_REVISION_FIELD_NUMBER: _ClassVar[int]
    HEAD_DIGEST_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_SEQ_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    principal_id: str
    command_digest: str
    action: RegistryAction
    ref: _common_pb2.WorkflowRef
    head_revision: int
    head_digest: str
    proposal_id: str
    approval_id: str
    event_seq: int
    committed_at_ms: int
    def __init__(self, request_id: _Optional[str] = ..., principal_id: _Optional[str] = ..., command_digest: _Optional[str] = ..., action: _Optional[_Union[RegistryAction, str]] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., head_revision: _Optional[int] = ..., head_digest: _Optional[str] = ..., proposal_id: _Optional[str] = ..., approval_id: _Optional[str] = ..., event_seq: _Optional[int] = ..., committed_at_ms: _Optional[int] = ...) -> None: ...

class Head(_message.Message):
    __slots__ = ("ref", "revision", "definition_digest", "definition_json", "policy_digests", "execution_binding", "bound_run_id", "updated_at_ms")
    class PolicyDigestsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REF_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_DIGEST_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_DIGESTS_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_BINDING_FIELD_NUMBER: _ClassVar[int]
    BOUND_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    revision: int
    definition_digest: str
    definition_json: str
    policy_digests: _containers.ScalarMap[str, str]
    execution_binding: ExecutionBinding
    bound_run_id: str
    updated_at_ms: int
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., revision: _Optional[int] = ..., definition_digest: _Optional[str] = ..., definition_json: _Optional[str] = ..., policy_digests: _Optional[_Mapping[str, str]] = ..., execution_binding: _Optional[_Union[ExecutionBinding, str]] = ..., bound_run_id: _Optional[str] = ..., updated_at_ms: _Optional[int] = ...) -> None: ...

class Proposal(_message.Message):
    __slots__ = ("ref", "proposal_id", "base_revision", "definition_json", "candidate_digest", "proposal_digest", "proposed_by", "summary", "state", "created_at_ms", "decided_at_ms", "activated_revision", "rejection_reason", "decided_by", "base_definition_json")
    REF_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    BASE_REVISION_FIELD_NUMBER: _ClassVar[int]
    DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_BY_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    DECIDED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ACTIVATED_REVISION_FIELD_NUMBER: _ClassVar[int]
    REJECTION_REASON_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    BASE_DEFINITION_JSON_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    proposal_id: str
    base_revision: int
    definition_json: str
    candidate_digest: str
    proposal_digest: str
    proposed_by: str
    summary: str
    state: ProposalState
    created_at_ms: int
    decided_at_ms: int
    activated_revision: int
    rejection_reason: str
    decided_by: str
    base_definition_json: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., proposal_id: _Optional[str] = ..., base_revision: _Optional[int] = ..., definition_json: _Optional[str] = ..., candidate_digest: _Optional[str] = ..., proposal_digest: _Optional[str] = ..., proposed_by: _Optional[str] = ..., summary: _Optional[str] = ..., state: _Optional[_Union[ProposalState, str]] = ..., created_at_ms: _Optional[int] = ..., decided_at_ms: _Optional[int] = ..., activated_revision: _Optional[int] = ..., rejection_reason: _Optional[str] = ..., decided_by: _Optional[str] = ..., base_definition_json: _Optional[str] = ...) -> None: ...

class HistoryEvent(_message.Message):
    __slots__ = ("seq", "kind", "ref", "revision", "proposal_id", "principal_id", "approval_id", "request_id", "at_ms", "digest", "reason")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: HistoryEventKind
    ref: _common_pb2.WorkflowRef
    revision: int
    proposal_id: str
    principal_id: str
    approval_id: str
    request_id: str
    at_ms: int
    digest: str
    reason: str
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[_Union[HistoryEventKind, str]] = ..., ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., revision: _Optional[int] = ..., proposal_id: _Optional[str] = ..., principal_id: _Optional[str] = ..., approval_id: _Optional[str] = ..., request_id: _Optional[str] = ..., at_ms: _Optional[int] = ..., digest: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class ReviewRequest(_message.Message):
    __slots__ = ("epochs", "command")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    command: RegistryCommand
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., command: _Optional[_Union[RegistryCommand, _Mapping]] = ...) -> None: ...

class ReviewResponse(_message.Message):
    __slots__ = ("material", "material_digest", "warnings")
    MATERIAL_FIELD_NUMBER: _ClassVar[int]
    MATERIAL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    material: ReviewMaterial
    material_digest: str
    warnings: _containers.RepeatedCompositeFieldContainer[_common_pb2.DefinitionWarning]
    def __init__(self, material: _Optional[_Union[ReviewMaterial, _Mapping]] = ..., material_digest: _Optional[str] = ..., warnings: _Optional[_Iterable[_Union[_common_pb2.DefinitionWarning, _Mapping]]] = ...) -> None: ...

class ExecuteRequest(_message.Message):
    __slots__ = ("epochs", "request_id", "command", "dry_run")
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    request_id: str
    command: RegistryCommand
    dry_run: bool
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ..., request_id: _Optional[str] = ..., command: _Optional[_Union[RegistryCommand, _Mapping]] = ..., dry_run: bool = ...) -> None: ...

class ExecuteResponse(_message.Message):
    __slots__ = ("receipt", "replayed", "warnings", "dry_run")
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    receipt: Receipt
    replayed: bool
    warnings: _containers.RepeatedCompositeFieldContainer[_common_pb2.DefinitionWarning]
    dry_run: bool
    def __init__(self, receipt: _Optional[_Union[Receipt, _Mapping]] = ..., replayed: bool = ..., warnings: _Optional[_Iterable[_Union[_common_pb2.DefinitionWarning, _Mapping]]] = ..., dry_run: bool = ...) -> None: ...

class GetHeadRequest(_message.Message):
    __slots__ = ("ref",)
    REF_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ...) -> None: ...

class GetHeadResponse(_message.Message):
    __slots__ = ("head",)
    HEAD_FIELD_NUMBER: _ClassVar[int]
    head: Head
    def __init__(self, head: _Optional[_Union[Head, _Mapping]] = ...) -> None: ...

class GetProposalRequest(_message.Message):
    __slots__ = ("ref", "proposal_id")
    REF_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_ID_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    proposal_id: str
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., proposal_id: _Optional[str] = ...) -> None: ...

class GetProposalResponse(_message.Message):
    __slots__ = ("proposal",)
    PROPOSAL_FIELD_NUMBER: _ClassVar[int]
    proposal: Proposal
    def __init__(self, proposal: _Optional[_Union[Proposal, _Mapping]] = ...) -> None: ...

class ListHistoryRequest(_message.Message):
    __slots__ = ("ref", "after", "limit")
    REF_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    ref: _common_pb2.WorkflowRef
    after: int
    limit: int
    def __init__(self, ref: _Optional[_Union[_common_pb2.WorkflowRef, _Mapping]] = ..., after: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListHistoryResponse(_message.Message):
    __slots__ = ("events", "next_after", "has_more")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[HistoryEvent]
    next_after: int
    has_more: bool
    def __init__(self, events: _Optional[_Iterable[_Union[HistoryEvent, _Mapping]]] = ..., next_after: _Optional[int] = ..., has_more: bool = ...) -> None: ...

class GetEpochsRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class GetEpochsResponse(_message.Message):
    __slots__ = ("epochs",)
    EPOCHS_FIELD_NUMBER: _ClassVar[int]
    epochs: _common_pb2.Epochs
    def __init__(self, epochs: _Optional[_Union[_common_pb2.Epochs, _Mapping]] = ...) -> None: ...

class ListRefsRequest(_message.Message):
    __slots__ = ("work_order_id", "page_size", "page_token")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    page_size: int
    page_token: str
    def __init__(self, work_order_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRefsResponse(_message.Message):
    __slots__ = ("heads", "next_page_token")
    HEADS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    heads: _containers.RepeatedCompositeFieldContainer[Head]
    next_page_token: str
    def __init__(self, heads: _Optional[_Iterable[_Union[Head, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
