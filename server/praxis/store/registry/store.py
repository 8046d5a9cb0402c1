"""The registry's command boundary: one serialized write transaction per command.

``RegistryStore.execute`` is the coordinator of SPEC section 5: authorize, then inside
one serialized write transaction check the clock, holds, controls and epochs, return the
original receipt for a retry, load the state slice, verify the approval, apply the pure
core, re-check expiry at commit time and write the revision, head, decision, consumed
approval, history event and receipt together. ``RegistryStore.review`` answers the
review material of the same commands and writes nothing. Approvals are recorded by
:mod:`praxis.store.registry.approvals`; heads, proposals and history are read by
:mod:`praxis.store.registry.reads`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.engine import Connection

from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import gates, registry, values
from praxis.core.records import (
    ApprovalEvidence,
    ApprovalRecord,
    Control,
    Epochs,
    Principal,
    WorkOrder,
)
from praxis.core.rejection import Rejection
from praxis.observability import metrics
from praxis.store.controls import rows as controls
from praxis.store.db import locks
from praxis.store.db.database import Database, Rollback
from praxis.store.db.reactions import Reactions
from praxis.store.registry.emits import HeadChanged, RegistryWritten
from praxis.store.registry.reads import READ_ACTION
from praxis.store.registry.rows import (
    INSERT,
    Executed,
    Texts,
    approval_record,
    command_state,
    proposal_of,
    receipt_to_json,
    replayed,
    review_state,
    save_head,
    save_proposal,
)

# (definition document, field path, connection or None outside a transaction, the
# document's digest) -> the problems, or None when it is valid.
DefinitionCheck = Callable[[values.JsonValue, str, Connection | None, str], Rejection | None]


class RegistryStore:
    """The registry's commands (REGISTER, PROPOSE, ACTIVATE, REJECT) and their review
    material over a :class:`Database`."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        installation_id: str,
        clock_tolerance_ms: int = 5_000,
        profile: values.DocumentProfile = values.DEFAULT_PROFILE,
        definition_check: DefinitionCheck | None = None,
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.installation_id = installation_id
        self.clock_tolerance_ms = clock_tolerance_ms
        self.profile = profile
        # Where HeadChanged and RegistryWritten are published (praxis.app.reactions).
        self.reactions = reactions or Reactions()
        # Full validation of a definition entering the registry (the runtime's parser:
        # cycles, references, keys, caps, known models), given by the engine.
        self.definition_check = definition_check

    def execute(
        self,
        principal: Principal,
        epochs: Epochs,
        request_id: str,
        command: registry.Command,
        dry_run: bool = False,
    ) -> Executed | Rejection:
        """Authorizes and commits one command, or replays its receipt (a dry run: the
        same answer, with everything it wrote rolled back)."""
        result = self._execute(principal, epochs, request_id, command, dry_run)
        if metrics.ON and not dry_run:
            outcome = result.reason if isinstance(result, Rejection) else "applied"
            if isinstance(result, Executed) and result.replayed:
                outcome = "replayed"
            metrics.registry_command(command.action.value, outcome)
        return result

    def _execute(
        self,
        principal: Principal,
        epochs: Epochs,
        request_id: str,
        command: registry.Command,
        dry_run: bool,
    ) -> Executed | Rejection:
        problem = values.check_identifier(request_id, "request_id") or registry.validate(command)
        if problem:
            return problem
        now = self.clock.now_ms()
        actor = self.authority.authorize(
            principal, command.action.value, command.ref.work_order_id, now
        )
        if isinstance(actor, Rejection):
            return actor
        # Pure work before the serialized section (it runs beside other commands): the
        # command's digests and canonical texts, and the check of a new definition, whose
        # answer is given below where it always was (after the gates and the replay).
        command_digest = command.digest()
        known = Texts()
        if command.definition is not None:
            known.add(command.definition, command.definition_text)
            known.add(command.policy_digests, values.canonical_json(dict(command.policy_digests)))
        invalid_definition = self._check_new_definition(command)
        parameters = {
            "clock_key": controls.CLOCK_KEY,
            "wo": command.ref.work_order_id,
            "run": command.ref.run_id,
            "principal": principal.principal_id,
            "rid": request_id,
            "pid": command.proposal_id,
            "aid": command.approval_id,
        }

        def transaction(connection: Connection) -> Executed | Rejection:
            locks.work_order(connection, command.ref.work_order_id)
            row = command_state(connection, parameters)
            work_order = self._gate(connection, epochs, command.ref.work_order_id, now, row)
            if isinstance(work_order, Rejection):
                self._after_commit(connection)
                return work_order  # the clock-uncertainty hold it placed commits
            if row.command_digest is not None:  # this request id was used before
                replay = replayed(row, request_id, command_digest)
                if isinstance(replay, Rejection):
                    raise Rollback(replay)
                return replay
            texts = known.copy()
            state = self._state_of(row, command, work_order, texts)
            problem = invalid_definition or self._check_activation(connection, command, state)
            if problem:
                raise Rollback(problem)
            evidence: ApprovalEvidence | None = None
            if state.approval is not None:
                verified = self.authority.verify_approval(
                    state.approval, command.ref.work_order_id, now
                )
                if isinstance(verified, Rejection):
                    raise Rollback(verified)
                evidence = verified
            outcome = registry.apply(state, command, actor, evidence, request_id, now)
            if isinstance(outcome, Rejection):
                raise Rollback(outcome)
            late = registry.check_commit_time(actor, evidence, self.clock.now_ms())
            if late:
                raise Rollback(late)
            if outcome.head is not None:
                self.reactions.publish(HeadChanged(connection, outcome.head, now))
            self._after_commit(connection)
            return Executed(self._save(connection, outcome, texts), replayed=False)

        def rolled_back(connection: Connection) -> Executed | Rejection:
            raise Rollback(transaction(connection))

        result: Executed | Rejection = self.db.transact(
            rolled_back if dry_run else transaction, scoped=True
        )
        return result

    def _after_commit(self, connection: Connection) -> None:
        """Publishes :class:`RegistryWritten` once this command's writes commit (a replay
        or a refused command writes nothing and wakes nobody); the commands of one group
        commit publish it once."""
        self.reactions.after_commit(connection, RegistryWritten())

    def review(
        self, principal: Principal, epochs: Epochs, command: registry.Command
    ) -> registry.Material | Rejection:
        """The review material of a command. Writes nothing.

        A REGISTER or PROPOSE is reviewed only with a definition a run could execute (the
        check its ``Execute`` makes): a human never approves material the server would
        then refuse.
        """
        problem = registry.validate(command) or self._check_new_definition(command)
        if problem:
            return problem
        now = self.clock.now_ms()
        actor = self.authority.authorize(principal, READ_ACTION, command.ref.work_order_id, now)
        if isinstance(actor, Rejection):
            return actor
        with self.db.read() as connection:
            row, head, proposal = review_state(connection, command.ref, command.proposal_id)
        work_order = controls.work_order_of(command.ref.work_order_id, row)
        problem = gates.check_epochs(epochs, self.installation_id, work_order)
        if problem:
            return problem
        # The state slice the material shows: the head with its definition and the named
        # proposal (not the approval, which the material does not depend on: it is what
        # an approval binds).
        state = registry.State(
            epochs=controls.epochs_of(self.installation_id, work_order),
            head=head,
            proposal=proposal,
        )
        material = registry.review(state, command)
        if (
            command.action is registry.Action.ACTIVATE
            and state.proposal is not None
            and self.definition_check is not None
            and not isinstance(material, Rejection)
        ):
            # The ACTIVATE this review prepares checks the proposal's definition inside
            # its transaction, where a definition this process checked already is not
            # parsed again: check it here, beside other commands, so that it is (the
            # PROPOSE may have reached another server process). The answer is the
            # ACTIVATE's to give; the review material does not depend on it.
            self.definition_check(
                state.proposal.definition,
                "command.activate.proposal_id",
                None,
                state.proposal.candidate_digest,
            )
        return material

    def _gate(
        self, connection: Connection, epochs: Epochs, work_order_id: str, now: int, row: Any
    ) -> WorkOrder | Rejection:
        """The work order, once the clock, holds, controls and epochs let a command pass
        (``row``: the command's :func:`~praxis.store.registry.rows.command_state`).

        A clock that stepped back returns its rejection (the hold it placed commits);
        any other refusal rolls back.
        """
        if not controls.observe_read_clock(connection, row.clock, now, self.clock_tolerance_ms):
            held = gates.check_holds(controls.active_holds(connection), work_order_id)
            assert held is not None
            return held
        ancestors: tuple[str, ...] = ()
        if row.ancestors_json not in (None, "[]"):
            ancestors = tuple(json.loads(row.ancestors_json))  # a child: its ancestors' holds
        work_order = (
            WorkOrder(work_order_id)
            if row.control is None
            else WorkOrder(
                work_order_id,
                Control(row.control),
                row.ownership_epoch,
                row.authority_epoch,
                ancestors,
            )
        )
        # Holds are rare: read them only when one may apply (a child's: its ancestors').
        placed = (
            controls.active_holds(connection, work_order_id, ancestors)
            if row.hold_id is not None or ancestors
            else ()
        )
        problem = gates.check_all(epochs, self.installation_id, work_order, placed)
        if problem:
            raise Rollback(problem)
        return work_order

    def _check_new_definition(self, command: registry.Command) -> Rejection | None:
        """REGISTER and PROPOSE accept only a definition a run could execute.

        Run before the command's transaction: the check reads no stored state but the
        models workers registered, which it reads on its own when the cached ones do not
        name every model of the definition.
        """
        if self.definition_check is None or command.action not in (
            registry.Action.REGISTER,
            registry.Action.PROPOSE,
        ):
            return None
        path = f"command.{command.action.name.lower()}.definition_json"
        return self.definition_check(command.definition, path, None, command.definition_digest)

    def _check_activation(
        self, connection: Connection, command: registry.Command, state: registry.State
    ) -> Rejection | None:
        """ACTIVATE accepts only a stored proposal a run could execute (a definition this
        process checked already is not parsed again)."""
        if (
            self.definition_check is None
            or command.action is not registry.Action.ACTIVATE
            or state.proposal is None
        ):
            return None
        return self.definition_check(
            state.proposal.definition,
            "command.activate.proposal_id",
            connection,
            state.proposal.candidate_digest,
        )

    def _state_of(
        self, row: Any, command: registry.Command, work_order: WorkOrder, texts: Texts
    ) -> registry.State:
        """The state slice of a command from its row
        (:func:`~praxis.store.registry.rows.command_state`); the canonical texts of what it
        read (the proposal's definition, the head's policy digests) go to
        ``texts``. The head comes without its definition (``None``): a command decides on
        the head's digest, only the review material shows the base."""
        head: registry.Head | None = None
        if row.head_revision is not None:
            policy_digests = json.loads(row.head_policy_digests_json)
            texts.add(policy_digests, row.head_policy_digests_json)
            head = registry.Head(
                ref=command.ref,
                revision=row.head_revision,
                definition=None,
                definition_digest=row.head_digest,
                policy_digests=policy_digests,
                updated_at_ms=row.head_updated_at_ms,
                bound_run_id=row.head_bound_run_id,
            )
        proposal: registry.Proposal | None = None
        if row.proposal_id is not None:
            proposal = proposal_of(row, command.ref)
            texts.add(proposal.definition, row.definition_json)
        approval: ApprovalRecord | None = None
        if row.approval_id is not None:
            approval = approval_record(row, row.approval_created_at_ms)
        return registry.State(
            epochs=controls.epochs_of(self.installation_id, work_order),
            head=head,
            proposal=proposal,
            approval=approval,
            proof_consumed=bool(approval and row.consumed_at_ms),
        )

    def _save(
        self, connection: Connection, outcome: registry.Outcome, texts: Texts
    ) -> registry.Receipt:
        if outcome.head is not None:
            save_head(connection, outcome.head, outcome.proposal, texts)
        if outcome.proposal is not None:
            save_proposal(connection, outcome.proposal, texts)
        history = outcome.history
        seq = (
            INSERT["registry_events"]
            .run(
                connection,
                dict(
                    work_order_id=history.ref.work_order_id,
                    run_id=history.ref.run_id,
                    kind=history.kind.value,
                    revision=history.revision,
                    proposal_id=history.proposal_id,
                    principal_id=history.principal_id,
                    approval_id=history.approval_id,
                    request_id=history.request_id,
                    digest=history.digest,
                    reason=history.reason,
                    at_ms=history.at_ms,
                ),
            )
            .inserted_primary_key[0]
        )
        receipt = replace(outcome.receipt, event_seq=seq)
        if outcome.consumed_approval is not None:
            if metrics.ON:
                Database.after_commit(connection, metrics.approval_consumed)
            INSERT["consumed_proofs"].run(
                connection,
                dict(
                    proof_digest=outcome.consumed_approval.proof_digest,
                    approval_id=outcome.consumed_approval.approval_id,
                    request_id=receipt.request_id,
                    principal_id=receipt.principal_id,
                    consumed_at_ms=receipt.committed_at_ms,
                ),
            )
        INSERT["receipts"].run(
            connection,
            dict(
                principal_id=receipt.principal_id,
                request_id=receipt.request_id,
                command_digest=receipt.command_digest,
                receipt_json=receipt_to_json(receipt),
                created_at_ms=receipt.committed_at_ms,
            ),
        )
        return receipt
