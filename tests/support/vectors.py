"""The conformance vectors as the Python tests read them: the Python runner
(``conformance/runners/python/praxis_conformance.py``) loaded as a module, every vector,
and the Python runner's expected failures. Loading this module reads every vector file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from tests.support.paths import ROOT

CONFORMANCE = ROOT / "conformance"


def load_module(name: str, path: Path) -> ModuleType:
    """Imports the file at ``path`` as module ``name`` (also in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


runner_module = load_module(
    "praxis_conformance", CONFORMANCE / "runners" / "python" / "praxis_conformance.py"
)
VECTORS = runner_module.load_vectors(CONFORMANCE / "vectors")
EXPECTED = runner_module.load_expected_failures(CONFORMANCE / "expected_failures" / "python.txt")
