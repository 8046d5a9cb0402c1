"""Moved to ``tests/support/conformance.py``. This module only re-exports what
``benchmarks/worker_bench.py``, ``scripts/conformance.sh`` and
``conformance/workers/driver.py`` import from here; delete it once they import from
``tests.support.conformance``."""

from tests.support.conformance import credentials, principals_document

__all__ = ["credentials", "principals_document"]
