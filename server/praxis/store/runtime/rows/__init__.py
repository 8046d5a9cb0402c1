"""The runtime's rows: every statement of the runtime slice, one module per job.

``loading`` reads a run's record, ``saving`` inserts a run and saves an outcome
(compare-and-swap), ``queues`` keeps the ready and timer rows, ``attempts`` the attempt
records, ``results`` the nodes' stored results, ``definitions`` the stored definition
documents, ``nodes`` reads ListRunNodes' pages, ``reservations`` keeps what running
attempts reserve of their budgets, ``progress`` each attempt's latest report, ``log``
the run command log, ``traces`` the runs' stored trace contexts and span starts,
``workers`` the models workers registered, ``subscriptions`` who made each
subscription, ``listing`` reads ListRuns' pages, and ``events`` the run event log and
its subscribers' positions.
"""
