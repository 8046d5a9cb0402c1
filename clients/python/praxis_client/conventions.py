"""What every Python front end of Praxis (the CLI, the web console, the MCP server)
decides the same way, so that one decision has one place: how an enum value is named,
and the request and approval ids derived from what a human decides, so that the same
decision made twice, from the same front end or from two, is recorded once.

Example::

    enum_name(run_pb2.RunState.Name(run.state), "RUN_STATE_")       # "COMPLETED"
    request_id = assessment_request_id(run_id, kind, verdict, subject, findings_json)
    for candidate in renewal_ids(old.approval_id, token): ...         # the renewal's id

The run states a run ends in are :data:`praxis_client.helpers.TERMINAL`; whether an
address is this machine is :func:`praxis_client.client.is_loopback`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from aiws.engine.v1 import approval_pb2
from praxis_client.helpers import to_json

RENEWAL_ROUNDS = 100
"""How many derived ids :func:`renewal_ids` offers before the caller must name one."""


def enum_name(name: str, prefix: str) -> str:
    """``RUN_STATE_COMPLETED`` -> ``COMPLETED``: an enum value's name without its prefix
    (a name without that prefix unchanged)."""
    return name.removeprefix(prefix)


def assessment_request_id(
    run_id: str, kind: int, verdict: int, subject_digest: str, findings_json: str
) -> str:
    """The request id of recording ``verdict`` of ``kind`` on a run's subject: the same
    for the same assessment whichever front end records it, and whatever the spacing or
    key order of the findings (the server compares the parsed findings), so a second
    recording replays the first instead of adding an assessment."""
    try:
        findings = to_json(json.loads(findings_json or "null"))
    except ValueError:
        findings = findings_json  # the server refuses it; the id needs no meaning
    key = f"{run_id}\x00{kind}\x00{verdict}\x00{subject_digest}\x00{findings}"
    return "assess-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


def renewal_ids(approval_id: str, token: str) -> Iterator[str]:
    """The ids a renewal of ``approval_id`` by the holder of ``token`` may take, in the
    order to try them: the first that is free, or that already names an approval that
    :func:`is_renewal` of the approval, is the renewal. A retried renewal, from the
    same front end or another, so finds the one it made instead of minting a second;
    one renewed again after its renewal was used or expired takes the next id."""
    for round_ in range(RENEWAL_ROUNDS):
        key = f"{approval_id}\x00{token}\x00{round_}"
        yield "ap-renew-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def is_renewal(existing: approval_pb2.Approval, renewed: approval_pb2.Approval) -> bool:
    """Whether ``existing`` (found under a derived renewal id) is a usable renewal of
    ``renewed``: an active approval of the same material."""
    return (
        existing.material_digest == renewed.material_digest
        and existing.state == approval_pb2.APPROVAL_STATE_ACTIVE
    )
