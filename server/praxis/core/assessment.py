"""Assessments and acceptance: was the deliverable accepted? (SPEC section 7, question 4).

An assessment is recorded only after the run completed, against the contract's criteria,
and is bound to the digest of its subject (:func:`subject_digest`). It is *current* while
that digest is the run's current one; :func:`accepted` decides acceptance from the
current assessments alone, so a change of subject withdraws acceptance by itself.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from praxis.core import kinds, values
from praxis.core.records import PrincipalKind
from praxis.core.rejection import Rejection, precondition


class Kind(enum.Enum):
    """Verification or acceptance; the value is the grant action."""

    VERIFICATION = "assess.verify"
    ACCEPTANCE = "assess.accept"


class Verdict(enum.Enum):
    """What an assessment found."""

    PASS = "PASS"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Assessment:
    """One recorded assessment."""

    assessment_id: str
    run_id: str
    kind: Kind
    verdict: Verdict
    subject_digest: str
    contract_id: str
    findings: values.JsonValue
    assessed_by: str
    assessed_at_ms: int


def subject_digest(
    run_id: str,
    result: values.JsonValue,
    definition_digest: str,
    contract_digest: str,
    head: tuple[int, str] | None,
) -> str:
    """The digest of a completed run's deliverable as it stands.

    Args:
        run_id: The run.
        result: The run's result.
        definition_digest: The definition the run executed.
        contract_digest: The digest of its contract (empty without one).
        head: For a governed run, the current ``(revision, digest)`` of its ref's head:
            activating a new revision changes the subject.
    """
    return values.digest(
        {
            "run_id": run_id,
            "result_digest": values.digest(result),
            "definition_digest": definition_digest,
            "contract_digest": contract_digest,
            "head": list(head) if head else None,
        }
    )


def assessment_id(principal_id: str, request_id: str) -> str:
    """The engine-assigned id of the assessment a request records."""
    text = f"assessment\x00{principal_id}\x00{request_id}"
    return "asm_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def check_record(
    kind: Kind,
    assessor: PrincipalKind,
    completed: bool,
    current_subject: str,
    claimed_subject: str,
) -> Rejection | None:
    """The rules of recording: a human accepts, after completion, the current subject."""
    problem = kinds.check_kind(kind.value, assessor)
    if problem:
        return problem
    if not completed:
        return precondition("RUN_NOT_COMPLETED", "assessments are recorded after completion")
    if claimed_subject != current_subject:
        return precondition(
            "SUBJECT_CHANGED", "the subject digest is not the run's current subject"
        )
    return None


def current(assessments: Sequence[Assessment], subject: str) -> list[Assessment]:
    """The assessments bound to ``subject``, in order."""
    return [a for a in assessments if a.subject_digest == subject]


def accepted(assessments: Sequence[Assessment], subject: str) -> bool:
    """True when the latest current acceptance passed and no latest current one failed."""
    latest: dict[Kind, Verdict] = {}
    for assessment in current(assessments, subject):
        latest[assessment.kind] = assessment.verdict
    return latest.get(Kind.ACCEPTANCE) is Verdict.PASS and Verdict.FAIL not in latest.values()
