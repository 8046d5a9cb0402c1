"""The runtime's rows: every statement of the runtime slice, one module per job.

``loading`` reads a run's record, ``saving`` inserts a run and saves an outcome
(compare-and-swap), ``queues`` keeps the ready and timer rows, ``attempts`` the attempt
records, ``results`` the nodes' stored results, ``definitions`` the stored definition
documents, ``nodes`` reads ListRunNodes' pages, ``reservations`` keeps what running
attempts reserve of their budgets, and ``progress`` each attempt's latest report.
"""
