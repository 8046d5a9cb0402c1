from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Contract(_message.Message):
    __slots__ = ("contract_id", "work_order_id", "criteria_json", "deadline_ms", "budget_microcredits", "profile", "digest", "created_by", "created_at_ms", "spent_microcredits", "remaining_microcredits", "reserved_microcredits")
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    CRITERIA_JSON_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    SPENT_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    RESERVED_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    contract_id: str
    work_order_id: str
    criteria_json: str
    deadline_ms: int
    budget_microcredits: str
    profile: str
    digest: str
    created_by: str
    created_at_ms: int
    spent_microcredits: str
    remaining_microcredits: str
    reserved_microcredits: str
    def __init__(self, contract_id: _Optional[str] = ..., work_order_id: _Optional[str] = ..., criteria_json: _Optional[str] = ..., deadline_ms: _Optional[int] = ..., budget_microcredits: _Optional[str] = ..., profile: _Optional[str] = ..., digest: _Optional[str] = ..., created_by: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., spent_microcredits: _Optional[str] = ..., remaining_microcredits: _Optional[str] = ..., reserved_microcredits: _Optional[str] = ...) -> None: ...

class CreateContractRequest(_message.Message):
    __slots__ = ("contract_id", "work_order_id", "criteria_json", "deadline_ms", "budget_microcredits", "profile")
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    CRITERIA_JSON_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    contract_id: str
    work_order_id: str
    criteria_json: str
    deadline_ms: int
    budget_microcredits: str
    profile: str
    def __init__(self, contract_id: _Optional[str] = ..., work_order_id: _Optional[str] = ..., criteria_json: _Optional[str] = ..., deadline_ms: _Optional[int] = ..., budget_microcredits: _Optional[str] = ..., profile: _Optional[str] = ...) -> None: ...

class CreateContractResponse(_message.Message):
    __slots__ = ("contract", "replayed")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    contract: Contract
    replayed: bool
    def __init__(self, contract: _Optional[_Union[Contract, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class GetContractRequest(_message.Message):
    __slots__ = ("contract_id",)
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    contract_id: str
    def __init__(self, contract_id: _Optional[str] = ...) -> None: ...

class GetContractResponse(_message.Message):
    __slots__ = ("contract",)
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    contract: Contract
    def __init__(self, contract: _Optional[_Union[Contract, _Mapping]] = ...) -> None: ...

class GetSpendingRequest(_message.Message):
    __slots__ = ("principal_id",)
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    def __init__(self, principal_id: _Optional[str] = ...) -> None: ...

class GetSpendingResponse(_message.Message):
    __slots__ = ("principal_id", "spent_microcredits", "cap_microcredits", "reserved_microcredits")
    PRINCIPAL_ID_FIELD_NUMBER: _ClassVar[int]
    SPENT_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    CAP_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    RESERVED_MICROCREDITS_FIELD_NUMBER: _ClassVar[int]
    principal_id: str
    spent_microcredits: str
    cap_microcredits: str
    reserved_microcredits: str
    def __init__(self, principal_id: _Optional[str] = ..., spent_microcredits: _Optional[str] = ..., cap_microcredits: _Optional[str] = ..., reserved_microcredits: _Optional[str] = ...) -> None: ...

class ListContractsRequest(_message.Message):
    __slots__ = ("work_order_id", "page_size", "page_token")
    WORK_ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    work_order_id: str
    page_size: int
    page_token: str
    def __init__(self, work_order_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListContractsResponse(_message.Message):
    __slots__ = ("contracts", "next_page_token")
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    contracts: _containers.RepeatedCompositeFieldContainer[Contract]
    next_page_token: str
    def __init__(self, contracts: _Optional[_Iterable[_Union[Contract, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
