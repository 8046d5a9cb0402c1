"""Draws the server's layers and the store's slices from the import contracts.

The diagram in docs/architecture.md is this script's output: the ``layers`` contracts of
``[tool.importlinter]`` in pyproject.toml (which ``make lint`` enforces) are the one
source, so the picture cannot drift from the rules. ``python scripts/layers_diagram.py``
rewrites the block between the markers in docs/architecture.md; ``--check`` fails when
the block differs (tests/unit/docs/test_architecture_doc.py runs it).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- layers diagram: scripts/layers_diagram.py draws it from pyproject.toml -->"
END = "<!-- end of the layers diagram -->"
SERVER = "server layers: each knows only the ones below it"
SLICES = "store slices: each knows only db/, wake/ and the slices below it"


def _layers(name: str) -> list[list[str]]:
    """The layers of the contract called ``name``, top first, each a list of modules."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["name"] == name:
            return [[m.strip() for m in layer.split("|")] for layer in contract["layers"]]
    raise SystemExit(f"pyproject.toml has no import contract named {name!r}")


def _chart(layers: list[list[str]], prefix: str, flow: str) -> list[str]:
    """A mermaid flowchart: one box per layer (modules of one layer share it, separated
    by a dot), an arrow from each layer to the one below it (``flow``: its direction)."""
    lines = ["```mermaid", f"flowchart {flow}"]
    for i, layer in enumerate(layers):
        label = " · ".join(module.removeprefix(prefix) for module in layer)
        lines.append(f'  L{i}["{label}"]')
    lines.extend(f"  L{i} --> L{i + 1}" for i in range(len(layers) - 1))
    lines.append("```")
    return lines


def diagram() -> str:
    """Two mermaid blocks: the server's layers, top to bottom, then the store's slices,
    left to right (an arrow: may import)."""
    server = _chart(_layers(SERVER), "praxis.", "TB")
    slices = _chart(_layers(SLICES), "praxis.store.", "LR")
    return "\n".join([*server, "", *slices]) + "\n"


def rewritten(text: str) -> str:
    """``text`` with the block between the markers replaced by :func:`diagram`."""
    head, found, rest = text.partition(BEGIN + "\n")
    if not found or END not in rest:
        raise SystemExit(f"docs/architecture.md lacks the markers {BEGIN!r} ... {END!r}")
    return head + BEGIN + "\n" + diagram() + END + rest.split(END, 1)[1]


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    new = rewritten(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(
                "docs/architecture.md: the layers diagram is stale; run "
                "python scripts/layers_diagram.py",
                file=sys.stderr,
            )
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
