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
- ``inbox``: a WatchInbox stream read on a thread, and its counts by kind.
- ``crash``: the workload of the crash tests.
- ``paths``: the repository's folders.
- ``upgrades``: what the upgrade test compares of a database written by an older server.
- ``certificates``: a test CA and the certificates it signs (mutual TLS).
"""
