"""PrincipalService servicer."""

from __future__ import annotations

import grpc

from aiws.engine.v1 import common_pb2, principal_pb2, principal_pb2_grpc
from praxis.core.records import PrincipalKind
from praxis.rpc.auth import principal
from praxis.rpc.errors import unwrap
from praxis.store.principals.grants import GrantSpec
from praxis.store.principals.store import PrincipalStore
from praxis.store.principals.views import PrincipalEventView, PrincipalView

_KIND = {
    PrincipalKind.HUMAN: common_pb2.PRINCIPAL_KIND_HUMAN,
    PrincipalKind.AGENT: common_pb2.PRINCIPAL_KIND_AGENT,
    PrincipalKind.SERVICE: common_pb2.PRINCIPAL_KIND_SERVICE,
}
_KIND_IN = {value: key for key, value in _KIND.items()}
_STATE = {
    "ACTIVE": principal_pb2.PRINCIPAL_STATE_ACTIVE,
    "REVOKED": principal_pb2.PRINCIPAL_STATE_REVOKED,
    "EXPIRED": principal_pb2.PRINCIPAL_STATE_EXPIRED,
}
_EVENT = {
    "IMPORTED": principal_pb2.PRINCIPAL_EVENT_KIND_IMPORTED,
    "CREATED": principal_pb2.PRINCIPAL_EVENT_KIND_CREATED,
    "ROTATED": principal_pb2.PRINCIPAL_EVENT_KIND_ROTATED,
    "REVOKED": principal_pb2.PRINCIPAL_EVENT_KIND_REVOKED,
}


def principal_to_proto(view: PrincipalView) -> principal_pb2.Principal:
    """The proto principal."""
    return principal_pb2.Principal(
        principal_id=view.principal_id,
        kind=_KIND[view.kind],
        grants=[
            principal_pb2.Grant(
                actions=list(grant.actions),
                work_orders=list(grant.work_orders),
                max_spend_microcredits=grant.max_spend_microcredits,
                purposes=list(grant.purposes),
                not_before_ms=grant.not_before_ms,
                not_after_ms=grant.not_after_ms,
            )
            for grant in view.grants
        ],
        expires_at_ms=view.expires_at_ms,
        state=_STATE[view.state],
        version=view.version,
        created_at_ms=view.created_at_ms,
        created_by=view.created_by,
        token_issued_at_ms=view.token_issued_at_ms,
        revoked_at_ms=view.revoked_at_ms,
        revoked_by=view.revoked_by,
        revoke_reason=view.revoke_reason,
        token_fingerprint=view.token_fingerprint,
    )


def event_to_proto(event: PrincipalEventView) -> principal_pb2.PrincipalEvent:
    """The proto audit event."""
    return principal_pb2.PrincipalEvent(
        seq=event.seq,
        kind=_EVENT[event.kind],
        principal_id=event.principal_id,
        version=event.version,
        actor_id=event.actor_id,
        at_ms=event.at_ms,
        reason=event.reason,
        token_fingerprint=event.token_fingerprint,
    )


class PrincipalServicer(principal_pb2_grpc.PrincipalServiceServicer):
    """PrincipalService over a :class:`PrincipalStore`."""

    def __init__(self, store: PrincipalStore) -> None:
        self.store = store

    def CreatePrincipal(  # gRPC method name
        self, request: principal_pb2.CreatePrincipalRequest, context: grpc.ServicerContext
    ) -> principal_pb2.CreatePrincipalResponse:
        grants = [
            GrantSpec(
                tuple(g.actions),
                tuple(g.work_orders),
                g.max_spend_microcredits,
                tuple(g.purposes),
                g.not_before_ms,
                g.not_after_ms,
            )
            for g in request.grants
        ]
        view, token = unwrap(
            context,
            self.store.create(
                principal(),
                request.principal_id,
                _KIND_IN.get(request.kind),
                grants,
                request.expires_at_ms,
            ),
        )
        return principal_pb2.CreatePrincipalResponse(
            principal=principal_to_proto(view), token=token
        )

    def GetPrincipal(
        self, request: principal_pb2.GetPrincipalRequest, context: grpc.ServicerContext
    ) -> principal_pb2.GetPrincipalResponse:
        view = unwrap(context, self.store.get(principal(), request.principal_id))
        return principal_pb2.GetPrincipalResponse(principal=principal_to_proto(view))

    def ListPrincipals(
        self, request: principal_pb2.ListPrincipalsRequest, context: grpc.ServicerContext
    ) -> principal_pb2.ListPrincipalsResponse:
        views, token = unwrap(
            context,
            self.store.list_page(
                principal(), request.page_size, request.page_token, request.include_revoked
            ),
        )
        return principal_pb2.ListPrincipalsResponse(
            principals=[principal_to_proto(view) for view in views], next_page_token=token
        )

    def RevokePrincipal(
        self, request: principal_pb2.RevokePrincipalRequest, context: grpc.ServicerContext
    ) -> principal_pb2.RevokePrincipalResponse:
        view = unwrap(
            context,
            self.store.revoke(
                principal(), request.principal_id, request.reason, request.expected_version
            ),
        )
        return principal_pb2.RevokePrincipalResponse(principal=principal_to_proto(view))

    def RotatePrincipalToken(
        self, request: principal_pb2.RotatePrincipalTokenRequest, context: grpc.ServicerContext
    ) -> principal_pb2.RotatePrincipalTokenResponse:
        view, token = unwrap(
            context,
            self.store.rotate(principal(), request.principal_id, request.expected_version),
        )
        return principal_pb2.RotatePrincipalTokenResponse(
            principal=principal_to_proto(view), token=token
        )

    def ListPrincipalHistory(
        self, request: principal_pb2.ListPrincipalHistoryRequest, context: grpc.ServicerContext
    ) -> principal_pb2.ListPrincipalHistoryResponse:
        events, more = unwrap(
            context,
            self.store.history(principal(), request.principal_id, request.after, request.limit),
        )
        return principal_pb2.ListPrincipalHistoryResponse(
            events=[event_to_proto(event) for event in events],
            next_after=events[-1].seq if events else request.after,
            has_more=more,
        )
