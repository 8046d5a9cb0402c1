"""Moved to ``tests/support/traces.py``. This module only re-exports what
``conformance/workers/driver.py`` imports from here; delete it once it imports from
``tests.support.traces``."""

from tests.support.traces import otel_env, receiving

__all__ = ["otel_env", "receiving"]
