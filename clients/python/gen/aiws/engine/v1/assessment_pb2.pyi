from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AssessmentKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ASSESSMENT_KIND_UNSPECIFIED: _ClassVar[AssessmentKind]
    ASSESSMENT_KIND_VERIFICATION: _ClassVar[AssessmentKind]
    ASSESSMENT_KIND_ACCEPTANCE: _ClassVar[AssessmentKind]

class AssessmentVerdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ASSESSMENT_VERDICT_UNSPECIFIED: _ClassVar[AssessmentVerdict]
    ASSESSMENT_VERDICT_PASS: _ClassVar[AssessmentVerdict]
    ASSESSMENT_VERDICT_FAIL: _ClassVar[AssessmentVerdict]
ASSESSMENT_KIND_UNSPECIFIED: AssessmentKind
ASSESSMENT_KIND_VERIFICATION: AssessmentKind
ASSESSMENT_KIND_ACCEPTANCE: AssessmentKind
ASSESSMENT_VERDICT_UNSPECIFIED: AssessmentVerdict
ASSESSMENT_VERDICT_PASS: AssessmentVerdict
ASSESSMENT_VERDICT_FAIL: AssessmentVerdict

class Assessment(_message.Message):
    __slots__ = ("assessment_id", "run_id", "kind", "verdict", "subject_digest", "contract_id", "findings_json", "assessed_by", "assessed_at_ms", "current")
    ASSESSMENT_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ID_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    ASSESSED_BY_FIELD_NUMBER: _ClassVar[int]
    ASSESSED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    assessment_id: str
    run_id: str
    kind: AssessmentKind
    verdict: AssessmentVerdict
    subject_digest: str
    contract_id: str
    findings_json: str
    assessed_by: str
    assessed_at_ms: int
    current: bool
    def __init__(self, assessment_id: _Optional[str] = ..., run_id: _Optional[str] = ..., kind: _Optional[_Union[AssessmentKind, str]] = ..., verdict: _Optional[_Union[AssessmentVerdict, str]] = ..., subject_digest: _Optional[str] = ..., contract_id: _Optional[str] = ..., findings_json: _Optional[str] = ..., assessed_by: _Optional[str] = ..., assessed_at_ms: _Optional[int] = ..., current: bool = ...) -> None: ...

class RecordAssessmentRequest(_message.Message):
    __slots__ = ("request_id", "run_id", "kind", "verdict", "subject_digest", "findings_json")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    run_id: str
    kind: AssessmentKind
    verdict: AssessmentVerdict
    subject_digest: str
    findings_json: str
    def __init__(self, request_id: _Optional[str] = ..., run_id: _Optional[str] = ..., kind: _Optional[_Union[AssessmentKind, str]] = ..., verdict: _Optional[_Union[AssessmentVerdict, str]] = ..., subject_digest: _Optional[str] = ..., findings_json: _Optional[str] = ...) -> None: ...

class RecordAssessmentResponse(_message.Message):
    __slots__ = ("assessment", "replayed")
    ASSESSMENT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    assessment: Assessment
    replayed: bool
    def __init__(self, assessment: _Optional[_Union[Assessment, _Mapping]] = ..., replayed: bool = ...) -> None: ...

class ListAssessmentsRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class ListAssessmentsResponse(_message.Message):
    __slots__ = ("assessments",)
    ASSESSMENTS_FIELD_NUMBER: _ClassVar[int]
    assessments: _containers.RepeatedCompositeFieldContainer[Assessment]
    def __init__(self, assessments: _Optional[_Iterable[_Union[Assessment, _Mapping]]] = ...) -> None: ...

class GetAcceptanceRequest(_message.Message):
    __slots__ = ("run_id",)
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    run_id: str
    def __init__(self, run_id: _Optional[str] = ...) -> None: ...

class GetAcceptanceResponse(_message.Message):
    __slots__ = ("accepted", "subject_digest", "current")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    accepted: bool
    subject_digest: str
    current: _containers.RepeatedCompositeFieldContainer[Assessment]
    def __init__(self, accepted: bool = ..., subject_digest: _Optional[str] = ..., current: _Optional[_Iterable[_Union[Assessment, _Mapping]]] = ...) -> None: ...
