"""Assessments after completion, bound to the subject digest; acceptance from current ones."""

from __future__ import annotations

import itertools

import grpc
import pytest

from aiws.engine.v1 import assessment_pb2 as pb
from aiws.engine.v1 import run_pb2
from tests.support.execution import create_contract, run_of, settle, start_run
from tests.support.harness import Harness, expect_error
from tests.support.registry import DEFINITION, activate_cmd, approve, execute, proposed, registered
from tests.support.runtime import claim, definition, json_out, node

pytestmark = pytest.mark.backends("sqlite", "postgres", "postgres-2")


SINGLE = definition("a", a=node(output=json_out()))
VERIFY, ACCEPT = pb.ASSESSMENT_KIND_VERIFICATION, pb.ASSESSMENT_KIND_ACCEPTANCE
PASS, FAIL = pb.ASSESSMENT_VERDICT_PASS, pb.ASSESSMENT_VERDICT_FAIL
_ids = itertools.count()


def acceptance(h: Harness, run_id: str) -> pb.GetAcceptanceResponse:
    return h.client("alice").assessments.GetAcceptance(pb.GetAcceptanceRequest(run_id=run_id))


def assess(
    h: Harness,
    run_id: str,
    kind: int,
    verdict: int,
    subject: str,
    principal: str = "alice",
    request_id: str | None = None,
    findings: str = '{"must": "met"}',
) -> pb.RecordAssessmentResponse:
    return h.client(principal).assessments.RecordAssessment(  # type: ignore[no-any-return]
        pb.RecordAssessmentRequest(
            request_id=request_id or f"as-{next(_ids)}",
            run_id=run_id,
            kind=kind,
            verdict=verdict,
            subject_digest=subject,
            findings_json=findings,
        )
    )


def completed_run(h: Harness, **fields: object) -> str:
    run = start_run(h, SINGLE, **fields)
    [task] = claim(h)
    settle(h, task, {"answer": 42})
    assert run_of(h, run.run_id).state == run_pb2.RUN_STATE_COMPLETED
    return run.run_id


def test_assessing_an_unfinished_run_is_refused(model: Harness) -> None:
    run = start_run(model, SINGLE)
    assert acceptance(model, run.run_id).subject_digest == ""
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "RUN_NOT_COMPLETED"):
        assess(model, run.run_id, VERIFY, PASS, "sha256:" + "0" * 64)
    listed = model.client("alice").assessments.ListAssessments(
        pb.ListAssessmentsRequest(run_id=run.run_id)
    )
    assert not listed.assessments


def test_acceptance_follows_the_current_assessments(model: Harness) -> None:
    create_contract(model)
    run_id = completed_run(model, contract_id="c-1")
    subject = acceptance(model, run_id).subject_digest
    assert subject.startswith("sha256:") and not acceptance(model, run_id).accepted
    verified = assess(model, run_id, VERIFY, PASS, subject, principal="agent").assessment
    assert verified.contract_id == "c-1" and verified.current
    assert not acceptance(model, run_id).accepted  # verification is not acceptance
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "HUMAN_REQUIRED"):
        assess(model, run_id, ACCEPT, PASS, subject, principal="rogue")
    with expect_error(grpc.StatusCode.PERMISSION_DENIED, "ACTION_NOT_GRANTED"):
        assess(model, run_id, ACCEPT, PASS, subject, principal="agent")
    assess(model, run_id, ACCEPT, PASS, subject, request_id="acc-1")
    assert acceptance(model, run_id).accepted
    replay = assess(model, run_id, ACCEPT, PASS, subject, request_id="acc-1")
    assert replay.replayed
    assess(model, run_id, VERIFY, FAIL, subject, principal="agent")
    assert not acceptance(model, run_id).accepted  # a newer failed check withdraws it
    assert len(acceptance(model, run_id).current) == 3


def test_a_stale_subject_is_refused(model: Harness) -> None:
    run_id = completed_run(model)
    with expect_error(grpc.StatusCode.FAILED_PRECONDITION, "SUBJECT_CHANGED"):
        assess(model, run_id, ACCEPT, PASS, "sha256:" + "1" * 64)
    assert not acceptance(model, run_id).current


def test_bad_assessments(model: Harness) -> None:
    run_id = completed_run(model)
    subject = acceptance(model, run_id).subject_digest
    cases = [
        (dict(kind=0), grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        (dict(verdict=0), grpc.StatusCode.INVALID_ARGUMENT, "ENUM_INVALID"),
        (dict(subject="sha256:xyz"), grpc.StatusCode.INVALID_ARGUMENT, "DIGEST_INVALID"),
        (dict(findings='{"a": 1e3}'), grpc.StatusCode.INVALID_ARGUMENT,
         "DOCUMENT_NUMBER_FORBIDDEN"),
        (dict(run_id="run_missing"), grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND"),
    ]  # fmt: skip
    for fields, code, reason in cases:
        arguments = {"run_id": run_id, "kind": ACCEPT, "verdict": PASS, "subject": subject}
        arguments.update(fields)  # type: ignore[arg-type]
        with expect_error(code, reason):
            assess(model, **arguments)  # type: ignore[arg-type]
    assert not acceptance(model, run_id).current


def test_a_new_revision_changes_the_subject_of_a_governed_run(model: Harness) -> None:
    ref = registered(model)
    started = model.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(request_id="gov-1", ref=ref, input_json="null")
    )
    [task] = claim(model)
    settle(model, task, "done")
    run_id = started.run.run_id
    subject = acceptance(model, run_id).subject_digest
    assess(model, run_id, ACCEPT, PASS, subject)
    assert acceptance(model, run_id).accepted
    node_a = DEFINITION["nodes"]["a"]  # type: ignore[index]
    changed = {
        **DEFINITION,
        "nodes": {"a": {**node_a, "input": {**node_a["input"], "template": "v2"}}},
    }
    proposed(model, ref, "p-2", definition=changed)
    command = activate_cmd(ref, "p-2", 1, "ap-act")
    approve(model, command, "ap-act")
    execute(model, "alice", "act-1", command)
    after = acceptance(model, run_id)
    assert after.subject_digest != subject
    assert not after.accepted and not after.current
    listed = model.client("alice").assessments.ListAssessments(
        pb.ListAssessmentsRequest(run_id=run_id)
    )
    assert [a.current for a in listed.assessments] == [False]
