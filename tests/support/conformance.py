"""The principals of the conformance suite: one list for every language and both paths.

They are the test principals of ``tests/support/harness.py`` with the execution model's grants:
``agent`` also reads contracts, reconciliations, waits and assessments, satisfies waits,
verifies and hands off; ``agent2`` is a second such agent (the receiver of handoffs) and
``capped`` one whose grant caps its spending at 100 microcredits
(``tests/support/execution.py``). ``scripts/conformance.sh`` writes the server's principals
file and the runners' credentials file from here; ``tests/conformance`` uses the same.

The conformance server's retention policy (``RETENTION``) archives only the runs of work
orders ``archived-*`` (the ``retention`` vectors), one day after they finished; every
other run is kept for ever, so no other vector is affected.
"""

from __future__ import annotations

from typing import Any

from praxis.authority.principals import PrincipalsAuthority, parse_principals
from praxis.core.retention import DAY_MS, RetentionPolicy, parse_policy
from tests.support.execution import model_principals
from tests.support.harness import token_of

# conformance/tools/retention_vectors.py relies on this prefix and keep.
RETENTION: dict[str, Any] = {"work_orders": {"archived-*": DAY_MS}}


def retention() -> RetentionPolicy:
    """The conformance server's retention policy (the config's ``retention``)."""
    return parse_policy(RETENTION)


def principals_document() -> dict[str, Any]:
    """The principals file of a conformance server."""
    return model_principals()


def credentials() -> dict[str, str]:
    """Principal id to bearer token, plus ``invalid`` (a token that matches nobody)."""
    ids = [entry["id"] for entry in principals_document()["principals"]]
    return {pid: token_of(pid) for pid in ids} | {"invalid": "token-of-nobody"}


def authority() -> PrincipalsAuthority:
    """The built-in authority over the conformance principals."""
    return PrincipalsAuthority(parse_principals(principals_document()))
