"""Tables of the run command log (migration 4) and of reservations (migrations 5 and 6).

* ``run_commands``: the append-only log of every command the run reducer accepted and
  that changed a run, one row per run version, with its time and the command as the
  canonical JSON of :func:`praxis.core.journal.encode` (definitions by digest; their
  documents are in ``run_definitions``). Folding a run's rows over the pure core
  rebuilds its snapshot (:func:`praxis.store.run_log.rebuild`).
* ``contract_reservations``: one row per running attempt of a run under a contract whose
  node declares a maximum cost. The rows of a contract add up, exactly, to what its
  running attempts may still spend; dispatch counts them (see
  :mod:`praxis.store.reservations`).
* ``principal_reservations``: one row per running attempt whose node declares a maximum
  cost, keyed by the principal that started the run (whether or not it has a contract).
  The rows of a principal add up to what its running attempts may still spend against
  its spending cap. Attempts already running when migration 6 is applied hold none.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, PrimaryKeyConstraint, String, Table, Text

from praxis.store import migrations
from praxis.store.schema import metadata

run_commands = Table(
    "run_commands",
    metadata,
    Column("run_id", String(64), nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("now_ms", BigInteger, nullable=False),
    Column("command_json", Text, nullable=False),
    PrimaryKeyConstraint("run_id", "version"),
    sqlite_with_rowid=False,  # one B-tree keyed by (run, version): one page write per row
)

contract_reservations = Table(
    "contract_reservations",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("contract_id", String(128), nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("amount_microcredits", String(80), nullable=False),
    Column("reserved_at_ms", BigInteger, nullable=False),
)
Index("reservations_contract", contract_reservations.c.contract_id)

principal_reservations = Table(
    "principal_reservations",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("principal_id", String(128), nullable=False),
    Column("run_id", String(64), nullable=False),
    Column("amount_microcredits", String(80), nullable=False),
    Column("reserved_at_ms", BigInteger, nullable=False),
)
Index("reservations_principal", principal_reservations.c.principal_id)

migrations.register(migrations.Migration(4, "run_commands", (run_commands,)))
migrations.register(migrations.Migration(5, "contract_reservations", (contract_reservations,)))
migrations.register(migrations.Migration(6, "principal_reservations", (principal_reservations,)))
