"""Which actions only a human may take: one list, enforced for every service.

A grant says what a principal may do; its kind (from the authority, never from a
request) says whether it may do it at all. Every action below needs a ``HUMAN``
principal, whatever its grants: an AGENT or SERVICE granted ``*`` still cannot take them.
The server enforces the list on every authorisation (:class:`praxis.authority.guard.HumanOnly`),
and the services whose rules name a human keep their own check as well.
"""

from __future__ import annotations

from praxis.core.records import PrincipalKind
from praxis.core.rejection import Code, Rejection

HUMAN_ONLY_ACTIONS: frozenset[str] = frozenset(
    {
        "registry.register",  # Execute REGISTER
        "registry.activate",  # Execute ACTIVATE
        "registry.reject",  # Execute REJECT
        "approval.create",  # CreateApproval
        "reconcile.decide",  # Reconcile an UNCERTAIN effect
        "assess.accept",  # RecordAssessment of kind ACCEPTANCE
        "wait.authorize",  # SatisfyWait on an authorization wait (needs wait.satisfy)
        "notification.read",  # ListDeliveries (destinations, errors, run ids of every run)
        "notification.redeliver",  # RedeliverDelivery (sends a webhook body again)
        "admin.config",  # ReloadConfig (an operator's decision, never an agent's)
        "work_order.decide",  # DecideWorkOrderProposal (approve or decline a proposed child)
    }
)


def check_kind(action: str, kind: PrincipalKind) -> Rejection | None:
    """A HUMAN_REQUIRED rejection when ``action`` is human-only and ``kind`` is not HUMAN."""
    if action in HUMAN_ONLY_ACTIONS and kind is not PrincipalKind.HUMAN:
        return Rejection(
            Code.PERMISSION_DENIED,
            "HUMAN_REQUIRED",
            f"{action!r} needs a verified human principal, not {kind.value}",
        )
    return None
