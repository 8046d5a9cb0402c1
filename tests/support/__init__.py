"""Every helper the tests share; a test module imports from here, never from another test
module. Fixtures live in the ``conftest.py`` files.

- ``harness``: the test principals, a real server on a real database, its clients, and
  ``expect_error``.
- ``registry``: registry definitions and commands (register, propose, approve, execute).
- ``runtime``: definitions, starting runs, claiming and settling tasks.
- ``execution``: the execution model's principals, contracts, reconciliations.
- ``traces``: an OTLP receiver and the checks of one traced run.
- ``postgres``: a throwaway PostgreSQL cluster.
- ``server_process`` and ``cli_shell``: a ``praxis serve`` subprocess and the real
  ``praxis`` command against it.
- ``console``: state for the web console's tests and a console in front of a server.
- ``conformance`` and ``vectors``: the conformance principals, runner and vectors.
- ``run_sim``: the run reducer driven by hand, without I/O.
- ``crash``: the workload of the crash tests.
- ``paths``: the repository's folders.

The names below are those of the former ``tests/support.py``, re-exported for callers
outside ``tests/`` (``benchmarks/``) that import ``from tests.support import ...``.
"""

from tests.support.harness import (
    PRINCIPALS,
    ROUND_ROBIN,
    SCOPES,
    T0,
    Harness,
    authority,
    expect_error,
    principals_document,
    start_replicas,
    start_server,
    token_of,
    write_principals,
)
from tests.support.registry import (
    DEFINITION,
    DEFINITION_V2,
    activate_cmd,
    approve,
    command_ref,
    execute,
    propose_cmd,
    proposed,
    ref,
    register_cmd,
    registered,
    reject_cmd,
    variant,
)

__all__ = [
    "DEFINITION",
    "DEFINITION_V2",
    "PRINCIPALS",
    "ROUND_ROBIN",
    "SCOPES",
    "T0",
    "Harness",
    "activate_cmd",
    "approve",
    "authority",
    "command_ref",
    "execute",
    "expect_error",
    "principals_document",
    "propose_cmd",
    "proposed",
    "ref",
    "register_cmd",
    "registered",
    "reject_cmd",
    "start_replicas",
    "start_server",
    "token_of",
    "variant",
    "write_principals",
]
