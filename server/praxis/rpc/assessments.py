"""AssessmentService: verification and acceptance of completed runs."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import assessment_pb2 as pb
from aiws.engine.v1 import assessment_pb2_grpc
from praxis.core import assessment as core
from praxis.core import values
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.execution.assessments import AssessmentStore

_KINDS = {
    pb.ASSESSMENT_KIND_VERIFICATION: core.Kind.VERIFICATION,
    pb.ASSESSMENT_KIND_ACCEPTANCE: core.Kind.ACCEPTANCE,
}
_KIND_OF = {value: key for key, value in _KINDS.items()}
_VERDICTS = {
    pb.ASSESSMENT_VERDICT_PASS: core.Verdict.PASS,
    pb.ASSESSMENT_VERDICT_FAIL: core.Verdict.FAIL,
}
_VERDICT_OF = {value: key for key, value in _VERDICTS.items()}


def assessment_to_proto(assessment: core.Assessment, subject: str) -> pb.Assessment:
    """One assessment, current when bound to ``subject``."""
    return pb.Assessment(
        assessment_id=assessment.assessment_id,
        run_id=assessment.run_id,
        kind=_KIND_OF[assessment.kind],
        verdict=_VERDICT_OF[assessment.verdict],
        subject_digest=assessment.subject_digest,
        contract_id=assessment.contract_id,
        findings_json=values.canonical_json(assessment.findings),
        assessed_by=assessment.assessed_by,
        assessed_at_ms=assessment.assessed_at_ms,
        current=bool(subject) and assessment.subject_digest == subject,
    )


class AssessmentServicer(assessment_pb2_grpc.AssessmentServiceServicer):
    """AssessmentService over an :class:`AssessmentStore`."""

    def __init__(self, store: AssessmentStore) -> None:
        self.store = store

    def RecordAssessment(  # gRPC method name
        self, request: pb.RecordAssessmentRequest, context: grpc.ServicerContext
    ) -> pb.RecordAssessmentResponse:
        assessment, replayed = unwrap(
            context,
            self.store.record(
                principal(),
                request.request_id,
                request.run_id,
                _KINDS.get(request.kind),
                _VERDICTS.get(request.verdict),
                request.subject_digest,
                request.findings_json,
            ),
        )
        return pb.RecordAssessmentResponse(
            assessment=assessment_to_proto(assessment, assessment.subject_digest),
            replayed=replayed,
        )

    def ListAssessments(
        self, request: pb.ListAssessmentsRequest, context: grpc.ServicerContext
    ) -> pb.ListAssessmentsResponse:
        found, subject = unwrap(context, self.store.list(principal(), request.run_id))
        return pb.ListAssessmentsResponse(
            assessments=[assessment_to_proto(a, subject) for a in found]
        )

    def GetAcceptance(
        self, request: pb.GetAcceptanceRequest, context: grpc.ServicerContext
    ) -> pb.GetAcceptanceResponse:
        found, subject = unwrap(context, self.store.list(principal(), request.run_id))
        current = core.current(found, subject) if subject else []
        return pb.GetAcceptanceResponse(
            accepted=bool(subject) and core.accepted(found, subject),
            subject_digest=subject,
            current=[assessment_to_proto(a, subject) for a in current],
        )
