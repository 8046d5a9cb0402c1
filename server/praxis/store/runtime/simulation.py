"""Dry runs served (SimulationService): resolve what to simulate, check who may read it,
and hand it to the pure core (:mod:`praxis.core.simulation`). Nothing is written."""

from __future__ import annotations

from dataclasses import dataclass

from praxis.authority import guard
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import definition as definitions
from praxis.core import membership, values
from praxis.core import simulation as core
from praxis.core.records import Principal, Ref
from praxis.core.rejection import Rejection, invalid, not_found
from praxis.store.db.database import Database
from praxis.store.registry import rows as registry_rows

MIN_LEASE_MS = 1_000
MAX_LEASE_MS = 3_600_000


@dataclass(frozen=True)
class Request:
    """A SimulateRun request, decoded (the script's documents already parsed)."""

    definition_json: str
    ref: Ref | None
    revision: int
    input_json: str
    start_at_ms: int
    script: list[core.Scripted]
    work_order_id: str
    lease_ms: int
    run_timeout_ms: int


@dataclass(frozen=True)
class Simulated:
    """A simulation and what it simulated."""

    simulation: core.Simulation
    work_order_id: str
    ref: Ref | None
    input_json: str


class SimulationStore:
    """Simulations over the registry's revisions, under the caller's read grant."""

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        limits: definitions.Limits = definitions.DEFAULT_LIMITS,
        profile: values.DocumentProfile = values.DEFAULT_PROFILE,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.limits = limits
        self.profile = profile

    def simulate(self, principal: Principal, request: Request) -> Simulated | Rejection:
        """Plays the request's script on its definition; refusals as a StartRun's."""
        problem = _check(request)
        if problem:
            return problem
        run_input = values.parse_document(request.input_json or "null", "input_json", self.profile)
        if isinstance(run_input, Rejection):
            return run_input
        found = self._definition(principal, request)
        if isinstance(found, Rejection):
            return found
        definition, work_order_id, revision = found
        problem = core.check_script(definition, request.script)
        if problem:
            return problem
        deadline = request.start_at_ms + request.run_timeout_ms if request.run_timeout_ms else 0
        simulation = core.simulate(
            definition,
            request.script,
            request.start_at_ms,
            run_input=run_input,
            revision=revision,
            deadline_ms=deadline,
            lease_ms=request.lease_ms or core.DEFAULT_LEASE_MS,
        )
        return Simulated(simulation, work_order_id, request.ref, values.canonical_json(run_input))

    def _definition(
        self, principal: Principal, request: Request
    ) -> tuple[definitions.Definition, str, int] | Rejection:
        """The definition to simulate, its work order and revision, once ``run.read`` is
        granted there (a ref the caller may not read looks like a missing one)."""
        now = self.clock.now_ms()
        if request.ref is None:
            work_order_id = request.work_order_id or membership.DEFAULT_WORK_ORDER
            denied = self.authority.authorize(principal, "run.read", work_order_id, now)
            if isinstance(denied, Rejection):
                return denied
            document = values.parse_document(
                request.definition_json, "definition_json", self.profile
            )
            if isinstance(document, Rejection):
                return document
            parsed = definitions.parse(document, None, self.limits, "definition_json")
            return parsed if isinstance(parsed, Rejection) else (parsed, work_order_id, 0)
        ref = request.ref
        if request.work_order_id and request.work_order_id != ref.work_order_id:
            return invalid(
                "WORK_ORDER_MISMATCH", "work_order_id", "work_order_id must be empty or the ref's"
            )
        with self.db.read() as connection:
            revision = request.revision
            if not revision:
                head = registry_rows.load_head(connection, ref)
                revision = head.revision if head is not None else 0
            document = (
                registry_rows.revision_definition(connection, ref, revision) if revision else None
            )
        missing = not_found("REF_NOT_FOUND", f"no revision {request.revision} of that ref")
        if not request.revision:
            missing = not_found("REF_NOT_FOUND", "no such ref")
        granted = guard.authorize_subject(
            self.authority,
            principal,
            "run.read",
            ref.work_order_id if document is not None else None,
            now,
            missing,
        )
        if isinstance(granted, Rejection):
            return granted
        parsed = definitions.parse(document, None, self.limits, "ref")
        return parsed if isinstance(parsed, Rejection) else (parsed, ref.work_order_id, revision)


def _check(request: Request) -> Rejection | None:
    """The request's own bounds."""
    if request.start_at_ms <= 0:
        return invalid("FIELD_REQUIRED", "start_at_ms", "start_at_ms is required")
    if request.ref is None and not request.definition_json:
        return invalid("FIELD_REQUIRED", "definition_json", "definition_json or ref is required")
    if request.revision < 0 or (request.ref is None and request.revision):
        return invalid(
            "SIMULATION_INVALID", "revision", "revision is a ref's, 0 (its head) or above"
        )
    if request.lease_ms and not MIN_LEASE_MS <= request.lease_ms <= MAX_LEASE_MS:
        return invalid(
            "TIME_INVALID", "lease_ms", f"lease_ms must be {MIN_LEASE_MS} to {MAX_LEASE_MS}"
        )
    if request.run_timeout_ms < 0:
        return invalid("TIME_INVALID", "run_timeout_ms", "run_timeout_ms must not be negative")
    if request.ref is not None:
        problem = values.check_identifier(
            request.ref.work_order_id, "ref.work_order_id"
        ) or values.check_identifier(request.ref.run_id, "ref.run_id")
        if problem:
            return problem
    return None
