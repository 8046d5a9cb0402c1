"""The runtime context: what every runtime command runs in, and what the slices share.

One context per engine holds the database and the runtime's unit of work, the authority
and the clock, the limits and document profile, the models workers serve, and the typed
ports through which the runtime asks the slices above it (the execution model's
contracts, retention's archive) what it needs to know. The stores of the runtime
(:class:`~praxis.store.runtime.runs.RunStore`, :class:`~praxis.store.runtime.tasks.TaskStore`)
and of the slices that sit on it (``execution``, ``schedules``, ``views``) receive this
context, never one another: a store class of one slice never holds another slice's store
class (``lint-imports`` holds it), and what one slice asks of another is a port here,
wired in one place (``praxis.app.ports``).

The shape is cosmicpython's ``bootstrap``: one unit of work and named ports, injected.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy.engine import Connection

from praxis.authority import guard
from praxis.authority.protocol import Authority
from praxis.clock import Clock
from praxis.core import definition as definitions
from praxis.core import values
from praxis.core.contract import Allowance
from praxis.core.records import Principal
from praxis.core.rejection import Rejection, not_found
from praxis.store.db import locks
from praxis.store.db.database import Database
from praxis.store.db.reactions import Reactions
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.unit import Unit
from praxis.store.runtime.worker_models import WorkerModels
from praxis.store.wake.hub import Hub

TEXTS_CACHED = 64
"""Ad hoc definition texts kept parsed per process (:meth:`RuntimeContext.ad_hoc_definition`)."""


class ContractTerms(Protocol):
    """What the runtime asks of the execution model's contracts (``store/execution``).

    A caller observes these through StartRun (a contract's work order and deadline bound
    its runs) and through every settlement (what a run's contract still allows).
    """

    def work_order_of(self, contract_id: str) -> str | None:
        """The work order a contract governs, or ``None`` when there is no such contract
        (read outside any transaction; contracts never change)."""

    def deadline(self, connection: Connection, contract_id: str) -> int:
        """The contract's deadline, UTC epoch ms (0: none, or no such contract)."""

    def allowance(self, connection: Connection, record: RunRecord) -> Allowance | None:
        """What the run may still use, or ``None`` when nothing limits it."""

    def budgeted(self, connection: Connection, work_order_id: str) -> tuple[str, ...]:
        """The work orders whose budgets limit a run in ``work_order_id`` (itself and
        its ancestors with a budget): a dispatch locks their ledger keys."""


class Archive(Protocol):
    """What the runtime asks of retention (``store/retention``): the runs it archived.

    A caller observes these as RUN_ARCHIVED: on a read of an archived run, and on a
    StartRun that repeats the request_id of a run since archived.
    """

    def archived(self, run_id: str) -> tuple[str, Rejection] | None:
        """For a run not in the database: ``(its work order, the RUN_ARCHIVED answer)``
        when it was archived, else ``None``."""

    def archived_request(
        self, connection: Connection, principal_id: str, request_id: str
    ) -> Rejection | None:
        """RUN_ARCHIVED when this principal's ``request_id`` started a run since
        archived (in StartRun's transaction), else ``None``."""


class NoContracts:
    """No contracts slice: no run has a contract, so none is bounded or limited."""

    def work_order_of(self, contract_id: str) -> str | None:
        """No contract exists."""
        return None

    def deadline(self, connection: Connection, contract_id: str) -> int:
        """No deadline."""
        return 0

    def allowance(self, connection: Connection, record: RunRecord) -> Allowance | None:
        """Nothing limits the run."""
        return None

    def budgeted(self, connection: Connection, work_order_id: str) -> tuple[str, ...]:
        """No budget is checked."""
        return ()


class NoArchive:
    """No retention slice: no run was ever archived."""

    def archived(self, run_id: str) -> tuple[str, Rejection] | None:
        """Never archived."""
        return None

    def archived_request(
        self, connection: Connection, principal_id: str, request_id: str
    ) -> Rejection | None:
        """Never archived."""
        return None


@dataclass(frozen=True)
class Ports:
    """The runtime's ports: what it asks of the slices above it. The engine wires them
    (``praxis.app.ports``); the defaults answer as if those slices held nothing."""

    contracts: ContractTerms = field(default_factory=NoContracts)
    archive: Archive = field(default_factory=NoArchive)


class RuntimeContext:
    """What every runtime command runs in (see the module's docstring).

    Attributes:
        db: The database.
        unit: The runtime's unit of work (transactions, loads, wake-ups).
        authority: Who may do what (the human-only rule applied by the engine).
        clock: The injected clock.
        limits: The definition caps.
        profile: The document profile (sizes and depths of JSON documents).
        signals: The wake-up hub of this process.
        models: The models StartRun accepts (configured, and registered by workers).
        ports: What the runtime asks of the contracts and retention slices.
        new_run_id: Makes the id of a new run.
        webhook_names: The webhook destinations the operator declared (config.json
            ``webhooks``): the only names StartRun's ``notify.webhooks`` may use.
        reactions: The engine's one dispatcher of events between slices (the table is
            ``praxis.app.reactions``): the runtime publishes its events there
            (:mod:`praxis.store.runtime.emits`) and calls no other slice.
    """

    def __init__(
        self,
        db: Database,
        authority: Authority,
        clock: Clock,
        models: tuple[str, ...],
        limits: definitions.Limits = definitions.DEFAULT_LIMITS,
        profile: values.DocumentProfile = values.DEFAULT_PROFILE,
        signals: Hub | None = None,
        ports: Ports | None = None,
        new_run_id: Callable[[], str] = lambda: "run_" + uuid.uuid4().hex,
        webhook_names: frozenset[str] = frozenset(),
        reactions: Reactions | None = None,
    ) -> None:
        self.db = db
        self.authority = authority
        self.clock = clock
        self.limits = limits
        self.profile = profile
        self.signals = signals or Hub()
        self.ports = ports or Ports()
        self.new_run_id = new_run_id
        self.webhook_names = webhook_names
        self.models = WorkerModels(db, clock, models)
        self.reactions = reactions or Reactions()
        self.unit = Unit(db, self.signals, limits, self.reactions)
        self.snapshots = self.unit.snapshots
        self._texts: OrderedDict[str, tuple[definitions.Definition, frozenset[str]]] = OrderedDict()
        self._lock = threading.Lock()

    def reconfigure(
        self, models: tuple[str, ...], limits: definitions.Limits, webhook_names: frozenset[str]
    ) -> None:
        """A configuration reloaded live: the configured models, the definition limits and
        the webhook names of the next StartRun, registry check and command, in every store
        built on this context (a run's stored definition is kept); the ad hoc definitions
        parsed under the old ones are parsed again."""
        with self._lock:
            self.models.configured = frozenset(models)
            self.limits = self.unit.limits = limits  # as a restart with them would
            self.webhook_names = webhook_names
            self._texts.clear()

    @property
    def traced(self) -> bool:
        """Whether runs are traced (tracing is on: each run is one trace)."""
        return self.unit.trace is not None

    # --- who may ----------------------------------------------------------------------

    def authorize(self, principal: Principal, action: str, work_order_id: str) -> Rejection | None:
        """The authority's refusal of ``action`` by ``principal``, or None."""
        evidence = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        return evidence if isinstance(evidence, Rejection) else None

    def authorize_run(
        self,
        principal: Principal,
        action: str,
        record: RunRecord | None,
        run_id: str,
        missing: Rejection | None = None,
    ) -> Rejection | None:
        """Authorises ``action`` on a run (or a subject of it) before saying whether it
        exists (no oracle); ``missing`` is the NOT_FOUND a wide grant learns."""
        found = guard.authorize_subject(
            self.authority,
            principal,
            action,
            None if record is None else record.work_order_id,
            self.clock.now_ms(),
            missing or not_found("RUN_NOT_FOUND", f"no run {run_id!r}"),
        )
        return found if isinstance(found, Rejection) else None

    def authorize_read(
        self, principal: Principal, work_order_id: str | None, run_id: str
    ) -> Rejection | None:
        """``run.read`` on a run of ``work_order_id`` (``None``: no such run), answered
        without an oracle: "no such run" and "not yours" (any grant that does not cover it:
        action, purpose or window) are one PERMISSION_DENIED, and only a caller whose
        grant covers every work order learns RUN_NOT_FOUND."""
        found = guard.authorize_subject(
            self.authority,
            principal,
            "run.read",
            work_order_id,
            self.clock.now_ms(),
            not_found("RUN_NOT_FOUND", f"no run {run_id!r}"),
        )
        return found if isinstance(found, Rejection) else None

    def lock_budget(
        self, connection: Connection, contract_id: str, principal_id: str, spends: bool
    ) -> None:
        """Locks the ledgers a command reads or charges: the contract, and the starting
        principal when it has a spend cap or when ``spends`` (its spend is charged)."""
        if not locks.needed(connection):
            return  # one writer: nothing to lock
        capped = spends or self.authority.spend_cap(principal_id) is not None
        locks.budget(connection, contract_id, principal_id if capped else "")

    # --- runs -------------------------------------------------------------------------

    def get_run(self, principal: Principal, run_id: str) -> RunRecord | Rejection:
        """One run, for a principal allowed to read it (RUN_ARCHIVED once archived)."""
        problem = values.check_identifier(run_id, "run_id")
        if problem:
            return problem
        with self.db.read() as connection:
            record = self.unit.load(connection, run_id)
        if record is None:
            archived = self.archived(principal, run_id)
            if archived is not None:
                return archived
        denied = self.authorize_run(principal, "run.read", record, run_id)
        return denied or record  # type: ignore[return-value]  # record is set when allowed

    def archived(self, principal: Principal, run_id: str) -> Rejection | None:
        """RUN_ARCHIVED (where the run went) for a reader of an archived run's work order;
        ``None`` when the run was never archived."""
        found = self.ports.archive.archived(run_id)
        if found is None:
            return None
        work_order_id, answer = found
        evidence = guard.authorize_subject(
            self.authority, principal, "run.read", work_order_id, self.clock.now_ms(), answer
        )
        return evidence if isinstance(evidence, Rejection) else answer

    def deadline(self, connection: Connection, contract_id: str, timeout_ms: int, now: int) -> int:
        """A run's deadline: the earlier of ``now + timeout_ms`` and its contract's (0 when
        neither sets one)."""
        found = [now + timeout_ms] if timeout_ms else []
        if contract_id:
            found += [d for d in (self.ports.contracts.deadline(connection, contract_id),) if d]
        return min(found, default=0)

    # --- definitions ------------------------------------------------------------------

    def definition(self, connection: Connection, digest: str) -> definitions.Definition:
        """A stored definition, parsed once per process (:meth:`Unit.definition`)."""
        return self.unit.definition(connection, digest)

    def parse_definition(
        self, document: values.JsonValue, field_path: str, connection: Connection | None = None
    ) -> definitions.Definition | Rejection:
        """Validates a definition against the caps and the known models."""
        parsed = definitions.parse(document, self.models.cached(), self.limits, field_path)
        if isinstance(parsed, Rejection):
            # Another process or replica (its workers) may have taught the engine a model
            # the definition names, whatever else is wrong with it: judge it against the
            # models registered now (an invalid definition costs one more read).
            parsed = definitions.parse(
                document, self.models.known(connection), self.limits, field_path
            )
        if not isinstance(parsed, Rejection):
            self.unit.remember(parsed)
        return parsed

    def check_definition(
        self,
        document: values.JsonValue,
        field_path: str,
        connection: Connection | None,
        digest: str = "",
    ) -> Rejection | None:
        """The registry's check: the problems of a definition, or ``None`` when valid.

        ``digest`` (the document's ``values.digest``, when the caller has it): a definition
        this process already parsed is valid again while the models it names are known,
        without parsing it again (an ACTIVATE checks the definition its PROPOSE checked).
        """
        if digest:
            known = self.unit.parsed(digest)
            if known is not None and (
                frozenset(node.agent.model for node in known.nodes.values()) <= self.models.cached()
            ):
                return None
        parsed = self.parse_definition(document, field_path, connection)
        return parsed if isinstance(parsed, Rejection) else None

    def ad_hoc_definition(self, text: str) -> definitions.Definition | Rejection:
        """The definition of a StartRun's ``definition_json``, parsed once per text.

        Clients start many runs of one definition; the same text under the same profile
        and limits parses to the same definition, so it is reused while its models are
        still known (a worker-registered model may lapse: then it is parsed again).
        """
        with self._lock:
            found = self._texts.get(text)
            if found is not None:
                self._texts.move_to_end(text)
        if found is not None and found[1] <= self.models.cached():
            return found[0]
        document = values.parse_document(text, "definition_json", self.profile)
        if isinstance(document, Rejection):
            return document
        parsed = self.parse_definition(document, "definition_json")
        if not isinstance(parsed, Rejection):
            with self._lock:
                models = frozenset(node.agent.model for node in parsed.nodes.values())
                self._texts[text] = (parsed, models)
                while len(self._texts) > TEXTS_CACHED:
                    self._texts.popitem(last=False)
        return parsed
