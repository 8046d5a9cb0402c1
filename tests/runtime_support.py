"""Moved to ``tests/support/runtime.py``. This module only re-exports what ``benchmarks/``
imports from here; delete it once they import from ``tests.support.runtime``."""

from tests.support.runtime import definition, json_out, node

__all__ = ["definition", "json_out", "node"]
