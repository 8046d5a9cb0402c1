"""Models the engine accepts: declared in the config, or registered by workers for a while.

A claim registers (or renews) each model it names for :data:`MODEL_TTL_MS` after that
claim, so ``StartRun`` accepts a model as soon as a worker serves it and stops accepting
it once no worker has claimed for it in that time: a typo in one worker's configuration
is never learnt for good. Live registrations are capped at :data:`MAX_WORKER_MODELS`.
Migration 8 creates the table (7 is the runtime's run_nodes).

A configured model needs no registration to be accepted, so a claim that finds nothing
to do writes nothing for it. A claim that finds ready work registers its configured
models too (:meth:`WorkerModels.note`, in the write it makes anyway, at most once a
:data:`RENEW_AFTER_MS` per model and process), so that a live registration says of every
model whether a worker claimed it lately (:func:`served`, read by the inbox's stuck
runs). Configured models do not count against the cap: the config bounds them.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from praxis.clock import Clock
from praxis.core.rejection import Code, Rejection
from praxis.store.db import locks
from praxis.store.db.database import Database
from praxis.store.runtime.rows import workers as rows

MODEL_TTL_MS = 600_000
RENEW_AFTER_MS = MODEL_TTL_MS // 10  # a busy worker renews at most this often per model
MAX_WORKER_MODELS = 1000


def live(connection: Connection, now_ms: int) -> dict[str, int]:
    """The live worker registrations: model -> expiry."""
    return rows.live(connection, now_ms)


def served(connection: Connection, now_ms: int) -> frozenset[str]:
    """The models a worker claimed in the last :data:`MODEL_TTL_MS` (less at most
    :data:`RENEW_AFTER_MS`): those with a live registration."""
    return frozenset(live(connection, now_ms))


def register(
    connection: Connection, models: list[str], configured: frozenset[str], now_ms: int
) -> dict[str, int] | Rejection | None:
    """Registers or renews ``models`` (configured ones need no registration).

    Returns the registrations now live, ``None`` when every model is configured (nothing
    was read), or a RESOURCE_EXHAUSTED rejection when new models would take the live
    registrations past the cap.
    """
    wanted = [m for m in dict.fromkeys(models) if m not in configured]
    if not wanted:
        return None  # configured models need no registration: nothing to read
    current = live(connection, now_ms)
    if locks.needed(connection) and _writes(wanted, current, now_ms):
        locks.key(connection, "models")  # concurrent claims: one writes, the rest see it
        current = live(connection, now_ms)
    new = [m for m in wanted if m not in current]
    counted = sum(1 for m in current if m not in configured)
    if new and counted + len(new) > MAX_WORKER_MODELS:
        return Rejection(
            Code.RESOURCE_EXHAUSTED,
            "CAP_EXCEEDED",
            f"workers have registered {counted} models; at most {MAX_WORKER_MODELS} "
            "may be live at once (declare models in the config instead)",
        )
    return _write(connection, wanted, current, now_ms)


def note(connection: Connection, models: list[str], now_ms: int) -> dict[str, int]:
    """Registers or renews configured ``models`` a worker claims (no cap: the config
    bounds them); returns the registrations now live."""
    current = live(connection, now_ms)
    if locks.needed(connection) and _writes(models, current, now_ms):
        locks.key(connection, "models")  # concurrent claims: one writes, the rest see it
        current = live(connection, now_ms)
    return _write(connection, models, current, now_ms)


def _write(
    connection: Connection, wanted: list[str], current: dict[str, int], now_ms: int
) -> dict[str, int]:
    """Inserts the registrations of ``wanted`` missing from ``current`` and renews those
    due; returns ``current`` with them."""
    new = [m for m in wanted if m not in current]
    expiry = now_ms + MODEL_TTL_MS
    renew_before = expiry - RENEW_AFTER_MS  # renewed at most every RENEW_AFTER_MS
    stale = [m for m in wanted if m in current and current[m] < renew_before]
    if new:
        purge(connection, now_ms)  # keeps lapsed rows from piling up
        rows.insert(connection, new, expiry, now_ms)
    if stale:
        rows.renew(connection, stale, expiry)
    for model in [*new, *stale]:
        current[model] = expiry
    return current


def would_write(
    connection: Connection, models: list[str], configured: frozenset[str], now_ms: int
) -> bool:
    """Whether :func:`register` of ``models`` would insert or renew a registration (or
    refuse one past the cap): a read, for a claim deciding whether it needs to write."""
    wanted = [m for m in dict.fromkeys(models) if m not in configured]
    return bool(wanted) and _writes(wanted, live(connection, now_ms), now_ms)


def _writes(wanted: list[str], current: dict[str, int], now_ms: int) -> bool:
    """Whether :func:`register` would insert or renew a registration."""
    renew_before = now_ms + MODEL_TTL_MS - RENEW_AFTER_MS
    return any(m not in current or current[m] < renew_before for m in wanted)


def purge(connection: Connection, now_ms: int, limit: int = 100) -> int:
    """Deletes up to ``limit`` lapsed registrations; returns how many."""
    return rows.purge(connection, now_ms, limit)


class WorkerModels:
    """The models this process accepts: the configured ones plus a cache of the live
    worker registrations, refreshed by every read of them (shared by the run store,
    which checks definitions, and the task store, whose claims register)."""

    def __init__(self, db: Database, clock: Clock, configured: tuple[str, ...]) -> None:
        self.db = db
        self.clock = clock
        self.configured = frozenset(configured)
        self.registered: dict[str, int] = {}  # worker-registered model -> expiry (cache)

    def known(self, connection: Connection | None = None) -> frozenset[str]:
        """Models from the config plus the live worker registrations (read now)."""
        if connection is None:
            with self.db.read() as reading:
                return self.known(reading)
        self.registered = live(connection, self.clock.now_ms())
        return self.configured | frozenset(self.registered)

    def cached(self) -> frozenset[str]:
        """The configured models plus the registrations last read that are still live."""
        now = self.clock.now_ms()
        return self.configured | frozenset(
            m for m, expiry in self.registered.items() if expiry > now
        )

    def listing(self) -> list[tuple[str, bool, int]]:
        """``(name, configured, expires_at_ms)`` of every model StartRun accepts now."""
        self.known()
        configured = [(model, True, 0) for model in sorted(self.configured)]
        workers = [
            (model, False, expiry)
            for model, expiry in sorted(self.registered.items())
            if model not in self.configured
        ]
        return configured + workers

    def would_write(self, connection: Connection, models: list[str], now_ms: int) -> bool:
        """Whether a claim of ``models`` must register or renew one (see :func:`would_write`)."""
        return would_write(connection, models, self.configured, now_ms)

    def note(self, connection: Connection, models: list[str], now_ms: int) -> None:
        """Registers the configured ``models`` of a claim that found ready work, unless
        this process knows their registrations need no renewal (no read then)."""
        renew_before = now_ms + MODEL_TTL_MS - RENEW_AFTER_MS
        known = self.registered
        due = [
            m
            for m in dict.fromkeys(models)
            if m in self.configured and known.get(m, 0) < renew_before
        ]
        if due:
            current = note(connection, due, now_ms)
            Database.after_commit(connection, lambda: setattr(self, "registered", current))

    def register(self, connection: Connection, models: list[str], now_ms: int) -> Rejection | None:
        """Registers or renews ``models`` inside a claim (see :func:`register`)."""
        registered = register(connection, models, self.configured, now_ms)
        if isinstance(registered, Rejection):
            return registered
        if registered is not None:
            self.registered = registered
        return None
