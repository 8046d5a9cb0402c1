from aiws.engine.v1 import admin_pb2 as _admin_pb2
from aiws.engine.v1 import approval_pb2 as _approval_pb2
from aiws.engine.v1 import assessment_pb2 as _assessment_pb2
from aiws.engine.v1 import handoff_pb2 as _handoff_pb2
from aiws.engine.v1 import reconciliation_pb2 as _reconciliation_pb2
from aiws.engine.v1 import registry_pb2 as _registry_pb2
from aiws.engine.v1 import wait_pb2 as _wait_pb2
from aiws.engine.v1 import work_order_pb2 as _work_order_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InboxItemKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INBOX_ITEM_KIND_UNSPECIFIED: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_PROPOSAL: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_RECONCILIATION: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_HUMAN_INPUT: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_AUTHORIZATION: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_HOLD: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_STUCK_RUN: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_ACCEPTANCE: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_VERIFICATION: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_HANDOFF: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_APPROVAL_EXPIRING: _ClassVar[InboxItemKind]
    INBOX_ITEM_KIND_WORK_ORDER_PROPOSAL: _ClassVar[InboxItemKind]
INBOX_ITEM_KIND_UNSPECIFIED: InboxItemKind
INBOX_ITEM_KIND_PROPOSAL: InboxItemKind
INBOX_ITEM_KIND_RECONCILIATION: InboxItemKind
INBOX_ITEM_KIND_HUMAN_INPUT: InboxItemKind
INBOX_ITEM_KIND_AUTHORIZATION: InboxItemKind
INBOX_ITEM_KIND_HOLD: InboxItemKind
INBOX_ITEM_KIND_STUCK_RUN: InboxItemKind
INBOX_ITEM_KIND_ACCEPTANCE: InboxItemKind
INBOX_ITEM_KIND_VERIFICATION: InboxItemKind
INBOX_ITEM_KIND_HANDOFF: InboxItemKind
INBOX_ITEM_KIND_APPROVAL_EXPIRING: InboxItemKind
INBOX_ITEM_KIND_WORK_ORDER_PROPOSAL: InboxItemKind

class InboxItem(_message.Message):
    __slots__ = ("item_id", "kind", "since_ms", "work_order_id", "run_id", "summary", "proposal", "reconciliation", "wait", "hold", "stuck_run", "assessment_due", "handoff", "approval", "work_order_proposal")
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    PROPOSAL_FIELD_NUMBER: _ClassVar[int]
    RECONCILIATION_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    STUCK_RUN_FIELD_NUMBER: _ClassVar[int]
    ASSESSMENT_DUE_FIELD_NUMBER: _ClassVar[int]
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_PROPOSAL_FIELD_NUMBER: _ClassVar[int]
    item_id: str
    kind: InboxItemKind
    since_ms: int
    work_order_id: str
    run_id: str
    summary: str
    proposal: _registry_pb2.Proposal
    reconciliation: _reconciliation_pb2.Reconciliation
    wait: _wait_pb2.Wait
    hold: _admin_pb2.Hold
    stuck_run: StuckRun
    assessment_due: AssessmentDue
    handoff: _handoff_pb2.Handoff
    approval: _approval_pb2.Approval
    work_order_proposal: _work_order_pb2.WorkOrderRecord
    def __init__(self, item_id: _Optional[str] = ..., kind: _Optional[_Union[InboxItemKind, str]] = ..., since_ms: _Optional[int] = ..., work_order_id: _Optional[str] = ..., run_id: _Optional[str] = ..., summary: _Optional[str] = ..., proposal: _Optional[_Union[_registry_pb2.Proposal, _Mapping]] = ..., reconciliation: _Optional[_Union[_reconciliation_pb2.Reconciliation, _Mapping]] = ..., wait: _Optional[_Union[_wait_pb2.Wait, _Mapping]] = ..., hold: _Optional[_Union[_admin_pb2.Hold, _Mapping]] = ..., stuck_run: _Optional[_Union[StuckRun, _Mapping]] = ..., assessment_due: _Optional[_Union[AssessmentDue, _Mapping]] = ..., handoff: _Optional[_Union[_handoff_pb2.Handoff, _Mapping]] = ..., approval: _Optional[_Union[_approval_pb2.Approval, _Mapping]] = ..., work_order_proposal: _Optional[_Union[_work_order_pb2.WorkOrderRecord, _Mapping]] = ...) -> None: ...

class AssessmentDue(_message.Message):
    __slots__ = ("run_id", "kind", "contract_id", "since_ms")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    kind: _assessment_pb2.AssessmentKind
    contract_id: str
    since_ms: int
    def __init__(self, run_id: _Optional[str] = ..., kind: _Optional[_Union[_assessment_pb2.AssessmentKind, str]] = ..., contract_id: _Optional[str] = ..., since_ms: _Optional[int] = ...) -> None: ...

class StuckRun(_message.Message):
    __slots__ = ("run_id", "node_uid", "model", "ready_since_ms", "served", "schedule_to_start_deadline_ms", "stuck_nodes")
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_UID_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    READY_SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    SERVED_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_TO_START_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    STUCK_NODES_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    node_uid: str
    model: str
    ready_since_ms: int
    served: bool
    schedule_to_start_deadline_ms: int
    stuck_nodes: int
    def __init__(self, run_id: _Optional[str] = ..., node_uid: _Optional[str] = ..., model: _Optional[str] = ..., ready_since_ms: _Optional[int] = ..., served: bool = ..., schedule_to_start_deadline_ms: _Optional[int] = ..., stuck_nodes: _Optional[int] = ...) -> None: ...

class InboxCount(_message.Message):
    __slots__ = ("kind", "count")
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    kind: InboxItemKind
    count: int
    def __init__(self, kind: _Optional[_Union[InboxItemKind, str]] = ..., count: _Optional[int] = ...) -> None: ...

class ListInboxRequest(_message.Message):
    __slots__ = ("kinds", "work_order_id", "page_size", "page_token")
    KINDS_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedScalarFieldContainer[InboxItemKind]
    work_order_id: str
    page_size: int
    page_token: str
    def __init__(self, kinds: _Optional[_Iterable[_Union[InboxItemKind, str]]] = ..., work_order_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListInboxResponse(_message.Message):
    __slots__ = ("items", "next_page_token", "counts", "total")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InboxItem]
    next_page_token: str
    counts: _containers.RepeatedCompositeFieldContainer[InboxCount]
    total: int
    def __init__(self, items: _Optional[_Iterable[_Union[InboxItem, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., counts: _Optional[_Iterable[_Union[InboxCount, _Mapping]]] = ..., total: _Optional[int] = ...) -> None: ...

class WatchInboxRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class WatchInboxResponse(_message.Message):
    __slots__ = ("counts", "total", "fingerprint")
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    counts: _containers.RepeatedCompositeFieldContainer[InboxCount]
    total: int
    fingerprint: str
    def __init__(self, counts: _Optional[_Iterable[_Union[InboxCount, _Mapping]]] = ..., total: _Optional[int] = ..., fingerprint: _Optional[str] = ...) -> None: ...
