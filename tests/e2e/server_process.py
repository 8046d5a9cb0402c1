"""Moved to ``tests/support/server_process.py``. This module only re-exports what
``benchmarks/`` and ``scripts/conformance.sh`` import from here; delete it once they
import from ``tests.support.server_process``."""

from tests.support.server_process import ServerProcess, free_port, write_config

__all__ = ["ServerProcess", "free_port", "write_config"]
