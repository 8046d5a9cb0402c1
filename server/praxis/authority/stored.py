"""The built-in authority over database-backed principals.

It applies exactly the rules of :class:`~praxis.authority.principals.PrincipalsAuthority`
to the one principal a call concerns, read from the database (through the store's
short-lived lookup cache): a revoked principal or a rotated token is refused on its next
call to the process that made the change, and within
:data:`~praxis.store.principals.lookups.CACHE_TTL_S` in every other server process, without a
restart. The principals file only bootstraps the database (see
:meth:`praxis.store.principals.store.PrincipalStore.bootstrap`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

from praxis.authority.principals import PrincipalRecord, PrincipalsAuthority, hash_token
from praxis.core.records import ActorEvidence, ApprovalEvidence, ApprovalRecord, Principal
from praxis.core.rejection import Code, Rejection

_REVOKED = Rejection(Code.UNAUTHENTICATED, "CREDENTIAL_REVOKED", "the credential was revoked")


class PrincipalSource(Protocol):
    """Where the principals live (the store implements it)."""

    def by_token_hash(self, token_sha256: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal holding the token hash and whether it is revoked, or ``None``."""
        ...

    def by_id(self, principal_id: str) -> PrincipalRecord | None:
        """The current (not revoked) principal with this id, or ``None``."""
        ...

    def by_id_with_state(self, principal_id: str) -> tuple[PrincipalRecord, bool] | None:
        """The principal with this id and whether it is revoked, or ``None``."""
        ...


class StoredPrincipalsAuthority:
    """An :class:`~praxis.authority.protocol.Authority` over a :class:`PrincipalSource`."""

    def __init__(self, source: PrincipalSource) -> None:
        self._source = source
        # The one-principal authority of each record the source hands out, built once per
        # record object (the source's cache returns the same object until it reloads).
        self._built: dict[int, tuple[PrincipalRecord, PrincipalsAuthority]] = {}
        self._nobody = PrincipalsAuthority([])

    def _over(self, record: PrincipalRecord | None) -> PrincipalsAuthority:
        if record is None:
            return self._nobody
        built = self._built.get(id(record))
        if built is not None and built[0] is record:
            return built[1]
        if len(self._built) >= 10_000:
            self._built = {}
        authority = PrincipalsAuthority([record])
        self._built[id(record)] = (record, authority)
        return authority

    def _of(self, principal_id: str) -> PrincipalsAuthority:
        return self._over(self._source.by_id(principal_id))

    def authenticate(self, token: str | None, now_ms: int) -> Principal | Rejection:
        """Resolves a bearer token to a current principal."""
        digest = hash_token(token) if token else ""
        found = self._source.by_token_hash(digest) if token else None
        if found is None:
            return self._nobody.authenticate(token, now_ms)
        record, revoked = found
        if revoked:
            return _REVOKED
        return self._over(record).authenticate_digest(digest, now_ms)

    def principal_of(self, principal_id: str, now_ms: int) -> Principal | Rejection:
        """The current principal of this id (a client certificate's), as it is now.

        Refused like the principal's token would be: ``CREDENTIAL_REVOKED`` once revoked,
        ``CREDENTIAL_EXPIRED`` once expired, ``CREDENTIAL_INVALID`` for an unknown id.
        """
        found = self._source.by_id_with_state(principal_id)
        if found is None:
            return self._nobody.principal_of(principal_id, now_ms)
        record, revoked = found
        if revoked:
            return _REVOKED
        return self._over(record).principal_of(principal_id, now_ms)

    def authorize(
        self,
        principal: Principal,
        action: str,
        work_order_id: str,
        now_ms: int,
        purpose: str = "",
    ) -> ActorEvidence | Rejection:
        """Evidence that the (current) principal holds a grant for the action and scope."""
        return self._of(principal.principal_id).authorize(
            principal, action, work_order_id, now_ms, purpose
        )

    def verify_approval(
        self, approval: ApprovalRecord, work_order_id: str, now_ms: int
    ) -> ApprovalEvidence | Rejection:
        """Evidence that the approver is a current, not revoked, human allowed to approve."""
        return self._of(approval.approver_id).verify_approval(approval, work_order_id, now_ms)

    def spend_cap(self, principal_id: str) -> Decimal | None:
        """The lowest spending cap of the principal's grants, if any."""
        return self._of(principal_id).spend_cap(principal_id)
