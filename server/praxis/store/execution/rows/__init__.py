"""The execution model's SQL, one module per domain (Hatchet's one SQL file per domain).

Every statement on the execution model's tables (``store/execution/tables.py``) is built
and run here; the store classes beside this package (``contracts.py``, ``waits.py`` ...)
call these functions and build no SQL of their own. The rows also carry the views the
stores answer with (:class:`~.waits.WaitView` ...), which the read models of other slices
(:mod:`praxis.store.views`) read without holding those stores.
"""
