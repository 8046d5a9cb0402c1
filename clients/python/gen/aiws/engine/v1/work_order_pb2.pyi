from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WorkOrderState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WORK_ORDER_STATE_UNSPECIFIED: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_OPEN: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_PAUSED: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_CANCELLED: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_CLOSED: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_PROPOSED: _ClassVar[WorkOrderState]
    WORK_ORDER_STATE_DECLINED: _ClassVar[WorkOrderState]

class ProposalDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROPOSAL_DECISION_UNSPECIFIED: _ClassVar[ProposalDecision]
    PROPOSAL_DECISION_APPROVE: _ClassVar[ProposalDecision]
    PROPOSAL_DECISION_DECLINE: _ClassVar[ProposalDecision]
WORK_ORDER_STATE_UNSPECIFIED: WorkOrderState
WORK_ORDER_STATE_OPEN: WorkOrderState
WORK_ORDER_STATE_PAUSED: WorkOrderState
WORK_ORDER_STATE_CANCELLED: WorkOrderState
WORK_ORDER_STATE_CLOSED: WorkOrderState
WORK_ORDER_STATE_PROPOSED: WorkOrderState
WORK_ORDER_STATE_DECLINED: WorkOrderState
PROPOSAL_DECISION_UNSPECIFIED: ProposalDecision
PROPOSAL_DECISION_APPROVE: ProposalDecision
PROPOSAL_DECISION_DECLINE: ProposalDecision

class RunStateCount(_message.Message):
    __slots__ = ("state", "count")
    STATE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    state: str
    count: int
    def __init__(self, state: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class WorkOrderRecord(_message.Message):
    __slots__ = ("work_order_id", "title", "labels", "creator", "parent_id", "ancestors", "state", "state_from", "budget_microcredits", "spent_microcredits", "remaining_microcredits", "actions", "created_at_ms", "closed_at_ms", "child_count", "proposed", "decided_by", "decided_at_ms", "decline_reason", "reserved_microcredits")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    CREATOR_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    ANCESTORS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    STATE_FROM_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    SPENT_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CLOSED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CHILD_COUNT_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    DECIDED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    DECLINE_REASON_FIELD_NUMBER: _ClassVar[int]
    RESERVED_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    title: str
    labels: _containers.ScalarMap[str, str]
    creator: str
    parent_id: str
    ancestors: _containers.RepeatedScalarFieldContainer[str]
    state: WorkOrderState
    state_from: str
    budget_microcredits: str
    spent_microcredits: str
    remaining_microcredits: str
    actions: _containers.RepeatedScalarFieldContainer[str]
    created_at_ms: int
    closed_at_ms: int
    child_count: int
    proposed: bool
    decided_by: str
    decided_at_ms: int
    decline_reason: str
    reserved_microcredits: str
    def __init__(self, work_order_id: _Optional[str] = ..., title: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., creator: _Optional[str] = ..., parent_id: _Optional[str] = ..., ancestors: _Optional[_Iterable[str]] = ..., state: _Optional[_Union[WorkOrderState, str]] = ..., state_from: _Optional[str] = ..., budget_microcredits: _Optional[str] = ..., spent_microcredits: _Optional[str] = ..., remaining_microcredits: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ..., created_at_ms: _Optional[int] = ..., closed_at_ms: _Optional[int] = ..., child_count: _Optional[int] = ..., proposed: bool = ..., decided_by: _Optional[str] = ..., decided_at_ms: _Optional[int] = ..., decline_reason: _Optional[str] = ..., reserved_microcredits: _Optional[str] = ...) -> None: ...

class CreateWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id", "parent_id", "title", "labels", "budget_microcredits", "actions")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    parent_id: str
    title: str
    labels: _containers.ScalarMap[str, str]
    budget_microcredits: str
    actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, work_order_id: _Optional[str] = ..., parent_id: _Optional[str] = ..., title: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., budget_microcredits: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateWorkOrderResponse(_message.Message):
    __slots__ = ("work_order", "replayed")
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrderRecord
    replayed: bool
    def __init__(self, work_order: _Optional[_Union[WorkOrderRecord, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class GetWorkOrderRecordRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class GetWorkOrderRecordResponse(_message.Message):
    __slots__ = ("work_order", "run_counts", "children")
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    RUN_COUNTS_FIELD_NUMBER: _ClassVar[int]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrderRecord
    run_counts: _containers.RepeatedCompositeFieldContainer[RunStateCount]
    children: _containers.RepeatedCompositeFieldContainer[WorkOrderRecord]
    def __init__(self, work_order: _Optional[_Union[WorkOrderRecord, _Mapping]] = ..., run_counts: _Optional[_Iterable[_Union[RunStateCount, _Mapping]]] = ..., children: _Optional[_Iterable[_Union[WorkOrderRecord, _Mapping]]] = ...) -> None: ...

class ListWorkOrdersRequest(_message.Message):
    __slots__ = ("parent_id", "state", "page_size", "page_token", "action")
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    parent_id: str
    state: WorkOrderState
    page_size: int
    page_token: str
    action: str
    def __init__(self, parent_id: _Optional[str] = ..., state: _Optional[_Union[WorkOrderState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., action: _Optional[str] = ...) -> None: ...

class ListWorkOrdersResponse(_message.Message):
    __slots__ = ("work_orders", "next_page_token")
    WORK_ORDERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    work_orders: _containers.RepeatedCompositeFieldContainer[WorkOrderRecord]
    next_page_token: str
    def __init__(self, work_orders: _Optional[_Iterable[_Union[WorkOrderRecord, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CloseWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id",)
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    def __init__(self, work_order_id: _Optional[str] = ...) -> None: ...

class CloseWorkOrderResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrderRecord
    def __init__(self, work_order: _Optional[_Union[WorkOrderRecord, _Mapping]] = ...) -> None: ...

class ProposeWorkOrderRequest(_message.Message):
    __slots__ = ("work_order_id", "parent_id", "title", "labels", "budget_microcredits", "actions")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    parent_id: str
    title: str
    labels: _containers.ScalarMap[str, str]
    budget_microcredits: str
    actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, work_order_id: _Optional[str] = ..., parent_id: _Optional[str] = ..., title: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., budget_microcredits: _Optional[str] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...

class ProposeWorkOrderResponse(_message.Message):
    __slots__ = ("work_order", "replayed")
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrderRecord
    replayed: bool
    def __init__(self, work_order: _Optional[_Union[WorkOrderRecord, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class DecideWorkOrderProposalRequest(_message.Message):
    __slots__ = ("work_order_id", "decision", "reason")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    decision: ProposalDecision
    reason: str
    def __init__(self, work_order_id: _Optional[str] = ..., decision: _Optional[_Union[ProposalDecision, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class DecideWorkOrderProposalResponse(_message.Message):
    __slots__ = ("work_order",)
    WORK_ORDER_FIELD_NUMBER: _ClassVar[int]
    work_order: WorkOrderRecord
    def __init__(self, work_order: _Optional[_Union[WorkOrderRecord, _Mapping]] = ...) -> None: ...
