"""The README's examples run and pass their own checks."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import ROOT


def test_registry_example() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "registry_example.py")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: the retry says replayed = true" in result.stdout
    assert "ok: the same receipt came back" in result.stdout
