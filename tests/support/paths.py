"""The repository's folders, for tests that read its documents and files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""
FIXTURES = ROOT / "tests" / "fixtures"
"""Stored inputs of the tests (``tests/fixtures/``)."""
