"""docs/core.md's simulation example runs and its assertions hold."""

from __future__ import annotations

import re

from tests.support.paths import ROOT

DOC = ROOT / "docs" / "core.md"


def test_the_simulation_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {"__name__": "docs_core"})  # our own doc
