"""Handoffs of a finished node's outputs and responsibility (:mod:`praxis.core.handoff`)."""

from __future__ import annotations

import json

from sqlalchemy.engine import Connection

from praxis.core import handoff as core
from praxis.core import run as runs
from praxis.core import values
from praxis.core.records import Principal, Ref
from praxis.core.rejection import Rejection, invalid, not_found
from praxis.store.db import paging
from praxis.store.db.database import Database, Rollback
from praxis.store.execution.rows import handoffs as rows
from praxis.store.execution.rows import requests
from praxis.store.execution.rows.handoffs import handoff_of
from praxis.store.registry import rows as registry_rows
from praxis.store.runtime.context import RuntimeContext
from praxis.store.runtime.records import RunRecord
from praxis.store.runtime.rows.results import node_value, result_text
from praxis.store.wake.hub import INBOX


class HandoffStore:
    """Handoffs over the runtime context."""

    def __init__(self, runtime: RuntimeContext) -> None:
        self.runtime = runtime
        self.clock = runtime.clock
        self.authority = runtime.authority

    def _authorize(self, principal: Principal, action: str, work_order_id: str) -> None:
        found = self.authority.authorize(principal, action, work_order_id, self.clock.now_ms())
        if isinstance(found, Rejection):
            raise Rollback(found)

    def _wake_inbox(self) -> None:
        """Offered handoffs are in the inbox until acknowledged."""
        self.runtime.signals.publish({INBOX: 0})

    def create(
        self,
        principal: Principal,
        request_id: str,
        run_id: str,
        node_uid: str,
        to_principal_id: str,
        note: str,
    ) -> tuple[core.Handoff, bool] | Rejection:
        """Offers a finished node's outputs to another principal."""
        problem = (
            values.check_identifier(request_id, "request_id")
            or values.check_identifier(run_id, "run_id")
            or values.check_identifier(to_principal_id, "to_principal_id")
        )
        if problem:
            return problem
        if not node_uid:
            return invalid("FIELD_REQUIRED", "node_uid", "node_uid is required")
        digest = values.digest(
            {"run_id": run_id, "node_uid": node_uid, "to": to_principal_id, "note": note}
        )
        delivery = core.delivery_id(principal.principal_id, request_id)

        def transaction(connection: Connection) -> tuple[core.Handoff, bool]:
            key = requests.replayed(
                connection, principal.principal_id, "handoff", request_id, digest,
                lambda _key: self.runtime.authorize_run(
                    principal, "handoff.create", self.runtime.unit.load(connection, run_id), run_id
                ),
            )  # fmt: skip
            if key is not None:
                return rows.load(connection, key), True  # type: ignore[return-value]  # exists
            record = self.runtime.unit.load(connection, run_id)
            denied = self.runtime.authorize_run(principal, "handoff.create", record, run_id)
            if denied or record is None:
                raise Rollback(denied)
            node = record.state.nodes.get(node_uid)
            if node is None:
                raise Rollback(not_found("NODE_NOT_FOUND", f"run has no node {node_uid!r}"))
            done = node.status is runs.NodeStatus.DONE
            problem = core.check_offer(principal.principal_id, to_principal_id, note, done)
            if problem:
                raise Rollback(problem)
            now = self.clock.now_ms()
            outputs = values.digest(node_value(connection, record.state, node.node_id))
            if node.item >= 0:
                text = result_text(connection, run_id, node_uid)
                outputs = values.digest(None if text is None else json.loads(text))
            work = _work_of(connection, record, node.revision)
            rows.offer(
                connection, delivery_id=delivery, run_id=run_id, node_uid=node_uid,
                from_principal_id=principal.principal_id, to_principal_id=to_principal_id,
                outputs_digest=outputs, note=note, state=core.State.OFFERED.value,
                created_at_ms=now, acknowledged_at_ms=0, **_work_columns(work),
            )  # fmt: skip
            Database.after_commit(connection, self._wake_inbox, once=True)
            requests.append(
                connection, "HANDOFF_OFFERED", delivery, now, run_id=run_id, node_uid=node_uid,
                to_principal_id=to_principal_id, outputs_digest=outputs,
                **_work_columns(work),
            )  # fmt: skip
            requests.remember(
                connection, principal.principal_id, "handoff", request_id, digest, delivery
            )
            return rows.load(connection, delivery), False  # type: ignore[return-value]  # exists

        result: tuple[core.Handoff, bool] | Rejection = self.runtime.db.transact(transaction)
        return result

    def acknowledge(self, principal: Principal, delivery_id: str) -> core.Handoff | Rejection:
        """The receiver's acknowledgement; only once."""
        problem = values.check_identifier(delivery_id, "delivery_id")
        if problem:
            return problem

        def transaction(connection: Connection) -> core.Handoff:
            found = rows.load(connection, delivery_id)
            if found is None:
                missing = not_found("HANDOFF_NOT_FOUND", f"no handoff {delivery_id!r}")
                raise Rollback(
                    self.runtime.authorize_run(principal, "handoff.acknowledge", None, "", missing)
                    or missing
                )
            record = self.runtime.unit.load(connection, found.run_id)
            if record is None:  # its run was archived: installation-wide
                self._authorize(principal, "handoff.acknowledge", "")
            else:  # the answer of a missing handoff to anyone it does not cover
                missing = not_found("HANDOFF_NOT_FOUND", f"no handoff {delivery_id!r}")
                denied = self.runtime.authorize_run(
                    principal, "handoff.acknowledge", record, found.run_id, missing
                )
                if denied:
                    raise Rollback(denied)
            now = self.clock.now_ms()
            acknowledged = core.acknowledge(found, principal.principal_id, now)
            if isinstance(acknowledged, Rejection):
                raise Rollback(acknowledged)
            rows.acknowledge(connection, delivery_id, acknowledged.state, now)
            Database.after_commit(connection, self._wake_inbox, once=True)
            requests.append(
                connection, "HANDOFF_ACKNOWLEDGED", delivery_id, now,
                principal_id=principal.principal_id,
            )  # fmt: skip
            return acknowledged

        result: core.Handoff | Rejection = self.runtime.db.transact(transaction)
        return result

    def get(self, principal: Principal, delivery_id: str) -> core.Handoff | Rejection:
        """One handoff."""
        problem = values.check_identifier(delivery_id, "delivery_id")
        if problem:
            return problem
        with self.runtime.db.read() as connection:
            found = rows.load(connection, delivery_id)
        if found is None:
            missing = not_found("HANDOFF_NOT_FOUND", f"no handoff {delivery_id!r}")
            return self.runtime.authorize_run(principal, "run.read", None, "", missing) or missing
        record = self.runtime.get_run(principal, found.run_id)
        return record if isinstance(record, Rejection) else found

    def list_addressed(
        self, principal: Principal, state: core.State | None, page_size: int, page_token: str
    ) -> tuple[list[core.Handoff], str] | Rejection:
        """One page of the handoffs addressed to ``principal``, oldest first, and the next
        page's token: only those whose run it may read (``run.read``), so a page may be
        short while a token is set."""
        problem = paging.check_page_size(page_size)
        if problem:
            return problem
        query_scope = paging.scope("handoffs", principal.principal_id, state.value if state else "")
        after = paging.decode(page_token, query_scope, 2) if page_token else None
        if isinstance(after, Rejection):
            return after
        limit = page_size or paging.DEFAULT_PAGE
        since = None if after is None else (int(after[0]), after[1])
        with self.runtime.db.read() as connection:
            found = rows.addressed(connection, principal.principal_id, state, since, limit + 1)
        more, found = len(found) > limit, found[:limit]
        listed = [
            handoff_of(row)
            for row in found
            if self.runtime.authorize(principal, "run.read", row.work_order_id) is None
        ]
        token = ""
        if more:
            last = found[-1]
            token = paging.encode([str(last.created_at_ms), last.delivery_id], query_scope)
        return listed, token


def _work_of(connection: Connection, record: RunRecord, revision: int) -> core.Work:
    """The revision of the work a node of ``record`` ran under: the run's own definition
    when the node ran under the run's current revision (always so for an ad hoc run),
    else the registry's record of that earlier revision of the run's ref."""
    if not record.ref_run_id:
        return core.Work(None, revision, record.state.definition.digest)
    ref = Ref(record.work_order_id, record.ref_run_id)
    if revision == record.state.revision:
        return core.Work(ref, revision, record.state.definition.digest)
    return core.Work(ref, revision, registry_rows.revision_digest(connection, ref, revision))


def _work_columns(work: core.Work) -> dict[str, str | int]:
    """A handoff row's (and its event's) columns for ``work``."""
    return {
        "ref_work_order_id": work.ref.work_order_id if work.ref else "",
        "ref_run_id": work.ref.run_id if work.ref else "",
        "revision": work.revision,
        "definition_digest": work.definition_digest,
    }
