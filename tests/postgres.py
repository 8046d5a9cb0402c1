"""Moved to ``tests/support/postgres.py``. This module only re-exports what
``benchmarks/pg_replicas_bench.py`` imports from here; delete it once it imports from
``tests.support.postgres`` (``_binaries`` is now ``binaries``)."""

from tests.support.postgres import Cluster
from tests.support.postgres import binaries as _binaries

__all__ = ["Cluster", "_binaries"]
