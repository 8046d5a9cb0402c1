"""Resuming failed and cancelled runs (ResumeRun), and the review of a governed resume.

A resume is one transaction: replay a repeated request, lock the run, check who may
resume it and that its work order still takes work, verify and consume the human
approval of its exact material when the run is governed, and apply
:class:`praxis.core.run.Resume`. An ad hoc run needs only the ``run.resume`` grant; a
governed run (one that executes a registry ref) also needs a human's approval of the
:class:`praxis.core.resume.Material` that ReviewResume returns, which pins the run at its
current version. So does any run with a node the resume would run again after an APPLIED
effect or an authorization wait's approval (REAPPROVAL_REQUIRED without one): the
material lists those actions with the digest of their input.

``to_head`` (agent replacement) resumes a governed run onto its ref's head when the head
changes only nodes that are not DONE and keeps the graph's shape
(:mod:`praxis.core.run.replace`); the material carries the node-level diff.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.engine import Connection

from praxis.core import gates, values
from praxis.core import resume as resumes
from praxis.core import run as core
from praxis.core.definition import Definition
from praxis.core.records import Epochs, Principal, Ref
from praxis.core.rejection import Code, FieldViolation, Rejection, invalid, precondition
from praxis.core.run import replace as replace_run
from praxis.store.controls import rows as controls
from praxis.store.db import locks
from praxis.store.db.database import Rollback
from praxis.store.execution import approved
from praxis.store.execution.rows import authorizations, requests
from praxis.store.registry.rows import load_head
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.inputs import gather_input
from praxis.store.runtime.lifecycle import MAX_RUN_TIMEOUT_MS, admit
from praxis.store.runtime.records import Effects, RunRecord


@dataclass(frozen=True)
class ResumeRequest:
    """A ReviewResume or ResumeRun request after wire decoding."""

    run_id: str
    reason: str
    run_timeout_ms: int = 0
    epochs: Epochs | None = None
    request_id: str = ""
    approval_id: str = ""
    to_head: bool = False
    # A dry run: every check and the answer, with everything written rolled back.
    dry_run: bool = False


class ResumeStore:
    """Resumes over the runtime context and the registry's approvals."""

    def __init__(self, runtime: RuntimeContext, installation_id: str) -> None:
        self.runtime = runtime
        self.installation_id = installation_id
        self.clock = runtime.clock

    def review(self, principal: Principal, request: ResumeRequest) -> resumes.Material | Rejection:
        """The material a human approves before a governed run resumes. Writes nothing."""
        problem = _check(request)
        if problem:
            return problem
        with self.runtime.db.read() as connection:
            found = self._material(connection, principal, request)
        return found[0] if not isinstance(found, Rejection) else found

    def _material(
        self, connection: Connection, principal: Principal, request: ResumeRequest
    ) -> tuple[resumes.Material, RunRecord, Target | None] | Rejection:
        record = self.runtime.unit.load(connection, request.run_id)
        denied = self.runtime.authorize_run(principal, "run.resume", record, request.run_id)
        if denied or record is None:
            return denied  # type: ignore[return-value]  # set when the run is missing
        if record.state.status not in (core.RunStatus.FAILED, core.RunStatus.CANCELLED):
            return _not_resumable(record)
        epochs = request.epochs
        work_order = controls.load_work_order(connection, record.work_order_id)
        if epochs is None:
            epochs = Epochs(
                self.installation_id,
                work_order.ownership_epoch,
                work_order.authority_epoch,
            )
        problem = gates.check_epochs(epochs, self.installation_id, work_order)
        if problem:
            return problem
        target = self._target(connection, record) if request.to_head else None
        if isinstance(target, Rejection):
            return target
        state = record.state
        head = target.definition if target else None
        authorised = authorizations.authorised_nodes(connection, state.run_id)
        first = resumes.again(state, authorised, head=head)
        inputs = _inputs(connection, record, head, [n for n in first if n.needs_approval])
        material = resumes.Material(
            epochs=epochs,
            work_order_id=record.work_order_id,
            ref_run_id=record.ref_run_id,
            run_id=state.run_id,
            run_version=state.version,
            revision=state.revision,
            definition_digest=state.definition.digest,
            nodes=tuple(resumes.again(state, authorised, inputs, head)),
            reason=request.reason,
            run_timeout_ms=request.run_timeout_ms,
            to_revision=target.revision if target else 0,
            to_definition_digest=head.digest if head else "",
            changes=replace_run.changes(state, head) if head else (),
        )
        return material, record, target

    def _target(self, connection: Connection, record: RunRecord) -> Target | Rejection:
        """The head a governed run is resumed onto, or why it cannot be."""
        if not record.ref_run_id:
            return precondition(
                "RUN_NOT_GOVERNED",
                "only a governed run (one that executes a registry ref) resumes onto a "
                "head: resume this run without to_head",
            )
        head = load_head(connection, Ref(record.work_order_id, record.ref_run_id))
        assert head is not None  # a governed run's ref stays registered
        if head.revision == record.state.revision:
            return precondition(
                "RUN_AT_HEAD",
                f"the run already executes revision {head.revision}, the ref's head: "
                "activate a revision that replaces the failed node first, or resume "
                "without to_head",
            )
        parsed = self.runtime.parse_definition(head.definition, "head", connection)
        if isinstance(parsed, Rejection):
            return parsed
        refused = replace_run.conflicts(record.state, parsed)
        if refused:
            return refused
        return Target(head.revision, parsed)

    def resume(
        self, principal: Principal, request: ResumeRequest
    ) -> tuple[RunRecord, bool] | Rejection:
        """Resumes a run; ``(run, replayed)`` (a dry run: the same answer, with
        everything it wrote rolled back: the run, its events, the consumed approval and
        the remembered request id)."""
        problem = _check(request) or values.check_identifier(request.request_id, "request_id")
        if problem:
            return problem
        key: dict[str, values.JsonValue] = {
            "run_id": request.run_id,
            "reason": request.reason,
            "run_timeout_ms": request.run_timeout_ms,
            "approval_id": request.approval_id,
        }
        if request.to_head:  # only when set: older requests replay as they were
            key["to_head"] = True
        digest = values.digest(key)

        def transaction(connection: Connection, effects: Effects) -> tuple[RunRecord, bool]:
            scope = ("resume", principal.principal_id, request.request_id)
            key = requests.replayed(
                connection, scope[1], scope[0], scope[2], digest,
                lambda run_id: self._granted(connection, principal, run_id),
            )  # fmt: skip
            if key is not None:
                replay = self.runtime.unit.load(connection, key)
                assert replay is not None
                return replay, True
            if request.to_head:  # the head it reads must stay the head: as registry commands
                # do, serialize with them, the work order's lock before the run's
                known = self.runtime.unit.load(connection, request.run_id)
                locks.work_order(connection, known.work_order_id if known else "")
            self.runtime.unit.lock_load(connection, request.run_id)
            found = self._material(connection, principal, request)
            if isinstance(found, Rejection):
                raise Rollback(found)
            material, record, target = found
            now = self.clock.now_ms()
            admit(connection, record.work_order_id)
            if record.ref_run_id or material.needs_approval:
                self._approve(connection, principal, request, material, record, now)
            deadline = self.runtime.deadline(
                connection, record.contract_id, request.run_timeout_ms, now
            )
            command = core.Resume(
                request.reason,
                principal.principal_id,
                deadline,
                target.definition if target else None,
                target.revision if target else 0,
            )
            outcome = core.apply(record.state, command, now, self.runtime.limits)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            saved = self.runtime.unit.save(connection, record, outcome, effects, command, now)
            requests.append(
                connection,
                "RUN_RESUMED",
                record.state.run_id,
                now,
                by=principal.principal_id,
                reason=request.reason,
                approval_id=request.approval_id,
                material_digest=material.digest(),
                **({"to_revision": material.to_revision} if material.to_revision else {}),
            )
            requests.remember(connection, scope[1], scope[0], scope[2], digest, record.state.run_id)
            return saved, False

        result: tuple[RunRecord, bool] | Rejection = self.runtime.unit.transact(
            transaction, dry_run=request.dry_run
        )
        return result

    def _granted(
        self, connection: Connection, principal: Principal, run_id: str
    ) -> Rejection | None:
        """Whether ``run.resume`` on the run is still granted (a replay's check)."""
        record = self.runtime.unit.load(connection, run_id)
        return self.runtime.authorize_run(principal, "run.resume", record, run_id)

    def _approve(
        self,
        connection: Connection,
        principal: Principal,
        request: ResumeRequest,
        material: resumes.Material,
        record: RunRecord,
        now: int,
    ) -> None:
        """Verifies and consumes the human approval a governed resume needs, and any
        resume that runs an applied or authorised action again."""
        if not request.approval_id and not record.ref_run_id:
            raise Rollback(_reapproval_required(material))
        if not request.approval_id:
            raise Rollback(
                precondition(
                    "APPROVAL_REQUIRED",
                    "resuming a governed run needs a human's approval of its material: "
                    "ReviewResume, then CreateApproval of the material digest",
                )
            )
        approval, _evidence = approved.verify(
            connection,
            self.runtime.authority,
            request.approval_id,
            material.digest(),
            material.epochs,
            record.work_order_id,
            now,
        )
        approved.consume(connection, approval, request.request_id, principal.principal_id, now)


@dataclass(frozen=True)
class Target:
    """The head a governed run is resumed onto (agent replacement)."""

    revision: int
    definition: Definition


def _inputs(
    connection: Connection,
    record: RunRecord,
    head: Definition | None,
    nodes: list[resumes.Again],
) -> dict[str, str]:
    """The input digest of each of ``nodes`` whose input is known now (every node it
    reads is done), under the head's spec when the run is resumed onto it."""
    if not nodes:
        return {}
    state = record.state
    if head is not None:
        record = replace(record, state=replace(state, definition=head))
    definition = record.state.definition
    cache: dict[tuple[str, str], values.JsonValue] = {}
    found = {}
    for again in nodes:
        node = state.nodes[again.node_uid]
        spec = definition.nodes[node.node_id]
        sources = (spec.fanout.node,) if spec.fanout is not None else spec.source.nodes
        if node.item < 0 and spec.fanout is not None:
            continue  # a fan-out node: its items carry the inputs
        if all(_done(state, source) for source in sources):
            found[again.node_uid] = values.digest(gather_input(connection, record, node, cache))
    return found


def _done(state: core.RunState, node_id: str) -> bool:
    node = state.nodes.get(node_id)
    return node is not None and node.status is core.NodeStatus.DONE


def _reapproval_required(material: resumes.Material) -> Rejection:
    nodes = material.needs_approval
    why = {(True, False): "its effect was applied", (False, True): "its action was authorised"}
    violations = tuple(
        FieldViolation(
            f"nodes.{node.node_uid}",
            why.get((node.applied, node.authorized), "its effect was applied and authorised"),
        )
        for node in nodes
    )
    return Rejection(
        Code.FAILED_PRECONDITION,
        "REAPPROVAL_REQUIRED",
        "the resume would run again an action that took effect or was authorised ("
        + ", ".join(node.node_uid for node in nodes)
        + "): ReviewResume, then a human's CreateApproval of the material digest",
        violations,
    )


def _not_resumable(record: RunRecord) -> Rejection:
    status = record.state.status.name
    return precondition(
        "RUN_NOT_RESUMABLE",
        f"only a failed or cancelled run can be resumed; run {record.state.run_id!r} is {status}",
    )


def _check(request: ResumeRequest) -> Rejection | None:
    problem = values.check_identifier(request.run_id, "run_id") or values.check_text(
        request.reason, "reason"
    )
    if problem:
        return problem
    if not request.reason:
        return invalid("FIELD_REQUIRED", "reason", "say why the run is resumed")
    if not 0 <= request.run_timeout_ms <= MAX_RUN_TIMEOUT_MS:
        return invalid(
            "TIME_INVALID", "run_timeout_ms", f"run_timeout_ms must be in [0, {MAX_RUN_TIMEOUT_MS}]"
        )
    if request.approval_id:
        return values.check_identifier(request.approval_id, "approval_id")
    return None
