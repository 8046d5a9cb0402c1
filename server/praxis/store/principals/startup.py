"""What a server does with principals before it serves: import the principals file's new
entries (:func:`bootstrap`) and re-apply the journal's revocations and rotations that the
database lacks (:func:`replay`, after a restore of an older snapshot)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from praxis.authority.principals import PrincipalRecord
from praxis.core import money
from praxis.store.db.database import Database
from praxis.store.principals import grants, rows
from praxis.store.principals.journal import REVOKED, Entry
from praxis.store.principals.views import fingerprint

log = logging.getLogger("praxis.store")

BOOTSTRAP_ACTOR = "principals-file"
MAX_REASON = 1024


def bootstrap(db: Database, now: int, records: Sequence[PrincipalRecord]) -> list[str]:
    """Imports the file's principals whose id is not in the database yet (the database
    wins afterwards: a revoked principal is never revived by the file).

    Returns:
        The ids imported.
    """
    imported: list[str] = []
    with db.write() as connection:
        for record in records:
            pid = record.principal.principal_id
            row = rows.by_id(connection, pid)
            if row is not None:
                if row.token_sha256 != record.token_sha256 or row.state == "REVOKED":
                    log.warning(
                        "principals file entry ignored: the database holds this principal",
                        extra={"principal_id": pid},
                    )
                continue
            if rows.by_token(connection, record.token_sha256) is not None:
                log.warning(
                    "principals file entry ignored: its token is another principal's",
                    extra={"principal_id": pid},
                )
                continue
            stated = [
                grants.GrantSpec(
                    g.actions,
                    g.work_orders,
                    "" if g.max_spend is None else money.text(g.max_spend),
                    g.purposes,
                    g.not_before_ms,
                    g.not_after_ms,
                )
                for g in record.grants
            ]
            rows.add(
                connection, pid, record.principal.kind.value, grants.to_json(stated),
                record.expires_at_ms, record.token_sha256, BOOTSTRAP_ACTOR, now,
            )  # fmt: skip
            rows.append_event(
                connection, pid, "IMPORTED", 1, BOOTSTRAP_ACTOR, now, "",
                fingerprint(record.token_sha256),
            )  # fmt: skip
            imported.append(pid)
    return imported


def replay(db: Database, entries: Sequence[Entry]) -> list[Entry]:
    """Re-applies the journal ``entries`` (:func:`~.journal.pending`) that the database
    lacks; returns the entries applied.

    Each one is audited again as its kind, with the original actor and time and the
    reason prefixed ``re-applied from the principal journal``.
    """
    applied: list[Entry] = []
    with db.write() as connection:
        for entry in entries:
            row = rows.by_id(connection, entry.principal_id)
            if row is None or row.created_at_ms != entry.created_at_ms:
                continue  # not the principal the entry was about (or absent: refused)
            if row.version >= entry.version:
                continue
            if entry.kind == REVOKED:
                rows.change(
                    connection, entry.principal_id, version=entry.version, state="REVOKED",
                    revoked_at_ms=entry.at_ms, revoked_by=entry.actor,
                    revoke_reason=entry.reason,
                )  # fmt: skip
            else:
                rows.change(
                    connection, entry.principal_id, version=entry.version,
                    token_sha256=entry.token_sha256, token_issued_at_ms=entry.at_ms,
                )  # fmt: skip
            reason = ("re-applied from the principal journal: " + entry.reason)[:MAX_REASON]
            rows.append_event(
                connection, entry.principal_id, entry.kind, entry.version, entry.actor,
                entry.at_ms, reason, fingerprint(entry.token_sha256),
            )  # fmt: skip
            applied.append(entry)
    return applied
